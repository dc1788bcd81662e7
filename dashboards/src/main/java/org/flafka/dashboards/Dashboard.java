package org.flafka.dashboards;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.cm.tsquery.TsQuery;

/**
 * A dashboard: a name and its charts. {@link #toApi()} gives the {@code ApiDashboard} that {@code
 * POST /timeseries/dashboards} takes; its {@code json} blob is the kit's own format, because CM's
 * internal dashboard JSON is not documented anywhere we found (docs/reference/cloudera-manager.md,
 * "NOT FOUND"): whether CM's UI draws these blobs is UNVERIFIED. The blob carries every tsquery as
 * text, so the charts can be rebuilt in CM's chart builder.
 */
public record Dashboard(String name, String description, List<Chart> charts) {
  /** Identifies the blob format, so a later version can be told apart. */
  public static final String FORMAT = "flafka-dashboard/1";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public Dashboard {
    charts = List.copyOf(charts);
  }

  /**
   * The blob: {@code {"format", "name", "description", "charts": [{"title", "description", "unit",
   * "tsqueries", "unverified"}]}}.
   */
  public String json() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("name", name);
    root.put("description", description);
    ArrayNode chartNodes = root.putArray("charts");
    for (Chart chart : charts) {
      ObjectNode node = chartNodes.addObject();
      node.put("title", chart.title());
      node.put("description", chart.description());
      node.put("unit", chart.unit());
      ArrayNode queries = node.putArray("tsqueries");
      for (TsQuery query : chart.queries()) {
        queries.add(query.toString());
      }
      ArrayNode unverified = node.putArray("unverified");
      chart.unverifiedTerms().forEach(unverified::add);
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write dashboard " + name, e);
    }
  }

  /**
   * The file in {@code dashboards/}: the body {@code POST /timeseries/dashboards} takes ({@code
   * {"items":[{"name", "json"}]}}), so {@code curl -u admin -H 'Content-Type: application/json'
   * --data @file https://cm:7183/api/v32/timeseries/dashboards} imports it.
   */
  public String importFile() {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode item = root.putArray("items").addObject();
    item.put("name", name);
    item.put("json", json());
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write dashboard " + name, e);
    }
  }

  public ApiDashboard toApi() {
    return new ApiDashboard(name, json());
  }

  /** A file-name-safe form of the name, e.g. {@code flafka-edge-tier}. */
  public String slug() {
    return name.toLowerCase(java.util.Locale.ROOT)
        .replaceAll("[^a-z0-9]+", "-")
        .replaceAll("(^-|-$)", "");
  }
}
