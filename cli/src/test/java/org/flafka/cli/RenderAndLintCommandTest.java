package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderAndLintCommandTest {

  @TempDir Path dir;

  @Test
  void renderPrintsTheTemplateWithSetVariables() {
    FlafkaRun run =
        flafka("render", "edge", "--set", "site=paris-1", "--set", "edge_kafka_sinks=3");
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    assertEquals(
        AgentTemplates.render(
            Tier.EDGE, java.util.Map.of("site", "paris-1", "edge_kafka_sinks", "3")),
        run.out());
    assertTrue(run.out().contains("edge.sinks = kafka0 kafka1 kafka2\n"), run.out());
  }

  @Test
  void renderReadsAVarsFileThatSetOverridesAndWritesOut() throws Exception {
    Path vars = dir.resolve("core.yml");
    Files.writeString(vars, "core_hdfs_sinks: 2\ncore_hdfs_root: /a\n");
    Path out = dir.resolve("core.properties");
    FlafkaRun run =
        flafka(
            "render",
            "core",
            "--vars",
            vars.toString(),
            "--set",
            "core_hdfs_root=/b",
            "--out",
            out.toString());
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    assertEquals("", run.out());
    String text = Files.readString(out);
    assertTrue(text.contains("core.sinks = hdfs0 hdfs1\n"), text);
    assertTrue(text.contains("core.sinks.hdfs1.hdfs.root = /b\n"), text);
  }

  @Test
  void misspeltVariableIsOneLineInvalidInput() {
    FlafkaRun run = flafka("render", "edge", "--set", "edge_kafka_sink=4");
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertEquals("", run.out());
    assertTrue(
        run.err()
            .startsWith(
                "flafka: Unknown variable 'edge_kafka_sink' for the edge template. Did you mean"
                    + " edge_kafka_sinks? Valid variables: agent_name, "),
        run.err());
    assertEquals(1, run.err().lines().count(), run.err());
  }

  @Test
  void badValueAndUnknownTierAndMissingVarsFileAreInvalidInput() {
    FlafkaRun value = flafka("render", "core", "--set", "core_hdfs_format=parquet");
    assertEquals(ExitCode.INVALID_INPUT, value.exitCode());
    assertEquals(
        "flafka: Invalid value 'parquet' for variable core_hdfs_format: must be one of text, avro.\n",
        value.err());
    FlafkaRun tier = flafka("render", "middle");
    assertEquals(ExitCode.INVALID_INPUT, tier.exitCode());
    assertEquals("flafka: Unknown tier 'middle': use one of edge, core.\n", tier.err());
    FlafkaRun vars = flafka("render", "edge", "--vars", dir.resolve("nope.yml").toString());
    assertEquals(ExitCode.INVALID_INPUT, vars.exitCode());
    assertTrue(
        vars.err().startsWith("flafka: Vars file ")
            && vars.err().contains("nope.yml does not exist"),
        vars.err());
  }

  @Test
  void listVariablesShowsDefaultsAndDocs() {
    FlafkaRun run = flafka("render", "core", "--list-variables");
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    assertTrue(
        run.out().contains("core_hdfs_sinks = 4\n    HDFS sinks, each with its own channel;"),
        run.out());
  }

  @Test
  void defaultRenderingsLintClean() {
    for (String tier : new String[] {"edge", "core"}) {
      FlafkaRun run = flafka("lint", "--tier", tier, "--partitions", "6");
      assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
      assertEquals("lint: no findings\n", run.out());
    }
  }

  @Test
  void lintOfARenderingWithTooManySourcesWarnsButPasses() {
    FlafkaRun run =
        flafka(
            "lint",
            "--tier",
            "core",
            "--set",
            "core_channel_type=memory",
            "--set",
            "core_kafka_sources=8",
            "--partitions",
            "6");
    assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .startsWith(
                "WARNING [kafka-sources-vs-partitions] core.sources: 8 Kafka sources in group"
                    + " flafka-core on syslog share 6 partitions; 2 get no partition and sit idle."),
        run.out());
    assertTrue(run.out().endsWith("lint: 0 errors, 1 warning\n"), run.out());
  }

  @Test
  void lintOfTheKafkaChannelCoreWarnsOfSourceSettingsThatDoNotApply() {
    FlafkaRun run = flafka("lint", "--tier", "core", "--set", "core_kafka_sources=8");
    assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .startsWith(
                "WARNING [unused-variable] core_kafka_sources: does not apply with core_channel_type kafka"),
        run.out());
    assertTrue(run.out().endsWith("lint: 0 errors, 1 warning\n"), run.out());
  }

  @Test
  void lintOfAnEdgeWithAKerberosPrincipalButPlaintextKafkaWarnsThatItIsIgnored() {
    FlafkaRun run =
        flafka(
            "lint",
            "--tier",
            "edge",
            "--set",
            "kafka_kerberos_principal=flafka-edge/e1.example.com@EXAMPLE.COM");
    assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .startsWith(
                "WARNING [kafka-security] kafka_kerberos_principal: is set, but"
                    + " kafka_security_protocol is PLAINTEXT, which ignores it"),
        run.out());
    assertTrue(run.out().endsWith("lint: 0 errors, 1 warning\n"), run.out());
  }

  @Test
  void lintOfABrokenFileReportsErrorsAndExitsOne() throws Exception {
    Path file = dir.resolve("edge.properties");
    Files.writeString(
        file,
        AgentTemplates.render(
            Tier.EDGE,
            java.util.Map.of(
                "edge_extra_properties",
                java.util.Map.of(
                    "sinks.kafka0.kafka.flumeBatchSize",
                    "5000",
                    "channels.ch0.transactionCapacity",
                    "100"))));
    FlafkaRun run = flafka("lint", file.toString());
    assertEquals(ExitCode.FAILED, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "ERROR [transaction-capacity] edge.channels.ch0.transactionCapacity:"
                    + " transactionCapacity 100 is below the batch size 1000 of source syslog_udp (batchSize)"),
        run.out());
    assertTrue(
        run.out()
            .contains(
                "ERROR [plugin-keys] edge.sinks.kafka0: sink kafka0 is refused at start: Kafka"
                    + " record sink kafka0: unknown key 'kafka.flumeBatchSize'. Fix: remove it or use one of"
                    + " kafka.bootstrap.servers, kafka.topic, recordHeaders, keyHeader, batchSize, batchDurationMillis,"
                    + " ackTimeoutMillis,"
                    + " kafka.producer.*."),
        run.out());
    assertTrue(run.out().endsWith("lint: 4 errors, 0 warnings\n"), run.out());
  }

  @Test
  void lintNeedsExactlyOneInput() {
    FlafkaRun neither = flafka("lint");
    assertEquals(ExitCode.INVALID_INPUT, neither.exitCode());
    assertEquals(
        "flafka: Give either a properties FILE or --tier edge|core, not neither.\n", neither.err());
    FlafkaRun setWithFile = flafka("lint", "x.properties", "--set", "site=a");
    assertEquals(ExitCode.INVALID_INPUT, setWithFile.exitCode());
    assertEquals(
        "flafka: --set and --vars apply only with --tier: a FILE is checked as it is.\n",
        setWithFile.err());
    FlafkaRun missing = flafka("lint", dir.resolve("missing.properties").toString());
    assertEquals(ExitCode.INVALID_INPUT, missing.exitCode());
    assertTrue(
        missing.err().endsWith("missing.properties does not exist: check the path.\n"),
        missing.err());
  }

  @Test
  void bothCommandsAppearInHelp() {
    FlafkaRun run = flafka("--help");
    assertTrue(run.out().contains("render") && run.out().contains("lint"), run.out());
  }
}
