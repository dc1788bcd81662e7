package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.HdfsProcess;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.OurPlugins;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flafka cm-emulator}: a CM emulator on this machine with a local broker and N real Flume
 * agents (syslog TCP → memory channel → Kafka sink), to preview the dashboards or try {@code
 * --target cm} without a CM.
 */
@Command(
    name = "cm-emulator",
    mixinStandardHelpOptions = true,
    description = {
      "Run a Cloudera Manager emulator backed by a local Kafka broker and real Flume agents.",
      "Each AGENT role starts as syslog TCP -> memory channel -> Kafka sink (topic syslog); a config PUT plus a"
          + " restart through the CM API really restarts it. /timeseries answers from the agents' metrics.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka cm-emulator --port 7180 --agents 2",
      "  flafka load --target 127.0.0.1:<agent port> --rate 2000 --duration 60s",
      "  flafka dashboards render --cm-url http://127.0.0.1:7180 --out preview/ --window 5m",
    })
final class CmEmulatorCommand implements Callable<Integer> {
  static final String TOPIC = "syslog";

  @Option(
      names = "--port",
      defaultValue = "7180",
      paramLabel = "PORT",
      description = "Port on 127.0.0.1 (0 = any free port; default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--user",
      defaultValue = "admin",
      paramLabel = "USER",
      description = "Basic-auth user (default: ${DEFAULT-VALUE}).")
  String user;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the password (default: FLAFKA_CM_PASSWORD, else 'admin').")
  Path passwordFile;

  @Option(
      names = "--agents",
      defaultValue = "1",
      paramLabel = "N",
      description = "Flume AGENT roles (default: ${DEFAULT-VALUE}).")
  int agents;

