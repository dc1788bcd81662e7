package org.flafka.cli;

import static org.flafka.cli.BenchRuns.assertBadFlagsAreOneLineAndExitTwo;
import static org.flafka.cli.BenchRuns.assertOutInAMissingDirectoryIsRejected;
import static org.flafka.cli.BenchRuns.children;
import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.flafka.bench.Variant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BenchCommandTest {

  @Test
  void helpExplainsEveryVariant() {
    FlafkaRun run = flafka("bench", "edge", "--help");
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    // the help is wrapped at 80 columns: join its lines before looking for "name = "
    String help = run.out().replaceAll("\\s+", " ");
    for (Variant variant : Variant.values()) {
      assertTrue(
          help.contains(" " + variant.flagName() + " = "), variant.flagName() + " not explained");
    }
    assertTrue(
        help.contains("Which agents, in the order run: " + Variant.flagNames() + " (default"),
        run.out());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--variants ours,fast   | --variants: unknown variant 'fast'; use some of ours, ours-memory, ours-stock-sink, ours-stock-channel, ours-all-facts, ours-host-affinity, ours-kafka-channel, ours-flume-kafka-channel, stock, stock-capacity, stock-tuned, rsyslog, rsyslog-fields, comma-separated",
        "--variants ours,ours   | --variants names a variant twice",
        "--duration soon        | --duration 'soon' is not a duration (e.g. 15s, 2m, 500ms)",
        "--duration 100ms       | --duration must be at least 500ms (the measure window) but was 100ms",
        "--repeats 0            | --repeats must be at least 1 but was 0",
        "--connections 0        | --connections must be between 1 and 1000 but was 0",
        "--protocol tls         | --protocol must be tcp or udp but was 'tls'",
        "--protocol udp --size 65536 | --size must be at most 65507 bytes with --protocol udp (one datagram) but was 65536",
        "--size 20              | --size must be between 120 and 65536 bytes but was 20",
        "--size big             | --size must be a number of bytes but was 'big'",
        "--rate -5              | --rate must be events per second above 0, or max, but was '-5'",
        "--sinks 0              | --sinks must be between 1 and 64 but was 0",
        "--format xml           | --format must be text or json but was 'xml'",
        "--baseline best        | --baseline: unknown variant 'best'; use one of ours, ours-memory, ours-stock-sink, ours-stock-channel, ours-all-facts, ours-host-affinity, ours-kafka-channel, ours-flume-kafka-channel, stock, stock-capacity, stock-tuned",
        "--set edge_kafka_lingr_ms=5 | --set: ",
        "--set edge_kafka_compression_type=brotli | edge_kafka_compression_type",
        "--set edge_tcp_port=514 | --set edge_tcp_port: the bench sets this itself",
        "--variants stock,rsyslog --set edge_kafka_linger_ms=5 | --set changes only ours and the ours-* variants",
        "--set edge_channel_type=kafka --set edge_channel_impl=stock | --set: ours would measure an agent that flafka lint rejects: ERROR [kafka-headers]",
        "--variants ours,ours+edge_kafka_lingr_ms=5 | --variants ours+edge_kafka_lingr_ms=5: ",
        "--variants ours,stock+edge_kafka_linger_ms=5 | --variants stock+edge_kafka_linger_ms: template variables change only ours and the ours-* variants; stock is a fixed configuration",
        "--variants ours,ours+edge_tcp_port=514 | --variants ...+edge_tcp_port: the bench sets this itself",
        "--variants ours,ours+linger | --variants ours+linger: 'linger' is not NAME=VALUE",
        "--variants ours+edge_kafka_linger_ms=5+edge_kafka_linger_ms=6 | --variants ours+edge_kafka_linger_ms=5+edge_kafka_linger_ms=6: sets edge_kafka_linger_ms twice",
        "--variants ours+edge_kafka_linger_ms=5,ours+edge_kafka_linger_ms=5 | --variants names a variant twice",
        "--variants ours,ours+edge_channel_type=kafka+edge_channel_impl=stock | --variants: ours+edge_channel_type=kafka+edge_channel_impl=stock would measure an agent that flafka lint rejects: ERROR [kafka-headers]",
        "--repeats x            | Invalid value for option '--repeats': 'x' is not an int",
        "--colour               | Unknown option: '--colour'",
      })
  void badFlagsAreOneLineAndExitTwo(String flags, String message) {
    assertBadFlagsAreOneLineAndExitTwo("edge", flags, message);
  }

  @Test
  void benchWithoutABenchmarkNamesTheChoices() {
    FlafkaRun run = flafka("bench");
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertTrue(run.err().startsWith("flafka: name a benchmark: edge"), run.err());
  }

  @Test
  void outInAMissingDirectoryIsRejectedBeforeAnythingStarts(@TempDir Path dir) {
    assertOutInAMissingDirectoryIsRejected("edge", dir);
  }

  /**
   * The whole bench, tiny: a broker process, our agent, stock Flume and rsyslogd as processes
   * (rsyslog on TCP, rsyslog-fields on UDP), the generator, over TCP and over UDP. Checks the
   * report's shape, that events reached Kafka and were counted by each Flume agent (rsyslog counts
   * none), that on UDP the kernel's drops at each agent's socket were read, and that no process is
   * left.
   */
  @Tag("e2e")
  @ParameterizedTest
  @ValueSource(strings = {"tcp", "udp"})
  @Timeout(240)
  void aTinyRunMeasuresOursAndTunedStockAndLeavesNoProcessBehind(String protocol, @TempDir Path dir)
      throws Exception {
    Set<Long> before = children();
    Path report = dir.resolve("report.json");
    // Stock with Flume's defaults can legitimately deliver nothing in a 1-second window
    // (docs/benchmarks.md), so the end-to-end check uses the tuned stock agent. UDP gets a rate
    // both agents keep up with, high enough that each sink's batch (5000 for ours, committed and
    // counted only when full) completes in the window.
    boolean udp = protocol.equals("udp");
    String daemon = udp ? "rsyslog-fields" : "rsyslog";
    FlafkaRun run =
        flafka(
            "bench",
            "edge",
            "--variants",
            "ours,stock-tuned," + daemon,
            "--baseline",
            "stock-tuned",
            "--repeats",
            "1",
            "--warmup",
            "1s",
            "--protocol",
            protocol,
            "--rate",
            udp ? "30000" : "max",
            "--duration",
            udp ? "2s" : "1s",
            "--connections",
            "2",
            "--format",
            "json",
            "--out",
            report.toString(),
            "--work-dir",
            dir.resolve("work").toString());
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    assertEquals("", run.out(), "the report goes to --out");
    assertTrue(run.err().contains("flafka bench: ours #1: starting the agent in "), run.err());
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertEquals(protocol, json.at("/settings/protocol").asText());
    List<String> variants = json.get("summary").findValuesAsText("variant");
    assertEquals(List.of("ours", "stock-tuned", daemon), variants);
    assertEquals(3, json.get("trials").size());
    for (JsonNode trial : json.get("trials")) {
      assertTrue(
          trial.get("warmupSeconds").asDouble() >= 1.0, "warmed up at least --warmup: " + trial);
      assertTrue(trial.get("kafkaEvents").asLong() > 0, "events reached Kafka: " + trial);
      if (trial.get("variant").asText().equals(daemon)) {
        assertEquals(-1, trial.get("sourceAccepted").asLong(), "rsyslog keeps no counts: " + trial);
        assertEquals(-1, trial.get("sinkDrained").asLong(), "rsyslog keeps no counts: " + trial);
      } else {
        assertTrue(trial.get("sourceAccepted").asLong() > 0, "the source counted: " + trial);
        assertTrue(trial.get("sinkDrained").asLong() > 0, "the sink counted: " + trial);
      }
      assertTrue(trial.get("agentCpuSeconds").asDouble() > 0, "agent CPU measured: " + trial);
      assertTrue(trial.get("brokerCpuSeconds").asDouble() > 0, "broker CPU measured: " + trial);
      if (udp) {
        assertTrue(trial.get("generatorSent").asLong() > 0, "datagrams sent: " + trial);
        assertTrue(trial.get("udpSocketDrops").asLong() >= 0, "the kernel's drops read: " + trial);
      } else {
        assertTrue(trial.get("udpSocketDrops") == null, "no UDP fields on TCP: " + trial);
      }
    }
    assertTrue(
        json.get("summary").get(1).get("eventsPerSecondVsBaseline").asDouble() == 1.0,
        json.toString());
    assertEquals(before, children(), "every broker and agent process ended");
  }
}
