package org.flafka.sweep.cm;

import static org.flafka.sweep.cm.CmTargetEndToEndTest.children;
import static org.flafka.sweep.cm.CmTargetEndToEndTest.freePort;
import static org.flafka.sweep.cm.CmTargetEndToEndTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.flafka.cli.ExitCode;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmValidatingProxy;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiRole;
import org.flafka.stack.KafkaBroker;
import org.flafka.sweep.cm.CmTargetEndToEndTest.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user of {@code flafka sweep --target cm} gets wrong, each answered with one line and a
 * non-zero exit, and nothing left running: missing or misplaced flags, a URL nothing answers, a
 * wrong password, a group or service that does not exist, and a restart command that fails (the
 * edge's port is taken on its host, and the core's plugin jar is not on the agents' classpath: the
 * emulator's default runtime has the edge's plugins only).
 */
class CmTargetErrorsTest {
  private static final String SPACE =
      """
            name: one
            timing: {warmup: 1s, measure: 2s, repeats: 1, drain: 10s}
            load: {protocol: tcp, rate: 500, connections: 1, devices: 5}
            set: {edge_kafka_sinks: 1, core_kafka_sources: 1, core_hdfs_sinks: 1}
            dimensions:
              core_hdfs_batch_size: [10000]
            """;

  @TempDir Path dir;

