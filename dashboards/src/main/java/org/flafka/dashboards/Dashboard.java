package org.flafka.dashboards;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flafka.cm.model.ApiDashboard;

/**
 * A kit dashboard: a name and its charts. Its {@code json} is a CM view ({@link View}: {@code
 * {"name", "displayName", "plots"}}), and {@link #toApi()} the {@code ApiDashboard} that {@code
 * POST /timeseries/dashboards} takes.
 */
public record Dashboard(String name, List<Chart> charts) {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public Dashboard {
    charts = List.copyOf(charts);
  }

  public View view() {
    return new View(name, name, charts.stream().map(Chart::plot).toList());
  }

  /** The view blob CM stores as the dashboard's {@code json}. */
  public String json() {
    return view().toJson();
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

  /**
   * The metric names and predicates docs/reference/cloudera-manager.md marks UNVERIFIED, per chart
   * title, for a warning.
   */
  public List<String> unverifiedTerms() {
    List<String> terms = new ArrayList<>();
    for (Chart chart : charts) {
      for (String term : chart.query().unverifiedTerms()) {
        if (!terms.contains(term)) {
          terms.add(term);
        }
      }
    }
    return terms;
  }

  /** A file-name-safe form of the name, e.g. {@code flafka-edge-tier}. */
  public String slug() {
    return slug(name);
  }

  static String slug(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
  }
}