  @Option(
      names = "--sample-interval",
      defaultValue = "10s",
      paramLabel = "TIME",
      description = "How often metrics are sampled (CM: about 1m; default: ${DEFAULT-VALUE}).")
  String sampleInterval;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Work directory (default: a new temporary directory).")
  Path dir;

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      description = "Stop after this long (default: until Ctrl-C).")
  String duration;

  @Option(
      names = "--hdfs",
      description =
          "Also run a single-node HDFS (MiniDFSCluster, a child process), so"
              + " 'flafka sweep --target cm' can run against the emulator (with --agents 2: role 1 edge, role 2 core).")
  boolean hdfs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (agents < 1 || agents > CmEmulatorConfig.MAX_AGENTS) {
      throw UserException.invalidInput(
          "--agents " + agents + " must be 1.." + CmEmulatorConfig.MAX_AGENTS);
    }
    Duration interval = DashboardsCommand.duration(sampleInterval);
    Duration runFor = duration == null ? null : DashboardsCommand.duration(duration);
    String password = password();
    Path work =
        dir != null
            ? Files.createDirectories(dir)
            : Files.createTempDirectory("flafka-cm-emulator");
    PrintWriter out = spec.commandLine().getOut();
    try (KafkaBroker kafka = KafkaBroker.start(work.resolve("kafka"));
        HdfsProcess namenode = hdfs ? HdfsProcess.start(work.resolve("hdfs")) : null) {
      kafka.createTopic(TOPIC, 3);
      Map<Integer, CmEmulatorConfig.AgentConfig> initial = new LinkedHashMap<>();
      Map<Integer, Integer> ports = new LinkedHashMap<>();
      for (int i = 1; i <= agents; i++) {
        int syslogPort = freePort();
        ports.put(i, syslogPort);
        initial.put(
            i,
            new CmEmulatorConfig.AgentConfig(
                "tier1", syslogToKafka("tier1", syslogPort, kafka.bootstrapServers())));
      }
      CmEmulatorConfig config =
          CmEmulatorConfig.builder(work.resolve("cm"))
              .port(port)
              .credentials(user, password)
              .agents(agents)
              .kafka(kafka)
              .sampleInterval(interval)
              .initialConfigs(initial)
              .runtime(OurPlugins.addTo(AgentRuntime.locate()))
              .build();
      CountDownLatch stopped = new CountDownLatch(1);
      try (CmEmulator emulator = startEmulator(config)) {
        Thread hook = new Thread(stopped::countDown, "cm-emulator-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println(
            "CM emulator at " + emulator.url() + " (user " + user + "), work directory " + work);
        out.println(
            "  services: flume (FLUME), kafka (KAFKA, broker "
                + kafka.bootstrapServers()
                + ", topic "
                + TOPIC
                + ")");
        List<String> roles = emulator.flumeRoles();
        for (int i = 1; i <= agents; i++) {
          out.println(
              "  role "
                  + roles.get(i - 1)
                  + ": syslog TCP on 127.0.0.1:"
                  + ports.get(i)
                  + "   flafka load --target 127.0.0.1:"
                  + ports.get(i)
                  + " --rate 2000 --duration 60s");
        }
        out.println(
            "  preview: flafka dashboards render --cm-url " + emulator.url() + " --out preview/");
        if (namenode != null) {
          out.println("  HDFS at " + namenode.uri());
          if (agents >= 2) {
            // role 1 is in the base group, role i > 1 in a group of its own named like it
            out.println(
                "  sweep:   "
                    + sweepCommand(
                        emulator.url(),
                        user,
                        passwordFileForSweep(work),
                        roles.get(1),
                        namenode.uri() + "/flafka-sweep",
                        work.resolve("agents"),
                        freePort()));
          }
        }
        out.println(runFor == null ? "Ctrl-C to stop." : "stopping after " + duration + ".");
        out.flush();
        if (runFor == null) {
          stopped.await();
        } else {
          stopped.await(runFor.toMillis(), TimeUnit.MILLISECONDS);
          Runtime.getRuntime().removeShutdownHook(hook);
        }
      }
    }
    return ExitCode.OK;
  }

  private static CmEmulator startEmulator(CmEmulatorConfig config) {
    try {
      return CmEmulator.start(config);
    } catch (java.io.UncheckedIOException e) {
      throw UserException.unexpectedState(e.getMessage() + ": choose another --port");
    }
  }

  /**
   * The {@code flafka sweep --target cm} command line that runs trials against this emulator, as
   * printed at start: role 1 (the base group) is the edge, role 2 (a group of its own, named like
   * the role) the core. It names the user when it is not the sweep's default, and the password as a
   * file, so the line runs as printed (the password itself never appears in it).
   */
  static String sweepCommand(
      String url,
      String user,
      Path passwordFile,
      String coreRole,
      String hdfsRoot,
      Path agentDataDir,
      int edgePort) {
    return "flafka sweep --target cm --cm-url "
        + url
        + ("admin".equals(user) ? "" : " --cm-user " + user)
        + " --cm-password-file "
        + passwordFile
        + " --cm-edge-group flume-AGENT-BASE --cm-core-group "
        + coreRole
        + " --hdfs-root "
        + hdfsRoot
        + " --agent-data-dir "
        + agentDataDir
        + " --edge-bind-address 127.0.0.1 --port "
        + edgePort;
  }

  /**
   * The file the printed sweep command reads the password from: the one given with {@code
   * --password-file}, else a new file in the work directory that only its owner can read.
   */
  private Path passwordFileForSweep(Path work) throws IOException {
    if (passwordFile != null) {
      return passwordFile.toAbsolutePath();
    }
    Path file = work.resolve("cm-password");
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, password() + "\n", StandardCharsets.UTF_8);
    return file.toAbsolutePath();
  }

  private String password() throws IOException {
    if (passwordFile != null) {
      if (!Files.isReadable(passwordFile)) {
        throw UserException.invalidInput("--password-file " + passwordFile + " cannot be read");
      }
      List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
      if (lines.isEmpty() || lines.get(0).isEmpty()) {
        throw UserException.invalidInput(
            "--password-file " + passwordFile + " is empty: put the password on its first line");
      }
      return lines.get(0);
    }
    String fromEnvironment = System.getenv("FLAFKA_CM_PASSWORD");
    return fromEnvironment == null || fromEnvironment.isEmpty() ? "admin" : fromEnvironment;
  }

  /** Syslog TCP → memory → Kafka sink: stock Flume components, so the preview needs no plugin. */
  static String syslogToKafka(String agent, int port, String bootstrapServers) {
    return String.join(
        "\n",
        agent + ".sources = r1",
        agent + ".channels = c1",
        agent + ".sinks = k1",
        agent + ".sources.r1.type = syslogtcp",
        agent + ".sources.r1.host = 127.0.0.1",
        agent + ".sources.r1.port = " + port,
        agent + ".sources.r1.channels = c1",
        agent + ".channels.c1.type = memory",
        agent + ".channels.c1.capacity = 10000",
        agent + ".channels.c1.transactionCapacity = 1000",
        agent + ".sinks.k1.type = org.apache.flume.sink.kafka.KafkaSink",
        agent + ".sinks.k1.channel = c1",
        agent + ".sinks.k1.kafka.bootstrap.servers = " + bootstrapServers,
        agent + ".sinks.k1.kafka.topic = " + TOPIC,
        agent + ".sinks.k1.flumeBatchSize = 500",
        agent + ".sinks.k1.kafka.producer.linger.ms = 5",
        "");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
