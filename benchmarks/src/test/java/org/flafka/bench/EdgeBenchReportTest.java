package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.flafka.load.Protocol;
import org.junit.jupiter.api.Test;

class EdgeBenchReportTest {

  private static EdgeBenchSettings settings(double rate) {
    return settings(rate, Protocol.TCP);
  }

  private static EdgeBenchSettings settings(double rate, Protocol protocol) {
    return new EdgeBenchSettings(
            List.of(EdgeVariant.of(Variant.OURS), EdgeVariant.of(Variant.STOCK)),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            3,
            4,
            200,
            1,
            rate,
            4,
            EdgeVariant.of(Variant.STOCK),
            Path.of("work"),
            null,
            Map.of(),
            List.of(),
            Duration.ZERO,
            protocol,
            false)
        .validate();
  }

  /** A 10-second trial with {@code events} into Kafka and {@code agentCpu} agent CPU seconds. */
  private static Trial trial(Variant variant, int repeat, long events, double agentCpu) {
    return new Trial(
        EdgeVariant.of(variant),
        repeat,
        5.0,
        10.0,
        events,
        events + 5,
        events - 5,
        events + 10,
        agentCpu,
        agentCpu / 2,
        1.0,
        3.5,
        Map.of(
            "sink runners",
            agentCpu / 2,
            "JIT compiler",
            agentCpu / 4,
            "source and other",
            agentCpu / 4),
        -1,
        events * 2,
        events * 2,
        -1);
  }

  private static EdgeBenchReport report(double rate) {
    return new EdgeBenchReport(
        settings(rate),
        List.of(
            trial(Variant.OURS, 1, 6_000_000, 12), trial(Variant.STOCK, 1, 2_000_000, 12),
            trial(Variant.OURS, 2, 5_000_000, 10), trial(Variant.STOCK, 2, 1_000_000, 6),
            trial(Variant.OURS, 3, 9_000_000, 18), trial(Variant.STOCK, 3, 1_800_000, 10.8)),
        0,
        "2 processors");
  }

  @Test
  void summariesAreMediansWithTheSpreadOfEventsPerSecond() {
    EdgeBenchReport.Summary ours = report(Double.POSITIVE_INFINITY).summaries().get(0);
    assertEquals(Variant.OURS, ours.variant().base());
    assertEquals(3, ours.trials());
    assertEquals(600_000, ours.eventsPerSecond(), 1e-6);
    assertEquals(500_000, ours.minEventsPerSecond(), 1e-6);
    assertEquals(900_000, ours.maxEventsPerSecond(), 1e-6);
    assertEquals(2.0, ours.agentCpuPerMillion(), 1e-9);
    assertEquals(1.0, ours.brokerCpuPerMillion(), 1e-9);
    assertEquals(600_000.5, ours.sourceAcceptedPerSecond(), 1e-6);
  }

  @Test
  void theTextTableComparesEachVariantWithStock() {
    String text = report(Double.POSITIVE_INFINITY).text();
    assertTrue(
        text.contains(
            "200-byte messages over 4 TCP connections, rate max, 3 × (5s warm-up + 10s "
                + "measured)"),
        text);
    List<String> lines = text.lines().toList();
    String ours = lines.stream().filter(l -> l.startsWith("ours ")).findFirst().orElseThrow();
    String stock = lines.stream().filter(l -> l.startsWith("stock ")).findFirst().orElseThrow();
    // ours: 600k median (500k-900k), 2 CPU-s/M; stock: 180k median, 6 CPU-s/M
    assertTrue(
        ours.matches(
            "ours +\\| +600,000 \\(500,000-900,000\\) \\|.* 2\\.00 \\| +1\\.00 \\|.* 3\\.33x \\| "
                + "+0\\.33x \\| +3\\.5"),
        ours);
    assertTrue(stock.contains("180,000 (100,000-200,000)") && stock.contains("1.00x"), stock);
  }

