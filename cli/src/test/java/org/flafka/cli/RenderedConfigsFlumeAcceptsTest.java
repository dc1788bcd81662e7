package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flume.conf.FlumeConfiguration;
import org.apache.flume.conf.FlumeConfigurationError;
import org.flafka.lint.Finding;
import org.flafka.lint.Linter;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rendering passes Flume 1.11's own configuration validation with nothing dropped (Flume
 * drops a component it cannot validate with only a warning, docs/reference/dependencies.md, "Flume
 * drops a component it cannot configure"), and lints without errors. Runs with Flume's Guava 11 on
 * the classpath next to the shaded renderer, which is what the shading is for.
 */
class RenderedConfigsFlumeAcceptsTest {

  static Stream<Arguments> renderings() {
    return Stream.of(
        Arguments.of(Tier.EDGE, Map.of()),
        Arguments.of(Tier.EDGE, Map.of("edge_kafka_sinks", 1)),
        Arguments.of(Tier.EDGE, Map.of("edge_listeners", "udp,tcp,tls")),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "edge_source_impl",
                "stock",
                "edge_sink_impl",
                "stock",
                "edge_listeners",
                "udp,tcp",
                "edge_channel_type",
                "file",
                "edge_kafka_sinks",
                3,
                "edge_partitioner",
                "stripe")),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "edge_channel_type",
                "kafka",
                "kafka_flume_event_format",
                true,
                "edge_kafka_sinks",
                2)),
        Arguments.of(Tier.EDGE, Map.of("edge_channel_type", "kafka", "edge_kafka_sinks", 2)),
        Arguments.of(Tier.CORE, Map.of()),
        Arguments.of(
            Tier.CORE,
            Map.of("core_channel_type", "memory", "core_kafka_sources", 1, "core_hdfs_sinks", 1)),
        Arguments.of(Tier.CORE, Map.of("core_hdfs_sinks", 1, "core_hdfs_format", "avro")),
        Arguments.of(
            Tier.CORE, Map.of("kafka_flume_event_format", true, "core_hdfs_format", "avro")),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "core_hdfs_format",
                "avro",
                "core_channel_type",
                "file",
                "core_kafka_sources",
                3,
                "core_hdfs_sinks",
                5)));
  }

  @ParameterizedTest
  @MethodSource("renderings")
  void flumeKeepsEveryComponentAndLintFindsNoError(Tier tier, Map<String, Object> variables)
      throws Exception {
    Properties properties = new Properties();
    properties.load(new StringReader(AgentTemplates.render(tier, variables)));
    String agent = tier.id();

    FlumeConfiguration flume = new FlumeConfiguration(asMap(properties));
    FlumeConfiguration.AgentConfiguration accepted = flume.getConfigurationFor(agent);

    assertNotNull(
        accepted,
        () -> "Flume rejected agent " + agent + ": " + describe(flume.getConfigurationErrors()));
    assertEquals(
        names(properties, agent + ".sources"),
        accepted.getSourceSet(),
        () -> describe(flume.getConfigurationErrors()));
    assertEquals(
        names(properties, agent + ".channels"),
        accepted.getChannelSet(),
        () -> describe(flume.getConfigurationErrors()));
    assertEquals(
        names(properties, agent + ".sinks"),
        accepted.getSinkSet(),
        () -> describe(flume.getConfigurationErrors()));

    List<Finding> errors =
        Linter.lint(properties, OptionalInt.of(6)).stream()
            .filter(finding -> finding.severity() == Finding.Severity.ERROR)
            .toList();
    assertEquals(List.of(), errors);
  }

  @Test
  void flumeDropsASourceWithTheLoadBalancingSelectorWhichIsWhyTheTemplatesDoNotUseIt()
      throws Exception {
    Properties properties = new Properties();
    properties.load(
        new StringReader(
            AgentTemplates.render(
                Tier.EDGE,
                Map.of(
                    "edge_extra_properties",
                    Map.of("sources.syslog_udp.selector.type", "load_balancing")))));

    FlumeConfiguration.AgentConfiguration accepted =
        new FlumeConfiguration(asMap(properties)).getConfigurationFor("edge");

    assertEquals(Set.of("syslog_tcp"), accepted.getSourceSet());
  }

  @Test
  void flumesGuava11IsTheGuavaOnThisClasspath() {
    String location =
        com.google.common.base.Preconditions.class
            .getProtectionDomain()
            .getCodeSource()
            .getLocation()
            .toString();
    assertTrue(location.contains("guava-11.0.2"), location);
  }

  private static Map<String, String> asMap(Properties properties) {
    Map<String, String> map = new java.util.HashMap<>();
    properties.stringPropertyNames().forEach(key -> map.put(key, properties.getProperty(key)));
    return map;
  }

  private static Set<String> names(Properties properties, String key) {
    String list = properties.getProperty(key, "").trim();
    return list.isEmpty() ? Set.of() : new HashSet<>(List.of(list.split("\\s+")));
  }

  private static String describe(List<FlumeConfigurationError> errors) {
    StringBuilder text = new StringBuilder();
    for (FlumeConfigurationError error : errors) {
      text.append(error.getComponentName())
          .append('/')
          .append(error.getKey())
          .append(": ")
          .append(error.getErrorType())
          .append("; ");
    }
    return text.toString();
  }
}
