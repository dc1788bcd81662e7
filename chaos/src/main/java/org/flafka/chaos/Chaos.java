package org.flafka.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.flafka.audit.Audit;
import org.flafka.audit.AuditException;
import org.flafka.audit.AuditResult;
import org.flafka.audit.HdfsPathSource;
import org.flafka.audit.Manifest;
import org.flafka.load.Clock;
import org.flafka.load.FormatMix;
import org.flafka.load.Framing;
import org.flafka.load.LoadGenerator;
import org.flafka.load.LoadResult;
import org.flafka.load.LoadSettings;
import org.flafka.load.Protocol;
import org.flafka.load.SizeSpec;
import org.flafka.load.TlsSettings;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.ChildProcess;
import org.flafka.stack.Hdfs;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.OurPlugins;

/**
 * Runs the fault suite ({@code flafka chaos}): each case on a fresh topic and HDFS root, with an
 * edge and a core agent rendered from the templates with their DEFAULTS (only what places them here
 * is set: addresses, ports, topic, directories) and run as real Flume processes.
 *
 * <p>A case: start the core and the edge; {@code flafka load} sends marked syslog to the edge at a
 * fixed rate; after {@code lead} the fault strikes and lasts {@code outage} (a killed agent is
 * started again after {@link ChaosSettings#KILL_DOWNTIME}); the load goes on for {@code tail} after
 * the fault ends; the pipeline is given until {@code settleTimeout} to drain (the edge's channels
 * empty, the core's consumer group at the end of the topic); both agents stop cleanly and {@code
 * flafka audit} reads what landed in HDFS (published files only, as Hive would) against what the
 * load sent.
 *
 * <p>Time to recover: from the end of the fault until the core's consumer group has committed as
 * many records as the load had sent by then, i.e. until what was offered during the outage has
 * reached HDFS.
 *
 * <p>The stack lives in this JVM: a restartable KRaft broker whose clients reach it through a proxy
 * (the edge, so its link can go dark) or a direct listener (the core, in the data centre), and a
 * MiniDFSCluster whose NameNode and DataNode can stop and restart.
 */
public final class Chaos {
  /**
   * How long a clean stop of an agent may take before it is killed: systemd's default stop timeout,
   * so a slow stop shows in the case's notes instead of as files left unpublished.
   */
  static final Duration CLEAN_STOP_GRACE = Duration.ofSeconds(90);

  /**
   * Most events the edge's sinks hold waiting for Kafka's acknowledgement, in the edge defaults the
   * suite runs: edge_kafka_sinks × edge_kafka_flume_batch_size.
   */
  static final long EDGE_SINKS_HOLD =
      edgeDefault("edge_kafka_sinks") * edgeDefault("edge_kafka_flume_batch_size");

  private static final int PARTITIONS = 4;
  private static final int DEVICES = 40;
  private static final int MESSAGE_BYTES = 200;
  private static final Duration POLL = Duration.ofMillis(500);

  /** The number in an HDFS sink's file name: the time the sink started, plus files opened since. */
  private static final Pattern FILE_NUMBER = Pattern.compile("\\.(\\d{10,18})\\.");

  /** Long enough never to end by itself: the runner stops the load. */
  private static final Duration LOAD_LIMIT = Duration.ofDays(1);

  private final ChaosSettings settings;
  private final Consumer<String> progress;
  private KafkaBroker broker;
  private Hdfs hdfs;
  private AgentRuntime runtime;

  /** {@code progress} gets one line per step; never null. */
  public Chaos(ChaosSettings settings, Consumer<String> progress) {
    this.settings = settings.validate();
    this.progress = progress;
  }

  /**
   * Runs every case and returns what each found; the stack is stopped and deleted at the end.
   * {@code runtime} is the agents' classpath with our plugins.
   */
  public List<CaseResult> run(AgentRuntime agentRuntime) {
    this.runtime = agentRuntime;
    List<CaseResult> results = new ArrayList<>();
    Path work = settings.workDir().toAbsolutePath();
    progress.accept("starting Kafka (KRaft, restartable) and HDFS (MiniDFSCluster) in " + work);
    broker = KafkaBroker.startRestartable(work.resolve("kafka"), Map.of());
    try {
      hdfs = Hdfs.start(work.resolve("hdfs"));
      int number = 0;
      for (ChaosSettings.Case chaosCase : settings.cases()) {
        number++;
        CaseResult result = runCase(chaosCase, number);
        results.add(result);
        progress.accept(ReliabilityTable.line(result));
      }
    } finally {
      try {
        if (hdfs != null) {
          hdfs.close();
        }
      } finally {
        broker.close();
      }
    }
    return results;
  }

