package org.flafka.cm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Cloudera Manager API v32 OpenAPI 3.0 spec ({@code /cm-api/cm-api-v32.openapi.yaml} on the
 * test classpath), loaded once, with the {@link #AMENDMENTS} applied in memory. It finds the
 * operation for a method and path and hands out JSON Schemas (OpenAPI 3.0 dialect, networknt
 * json-schema-validator) for any JSON pointer into the spec, so {@code $ref}s resolve inside the
 * one document.
 */
public final class CmApiSpec {
  public static final String RESOURCE = "/cm-api/cm-api-v32.openapi.yaml";

  /**
   * An identifier for the in-memory document; never fetched (the registry serves it from memory).
   */
  static final String DOCUMENT_IRI = "https://flafka.invalid/cm-api/cm-api-v32.json";

  /**
   * A known gap in the generated spec, patched in memory: field {@code field} of the object at
   * {@code pointer} is set to the JSON {@code value}; {@code reason} cites the evidence.
   */
  public record Amendment(String pointer, String field, String value, String reason) {}

  public static final List<Amendment> AMENDMENTS =
      List.of(
          new Amendment(
              "/components/schemas/ApiConfig/properties/value",
              "nullable",
              "true",
              "A config PUT resets a key to its default with \"value\": null (apidocs v19 "
                  + "path__clusters_-clusterName-_services_-serviceName-_config.html; cm_api "
                  + "docs/python-client-swagger.md sends ApiConfig(name=..., value=None)); the generated spec "
                  + "cannot say null."),
          new Amendment(
              "/paths/~1timeseries/get/responses/200/content",
              "text/csv",
              "{\"schema\": {\"type\": \"string\"}}",
              "GET /timeseries answers text/csv when contentType=text/csv (the parameter's own description); "
                  + "the response section lists only application/json."));

  /** One operation of the spec: a method on a path template, and where it lives in the document. */
  public record Operation(String method, String template, String pointer, JsonNode node) {
    /** {@code GET /clusters/{clusterName}/services}. */
    @Override
    public String toString() {
      return method + " " + template;
    }
  }

  /** A path template split into segments; {@code {name}} segments match one path segment. */
  private record PathTemplate(String template, String[] segments, int literals) {
    static PathTemplate of(String template) {
      String[] segments = template.substring(1).split("/", -1);
      int literals = 0;
      for (String segment : segments) {
        if (!isParameter(segment)) {
          literals++;
        }
      }
      return new PathTemplate(template, segments, literals);
    }

    static boolean isParameter(String segment) {
      return segment.startsWith("{") && segment.endsWith("}");
    }

    Map<String, String> match(List<String> path) {
      if (path.size() != segments.length) {
        return null;
      }
      Map<String, String> params = new LinkedHashMap<>();
      for (int i = 0; i < segments.length; i++) {
        if (isParameter(segments[i])) {
          if (path.get(i).isEmpty()) {
            return null;
          }
          params.put(segments[i].substring(1, segments[i].length() - 1), path.get(i));
        } else if (!segments[i].equals(path.get(i))) {
          return null;
        }
      }
      return params;
    }
  }

  /** A matched operation with its decoded path parameters. */
  public record Match(Operation operation, Map<String, String> pathParameters) {}

  private static volatile CmApiSpec instance;

  private final JsonNode document;
  private final SchemaRegistry registry;
  private final List<PathTemplate> templates;
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

  private CmApiSpec(JsonNode document) {
    this.document = document;
    String json = document.toString();
    // JSON-path locations ($.items[0].name) read best in messages; types are strict (no "1" for 1)
    SchemaRegistryConfig config =
        SchemaRegistryConfig.builder().pathType(PathType.JSON_PATH).typeLoose(false).build();
    this.registry =
        SchemaRegistry.withDialect(
            Dialects.getOpenApi30(),
            builder -> builder.schemas(Map.of(DOCUMENT_IRI, json)).schemaRegistryConfig(config));
    List<PathTemplate> list = new ArrayList<>();
    document.get("paths").fieldNames().forEachRemaining(path -> list.add(PathTemplate.of(path)));
    // the most specific template wins: /timeseries/dashboards before /timeseries/{x}
    list.sort(Comparator.comparingInt(PathTemplate::literals).reversed());
    this.templates = List.copyOf(list);
  }

  /** The spec, loaded and amended once per JVM. */
  public static CmApiSpec get() {
    CmApiSpec spec = instance;
    if (spec == null) {
      synchronized (CmApiSpec.class) {
        if (instance == null) {
          instance = new CmApiSpec(load());
        }
        spec = instance;
      }
    }
    return spec;
  }

  private static JsonNode load() {
    try (InputStream in = CmApiSpec.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the classpath");
      }
      JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(in);
      amend(document);
      return document;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  private static void amend(JsonNode document) throws IOException {
    ObjectMapper json = new ObjectMapper();
    for (Amendment amendment : AMENDMENTS) {
      JsonNode target = document.at(amendment.pointer());
      if (!(target instanceof ObjectNode object)) {
        throw new IllegalStateException(
            "spec amendment target " + amendment.pointer() + " is not an object");
      }
      object.set(amendment.field(), json.readTree(amendment.value()));
    }
  }

  /**
   * The operation for {@code method} on {@code path} (without the {@code /api/vN} prefix, segments
   * decoded).
   */
  public Optional<Match> find(String method, List<String> pathSegments) {
    String lower = method.toLowerCase(Locale.ROOT);
    for (PathTemplate template : templates) {
      Map<String, String> params = template.match(pathSegments);
      if (params != null) {
        JsonNode operation = document.get("paths").get(template.template()).get(lower);
        if (operation != null) {
          return Optional.of(
              new Match(
                  new Operation(
                      method.toUpperCase(Locale.ROOT),
                      template.template(),
                      "/paths/" + escape(template.template()) + "/" + lower,
                      operation),
                  params));
        }
      }
    }
    return Optional.empty();
  }

  /** The methods the spec defines on the template matching {@code pathSegments}, for messages. */
  public List<String> methodsAt(List<String> pathSegments) {
    for (PathTemplate template : templates) {
      if (template.match(pathSegments) != null) {
        List<String> methods = new ArrayList<>();
        Iterator<String> names = document.get("paths").get(template.template()).fieldNames();
        names.forEachRemaining(m -> methods.add(m.toUpperCase(Locale.ROOT)));
        return methods;
      }
    }
    return List.of();
  }

  /** The node at a JSON pointer into the (amended) spec; missing nodes are {@code MissingNode}. */
  public JsonNode node(String pointer) {
    return document.at(pointer);
  }

  /**
   * The JSON Schema at a JSON pointer into the spec, e.g. {@code /components/schemas/ApiCommand}.
   */
  public Schema schema(String pointer) {
    return schemas.computeIfAbsent(
        pointer, p -> registry.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + p)));
  }

  /** JSON-pointer escaping of one token: {@code /clusters} is {@code ~1clusters}. */
  public static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }
}