  @Test
  void theAgentsCpuIsBrokenDownByThreads() throws Exception {
    EdgeBenchReport report = report(Double.POSITIVE_INFINITY);
    List<String> lines = report.text().lines().toList();
    int title = lines.indexOf("agent CPU-s per million events by threads (medians):");
    assertTrue(title > 0, report.text());
    assertTrue(
        lines
            .get(title + 1)
            .matches("variant +\\| +JIT compiler \\| +sink runners \\| +source and other"),
        lines.get(title + 1));
    // ours: half of 2 CPU-s/M in the sinks, a quarter each elsewhere
    assertTrue(
        lines.get(title + 3).matches("ours +\\| +0\\.50 \\| +1\\.00 \\| +0\\.50"),
        lines.get(title + 3));
    JsonNode json = new ObjectMapper().readTree(report.json());
    assertEquals(
        1.0,
        json.at("/summary/0/agentCpuSecondsPerMillionByThreads/sink runners").asDouble(),
        1e-9);
    assertEquals(6.0, json.at("/trials/0/agentCpuSecondsByThreads/sink runners").asDouble(), 1e-9);
  }

  @Test
  void aVariantBelowTheFixedRateIsMarked() {
    String text = report(800_000).text();
    assertTrue(text.contains("ours*"), text);
    assertTrue(text.contains("stock*"), text);
    assertTrue(text.contains("delivered less than 97% of --rate"), text);
    assertTrue(
        report(150_000).text().lines().noneMatch(l -> l.contains("*")), report(150_000).text());
  }

  @Test
  void aTrialWithoutEventsHasNoCpuPerEventInsteadOfNaN() throws Exception {
    EdgeBenchReport report =
        new EdgeBenchReport(
            settings(Double.POSITIVE_INFINITY),
            List.of(trial(Variant.OURS, 1, 0, 1), trial(Variant.STOCK, 1, 1_000_000, 6)),
            0,
            "m");
    String text = report.text();
    assertTrue(!text.contains("NaN") && !text.contains("Infinity"), text);
    JsonNode json = new ObjectMapper().readTree(report.json());
    assertTrue(json.get("summary").get(0).get("agentCpuSecondsPerMillion").isNull(), report.json());
  }

  @Test
  void countsRsyslogDoesNotKeepAreADashAndNullNotAnEventRate() throws Exception {
    Trial rsyslog =
        new Trial(
            EdgeVariant.of(Variant.RSYSLOG),
            1,
            5.0,
            10.0,
            8_000_000,
            -1,
            -1,
            8_000_010,
            14,
            2,
            1,
            3,
            Map.of("rsyslog input", 4.0),
            -1,
            16_000_000,
            16_000_000,
            -1);
    EdgeBenchSettings settings =
        new EdgeBenchSettings(
                List.of(EdgeVariant.of(Variant.RSYSLOG), EdgeVariant.of(Variant.STOCK)),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                1,
                4,
                200,
                1,
                Double.POSITIVE_INFINITY,
                4,
                EdgeVariant.of(Variant.STOCK),
                Path.of("work"),
                null,
                Map.of(),
                List.of(),
                Duration.ZERO,
                Protocol.TCP,
                false)
            .validate();
    EdgeBenchReport report =
        new EdgeBenchReport(
            settings, List.of(rsyslog, trial(Variant.STOCK, 1, 1_000_000, 6)), 0, "m");
    String row =
        report.text().lines().filter(line -> line.startsWith("rsyslog ")).findFirst().orElseThrow();
    assertEquals(
        List.of("800,000 (800,000-800,000)", "-", "-", "1.75"),
        List.of(row.split("\\|")).subList(1, 5).stream().map(String::strip).toList(),
        row);
    JsonNode json = new ObjectMapper().readTree(report.json());
    assertTrue(json.get("summary").get(0).get("sourceAcceptedPerSecond").isNull(), report.json());
    assertTrue(json.get("summary").get(0).get("sinkDrainedPerSecond").isNull(), report.json());
    assertEquals(-1, json.get("trials").get(0).get("sourceAccepted").asLong());
  }