  /** The agent classpath for a run from the CLI or a test: our plugins on this classpath. */
  public static AgentRuntime defaultRuntime() {
    return OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
  }

  private CaseResult runCase(ChaosSettings.Case chaosCase, int number) {
    Fault fault = chaosCase.fault();
    String name = String.format(Locale.ROOT, "%02d-%s", number, chaosCase.name());
    String topic = "chaos-" + name;
    Path dir = settings.workDir().toAbsolutePath().resolve("cases").resolve(name);
    String hdfsPath = "/chaos/" + name;
    broker.createTopic(topic, PARTITIONS);
    int tcpPort = freeTcpPort();
    int udpPort = freeUdpPort();
    String edgeProperties =
        AgentTemplates.render(Tier.EDGE, edgeVariables(topic, tcpPort, udpPort, dir, fault));
    String group = "chaos-" + name;
    String coreProperties =
        AgentTemplates.render(
            Tier.CORE, coreVariables(topic, group, hdfs.uri() + hdfsPath, dir, fault));
    progress.accept(
        name
            + ": "
            + fault.description()
            + (settings.protectionOff() ? " (protection off: " + fault.protection() + ")" : ""));

    AgentProcess core = startAgent("core", coreProperties, dir.resolve("core-agent"));
    AgentProcess edge = null;
    EdgeCounts edgeCounts = null;
    long acceptedBeforeKill = -1;
    long restartedMillis = -1;
    try {
      edge = startEdge(edgeProperties, dir, fault);
      int port = chaosCase.transport() == Protocol.UDP ? udpPort : tcpPort;
      LoadGenerator generator =
          new LoadGenerator(loadSettings(chaosCase.transport(), port), Clock.SYSTEM);
      CompletableFuture<LoadResult> load = CompletableFuture.supplyAsync(() -> runLoad(generator));
      sleep(settings.lead());

      switch (fault) {
        case EDGE_KILL -> {
          acceptedBeforeKill = accepted(edge);
          sleep(ChaosSettings.KILL_ACCEPTED_LAG);
          edge.kill();
          sleep(ChaosSettings.KILL_DOWNTIME);
          edge = startEdge(edgeProperties, dir, fault);
        }
        case EDGE_KILL_IN_OUTAGE -> {
          broker.stop();
          Duration half = settings.outage().dividedBy(2);
          sleep(half);
          acceptedBeforeKill = accepted(edge);
          edge.kill();
          sleep(ChaosSettings.KILL_DOWNTIME);
          edge = startEdge(edgeProperties, dir, fault);
          sleep(settings.outage().minus(half).minus(ChaosSettings.KILL_DOWNTIME));
          broker.restart();
        }
        case CORE_KILL -> {
          core.kill();
          sleep(ChaosSettings.KILL_DOWNTIME);
          restartedMillis = System.currentTimeMillis();
          core = startAgent("core", coreProperties, dir.resolve("core-agent"));
        }
        case EDGE_BROKER_STOPPED, EDGE_DISK_FULL -> {
          broker.stop();
          sleep(settings.outage());
          broker.restart();
        }
        case EDGE_BLACK_HOLE -> {
          broker.clientProxy().blackHole();
          sleep(settings.outage());
          broker.clientProxy().restore();
        }
        case HDFS_AWAY -> {
          hdfs.stopNameNode();
          sleep(settings.outage());
          hdfs.restartNameNode();
        }
        case BROKER_RESTART -> {
          broker.stop();
          broker.restart();
        }
        case DATANODE_AWAY -> {
          hdfs.stopDataNode();
          sleep(settings.outage());
          hdfs.restartDataNode();
        }
      }
      long faultEnded = System.nanoTime();
      long sentByFaultEnd = generator.progress().events();
      // What the edge dropped and counted never reaches the core: recovered means the rest arrived
      long reachableByFaultEnd = sentByFaultEnd - EdgeCounts.of(edge).dropped();
      progress.accept(
          String.format(
              Locale.ROOT,
              "%s: fault over; %,d events sent so far; waiting for the core to catch up",
              name,
              sentByFaultEnd));

      Duration recovery = null;
      boolean drainedShort = false;
      long tailEnd = faultEnded + settings.tail().toNanos();
      long recoveryDeadline = tailEnd + settings.settleTimeout().toNanos();
      boolean loadStopped = false;
      int drainedPolls = 0;
      while (System.nanoTime() < recoveryDeadline) {
        if (!loadStopped && System.nanoTime() >= tailEnd) {
          generator.stop();
          loadStopped = true;
        }
        if (recovery == null && committed(topic, group) >= reachableByFaultEnd) {
          recovery = Duration.ofNanos(System.nanoTime() - faultEnded);
        }
        if (recovery != null && loadStopped) {
          break;
        }
        // Events lost on the way never reach the core: once the load has stopped and everything
        // the pipeline still holds has drained, waiting longer cannot help
        drainedPolls = loadStopped && drained(edge, topic, group) ? drainedPolls + 1 : 0;
        if (recovery == null && drainedPolls >= 2) {
          drainedShort = true;
          break;
        }
        sleep(POLL);
      }
      generator.stop();
      LoadResult sent = awaitLoad(load);
      settle(edge, topic, group);
      if (restartedMillis > 0) {
        awaitPublished(hdfsPath, restartedMillis);
      }
      edgeCounts = EdgeCounts.of(edge);
      edge.stop(CLEAN_STOP_GRACE);
      long stopStarted = System.nanoTime();
      core.stop(CLEAN_STOP_GRACE);
      Duration coreStop = Duration.ofNanos(System.nanoTime() - stopStarted);

      AuditResult audit = audit(sent, hdfsPath);
      long duplicated = audit.duplicates();
      long missing = audit.missing();
      CaseResult result =
          new CaseResult(
              chaosCase,
              settings.protectionOff(),
              outageOf(fault),
              audit.sent(),
              audit.delivered(),
              missing,
              duplicated,
              acceptedBeforeKill,
              edgeCounts.dropped(),
              edgeCounts.diskErrors(),
              recovery,
              drainedShort,
              settings.expectedToPass(fault),
              false,
              note(sent, audit, coreStop, edgeCounts));
      return withVerdict(result);
    } finally {
      if (edge != null && edge.isAlive()) {
        edge.kill();
      }
      if (core.isAlive()) {
        core.kill();
      }
      // A fault that failed halfway must not leave the next case without a broker or HDFS
      if (!broker.isRunning()) {
        broker.restart();
      }
      if (broker.clientProxy().isBlackHoled()) {
        broker.clientProxy().restore();
      }
      if (!hdfs.isNameNodeUp()) {
        hdfs.restartNameNode();
      }
      hdfs.restartDataNode();
    }
  }

