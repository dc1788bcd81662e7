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
import org.flafka.bench.CoreVariant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code flafka bench core}: its help, its one-line errors, and one tiny run end to end. */
class BenchCoreCommandTest {

  @Test
  void helpExplainsEveryVariant() {
    FlafkaRun run = flafka("bench", "core", "--help");
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    String help = run.out().replaceAll("\\s+", " ");
    for (CoreVariant variant : CoreVariant.values()) {
      assertTrue(
          help.contains(" " + variant.flagName() + " = "), variant.flagName() + " not explained");
    }
    assertTrue(
        help.contains("Which agents, in the order run: " + CoreVariant.flagNames() + " (default"),
        run.out());
    assertTrue(help.contains("Exit codes: 0 done, 1 a trial failed"), run.out());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--variants ours,fast   | --variants: unknown variant 'fast'; use some of ours, ours-memory-channel, ours-file-channel, ours-stock-source, ours-stock-sink, stock-tuned, stock, stock-rolls, comma-separated",
        "--variants ours,ours   | --variants names a variant twice",
        "--events 0             | --events must be between 1 and 1000000000 but was 0",
        "--events many          | Invalid value for option '--events': 'many' is not a long",
        "--warmup-events -1     | --warmup-events must be between 0 and 1000000000 but was -1",
        "--duration soon        | --duration 'soon' is not a duration (e.g. 15s, 2m, 500ms)",
        "--duration 500ms       | --duration must be at least 1s (the longest measure window) but was 500ms",
        "--repeats 0            | --repeats must be at least 1 but was 0",
        "--hosts 0              | --hosts must be between 1 and 100000 but was 0",
        "--partitions 0         | --partitions must be between 1 and 1000 but was 0",
        "--host-partitions 9    | --host-partitions must be between 0 and --partitions (8) but was 9",
        "--size 20              | --size must be between 100 and 65536 bytes but was 20",
        "--format xml           | --format must be text or json but was 'xml'",
        "--baseline best        | --baseline: unknown variant 'best'; use one of ours, ours-memory-channel, ours-file-channel",
        "--set core_hdfs_snks=2 | --set: ",
        "--set core_channel_type=disk | core_channel_type",
        "--set kafka_topic=x    | --set kafka_topic: the bench sets this itself",
        "--variants stock --set core_hdfs_sinks=2 | --set changes only the template variants",
        "--colour               | Unknown option: '--colour'",
      })
  void badFlagsAreOneLineAndExitTwo(String flags, String message) {
    assertBadFlagsAreOneLineAndExitTwo("core", flags, message);
  }

  @Test
  void outInAMissingDirectoryIsRejectedBeforeAnythingStarts(@TempDir Path dir) {
    assertOutInAMissingDirectoryIsRejected("core", dir);
  }

  /**
   * The whole bench, tiny: a broker and an HDFS process, a prefilled topic, and the template's
   * default, the file channel and Flume's stock path as agent processes draining it, the records
   * placed as the host-affinity partitioner would. Checks the report's shape, that every variant
   * drained events into HDFS with its CPU measured, that the default wrote one file a host, and
   * that no process is left.
   */
  @Test
  @Tag("e2e")
  @Timeout(300)
  void aTinyRunDrainsEveryVariantAndLeavesNoProcessBehind(@TempDir Path dir) throws Exception {
    Set<Long> before = children();
    Path report = dir.resolve("report.json");
    List<String> variants = List.of("ours", "ours-file-channel", "stock-tuned");
    FlafkaRun run =
        flafka(
            "bench",
            "core",
            "--variants",
            String.join(",", variants),
            "--events",
            "3000",
            "--warmup-events",
            "1000",
            "--hosts",
            "20",
            "--partitions",
            "2",
            "--host-partitions",
            "1",
            "--repeats",
            "1",
            "--duration",
            "20s",
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
    assertEquals("core", json.get("benchmark").asText());
    assertEquals(variants, json.get("summary").findValuesAsText("variant"));
    assertEquals(3, json.get("trials").size());
    for (JsonNode trial : json.get("trials")) {
      assertTrue(trial.get("events").asLong() > 0, "events drained into HDFS: " + trial);
      assertTrue(trial.get("eventsPerSecond").asDouble() > 0, "a rate: " + trial);
      assertTrue(trial.get("agentCpuSeconds").asDouble() > 0, "agent CPU measured: " + trial);
      assertTrue(trial.get("files").asLong() > 0, "files in HDFS: " + trial);
    }
    // Each host in one partition, so in one of the default core's Kafka channels: one file a host
    JsonNode ours = json.get("trials").get(0);
    assertEquals("ours", ours.get("variant").asText());
    assertEquals(20, ours.get("files").asLong(), ours.toString());
    for (JsonNode summary : json.get("summary")) {
      assertTrue(summary.get("eventsPerSecond").asDouble() > 0, summary.toString());
      assertTrue(summary.get("agentCpuSecondsPerMillion").isNumber(), summary.toString());
    }
    assertEquals(
        1.0,
        json.get("summary").get(0).get("eventsPerSecondVsBaseline").asDouble(),
        json.toString());
    assertEquals(before, children(), "every broker, HDFS and agent process ended");
  }
}