  @Test
  void flagsAreCheckedBeforeAnythingConnects() throws Exception {
    Path space = Files.writeString(dir.resolve("one.yml"), SPACE);
    String password = Files.writeString(dir.resolve("password"), "s3cret\n").toString();
    Result noRoot =
        run("sweep", space.toString(), "--target", "cm", "--cm-url", "http://127.0.0.1:1");
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: --target cm needs --hdfs-root: the HDFS directory the core agent"
            + " writes into and the audit reads from this machine, e.g. hdfs://nameservice1/tmp/flafka-sweep",
        noRoot);
    Result rootOnly =
        run(
            "sweep",
            space.toString(),
            "--target",
            "cm",
            "--cm-url",
            "http://127.0.0.1:1",
            "--hdfs-root",
            "hdfs://nn:8020/");
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: --hdfs-root 'hdfs://nn:8020/' must be a file system URI with a"
            + " directory below the root, e.g. hdfs://nameservice1/tmp/flafka-sweep",
        rootOnly);
    Result onLocal = run("sweep", space.toString(), "--hdfs-root", "hdfs://nn:8020/sweep");
    assertOneLine(
        ExitCode.INVALID_INPUT, "flafka: --hdfs-root applies to --target cm only", onLocal);
    Result noUrl =
        run(
            "sweep",
            space.toString(),
            "--target",
            "cm",
            "--hdfs-root",
            "hdfs://nn:8020/sweep",
            "--out",
            dir.resolve("out").toString());
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: --cm-url is required: the Cloudera Manager server, e.g."
            + " https://cm.example.com:7183",
        noUrl);
    int closed = freePort();
    List<String> cmWithClosedUrl =
        List.of(
            "sweep",
            space.toString(),
            "--target",
            "cm",
            "--hdfs-root",
            "hdfs://nn:8020/sweep",
            "--cm-url",
            "http://127.0.0.1:" + closed,
            "--cm-password-file",
            password,
            "--out",
            dir.resolve("out").toString());
    Result refused = run(with(cmWithClosedUrl));
    assertOneLine(
        ExitCode.UNEXPECTED_STATE,
        "flafka: cannot connect to Cloudera Manager at http://127.0.0.1:"
            + closed
            + " (connection refused): check --cm-url (CM listens on 7180 for HTTP, 7183 for HTTPS)",
        refused);
    Result kafkaConfigOnLocal =
        run(
            "sweep",
            space.toString(),
            "--kafka-config",
            dir.resolve("client.properties").toString());
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: --kafka-config applies to --target cm only",
        kafkaConfigOnLocal);
    Path missingConfig = dir.resolve("client.properties");
    Result noKafkaConfig = run(with(cmWithClosedUrl, "--kafka-config", missingConfig.toString()));
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: --kafka-config '" + missingConfig + "' does not exist",
        noKafkaConfig);
    Path missingKeytab = dir.resolve("me.keytab");
    Result noKeytab =
        run(
            with(
                cmWithClosedUrl,
                "--hdfs-principal",
                "me@EXAMPLE.COM",
                "--hdfs-keytab",
                missingKeytab.toString()));
    assertOneLine(
        ExitCode.INVALID_INPUT,
        "flafka: Kerberos login to HDFS failed: keytab '"
            + missingKeytab
            + "' does not exist; setting: --hdfs-keytab. Fix: place the keytab of"
            + " 'me@EXAMPLE.COM' there, readable by this user only (mode 0400).",
        noKeytab);
    assertTrue(
        Files.notExists(dir.resolve("out")), "no results directory for a sweep that never started");
  }

  @Tag("e2e")
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void clusterMistakesAndAFailedRestartEndInOneLineWithNothingLeftRunning() throws Exception {
    Set<Long> before = children();
    Path space = Files.writeString(dir.resolve("one.yml"), SPACE);
    Path password = Files.writeString(dir.resolve("password"), "s3cret\n");
    Path wrong = Files.writeString(dir.resolve("wrong"), "nope\n");
    try (KafkaBroker kafka = KafkaBroker.start(dir.resolve("kafka"));
        CmEmulator emulator =
            CmEmulator.start(
                CmEmulatorConfig.builder(dir.resolve("cm"))
                    .kafka(kafka)
                    .credentials("admin", "s3cret")
                    .agents(2)
                    .sampleInterval(Duration.ofSeconds(1))
                    .agentJvmOptions(
                        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"))
                    .build());
        CmValidatingProxy proxy = new CmValidatingProxy(emulator.url(), Strictness.DECLARED_ONLY);
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<String> common =
          List.of(
              "sweep",
              space.toString(),
              "--target",
              "cm",
              "--cm-url",
              proxy.url(),
              "--cm-command-poll-interval-ms",
              "200",
              "--hdfs-root",
              "hdfs://127.0.0.1:1/flafka-sweep",
              "--agent-data-dir",
              dir.resolve("agents").toString(),
              "--edge-bind-address",
              "127.0.0.1",
              "--port",
              Integer.toString(taken.getLocalPort()));

      Result unauthorized = run(with(common, "--cm-password-file", wrong.toString()));
      assertOneLine(
          ExitCode.UNEXPECTED_STATE,
          "flafka: Cloudera Manager at "
              + proxy.url()
              + " rejected user 'admin' (HTTP 401): check --cm-user / --cm-password-file "
              + wrong,
          unauthorized);

      Result undiscovered =
          run(
              with(
                  common,
                  "--cm-password-file",
                  password.toString(),
                  "--out",
                  dir.resolve("out").toString()));
      assertOneLine(
          ExitCode.UNEXPECTED_STATE,
          "flafka: cannot tell which AGENT role config group of service"
              + " 'flume' runs the edge agent (no group names say 'edge'): give it with --cm-edge-group; AGENT"
              + " groups there: flume-AGENT-2 (1 role), flume-AGENT-BASE (1 role)",
          undiscovered);

      Result noGroup =
          run(
              with(
                  common,
                  "--cm-password-file",
                  password.toString(),
                  "--out",
                  dir.resolve("out").toString(),
                  "--cm-edge-group",
                  "flume-AGENT-BASE",
                  "--cm-core-group",
                  "core"));
      assertOneLine(
          ExitCode.UNEXPECTED_STATE,
          "flafka: role config group 'core' (--cm-core-group) not found among"
              + " the AGENT groups of service 'flume' in cluster 'Cluster 1'; AGENT groups there: flume-AGENT-2"
              + " (1 role), flume-AGENT-BASE (1 role)",
          noGroup);

      Result noService =
          run(
              with(
                  common,
                  "--cm-password-file",
                  password.toString(),
                  "--out",
                  dir.resolve("out").toString(),
                  "--cm-flume-service",
                  "flume2"));
      assertOneLine(
          ExitCode.UNEXPECTED_STATE,
          "flafka: service 'flume2' not found in cluster 'Cluster 1' of"
              + " Cloudera Manager at "
              + proxy.url()
              + "; services there: flume (FLUME), kafka (KAFKA)",
          noService);

      // the edge cannot bind its port: CM's restart command fails, the trial fails with CM's
      // message
      Path out = dir.resolve("failed");
      Result failed =
          run(
              with(
                  common,
                  "--cm-password-file",
                  password.toString(),
                  "--out",
                  out.toString(),
                  "--cm-edge-group",
                  "flume-AGENT-BASE",
                  "--cm-core-group",
                  "flume-AGENT-2"));
      assertEquals(ExitCode.FAILED, failed.code(), failed.toString());
      List<String> errorLines =
          failed.err().lines().filter(line -> line.startsWith("flafka: ")).toList();
      assertEquals(1, errorLines.size(), failed.toString());
      assertTrue(
          errorLines.get(0).startsWith("flafka: no trial could be measured; the reasons are in "),
          failed.toString());
      assertTrue(failed.err().contains("] failed: repeat 1: 'Restart' (command "), failed.err());
      JsonNode trial;
      try (Stream<Path> runs = Files.list(out)) {
        trial =
            new ObjectMapper()
                .readTree(runs.findFirst().orElseThrow().resolve("results.json").toFile())
                .at("/trials/0");
      }
      String reason = trial.get("reason").asText();
      assertEquals("failed", trial.get("status").asText(), trial.toString());
      assertTrue(
          reason.matches(
              "repeat 1: 'Restart' \\(command \\d+\\) on role flume-AGENT-[12] failed: Flume agent"
                  + " '(edge|core)' of role flume-AGENT-[12] did not start: .*"),
          reason);
      proxy.assertConforms();

      CmClient client =
          CmClient.connect(
              CmClientConfig.from(
                  Map.of(CmClientConfig.URL, emulator.url()),
                  Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "s3cret")));
      for (ApiRole role : client.roles("Cluster 1", "flume")) {
        assertEquals("STOPPED", role.roleState(), role.toString());
      }
      assertEquals(
          List.of(),
          client
              .roleConfigGroupConfig(
                  "Cluster 1", "flume", "flume-AGENT-BASE", CmClient.ConfigView.SUMMARY)
              .stream()
              .map(ApiConfig::name)
              .toList());
    }
    assertEquals(before, children(), "no agent process is left");
  }

  private static String[] with(List<String> common, String... more) {
    List<String> all = new ArrayList<>(common);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /**
   * Exit {@code code}, and {@code line} is the one error line (progress lines start "flafka sweep:
   * ").
   */
  private static void assertOneLine(int code, String line, Result result) {
    assertEquals(code, result.code(), result.toString());
    assertEquals(
        List.of(line),
        result.err().lines().filter(l -> l.startsWith("flafka: ")).toList(),
        result.toString());
  }
}
