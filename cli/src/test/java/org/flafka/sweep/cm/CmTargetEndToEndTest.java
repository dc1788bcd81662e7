package org.flafka.sweep.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.flafka.cli.ExitCode;
import org.flafka.cli.Flafka;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmValidatingProxy;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiRole;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.HdfsProcess;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka sweep --target cm} against the CM emulator, whose two AGENT roles are real Flume
 * processes, with a real broker (found through CM) and HDFS, every request and response of the
 * conversation validated against the CM v32 spec; and the same space on {@code --target local}.
 * Both must measure every trial, deliver every TCP event (audit), and agree: the same
 * configurations, edge rates of the same order (both near the load's rate), and on the cm target
 * the counters it derives from {@code /timeseries} rates equal to what the audit found in HDFS.
 */
@Tag("e2e")
class CmTargetEndToEndTest {
  private static final List<String> AGENT_JVM =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m");
  private static final String EDGE_GROUP = "flume-AGENT-BASE";
  private static final String CORE_GROUP = "flume-AGENT-2";
  private static final int RATE = 2000;

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void theSameSpaceOnCmAndOnLocalMeasuresTheSameAndLosesNothing() throws Exception {
    Set<Long> before = children();
    Path space =
        Files.writeString(
            dir.resolve("tiny.yml"),
            """
                name: tiny
                timing: {warmup: 1s, measure: 4s, repeats: 1, drain: 60s}
                load: {protocol: tcp, rate: %d, connections: 2, devices: 20}
                set: {edge_kafka_sinks: 2, core_kafka_sources: 1, core_hdfs_sinks: 1}
                dimensions:
                  core_hdfs_batch_size: [10000, 1000]
                """
                .formatted(RATE));
    Path password = Files.writeString(dir.resolve("password"), "s3cret\n");
    // the local sweep runs beside the cm one (the machine is small; the load is rate-limited, so
    // both keep up)
    ExecutorService background = Executors.newSingleThreadExecutor();
    Future<Result> localRun =
        background.submit(
            () ->
                run(
                    "sweep",
                    space.toString(),
                    "--target",
                    "local",
                    "--out",
                    dir.resolve("local-results").toString(),
                    "--agent-jvm-option",
                    AGENT_JVM.get(0),
                    "--agent-jvm-option",
                    AGENT_JVM.get(1),
                    "--agent-jvm-option",
                    AGENT_JVM.get(2)));
    background.shutdown();
    CompletableFuture<HdfsProcess> hdfsStart =
        CompletableFuture.supplyAsync(() -> HdfsProcess.start(dir.resolve("hdfs")));
    Result cmRun;
    try {
      cmRun = sweepOnCm(space, password, hdfsStart);
    } finally {
      awaitQuietly(localRun); // a failure above still lets the local sweep stop what it started
    }
    Result local = localRun.get();
    assertEquals(ExitCode.OK, local.code, local.toString());
    assertEquals(
        before,
        children(),
        "every process either sweep, the emulator and the stacks started is gone");
    JsonNode cm = resultsJson(dir.resolve("cm-results"));
    assertTrue(
        cm.get("target").asText().contains("Kafka localhost:"),
        "brokers found through CM: " + cm.get("target"));
    JsonNode onLocal = resultsJson(dir.resolve("local-results"));

    for (JsonNode results : List.of(cm, onLocal)) {
      String where = results.get("target").asText();
      assertTrue(results.get("complete").asBoolean(), where);
      assertEquals(2, results.get("trials").size(), where);
      for (JsonNode trial : results.get("trials")) {
        assertEquals("ok", trial.get("status").asText(), where + ": " + trial);
        JsonNode run = trial.at("/runs/0");
        long sent = run.get("sent").asLong();
        assertTrue(sent > 3 * RATE, where + ": " + run);
        // TCP loses nothing, by the counters and by the audit of what is in HDFS
        assertTrue(run.get("drained").asBoolean(), where + ": " + run);
        assertEquals(0, run.get("countedLoss").asLong(), where + ": " + run);
        assertEquals(sent, run.at("/audit/delivered").asLong(), where + ": " + run);
        assertEquals(0, run.at("/audit/missing").asLong(), where + ": " + run);
        // the edge takes what the load sends: its rate is the load's, within the windows' noise
        double load = run.get("loadSentEps").asDouble();
        double edge = run.at("/stagesEps/edge_source").asDouble();
        assertEquals(load, edge, 0.25 * load, where + ": edge source vs load: " + run);
        assertTrue(run.get("edgeCpuSecondsPerMillionEvents").asDouble() > 0, where + ": " + run);
      }
      // the ranking rule: trials by median events/s into HDFS, best first
      List<Double> medians = new ArrayList<>();
      for (JsonNode id : results.at("/verdict/ranking")) {
        medians.add(trial(results, id.asText()).at("/summary/endToEndEps/median").asDouble());
      }
      List<Double> descending = new ArrayList<>(medians);
      descending.sort(Collections.reverseOrder());
      assertEquals(descending, medians, where);
      assertEquals(
          results.at("/verdict/ranking/0").asText(), results.at("/verdict/best").asText(), where);
    }
    // a trial that failed keeps the work directory for its logs; every trial ran, so it is gone
    assertWorkDirectoryGone(dir.resolve("local-results"), local);
    assertWorkDirectoryGone(dir.resolve("cm-results"), cmRun);
    for (JsonNode trial : cm.get("trials")) {
      String id = trial.get("id").asText();
      JsonNode other = trial(onLocal, id);
      assertEquals(
          other.get("settings"),
          trial.get("settings"),
          "trial " + id + " is the same configuration");
      JsonNode run = trial.at("/runs/0");
      // what the cm target integrated from CM's per-second rates is, to the event, what the audit
      // counted in HDFS and what the load sent: wrong metric names or a wrong integration would not
      // add up
      assertEquals(
          run.at("/audit/delivered").asLong(), run.get("delivered").asLong(), run.toString());
      assertEquals(run.get("sent").asLong(), run.get("edgeAccepted").asLong(), run.toString());
      double ratio =
          run.at("/stagesEps/edge_source").asDouble()
              / other.at("/runs/0/stagesEps/edge_source").asDouble();
      assertTrue(
          ratio > 0.67 && ratio < 1.5, "edge events/s on cm vs local, trial " + id + ": " + ratio);
      double cpu =
          run.get("edgeCpuSecondsPerMillionEvents").asDouble()
              / other.at("/runs/0/edgeCpuSecondsPerMillionEvents").asDouble();
      assertTrue(
          cpu > 0.2 && cpu < 5, "edge CPU per event on cm vs local, trial " + id + ": " + cpu);
    }
  }

  private Result sweepOnCm(Path space, Path password, CompletableFuture<HdfsProcess> hdfsStart)
      throws Exception {
    Result result;
    try (KafkaBroker kafka = KafkaBroker.start(dir.resolve("kafka"));
        HdfsProcess hdfs = hdfsStart.join();
        CmEmulator emulator =
            CmEmulator.start(
                CmEmulatorConfig.builder(dir.resolve("cm"))
                    .kafka(kafka)
                    .credentials("admin", "s3cret")
                    .agents(2)
                    .sampleInterval(Duration.ofSeconds(1))
                    .runtime(OurPlugins.addTo(AgentRuntime.locate()))
                    .agentJvmOptions(AGENT_JVM)
                    .build());
        CmValidatingProxy proxy = new CmValidatingProxy(emulator.url(), Strictness.DECLARED_ONLY)) {
      result =
          run(
              "sweep",
              space.toString(),
              "--target",
              "cm",
              "--out",
              dir.resolve("cm-results").toString(),
              "--cm-url",
              proxy.url(),
              "--cm-password-file",
              password.toString(),
              "--cm-command-poll-interval-ms",
              "200",
              "--cm-edge-group",
              EDGE_GROUP,
              "--cm-core-group",
              CORE_GROUP,
              "--hdfs-root",
              hdfs.uri() + "/flafka-sweep",
              "--agent-data-dir",
              dir.resolve("agents").toString(),
              "--port",
              Integer.toString(freePort()),
              "--edge-bind-address",
              "127.0.0.1");
      assertEquals(ExitCode.OK, result.code, result.toString());
      proxy.assertConforms();

      // the cluster as the sweep found it: roles stopped, groups without a configuration, no sweep
      // topic left
      CmClient client =
          CmClient.connect(
              CmClientConfig.from(
                  Map.of(CmClientConfig.URL, emulator.url()),
                  Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "s3cret")));
      for (ApiRole role : client.roles("Cluster 1", "flume")) {
        assertEquals("STOPPED", role.roleState(), role.toString());
      }
      for (String group : List.of(EDGE_GROUP, CORE_GROUP)) {
        assertEquals(
            List.of(),
            client
                .roleConfigGroupConfig("Cluster 1", "flume", group, CmClient.ConfigView.SUMMARY)
                .stream()
                .map(ApiConfig::name)
                .toList(),
            group);
      }
      try (Admin admin = kafka.admin()) {
        Set<String> left = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        assertTrue(
            left.stream().noneMatch(t -> t.startsWith("flafka-sweep-")), "topics left: " + left);
      }
    }
    return result;
  }

  private static void awaitQuietly(Future<?> future) {
    try {
      future.get(3, TimeUnit.MINUTES);
    } catch (Exception e) {
      // the test reports its own failure
    }
  }

  private static JsonNode trial(JsonNode results, String id) {
    for (JsonNode trial : results.get("trials")) {
      if (trial.get("id").asText().equals(id)) {
        return trial;
      }
    }
    throw new AssertionError("no trial " + id + " in " + results.get("target"));
  }

  private static void assertWorkDirectoryGone(Path out, Result sweep) throws IOException {
    try (Stream<Path> runs = Files.list(out)) {
      Path run = runs.findFirst().orElseThrow();
      assertFalse(
          Files.exists(run.resolve("work")),
          "the work directory goes when every trial ran: " + sweep);
    }
  }

  private static JsonNode resultsJson(Path out) throws IOException {
    try (Stream<Path> runs = Files.list(out)) {
      List<Path> all = runs.toList();
      assertEquals(1, all.size(), all.toString());
      JsonNode json = new ObjectMapper().readTree(all.get(0).resolve("results.json").toFile());
      assertNotNull(json.get("target"));
      return json;
    }
  }

  record Result(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Flafka.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }

  static Set<Long> children() {
    return ProcessHandle.current()
        .descendants()
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
