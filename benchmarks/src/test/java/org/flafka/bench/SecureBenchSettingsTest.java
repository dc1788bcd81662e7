package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.flafka.load.Protocol;
import org.junit.jupiter.api.Test;

/** What {@code --secure} accepts: the variants the kit secures from its template variables. */
class SecureBenchSettingsTest {

  private static CoreBenchSettings core(List<CoreVariant> variants, boolean secure) {
    return new CoreBenchSettings(
        variants,
        1000,
        0,
        Duration.ofSeconds(10),
        1,
        10,
        2,
        0,
        200,
        CoreVariant.OURS,
        Path.of("/tmp/work"),
        Map.of(),
        List.of(),
        secure);
  }

  private static EdgeBenchSettings edge(
      List<EdgeVariant> variants, Duration kafkaLatency, boolean secure) {
    return new EdgeBenchSettings(
        variants,
        Duration.ofSeconds(1),
        Duration.ofSeconds(1),
        1,
        1,
        200,
        1,
        Double.POSITIVE_INFINITY,
        2,
        EdgeVariant.of(Variant.OURS),
        Path.of("work"),
        null,
        Map.of(),
        List.of(),
        kafkaLatency,
        Protocol.TCP,
        secure);
  }

  @Test
  void aSecureCoreBenchRunsTheVariantsWithOurHdfsSink() {
    for (String name : CoreVariant.secureFlagNames().split(",")) {
      CoreVariant variant = CoreVariant.byFlagName(name);
      core(List.of(variant), true).validate();
    }
    assertTrue(CoreVariant.secureFlagNames().startsWith("ours,"));
    assertFalse(CoreVariant.secureFlagNames().contains("stock-tuned"));
  }

  @Test
  void aSecureCoreBenchRefusesFlumesHdfsSinkAndTheStockConfigurationsNamingTheVariantAndAFix() {
    for (CoreVariant variant :
        List.of(
            CoreVariant.OURS_STOCK_SINK,
            CoreVariant.STOCK_TUNED,
            CoreVariant.STOCK,
            CoreVariant.STOCK_ROLLS)) {
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> core(List.of(CoreVariant.OURS, variant), true).validate());
      assertTrue(
          refused.getMessage().startsWith("--variants " + variant.flagName() + ": cannot run"),
          refused.getMessage());
      assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
      // the same variant runs on the plain stack
      core(List.of(CoreVariant.OURS, variant), false).validate();
    }
  }

  @Test
  void aSecureEdgeBenchRunsOursAndTheOursVariantsAndRefusesStockAndRsyslog() {
    for (Variant variant : Variant.values()) {
      EdgeBenchSettings settings = edge(List.of(EdgeVariant.of(variant)), Duration.ZERO, true);
      if (variant.usesPlugins()) {
        assertNull(variant.whyNotSecure());
        settings.validate();
      } else {
        IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, settings::validate);
        assertTrue(
            refused.getMessage().startsWith("--variants " + variant.flagName() + ": cannot run"),
            refused.getMessage());
      }
    }
  }

  @Test
  void aSecureEdgeBenchRefusesAKafkaLatencyWhichOnlyThePlainBrokerHas() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                edge(List.of(EdgeVariant.of(Variant.OURS)), Duration.ofMillis(5), true).validate());
    assertTrue(refused.getMessage().startsWith("--kafka-latency 5ms"), refused.getMessage());
    edge(List.of(EdgeVariant.of(Variant.OURS)), Duration.ofMillis(5), false).validate();
  }

  @Test
  void aSecureReportSaysSoAndLeavesTheBrokersCpuBlank() throws Exception {
    CoreBenchSettings settings = core(List.of(CoreVariant.OURS), true).validate();
    CoreTrial trial =
        new CoreTrial(
            CoreVariant.OURS, 1, 5, 2, 1000, true, 3, Double.NaN, Double.NaN, 10, Map.of());
    CoreBenchReport report = new CoreBenchReport(settings, List.of(trial), 0, "m");
    assertTrue(report.text().contains("stack: secure (Kafka SASL_SSL"), report.text());
    JsonNode json = new ObjectMapper().readTree(report.json());
    assertTrue(json.at("/settings/secure").asBoolean(), json.toString());
    assertTrue(json.at("/trials/0/brokerCpuSeconds").isNull(), json.toString());
  }
}
