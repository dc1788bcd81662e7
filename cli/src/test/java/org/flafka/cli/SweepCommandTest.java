package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka sweep}'s command line: every user mistake gets one line and an exit code, and
 * nothing runs on.
 */
class SweepCommandTest {
  @TempDir Path dir;

  private Set<Long> childrenBefore;
  private String out;
  private String err;

  @BeforeEach
  void rememberChildren() {
    childrenBefore = children();
  }

  @AfterEach
  void nothingLeftRunning() {
    assertEquals(childrenBefore, children(), "processes left running");
  }

  private static Set<Long> children() {
    return ProcessHandle.current()
        .descendants()
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }

  private int run(String... args) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = Flafka.execute(new PrintWriter(stdout), new PrintWriter(stderr), args);
    out = stdout.toString();
    err = stderr.toString();
    return code;
  }

  private Path space(String text) throws Exception {
    Path file = dir.resolve("space.yml");
    Files.writeString(file, text);
    return file;
  }

  @Test
  void aMalformedSpaceFileIsOneLineAndExitTwo() throws Exception {
    Path file = space("dimensions:\n  core_hdfs_sinks: [1, 2\n");
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", file.toString(), "--out", dir.toString()));
    assertEquals(
        "flafka: "
            + file
            + ":3: not valid YAML: while parsing a flow sequence, expected ',' or ']', but"
            + " got <stream end>; check the indentation and quoting on that line\n",
        err);
    assertEquals("", out);
    assertEquals(
        List.of("space.yml"), listing(dir), "no results directory for a space that does not parse");
  }

  @Test
  void anUnknownDimensionIsOneLineAndExitTwo() throws Exception {
    Path file = space("dimensions:\n  core_hdfs_sink: [1, 2]\n");
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", file.toString()));
    assertEquals(
        "flafka: "
            + file
            + ":2: dimensions.core_hdfs_sink: unknown dimension 'core_hdfs_sink': not a"
            + " variable of the edge or core template, nor topic_partitions or load.<setting>; did you mean"
            + " core_hdfs_sinks? `flafka sweep --list-knobs` lists them all\n",
        err);
  }

  @Test
  void aMissingSpaceFileOrBuiltInIsOneLineAndExitTwo() {
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "nope.yml"));
    assertEquals(
        "flafka: nope.yml: no such file; give the path of a space file, or one of the built-in spaces:"
            + " default, core, lanes, batching, producer, channels\n",
        err);
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "fastest"));
    assertTrue(err.startsWith("flafka: built-in:fastest: there is no such built-in space"), err);
  }

  @Test
  void badFlagsAreOneLineAndExitTwo() {
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "--strategy", "annealing"));
    assertEquals(
        "flafka: --strategy: unknown strategy 'annealing'; use one of grid, descent\n", err);
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "--measure", "0.5s"));
    assertEquals(
        "flafka: timing flags: measure must be at least 1s, so counters move between two reads\n",
        err);
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "--target", "cm", "--out", dir.toString()));
    assertEquals(
        "flafka: --target cm needs --hdfs-root: the HDFS directory the core agent writes into and the"
            + " audit reads from this machine, e.g. hdfs://nameservice1/tmp/flafka-sweep\n",
        err);
    assertEquals(ExitCode.INVALID_INPUT, run("sweep", "--target", "yarn", "--out", dir.toString()));
    assertEquals("flafka: --target must be local or cm, not 'yarn'\n", err);
  }

  @Test
  void secureIsRefusedForTheCmTargetNamingTheOptionsThatSecureACluster() {
    assertEquals(
        ExitCode.INVALID_INPUT,
        run("sweep", "--target", "cm", "--secure", "--out", dir.toString()));
    assertEquals(
        "flafka: --secure applies to --target local only. Fix: leave it out and give the cluster's"
            + " own security with --kafka-config, --hdfs-principal, --hdfs-keytab and"
            + " --hdfs-config (the sweep's), --edge-vars and --core-vars (the agents')\n",
        err);
    assertEquals("", out);
  }

  @Test
  void theAgentsOwnVariablesAreCheckedBeforeAnythingConnects() throws Exception {
    Path file =
        space(
            "name: tiny\nset: {hdfs_kerberos_principal: x@R}\n"
                + "dimensions:\n  kafka_sasl_mechanism: [GSSAPI, SCRAM-SHA-512]\n");
    Path results = dir.resolve("results");
    String[] cm = {
      "sweep",
      file.toString(),
      "--target",
      "cm",
      "--hdfs-root",
      "hdfs://nn:8020/s",
      "--out",
      results.toString()
    };
    Path edge = Files.writeString(dir.resolve("edge.yml"), "kafka_bootstrap_servers: b:9093\n");
    assertEquals(ExitCode.INVALID_INPUT, run(concat(cm, "--edge-vars", edge.toString())));
    assertEquals(
        "flafka: --edge-vars '"
            + edge
            + "': 'kafka_bootstrap_servers' is set by the cm target for each run (servers, ports,"
            + " paths, names). Fix: remove it and give the brokers with --kafka-bootstrap\n",
        err);

    Files.writeString(edge, "hdfs_kerberos_keytab: /etc/k.keytab\n");
    assertEquals(ExitCode.INVALID_INPUT, run(concat(cm, "--edge-vars", edge.toString())));
    assertEquals(
        "flafka: --edge-vars '"
            + edge
            + "': 'hdfs_kerberos_keytab' is not a variable of the edge template. Fix: remove it, or"
            + " check its name with flafka render edge --list-variables\n",
        err);

    Files.writeString(edge, "kafka_security_protocol: TLS\n");
    assertEquals(ExitCode.INVALID_INPUT, run(concat(cm, "--edge-vars", edge.toString())));
    assertTrue(
        err.startsWith("flafka: --edge-vars '" + edge + "': ")
            && err.contains("kafka_security_protocol")
            && err.contains("TLS"),
        err);

    // what the space sets or sweeps is the space's: a second value would be overridden unseen
    Path core = Files.writeString(dir.resolve("core.yml"), "kafka_sasl_mechanism: GSSAPI\n");
    assertEquals(ExitCode.INVALID_INPUT, run(concat(cm, "--core-vars", core.toString())));
    assertEquals(
        "flafka: --core-vars '"
            + core
            + "': 'kafka_sasl_mechanism' is also swept by space 'tiny'. Fix: keep it in one place:"
            + " the agent's host and login in --core-vars, what to measure in the space\n",
        err);
    Files.writeString(core, "hdfs_kerberos_principal: flafka-core@R\n");
    assertEquals(ExitCode.INVALID_INPUT, run(concat(cm, "--core-vars", core.toString())));
    assertTrue(err.contains("'hdfs_kerberos_principal' is also set by space 'tiny'"), err);

    assertEquals(
        ExitCode.INVALID_INPUT,
        run("sweep", file.toString(), "--core-vars", core.toString(), "--out", results.toString()));
    assertEquals("flafka: --core-vars applies to --target cm only\n", err);
    assertFalse(Files.exists(results), "nothing made before the variables are checked");
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }

  @Test
  void aPortInUseIsOneLineAndExitThreeWithNothingStarted() throws Exception {
    Path file = space("dimensions:\n  core_hdfs_sinks: [1]\n");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertEquals(
          ExitCode.UNEXPECTED_STATE,
          run(
              "sweep",
              file.toString(),
              "--port",
              Integer.toString(port),
              "--out",
              dir.resolve("results").toString()));
      List<String> lines = err.lines().filter(line -> line.startsWith("flafka: ")).toList();
      assertEquals(1, lines.size(), err);
      assertTrue(
          lines.get(0).startsWith("flafka: TCP port " + port + " on 127.0.0.1 is in use ("), err);
      assertTrue(
          lines
              .get(0)
              .endsWith(
                  "): choose a free one with --port, or leave --port out to use any free"
                      + " port"),
          err);
    }
  }

  @Test
  void aMissingJavaIsOneLineAndExitThree() throws Exception {
    // bin/flafka with a PATH that has bash and coreutils' dirname but no java
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String tool : List.of("bash", "dirname")) {
      Path real = Path.of("/usr/bin", tool).toRealPath();
      Files.createSymbolicLink(bin.resolve(tool), real);
    }
    Path launcher = Path.of("..", "bin", "flafka").toAbsolutePath().normalize();
    ProcessBuilder process =
        new ProcessBuilder(launcher.toString(), "sweep")
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    process.environment().put("PATH", bin.toString());
    Process started = process.start();
    String output = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(ExitCode.UNEXPECTED_STATE, started.waitFor());
    assertEquals(
        "flafka: java not found on PATH: install a JDK 17 or newer (e.g. apt-get install"
            + " openjdk-17-jdk-headless)\n",
        output);
  }

  @Test
  void dryRunListsTheTrialsAndWhatTheRulesPrune() throws Exception {
    Path file =
        space(
            """
                set: {core_channel_type: memory, core_channel_transaction_capacity: 10000}
                dimensions:
                  core_hdfs_batch_size: [1000, 20000]
                  core_kafka_sources: [2, 8]
                """);
    assertEquals(
        ExitCode.OK,
        run("sweep", file.toString(), "--dry-run", "--out", dir.resolve("r").toString()));
    List<String> lines = out.lines().toList();
    assertEquals(
        "space space ("
            + file
            + "): 4 points; strategy grid plans ~4 trials; each trial 10s warm-up +"
            + " 15s measured, 1 repeat",
        lines.get(0));
    assertEquals("defaults: core_hdfs_batch_size=10000 core_kafka_sources=2", lines.get(1));
    assertEquals("point 1: core_hdfs_batch_size=1000 core_kafka_sources=2", lines.get(3));
    assertTrue(
        lines
            .get(4)
            .startsWith(
                "point 2: core_hdfs_batch_size=1000 core_kafka_sources=8  PRUNED: core lint"
                    + " WARNING [kafka-sources-vs-partitions]"),
        lines.get(4));
    assertTrue(
        lines
            .get(5)
            .startsWith(
                "point 3: core_hdfs_batch_size=20000 core_kafka_sources=2  PRUNED: core lint"
                    + " ERROR [transaction-capacity]"),
        lines.get(5));
    assertEquals(7, lines.size(), out);
    assertFalse(Files.exists(dir.resolve("r")), "a dry run writes nothing");
  }

  @Test
  void listsSpacesKnobsAndShowsASpace() {
    assertEquals(ExitCode.OK, run("sweep", "--list-spaces"));
    assertEquals(
        List.of("default", "core", "lanes", "batching", "producer", "channels"),
        out.lines().map(line -> line.split(" ")[0]).toList());
    assertEquals(ExitCode.OK, run("sweep", "--list-knobs"));
    assertTrue(out.contains("edge_kafka_sinks (edge) = 2\n"), out);
    assertTrue(out.contains("topic_partitions (topic) = 4\n"), out);
    assertTrue(out.contains("load.rate (load) = max\n"), out);
    assertTrue(
        out.contains("Set by the target, not by spaces: agent_name, core_consumer_group,"), out);
    assertEquals(ExitCode.OK, run("sweep", "--show-space", "default"));
    assertTrue(out.contains("name: default\n"), out);
  }

  private static List<String> listing(Path dir) throws Exception {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
