package org.flafka.sweep.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.flafka.render.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class SpaceParserTest {

  private static Space parse(String text) {
    return SpaceParser.parse("space.yml", "space", text);
  }

  private static String error(String text) {
    return assertThrows(SpaceException.class, () -> parse(text)).getMessage();
  }

  @Test
  void readsEverySection() {
    Space space =
        parse(
            """
                name: mine
                description: what it is for
                strategy: descent
                timing: {warmup: 2s, measure: 1m, repeats: 3, drain: 500ms}
                load:
                  protocol: udp
                  rate: 5000
                  devices: 10
                  sizes: "200:9,4k:1"
                set:
                  edge_channel_capacity: 200000
                  topic_partitions: 6
                dimensions:
                  edge_kafka_sinks: [1, "2", 4]
                  edge_kafka_compression_type: [snappy, lz4]
                  load.connections: [1, 2]
                report:
                  chart_dimensions: [edge_kafka_compression_type, edge_kafka_sinks]
                """);
    assertEquals("mine", space.name());
    assertEquals("space.yml", space.source());
    assertEquals("what it is for", space.description());
    assertEquals("descent", space.strategy());
    assertEquals(
        new Timing(
            Duration.ofSeconds(2),
            Duration.ofSeconds(30),
            Duration.ofMinutes(1),
            3,
            Duration.ofMillis(500)),
        space.timing());
    assertEquals(
        Map.of(
            "load.protocol",
            "udp",
            "load.rate",
            5000L,
            "load.devices",
            10L,
            "load.sizes",
            "200:9,4k:1",
            "edge_channel_capacity",
            200000L,
            "topic_partitions",
            6L),
        space.fixed());
    assertEquals(
        List.of("edge_kafka_sinks", "edge_kafka_compression_type", "load.connections"),
        space.dimensionNames());
    // values are converted to the template variable's type: "2" is the integer 2
    assertEquals(List.of(1L, 2L, 4L), space.dimensions().get(0).values());
    assertEquals(14, space.dimensions().get(0).line());
    assertEquals(12, space.gridSize());
    assertEquals(
        List.of("edge_kafka_compression_type", "edge_kafka_sinks"), space.chartDimensions());
  }

  @Test
  void defaultsWhenSectionsAreLeftOut() {
    Space space = parse("dimensions:\n  core_hdfs_sinks: [1, 2]\n");
    assertEquals("space", space.name());
    assertEquals(Timing.DEFAULT, space.timing());
    assertEquals(null, space.strategy());
    assertEquals(Map.of(), space.fixed());
    // a single value is a dimension of one
    assertEquals(
        List.of(8L), parse("dimensions:\n  core_hdfs_sinks: 8\n").dimensions().get(0).values());
  }

  @Test
  void settingsSplitByTierAndBaselineUsesTheTemplateDefaults() {
    Space space =
        parse(
            """
                set: {kafka_flume_event_format: true}
                dimensions:
                  edge_kafka_sinks: [1, 4]
                  core_hdfs_sinks: [1, 8]
                  topic_partitions: [2, 8]
                """);
    Settings settings = space.settingsAt(List.of(1, 0, 1));
    assertEquals(
        Map.of("kafka_flume_event_format", true, "edge_kafka_sinks", 4L),
        settings.templateVariables(Tier.EDGE));
    assertEquals(
        Map.of("kafka_flume_event_format", true, "core_hdfs_sinks", 1L),
        settings.templateVariables(Tier.CORE));
    assertEquals(8, settings.topicPartitions());
    Settings baseline = space.baseline();
    assertEquals(2L, baseline.get("edge_kafka_sinks"));
    assertEquals(4L, baseline.get("core_hdfs_sinks"));
    assertEquals(Knobs.DEFAULT_TOPIC_PARTITIONS, baseline.get("topic_partitions"));
    assertEquals(null, space.indicesOf(baseline), "the defaults are not all among the values");
    assertEquals(List.of(1, 0, 1), space.indicesOf(settings));
  }

  @Test
  void everyBuiltInSpaceParses() {
    for (String name : SpaceParser.BUILT_IN) {
      Space space = SpaceParser.builtIn(name);
      assertEquals(name, space.name());
      assertEquals("built-in:" + name, space.source());
      assertTrue(space.gridSize() > 1, name);
    }
  }

  @Test
  void readsAFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("my-space.yml");
    Files.writeString(file, "dimensions:\n  core_hdfs_sinks: [1, 2]\n");
    Space space = SpaceParser.parse(file);
    assertEquals("my-space", space.name());
    assertEquals(file.toString(), space.source());
    String missing =
        assertThrows(SpaceException.class, () -> SpaceParser.parse(dir.resolve("nope.yml")))
            .getMessage();
    assertEquals(
        dir.resolve("nope.yml")
            + ": no such file; give the path of a space file, or one of the built-in"
            + " spaces: default, core, lanes, batching, producer, channels",
        missing);
  }

  /** Each bad space and the one line it gets: file, line, key, problem and fix. */
  static final List<List<String>> BAD =
      List.of(
          List.of(
              "dimensions:\n  core_hdfs_sinks: [1, 2\n",
              "space.yml:3: not valid YAML: while parsing a flow sequence, expected ',' or ']', but got <stream"
                  + " end>; check the indentation and quoting on that line"),
          List.of(
              "dimensions:\n  edge_kafka_sink: [1, 2]\n",
              "space.yml:2: dimensions.edge_kafka_sink: unknown dimension 'edge_kafka_sink': not a variable of"
                  + " the edge or core template, nor topic_partitions or load.<setting>; did you mean"
                  + " edge_kafka_sinks? `flafka sweep --list-knobs` lists them all"),
          List.of(
              "dimensions:\n  kafka_bootstrap_servers: [a:1, b:2]\n",
              "space.yml:2: dimensions.kafka_bootstrap_servers: 'kafka_bootstrap_servers' is set by the target"
                  + " for the machines it runs on (ports, paths, servers), so a space cannot set or sweep"
                  + " it; remove it"),
          List.of(
              "dimensions:\n  edge_kafka_sinks:\n    - 1\n    - 0\n",
              "space.yml:4: dimensions.edge_kafka_sinks: Invalid value 0 for variable edge_kafka_sinks: must be"
                  + " at least 1; see `flafka sweep --list-knobs` for what edge_kafka_sinks accepts"),
          List.of(
              "dimensions:\n  edge_kafka_compression_type: [snappy, brotli]\n",
              "space.yml:2: dimensions.edge_kafka_compression_type: Invalid value 'brotli' for variable"
                  + " edge_kafka_compression_type: must be one of none, gzip, snappy, lz4, zstd; see"
                  + " `flafka sweep --list-knobs` for what edge_kafka_compression_type accepts"),
          List.of(
              "dimensions:\n  core_hdfs_sinks: [1, 2, 1]\n",
              "space.yml:2: dimensions.core_hdfs_sinks: lists 1 twice; give each value once"),
          List.of(
              "dimension:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: dimension: unknown key (did you mean dimensions?); valid keys are name, description,"
                  + " strategy, timing, load, set, dimensions, report"),
          List.of(
              "name: x\n",
              "space.yml:1: dimensions: missing; add a dimensions: mapping of knob names to lists"
                  + " of values"),
          List.of(
              "",
              "space.yml:1: the file is empty; a space needs at least a dimensions: section (see"
                  + " docs/tools/sweep.md)"),
          List.of(
              "- a\n- b\n",
              "space.yml:1: (top level): must be a mapping; write the space as a YAML mapping of"
                  + " name:, timing:, load:, set:, dimensions:"),
          List.of(
              "dimensions: {}\n",
              "space.yml:1: dimensions: is empty; name at least one knob to sweep"),
          List.of(
              "set: {core_hdfs_sinks: 2}\ndimensions:\n  core_hdfs_sinks: [1, 2]\n",
              "space.yml:3: dimensions.core_hdfs_sinks: also fixed in the set: section (line 1); keep one of"
                  + " the two"),
          List.of(
              "load: {connections: 8, devices: 4}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: load: load.connections 8 is more than load.devices 4: each device sends on one"
                  + " connection, which keeps its sequence in order; use at most 4 connections or more"
                  + " devices"),
          List.of(
              "load: {protocol: tls}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: load.protocol: value 'tls' must be tcp or udp (the sweep does not set up TLS keys);"
                  + " see `flafka sweep --list-knobs` for what load.protocol accepts"),
          List.of(
              "load: {rate: fast}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: load.rate: value 'fast' must be max or a number of events per second above 0; see"
                  + " `flafka sweep --list-knobs` for what load.rate accepts"),
          List.of(
              "timing: {measure: 500ms}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: timing.measure: measure must be at least 1s, so counters move between two reads"),
          List.of(
              "timing: {warmup: soon}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: timing.warmup: 'soon' is not a duration; write e.g. 500ms, 10s or 2m"),
          List.of(
              "strategy: annealing\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: strategy: unknown strategy 'annealing'; use one of grid, descent"),
          List.of(
              "set: {load.rate: 5}\ndimensions:\n  core_hdfs_sinks: [1]\n",
              "space.yml:1: set.load.rate: load settings go in the load: section, without the load. prefix"),
          List.of(
              "dimensions:\n  core_hdfs_sinks: [1]\n  core_hdfs_sinks: [2]\n",
              "space.yml:3: dimensions.core_hdfs_sinks: given twice; keep one"),
          List.of(
              "dimensions:\n  core_hdfs_sinks: [1, 2]\nreport: {chart_dimensions: [core_hdfs_sinks, x]}\n",
              "space.yml:3: report.chart_dimensions: 'x' is not one of the dimensions (core_hdfs_sinks)"),
          List.of(
              "dimensions:\n  core_hdfs_sinks: [1, ~]\n",
              "space.yml:2: dimensions.core_hdfs_sinks: has no value; write one, or remove the key"));

  @ParameterizedTest
  @FieldSource("BAD")
  void aBadSpaceGetsOneLineNamingFileLineKeyAndFix(List<String> badAndMessage) {
    String message = error(badAndMessage.get(0));
    assertEquals(badAndMessage.get(1), message);
    assertTrue(!message.contains("\n"), "one line: " + message);
  }

  @Test
  void unknownBuiltIn() {
    assertEquals(
        "built-in:fastest: there is no such built-in space; use one of default, core, lanes, batching,"
            + " producer, channels, or the path of a space file",
        assertThrows(SpaceException.class, () -> SpaceParser.builtIn("fastest")).getMessage());
  }
}