  private static CaseResult withVerdict(CaseResult result) {
    boolean passed =
        switch (result.chaosCase().fault().expect()) {
          case NOTHING_MISSING -> result.missing() == 0;
          case NOTHING_MISSING_NOTHING_TWICE -> result.missing() == 0 && result.duplicated() == 0;
          case NOTHING_ACCEPTED_MISSING -> result.missingOfAccepted() == 0;
          case ACCEPTED_MISSING_AT_MOST_SINK_BATCHES ->
              result.missingOfAccepted() <= EDGE_SINKS_HOLD;
          case MISSING_IS_COUNTED ->
              result.missing() == result.dropped() && result.diskErrors() > 0;
        };
    return new CaseResult(
        result.chaosCase(),
        result.protectionOff(),
        result.outage(),
        result.sent(),
        result.delivered(),
        result.missing(),
        result.duplicated(),
        result.acceptedBeforeKill(),
        result.dropped(),
        result.diskErrors(),
        result.recovery(),
        result.drainedShort(),
        result.expectedToPass(),
        passed,
        result.note());
  }

  /** How long the fault lasted, as the table reports it. */
  private Duration outageOf(Fault fault) {
    return switch (fault) {
      case EDGE_KILL, CORE_KILL -> ChaosSettings.KILL_DOWNTIME;
      case BROKER_RESTART -> Duration.ZERO;
      default -> settings.outage();
    };
  }

  private static String note(
      LoadResult sent, AuditResult audit, Duration coreStop, EdgeCounts edgeCounts) {
    List<String> notes = new ArrayList<>();
    if (edgeCounts.dropped() > 0) {
      notes.add(String.format(Locale.ROOT, "the edge counted %,d dropped", edgeCounts.dropped()));
    }
    if (edgeCounts.diskErrors() > 0) {
      notes.add(
          String.format(
              Locale.ROOT,
              "its disk buffer counted %,d disk error(s) and recovered",
              edgeCounts.diskErrors()));
    }
    if (coreStop.compareTo(ChildProcess.STOP_GRACE) > 0) {
      notes.add(
          "the core's clean stop took "
              + coreStop.toSeconds()
              + " s (a supervisor that kills after "
              + ChildProcess.STOP_GRACE.toSeconds()
              + " s leaves its open files to the next start)");
    }
    if (sent.failure() != null) {
      notes.add("load ended early: " + sent.failure());
    }
    long beyond = audit.devices().stream().mapToLong(AuditResult.DeviceAudit::beyondSent).sum();
    if (beyond > 0) {
      notes.add(beyond + " beyond what the load counted as sent");
    }
    if (audit.corrupted() > 0) {
      notes.add(audit.corrupted() + " corrupted");
    }
    return String.join("; ", notes);
  }

