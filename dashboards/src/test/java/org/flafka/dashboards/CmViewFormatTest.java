package org.flafka.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesMetadata;
import org.junit.jupiter.api.Test;

/**
 * The dashboards are CM views: every shipped file passes a JSON schema written from CM's own
 * sources (src/test/resources/cm-dashboard-view.schema.json), and what render reads is what install
 * sends.
 */
class CmViewFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema VIEW = schema();

  private static Schema schema() {
    try (InputStream in =
        CmViewFormatTest.class.getResourceAsStream("/cm-dashboard-view.schema.json")) {
      return SchemaRegistry.withDialect(Dialects.getDraft202012()).getSchema(in);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> errors(String viewJson) throws Exception {
    return VIEW.validate(JSON.readTree(viewJson)).stream().map(Error::getMessage).toList();
  }

  @Test
  void everyShippedDashboardFileIsAnImportBodyWhoseJsonIsACmView() throws Exception {
    // the module directory is dashboards/, where the shipped files are
    List<Path> files;
    try (var list = Files.list(Path.of(""))) {
      files = list.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    assertEquals(Dashboards.DEFAULTS.all().size(), files.size(), files.toString());
    for (Path file : files) {
      JsonNode body = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
      assertEquals(List.of("items"), iterableNames(body), file + ": the POST body is {items}");
      assertEquals(1, body.get("items").size(), file.toString());
      JsonNode item = body.get("items").get(0);
      assertEquals(List.of("name", "json"), iterableNames(item), file.toString());
      String viewJson = item.get("json").asText();
      assertEquals(List.of(), errors(viewJson), file.toString());
      View view = View.parse(viewJson);
      assertEquals(item.get("name").asText(), view.name(), file.toString());
      assertFalse(view.plots().isEmpty(), file.toString());
    }
  }

  @Test
  void theSchemaRefusesTheKitsOldFormatSeveralQueriesPerPlotAndUnknownChartTypes()
      throws Exception {
    assertFalse(
        errors(
                "{\"format\":\"flafka-dashboard/1\",\"name\":\"x\",\"charts\":[{\"title\":\"t\","
                    + "\"tsqueries\":[\"SELECT a\"]}]}")
            .isEmpty());
    assertFalse(errors("{\"name\":\"x\",\"plots\":[{\"tsqueries\":[\"SELECT a\"]}]}").isEmpty());
    assertFalse(errors("{\"name\":\"x\",\"plots\":[{\"tsquery\":[\"SELECT a\"]}]}").isEmpty());
    assertFalse(
        errors("{\"name\":\"x\",\"plots\":[{\"tsquery\":\"SELECT a; SELECT b\"}]}").isEmpty());
    assertFalse(
        errors("{\"name\":\"x\",\"plots\":[{\"tsquery\":\"SELECT a\",\"chartType\":\"pie\"}]}")
            .isEmpty());
    assertFalse(
        errors("{\"name\":\"x\",\"plots\":[{\"tsquery\":\"SELECT a\",\"facetting\":\"\"}]}")
            .isEmpty());
    assertFalse(
        errors("{\"name\":\"x\",\"plots\":[{\"tsquery\":\"SELECT a\",\"width\":333}]}").isEmpty());
    assertEquals(
        List.of(),
        errors(
            "{\"name\":\"x\",\"plots\":[{\"tsquery\":\"select cpu_percent\",\"chartType\":\"bar\","
                + "\"facetting\":\"hostname\",\"width\":400,\"height\":200,\"ymin\":10,"
                + "\"ymax\":100}]}"));
  }

  @Test
  void renderReadsBackExactlyTheViewInstallSends() {
    for (Dashboard dashboard : Dashboards.DEFAULTS.all()) {
      assertEquals(dashboard.view(), View.parse(dashboard.json()));
      for (Plot plot : dashboard.view().plots()) {
        assertEquals(Plot.SINGLE_PLOT, plot.facetting(), plot.title());
        assertFalse(plot.tsquery().contains(";"), plot.title());
      }
    }
  }

  @Test
  void aPlotWithOnlyItsQueryGetsCmsDefaults() {
    View view = View.parse("{\"name\":\"v\",\"plots\":[{\"tsquery\":\"SELECT fd_open\"}]}");
    Plot plot = view.plots().get(0);
    assertEquals("v", view.displayName());
    assertEquals("line", plot.chartType());
    assertEquals(Plot.NO_FACETTING, plot.facetting());
    assertEquals(null, plot.ymin());
    assertFalse(plot.hideIfNoSeries());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                View.parse(
                    "{\"format\":\"flafka-dashboard/1\",\"name\":\"x\",\"charts\":[{\"tsqueries\":"
                        + "[\"SELECT a\"]}]}"));
    assertEquals("view 'x' has no \"plots\" array", e.getMessage());
  }

  @Test
  void facettingPutsSeriesInOneChartOnePerSeriesOrOnePerAttributeValue() {
    List<ApiTimeSeries> series =
        List.of(
            series("event_received_rate", "a1", "flume-AGENT-1"),
            series("event_accepted_rate", "a1", "flume-AGENT-1"),
            series("event_received_rate", "a2", "flume-AGENT-2"));
    assertEquals(1, DashboardRenderer.facet(series, Plot.SINGLE_PLOT).size());
    assertEquals(3, DashboardRenderer.facet(series, Plot.NO_FACETTING).size());
    var perRole = DashboardRenderer.facet(series, "roleName");
    assertEquals(
        List.of("roleName flume-AGENT-1", "roleName flume-AGENT-2"), List.copyOf(perRole.keySet()));
    assertEquals(2, perRole.get("roleName flume-AGENT-1").size());
    assertTrue(DashboardRenderer.facet(List.of(), Plot.SINGLE_PLOT).isEmpty());
    assertEquals("events per second", DashboardRenderer.unit(series));
  }

  private static ApiTimeSeries series(String metric, String entity, String role) {
    return new ApiTimeSeries(
        new ApiTimeSeriesMetadata(
            metric,
            entity,
            null,
            null,
            Map.of("roleName", role),
            List.of("events"),
            List.of("seconds"),
            null,
            null,
            null,
            null),
        List.of());
  }

  private static List<String> iterableNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
