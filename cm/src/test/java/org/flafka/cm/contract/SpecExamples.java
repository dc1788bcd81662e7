package org.flafka.cm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Response bodies for tests, taken from the spec's own examples ({@link #response}) or from real
 * recorded CM responses ({@link #fixture}). Tests may change values ({@link #with}) and drop fields
 * ({@link #without}), but never add a field the example does not have: the shapes stay the spec's,
 * not ones invented to please the client.
 */
public final class SpecExamples {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SpecExamples() {}

  /**
   * A fresh copy of the spec's example for a response, e.g. {@code response("GET", "/clusters",
   * 200)}.
   */
  public static ObjectNode response(String method, String template, int status) {
    String pointer =
        "/paths/"
            + CmApiSpec.escape(template)
            + "/"
            + method.toLowerCase(Locale.ROOT)
            + "/responses/"
            + status
            + "/content/application~1json/example";
    JsonNode example = CmApiSpec.get().node(pointer);
    if (!example.isObject()) {
      throw new IllegalArgumentException("the spec has no example at " + pointer);
    }
    return example.deepCopy();
  }

  /** A fresh copy of {@code items[0]} of the spec's example for a list response. */
  public static ObjectNode firstItem(String method, String template, int status) {
    JsonNode item = response(method, template, status).path("items").path(0);
    if (!item.isObject()) {
      throw new IllegalArgumentException(
          "the example of " + method + " " + template + " has no items[0]");
    }
    return (ObjectNode) item;
  }

  /** A real CM response from {@code src/test/resources/cm-fixtures/v48/} (see the README there). */
  public static ObjectNode fixture(String name) {
    String resource = "/cm-fixtures/v48/" + name;
    try (InputStream in = SpecExamples.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + resource);
      }
      return (ObjectNode) JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sets values of fields that exist in {@code node}: pairs of a dotted path ({@code
   * "roleConfigGroupRef.roleConfigGroupName"}) and a value (String, Boolean, Number, JsonNode or
   * null for JSON null).
   *
   * @throws IllegalArgumentException if a path is not in the example
   */
  public static ObjectNode with(ObjectNode node, Object... pathsAndValues) {
    if (pathsAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("with() takes path/value pairs");
    }
    for (int i = 0; i < pathsAndValues.length; i += 2) {
      String path = (String) pathsAndValues[i];
      String[] parts = path.split("\\.");
      JsonNode parent = node;
      for (int p = 0; p < parts.length - 1; p++) {
        parent = parent.path(parts[p]);
      }
      String field = parts[parts.length - 1];
      if (!(parent instanceof ObjectNode object) || !object.has(field)) {
        throw new IllegalArgumentException("'" + path + "' is not in the example: " + node);
      }
      object.set(field, JSON.valueToTree(pathsAndValues[i + 1]));
    }
    return node;
  }

  /** Removes fields (dotted paths) from {@code node}; removing never invents shape. */
  public static ObjectNode without(ObjectNode node, String... paths) {
    for (String path : paths) {
      String[] parts = path.split("\\.");
      JsonNode parent = node;
      for (int p = 0; p < parts.length - 1; p++) {
        parent = parent.path(parts[p]);
      }
      if (!(parent instanceof ObjectNode object)
          || object.remove(parts[parts.length - 1]) == null) {
        throw new IllegalArgumentException("'" + path + "' is not in " + node);
      }
    }
    return node;
  }

  /** The {@code {"items": [...]}} list wrapper (ApiListBase) around elements. */
  public static ObjectNode items(JsonNode... elements) {
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    ArrayNode array = list.putArray("items");
    for (JsonNode element : elements) {
      array.add(element);
    }
    return list;
  }
}