  private Map<String, Object> edgeVariables(
      String topic, int tcpPort, int udpPort, Path dir, Fault fault) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("site", "chaos");
    variables.put("kafka_bootstrap_servers", broker.bootstrapServers());
    variables.put("kafka_topic", topic);
    variables.put("edge_bind_address", "127.0.0.1");
    variables.put("edge_tcp_port", tcpPort);
    variables.put("edge_udp_port", udpPort);
    variables.put("edge_data_dir", dir.resolve("edge-data").toString());
    if (fault == Fault.EDGE_DISK_FULL) {
      variables.put("edge_channel_capacity", Fault.DiskFull.CHANNEL_CAPACITY);
      variables.put("edge_channel_transaction_capacity", Fault.DiskFull.CHANNEL_CAPACITY / 2);
      variables.put("edge_kafka_flume_batch_size", Fault.DiskFull.CHANNEL_CAPACITY / 2);
    }
    if (settings.protectionOff()) {
      variables.putAll(fault.protectionOff(Tier.EDGE));
    }
    return variables;
  }

  private Map<String, Object> coreVariables(
      String topic, String group, String hdfsRoot, Path dir, Fault fault) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("kafka_bootstrap_servers", broker.directBootstrapServers());
    variables.put("kafka_topic", topic);
    variables.put("core_consumer_group", group);
    variables.put("core_hdfs_root", hdfsRoot);
    variables.put("core_data_dir", dir.resolve("core-data").toString());
    if (settings.protectionOff()) {
      variables.putAll(fault.protectionOff(Tier.CORE));
    }
    return variables;
  }

  private LoadSettings loadSettings(Protocol transport, int port) {
    return new LoadSettings(
            new InetSocketAddress("127.0.0.1", port),
            transport,
            transport == Protocol.UDP ? Framing.NONE : Framing.OCTET_COUNTING,
            transport == Protocol.UDP ? 1 : 4,
            DEVICES,
            settings.rate(),
            0,
            LOAD_LIMIT,
            FormatMix.parse("--mix", FormatMix.DEFAULT),
            SizeSpec.fixed(MESSAGE_BYTES),
            1,
            TlsSettings.DEFAULT)
        .validate();
  }

  private static LoadResult runLoad(LoadGenerator generator) {
    try {
      return generator.run(null, 1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosException("interrupted while sending", e);
    } catch (Exception e) {
      throw new ChaosException("the load could not start: " + e.getMessage(), e);
    }
  }

  private static LoadResult awaitLoad(CompletableFuture<LoadResult> load) {
    try {
      return load.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof ChaosException chaos
          ? chaos
          : new ChaosException("the load failed: " + e.getCause(), e.getCause());
    }
  }

  private AgentProcess startAgent(String agent, String properties, Path dir) {
    return agentBuilder(agent, properties, dir).start();
  }

  /** An agent on the suite's runtime, with its JVM options when the run gives some. */
  private AgentProcess.Builder agentBuilder(String agent, String properties, Path dir) {
    AgentProcess.Builder builder = AgentProcess.builder(agent, properties, dir).runtime(runtime);
    if (!settings.agentJvmOptions().isEmpty()) {
      builder.jvmOptions(settings.agentJvmOptions());
    }
    return builder;
  }

  private static long edgeDefault(String variable) {
    return Long.parseLong(String.valueOf(AgentTemplates.defaults(Tier.EDGE).get(variable)));
  }

  /** The edge agent; in {@link Fault#EDGE_DISK_FULL} with its data on a small file system. */
  private AgentProcess startEdge(String properties, Path dir, Fault fault) {
    AgentProcess.Builder builder = agentBuilder("edge", properties, dir.resolve("edge-agent"));
    if (fault == Fault.EDGE_DISK_FULL) {
      builder.privateFileSystem(dir.resolve("edge-data"), Fault.DiskFull.MIB * 1024L * 1024L);
    }
    return builder.start();
  }

  /**
   * What the edge counted as it ended a case: every event it dropped (sources: channel full,
   * processing errors, too large, the kernel's drops at its UDP sockets) and its disk buffers' disk
   * errors.
   */
  private record EdgeCounts(long dropped, long diskErrors) {
    private static final List<String> SOURCE_DROPS =
        List.of(
            "ChannelFullDropCount",
            "ProcessingErrorDropCount",
            "RecordTooLargeDropCount",
            "UdpSocketDropCount");

    static EdgeCounts of(AgentProcess edge) {
      AgentMetrics metrics = edge.metrics();
      long dropped = 0;
      for (String source : edge.components().sources()) {
        for (String drop : SOURCE_DROPS) {
          dropped += metrics.source(source, drop);
        }
      }
      long diskErrors = 0;
      for (String channel : edge.components().channels()) {
        diskErrors += metrics.channel(channel, "BufferDiskErrorCount");
      }
      return new EdgeCounts(dropped, diskErrors);
    }
  }

  /** Events the edge's sources have put into their channels. */
  private static long accepted(AgentProcess edge) {
    AgentMetrics metrics = edge.metrics();
    long accepted = 0;
    for (String source : edge.components().sources()) {
      accepted += metrics.source(source, "EventAcceptedCount");
    }
    return accepted;
  }

  /**
   * Waits until the edge's channels are empty and the core's group has committed the end of the
   * topic, twice in a row, or the settle timeout passes.
   */
  private void settle(AgentProcess edge, String topic, String group) {
    long deadline = System.nanoTime() + settings.settleTimeout().toNanos();
    int quiet = 0;
    while (System.nanoTime() < deadline && quiet < 2) {
      sleep(POLL);
      quiet = drained(edge, topic, group) ? quiet + 1 : 0;
    }
  }

  /** The edge's channels are empty and the core's group has committed the end of the topic. */
  private boolean drained(AgentProcess edge, String topic, String group) {
    if (!edge.isAlive()) {
      return false;
    }
    long held = 0;
    AgentMetrics metrics = edge.metrics();
    for (String channel : edge.components().channels()) {
      held += metrics.channel(channel, "ChannelSize");
    }
    return held == 0 && committed(topic, group) >= endOffsets(topic);
  }

  /**
   * Waits, up to the settle timeout, until no file the killed core left in progress stays so: the
   * restarted core recovers their leases and publishes them, and the audit, as Hive, reads only
   * published files. The restarted core's own files in progress are numbered from its start time.
   */
  private void awaitPublished(String hdfsPath, long restartedMillis) {
    long deadline = System.nanoTime() + settings.settleTimeout().toNanos();
    try (FileSystem fs = hdfs.newFileSystem()) {
      while (leftInProgress(fs, hdfsPath, restartedMillis) > 0 && System.nanoTime() < deadline) {
        sleep(POLL);
      }
    } catch (IOException e) {
      throw new ChaosException("could not list " + hdfsPath + ": " + e.getMessage(), e);
    }
  }

  /** In-progress files ({@code _<prefix>.<number>….tmp}) numbered before {@code millis}. */
  private static int leftInProgress(FileSystem fs, String hdfsPath, long millis)
      throws IOException {
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(hdfsPath);
    if (!fs.exists(root)) {
      return 0;
    }
    int left = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
    while (files.hasNext()) {
      String name = files.next().getPath().getName();
      if (!name.startsWith("_") || !name.endsWith(".tmp")) {
        continue;
      }
      Matcher number = FILE_NUMBER.matcher(name);
      if (number.find() && Long.parseLong(number.group(1)) < millis) {
        left++;
      }
    }
    return left;
  }

  private long committed(String topic, String group) {
    try (Admin admin = Admin.create(adminConfig())) {
      long sum = 0;
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : offsets.entrySet()) {
        if (entry.getKey().topic().equals(topic) && entry.getValue() != null) {
          sum += entry.getValue().offset();
        }
      }
      return sum;
    } catch (ExecutionException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosException("interrupted", e);
    }
  }

  private long endOffsets(String topic) {
    try (Admin admin = Admin.create(adminConfig())) {
      Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
      long sum = 0;
      for (var info : admin.listOffsets(latest).all().get().values()) {
        sum += info.offset();
      }
      return sum;
    } catch (ExecutionException e) {
      return Long.MAX_VALUE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosException("interrupted", e);
    }
  }

  private Map<String, Object> adminConfig() {
    return Map.of(
        "bootstrap.servers",
        broker.directBootstrapServers(),
        "request.timeout.ms",
        5_000,
        "default.api.timeout.ms",
        10_000);
  }

  private AuditResult audit(LoadResult sent, String hdfsPath) {
    try {
      return Audit.run(Manifest.of(sent), new HdfsPathSource(hdfs.uri(), hdfsPath));
    } catch (AuditException e) {
      throw new ChaosException("could not audit " + hdfsPath + ": " + e.getMessage(), e);
    }
  }

  private static int freeTcpPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freeUdpPort() {
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosException("interrupted", e);
    }
  }
}
