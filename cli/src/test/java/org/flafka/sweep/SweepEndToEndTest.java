package org.flafka.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flafka.cli.ExitCode;
import org.flafka.cli.Flafka;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka sweep} for real: a KRaft broker, MiniDFSCluster, and edge and core Flume agents as
 * processes on the production classpath, two short trials of TCP load at a rate the pipeline keeps
 * up with, then the files, the best configuration, the audit (nothing missing on TCP) and no
 * process left behind.
 */
@Tag("e2e")
class SweepEndToEndTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aTinySweepOnTheLocalStack() throws Exception {
    Set<Long> before = children();
    Path space = dir.resolve("tiny.yml");
    Files.writeString(
        space,
        """
                name: tiny
                timing: {warmup: 1s, measure: 3s, repeats: 1, drain: 60s}
                load: {protocol: tcp, rate: 2000, connections: 2, devices: 20}
                set: {edge_kafka_sinks: 2, core_kafka_sources: 1, core_hdfs_sinks: 1}
                dimensions:
                  core_hdfs_batch_size: [10000, 1000]
                """);
    Path out = dir.resolve("results");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        Flafka.execute(
            new PrintWriter(stdout),
            new PrintWriter(stderr),
            "sweep",
            space.toString(),
            "--out",
            out.toString(),
            // quick to start, not for measuring: this test checks that the sweep works, not how
            // fast
            "--agent-jvm-option",
            "-XX:TieredStopAtLevel=1",
            "--agent-jvm-option",
            "-XX:+UseSerialGC",
            "--agent-jvm-option",
            "-Xmx256m");
    assertEquals(ExitCode.OK, code, "stdout:\n" + stdout + "\nstderr:\n" + stderr);
    assertEquals(before, children(), "every process the sweep started is gone");

    List<Path> runs = list(out);
    assertEquals(1, runs.size(), runs.toString());
    Path results = runs.get(0);
    assertFalse(
        Files.exists(results.resolve("work")), "the work directory goes when every trial ran");

    JsonNode json = new ObjectMapper().readTree(results.resolve("results.json").toFile());
    assertTrue(json.get("complete").asBoolean());
    assertEquals("flafka audit", json.get("audit").asText());
    JsonNode trials = json.get("trials");
    assertEquals(
        2, trials.size(), "the defaults (batch 10000) are the first point: two trials, " + json);
    for (JsonNode trial : trials) {
      assertEquals("ok", trial.get("status").asText(), trial.toString());
      JsonNode run = trial.at("/runs/0");
      // HDFS sinks commit in lumps, so a 3 s window on a busy machine can see none: the rate only
      // has to be there
      assertTrue(run.get("endToEndEps").isNumber(), "events/s into HDFS: " + run);
      assertTrue(
          run.at("/stagesEps/edge_source").asDouble() > 500, "the load's 2000 events/s: " + run);
      assertTrue(run.get("drained").asBoolean(), run.toString());
      long sent = run.get("sent").asLong();
      assertTrue(sent > 4000, run.toString());
      // TCP loses nothing: by the counters and by the audit of what is in HDFS
      assertEquals(0, run.get("countedLoss").asLong(), run.toString());
      assertEquals(sent, run.at("/audit/expected").asLong(), run.toString());
      assertEquals(sent, run.at("/audit/delivered").asLong(), run.toString());
      assertEquals(0, run.at("/audit/missing").asLong(), run.toString());
      assertEquals(0, run.at("/audit/corrupted").asLong(), run.toString());
      assertTrue(run.get("edgeCpuSecondsPerMillionEvents").asDouble() > 0, run.toString());
    }
    String best = json.at("/verdict/best").asText();
    assertTrue(best.equals("t001") || best.equals("t002"), best);

    String csv = Files.readString(results.resolve("results.csv"));
    assertEquals(3, csv.lines().count(), csv);
    String html = Files.readString(results.resolve("report.html"));
    assertEquals(4, html.split("<svg ", -1).length - 1, "four charts");
    String bestBatch =
        json.at("/trials/" + (best.equals("t001") ? 0 : 1) + "/settings/core_hdfs_batch_size")
            .asText();
    assertTrue(
        Files.readString(results.resolve("best/core.properties"))
            .contains("core.sinks.hdfs0.hdfs.batchSize = " + bestBatch + "\n"));
    assertTrue(
        Files.readString(results.resolve("best/group_vars/core.yml"))
            .contains("core_hdfs_batch_size: " + bestBatch + "\n"));
    assertTrue(
        Files.readString(results.resolve("best/group_vars/edge.yml"))
            .contains("edge_kafka_sinks: 2\n"));

    String summary = stdout.toString();
    assertTrue(summary.contains("best: " + best + ", "), summary);
    assertTrue(summary.contains("report: " + results.resolve("report.html")), summary);
    assertTrue(summary.contains("0/0 (audit)"), summary);
  }

  private static Set<Long> children() {
    return ProcessHandle.current()
        .descendants()
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }

  private static List<Path> list(Path directory) throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    }
  }
}