  @Test
  void jsonCarriesSettingsSummariesAndEveryTrial() throws Exception {
    JsonNode json = new ObjectMapper().readTree(report(100_000).json());
    assertEquals("edge", json.get("benchmark").asText());
    assertEquals(100_000, json.get("settings").get("rate").asDouble());
    assertEquals("[\"ours\",\"stock\"]", json.get("settings").get("variants").toString());
    assertEquals(2, json.get("summary").size());
    JsonNode ours = json.get("summary").get(0);
    assertEquals(600_000, ours.get("eventsPerSecond").asDouble(), 1e-6);
    assertEquals(600_000 / 180_000.0, ours.get("eventsPerSecondVsBaseline").asDouble(), 1e-9);
    assertTrue(ours.get("keptUp").asBoolean());
    assertEquals(6, json.get("trials").size());
    assertEquals(2_000_000, json.get("trials").get(1).get("kafkaEvents").asLong());
  }

  @Test
  void onUdpTheReportSaysWhatWasSentAndLostAndWhatTheKernelDropped() throws Exception {
    // 10-second trials: ours got 90,000 of 100,000 events/s into Kafka, the kernel dropping
    // 8,000/s, and over the whole trial lost 150,000 of 1,500,000; stock got 30,000 and neither the
    // kernel's table could be read nor did its topic settle
    List<Trial> trials =
        List.of(
            udpTrial(Variant.OURS, 1, 1_000_000, 900_000, 80_000, 1_500_000, 1_350_000, 140_000),
            udpTrial(Variant.STOCK, 1, 1_000_000, 300_000, -1, 1_500_000, -1, -1));
    EdgeBenchReport report = new EdgeBenchReport(settings(100_000, Protocol.UDP), trials, 0, "m");
    String text = report.text();
    assertTrue(text.contains("200-byte messages over 4 UDP sockets, rate 100,000 events/s"), text);
    List<String> lines = text.lines().toList();
    int title = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("UDP: sent by the generator and lost")) {
        title = i;
      }
    }
    assertTrue(title > 0, text);
    assertTrue(
        lines
            .get(title + 3)
            .matches(
                "ours +\\| +100,000 \\| +90,000 \\| +10\\.000% \\| +150,000 \\| +140,000 \\| +8,000"),
        lines.get(title + 3));
    assertTrue(
        lines
            .get(title + 4)
            .matches("stock +\\| +100,000 \\| +30,000 \\| +- \\| +not settled \\| +- \\| +-"),
        lines.get(title + 4));
    JsonNode json = new ObjectMapper().readTree(report.json());
    assertEquals("udp", json.at("/settings/protocol").asText());
    assertEquals(0.1, json.at("/summary/0/lostShare").asDouble(), 1e-9);
    assertEquals(150_000, json.at("/summary/0/mostLost").asLong());
    assertEquals(140_000, json.at("/summary/0/mostLostByKernel").asLong());
    assertTrue(json.at("/summary/1/lostShare").isNull(), report.json());
    assertEquals(1_350_000, json.at("/trials/0/trialInKafka").asLong());
    assertEquals(8_000, json.at("/summary/0/udpSocketDropsPerSecond").asDouble(), 1e-9);
    assertTrue(json.at("/summary/1/udpSocketDropsPerSecond").isNull(), report.json());
    assertEquals(80_000, json.at("/trials/0/udpSocketDrops").asLong());
    assertTrue(
        !report(Double.POSITIVE_INFINITY).text().contains("UDP"), "TCP reports have no UDP table");
  }

  private static Trial udpTrial(
      Variant variant,
      int repeat,
      long sent,
      long inKafka,
      long kernelDrops,
      long trialSent,
      long trialInKafka,
      long trialKernelDrops) {
    return new Trial(
        EdgeVariant.of(variant),
        repeat,
        5.0,
        10.0,
        inKafka,
        inKafka,
        inKafka,
        sent,
        1,
        1,
        1,
        1,
        Map.of(),
        kernelDrops,
        trialSent,
        trialInKafka,
        trialKernelDrops);
  }
}
