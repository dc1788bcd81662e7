package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreBenchReportTest {
  private static final CoreBenchSettings SETTINGS =
      new CoreBenchSettings(
              List.of(CoreVariant.OURS, CoreVariant.STOCK_TUNED),
              1000,
              500,
              Duration.ofSeconds(60),
              3,
              200,
              8,
              0,
              200,
              CoreVariant.OURS,
              Path.of("/tmp/work"),
              Map.of(),
              List.of(),
              false)
          .validate();

  private static CoreTrial trial(CoreVariant variant, int repeat, double seconds, double agentCpu) {
    return new CoreTrial(
        variant,
        repeat,
        5,
        seconds,
        1_000_000,
        true,
        agentCpu,
        1,
        2,
        10,
        Map.of("sink runners", agentCpu / 2));
  }

  private static final CoreBenchReport REPORT =
      new CoreBenchReport(
          SETTINGS,
          List.of(
              trial(CoreVariant.OURS, 1, 10, 10), trial(CoreVariant.STOCK_TUNED, 1, 40, 40),
              trial(CoreVariant.OURS, 2, 20, 20), trial(CoreVariant.STOCK_TUNED, 2, 20, 40),
              trial(CoreVariant.OURS, 3, 5, 30), trial(CoreVariant.STOCK_TUNED, 3, 50, 50)),
          0,
          "test machine");

  @Test
  void summariesAreMediansOverTheRepeatsComparedWithTheBaseline() throws Exception {
    List<CoreBenchReport.Summary> summaries = REPORT.summaries();
    assertEquals(100_000, summaries.get(0).eventsPerSecond(), 1e-9);
    assertEquals(50_000, summaries.get(0).minEventsPerSecond(), 1e-9);
    assertEquals(200_000, summaries.get(0).maxEventsPerSecond(), 1e-9);
    assertEquals(20, summaries.get(0).agentCpuPerMillion(), 1e-9);
    assertEquals(25_000, summaries.get(1).eventsPerSecond(), 1e-9);
    assertEquals(40, summaries.get(1).agentCpuPerMillion(), 1e-9);
    JsonNode json = new ObjectMapper().readTree(REPORT.json());
    assertEquals(0.25, json.at("/summary/1/eventsPerSecondVsBaseline").asDouble(), 1e-9);
    assertEquals(2.0, json.at("/summary/1/agentCpuVsBaseline").asDouble(), 1e-9);
    assertEquals(
        20.0,
        json.at("/summary/1/agentCpuSecondsPerMillionByThreads/sink runners").asDouble(),
        1e-9);
    assertEquals(6, json.get("trials").size());
    assertEquals(500, json.at("/settings/warmupEvents").asLong());
  }

  @Test
  void theTextNamesEveryVariantWithItsMedians() {
    String text = REPORT.text();
    assertTrue(text.contains("1,500 events of 200 bytes from 200 hosts"), text);
    assertTrue(text.contains("measured after the first 500"), text);
    assertTrue(
        text.lines()
            .anyMatch(
                l ->
                    l.startsWith("ours ")
                        && l.contains("100,000 (50,000-200,000)")
                        && l.contains("3/3")
                        && l.contains("20.00")
                        && l.contains("1.00x")),
        text);
    assertTrue(
        text.lines()
            .anyMatch(
                l -> l.startsWith("stock-tuned ") && l.contains("0.25x") && l.contains("2.00x")),
        text);
    assertTrue(text.contains("agent CPU-s per million events by threads"), text);
  }
}
