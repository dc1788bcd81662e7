package org.flafka.dashboards;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A CM view: what a dashboard's {@code json} blob holds ({@code {"name", "displayName", "plots":
 * [...]}}, docs/reference/cloudera-manager.md). {@link #toJson()} writes it and {@link
 * #parse(String)} reads it back, so {@code flafka dashboards render} draws exactly what CM is
 * given.
 */
public record View(String name, String displayName, List<Plot> plots) {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public View {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a view needs a name");
    }
    displayName = displayName == null ? name : displayName;
    plots = List.copyOf(plots);
  }

  /** The blob: name, displayName and each plot's fields; a null y bound is left out. */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("name", name);
    root.put("displayName", displayName);
    ArrayNode nodes = root.putArray("plots");
    for (Plot plot : plots) {
      ObjectNode node = nodes.addObject();
      node.put("tsquery", plot.tsquery());
      node.put("title", plot.title());
      node.put("chartType", plot.chartType());
      node.put("facetting", plot.facetting());
      node.put("width", plot.width());
      node.put("height", plot.height());
      if (plot.ymin() != null) {
        node.put("ymin", plot.ymin());
      }
      if (plot.ymax() != null) {
        node.put("ymax", plot.ymax());
      }
      node.put("hideIfNoSeries", plot.hideIfNoSeries());
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write view " + name, e);
    }
  }

  /**
   * Reads a view blob. What a plot leaves out gets CM's defaults (line chart, {@code
   * __no_facetting__}, {@link Plot#DEFAULT_WIDTH} x {@link Plot#DEFAULT_HEIGHT}); fields CM adds
   * and the kit does not draw are ignored.
   *
   * @throws IllegalArgumentException naming what is missing or wrong
   */
  public static View parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "not JSON: " + e.getOriginalMessage().lines().findFirst().orElse(""));
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    String name = text(root, "name");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a view needs a \"name\"");
    }
    JsonNode plotNodes = root.get("plots");
    if (plotNodes == null || !plotNodes.isArray()) {
      throw new IllegalArgumentException("view '" + name + "' has no \"plots\" array");
    }
    List<Plot> plots = new ArrayList<>();
    for (JsonNode node : plotNodes) {
      JsonNode tsquery = node.get("tsquery");
      if (tsquery == null || !tsquery.isTextual()) {
        throw new IllegalArgumentException(
            "view '" + name + "', plot " + (plots.size() + 1) + ": \"tsquery\" must be a string");
      }
      plots.add(
          new Plot(
              tsquery.asText(),
              text(node, "title"),
              text(node, "chartType"),
              text(node, "facetting"),
              node.path("width").asInt(Plot.DEFAULT_WIDTH),
              node.path("height").asInt(Plot.DEFAULT_HEIGHT),
              number(node, "ymin"),
              number(node, "ymax"),
              node.path("hideIfNoSeries").asBoolean(false)));
    }
    return new View(name, text(root, "displayName"), plots);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Double number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || !value.isNumber() ? null : value.asDouble();
  }
}
