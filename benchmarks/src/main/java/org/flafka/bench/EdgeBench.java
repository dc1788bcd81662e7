package org.flafka.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.flafka.edge.source.UdpKernelStats;
import org.flafka.load.Clock;
import org.flafka.load.ConnectFailedException;
import org.flafka.load.FormatMix;
import org.flafka.load.Framing;
import org.flafka.load.LoadGenerator;
import org.flafka.load.LoadResult;
import org.flafka.load.LoadSettings;
import org.flafka.load.Protocol;
import org.flafka.load.SizeSpec;
import org.flafka.load.TlsSettings;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.KafkaBrokerProcess;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecurePipeline;
import org.flafka.stack.ThreadCpu;

/**
 * Runs {@code flafka bench edge}: one broker process for the whole run; per trial a fresh topic,
 * one agent process for one {@link Variant} (a Flume agent, or rsyslogd for an rsyslog variant),
 * and the load generator in this JVM sending to it over TCP (or UDP) loopback. Each trial warms up,
 * then measures a steady window between two snapshots of Kafka's end offsets, the agent's counters
 * and the CPU time of the agent process, the broker process and this JVM. Variants alternate within
 * each repeat, so a change in the machine's load hits all of them alike.
 *
 * <p>With {@code --secure} the broker is the {@link SecurePipeline}'s, in this JVM: the agents and
 * the bench's AdminClient reach it over SASL_SSL with Kerberos; its CPU is then not reported apart
 * from this JVM's, so neither is the generator's.
 *
 * <p>Every process this class starts is killed when a trial or the run ends, fails or is
 * interrupted (the stack also kills its children when this JVM exits).
 */
public final class EdgeBench {
  /**
   * Sent after the measure window ends too; the generator is stopped explicitly, so this only
   * bounds a hang.
   */
  private static final Duration LOAD_LIMIT = Duration.ofHours(24);

  private static final long JOIN_MILLIS = 15_000;
  private static final Duration FIRST_RECORDS_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

  // After the generator stops, the agent's sinks send what they hold within a batch's time: end
  // offsets still for this long mean it has delivered everything it will.
  private static final Duration SETTLED = Duration.ofSeconds(3);
  private static final Duration SETTLE_POLL = Duration.ofMillis(250);
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The JIT compilers' largest share of the agent's CPU, over each of the last two samples, to end
   * the warm-up.
   */
  private static final double JIT_SETTLED_SHARE = 0.05;

  private static final Duration JIT_SAMPLE = Duration.ofSeconds(5);

  private final EdgeBenchSettings settings;
  private final Consumer<String> progress;
  private final Object lock = new Object();
  private KafkaBrokerProcess broker;
  private SecurePipeline secure;
  private EdgeProcess agent;
  private LoadGenerator generator;
  private final RunControl control = new RunControl();

  /** {@code progress} gets one line per step (agent started, trial measured); never null. */
  public EdgeBench(EdgeBenchSettings settings, Consumer<String> progress) {
    this.settings = settings.validate();
    this.progress = progress;
  }

  /**
   * Runs every trial and returns them; throws {@link BenchException} naming the part that failed
   * and its log.
   */
  public EdgeBenchReport run() {
    AgentRuntime stock = AgentRuntime.locate();
    AgentRuntime ours = OurPlugins.addTo(stock);
    for (EdgeVariant variant : settings.variants()) {
      if (!variant.isFlumeAgent()) {
        RsyslogEdge.checkInstalled(
            settings.protocol(),
            variant.rsyslogBody(),
            settings.workDir().resolve(variant.fileName() + "-check"));
      }
    }
    List<Trial> trials = new ArrayList<>();
    long started = System.currentTimeMillis();
    startBroker();
    try (Admin admin = secure != null ? secure.client().admin() : broker.admin()) {
      int number = 0;
      for (int repeat = 1; repeat <= settings.repeats(); repeat++) {
        for (EdgeVariant variant : settings.variants()) {
          number++;
          control.checkNotAborted();
          Trial trial =
              runTrial(admin, variant, repeat, number, variant.usesPlugins() ? ours : stock);
          trials.add(trial);
          progress.accept(
              String.format(
                  java.util.Locale.ROOT,
                  "%s #%d: %,.0f events/s into Kafka; agent %.2f%s CPU-s per million events; "
                      + "load average %.1f",
                  variant.flagName(),
                  repeat,
                  trial.eventsPerSecond(),
                  trial.agentCpuPerMillion(),
                  Double.isNaN(trial.brokerCpuPerMillion())
                      ? ""
                      : String.format(
                          java.util.Locale.ROOT, ", broker %.2f", trial.brokerCpuPerMillion()),
                  trial.loadAverage()));
        }
      }
    } finally {
      closeBroker();
    }
    return new EdgeBenchReport(settings, trials, started, ReportFormat.machine());
  }

  private void startBroker() {
    if (settings.secure()) {
      SecurePipeline started = SecureStack.start(settings.workDir(), false, progress);
      synchronized (lock) {
        secure = started;
      }
      return;
    }
    progress.accept("starting the Kafka broker process in " + settings.workDir().resolve("broker"));
    KafkaBrokerProcess startedBroker =
        KafkaBrokerProcess.start(
            settings.workDir().resolve("broker"),
            Map.of(),
            KafkaBrokerProcess.DEFAULT_JVM_OPTIONS,
            settings.kafkaLatency());
    synchronized (lock) {
      broker = startedBroker;
    }
  }

  private String brokerLog() {
    return secure != null ? SecureStack.LOG : broker.log().toString();
  }

  /**
   * Stops everything at once (Ctrl-C): the running trial fails and {@link #run()} returns by
   * throwing.
   */
  public void abort() {
    control.abort();
    LoadGenerator load;
    EdgeProcess runningAgent;
    KafkaBrokerProcess runningBroker;
    synchronized (lock) {
      load = generator;
      runningAgent = agent;
      runningBroker = broker;
    }
    if (load != null) {
      load.stop();
    }
    if (runningAgent != null) {
      runningAgent.kill();
    }
    if (runningBroker != null) {
      runningBroker.kill();
    }
  }

  private Trial runTrial(
      Admin admin, EdgeVariant variant, int repeat, int number, AgentRuntime runtime) {
    String topic = "edge-bench-" + number;
    createTopic(admin, topic);
    int port = variant.choosesItsPort() ? 0 : freeLoopbackPort(settings.protocol());
    Variant.Target target =
        new Variant.Target(
            secure != null ? secure.bootstrapServers() : broker.bootstrapServers(),
            topic,
            port,
            settings.protocol());
    Path dir = settings.workDir().resolve(String.format("%02d-%s", number, variant.fileName()));
    progress.accept(variant.flagName() + " #" + repeat + ": starting the agent in " + dir);
    EdgeProcess started = startAgent(variant, target, dir, runtime);
    synchronized (lock) {
      agent = started;
    }
    LoadRun load = null;
    try {
      control.checkNotAborted();
      int listenPort = port != 0 ? port : awaitListenPort(started);
      load = new LoadRun(loadSettings(listenPort));
      synchronized (lock) {
        generator = load.generator;
      }
      load.start();
      long loadStarted = System.nanoTime();
      awaitJitSettled(started, load, loadStarted, variant, repeat);
      awaitFirstRecords(admin, topic, started, load);
      double warmupSeconds = (System.nanoTime() - loadStarted) / 1e9;
      Path recording =
          settings.jfrDir() == null || !started.isJvm()
              ? null
              : settings.jfrDir().resolve(String.format("%02d-%s.jfr", number, variant.fileName()));
      if (settings.jfrDir() != null && recording == null) {
        progress.accept(
            variant.flagName() + " #" + repeat + ": not a JVM, so --jfr does not record it");
      }
      if (recording != null) {
        Jcmd.startRecording(started.pid(), recording);
      }
      Snapshot before = snapshot(admin, topic, started, load.generator, listenPort);
      control.sleep(settings.duration());
      Snapshot after = snapshot(admin, topic, started, load.generator, listenPort);
      load.checkRunning(started);
      if (recording != null) {
        Jcmd.stopRecording(started.pid());
      }
      load.generator.stop();
      load.join();
      long trialSent = load.generator.progress().events();
      long trialInKafka = settledEndOffsets(admin, topic);
      long trialKernelDrops =
          settings.protocol() == Protocol.UDP ? UdpKernelStats.socketDrops(listenPort) : -1;
      return new Trial(
          variant,
          repeat,
          warmupSeconds,
          (after.nanos - before.nanos) / 1e9,
          after.kafkaEvents - before.kafkaEvents,
          gained(before.sourceAccepted, after.sourceAccepted),
          gained(before.sinkDrained, after.sinkDrained),
          after.generatorSent - before.generatorSent,
          seconds(after.agentCpu.minus(before.agentCpu)),
          secure != null ? Double.NaN : seconds(after.brokerCpu.minus(before.brokerCpu)),
          // with --secure this JVM runs the broker too: the generator's share is not known
          secure != null ? Double.NaN : (after.ownCpuNanos - before.ownCpuNanos) / 1e9,
          loadAverage(),
          after.agentThreads.secondsSince(before.agentThreads, started.threadGroups()),
          gained(before.udpSocketDrops, after.udpSocketDrops),
          trialSent,
          trialInKafka,
          trialKernelDrops);
    } finally {
      if (load != null) {
        load.generator.stop();
      }
      // SIGKILL: a clean Flume shutdown takes seconds and measures nothing; the topic is deleted
      // anyway.
      started.kill();
      if (load != null) {
        load.join();
      }
      synchronized (lock) {
        agent = null;
        generator = null;
      }
      deleteTopic(admin, topic);
    }
  }

  /**
   * A Flume agent for a Flume variant, rsyslogd for an rsyslog one; listening when this returns.
   */
  private EdgeProcess startAgent(
      EdgeVariant variant, Variant.Target target, Path dir, AgentRuntime runtime) {
    if (!variant.isFlumeAgent()) {
      return RsyslogEdge.start(target, variant.rsyslogBody(), dir);
    }
    // the disk buffer's directory inside the trial's, unless the user chose one
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("edge_data_dir", dir.resolve("data").toAbsolutePath().toString());
    variables.putAll(settings.oursVariables());
    if (secure != null) {
      variables = SecureStack.variables(variables, secure.edgeVariables());
    }
    AgentProcess.Builder builder =
        AgentProcess.builder(
                Variant.AGENT, variant.properties(target, settings.sinks(), variables), dir)
            .runtime(runtime);
    List<String> jvmOptions =
        settings.agentJvmOptions().isEmpty()
            ? AgentProcess.DEPLOYED_JVM_OPTIONS
            : settings.agentJvmOptions();
    builder.jvmOptions(secure != null ? secure.agentJvmOptions(jvmOptions) : jvmOptions);
    return EdgeProcess.of(builder.start(), Variant.sourceName(settings.protocol()));
  }

  /** What a count gained between two snapshots; -1 where it was not counted (-1 in either). */
  private static long gained(long before, long after) {
    return before < 0 || after < 0 ? -1 : after - before;
  }

  /** The port our source bound: its ListenPort metric reads 0 until the listener is bound. */
  private int awaitListenPort(EdgeProcess agentProcess) {
    long deadline = System.nanoTime() + TOPIC_TIMEOUT.toNanos();
    while (true) {
      OptionalInt bound = agentProcess.boundPort();
      if (bound.isPresent()) {
        return bound.getAsInt();
      }
      if (System.nanoTime() > deadline) {
        throw new BenchException(
            "the agent's source reported no ListenPort within "
                + TOPIC_TIMEOUT.toSeconds()
                + " s; see "
                + agentProcess.log());
      }
      control.sleep(Duration.ofMillis(100));
    }
  }

  /**
   * Extends the warm-up until the topic has records: on a loaded machine an agent's Kafka producer
   * can take many seconds to fetch metadata, and a window that starts before then measures
   * start-up, not throughput.
   */
  private void awaitFirstRecords(
      Admin admin, String topic, EdgeProcess agentProcess, LoadRun load) {
    long deadline = System.nanoTime() + FIRST_RECORDS_TIMEOUT.toNanos();
    while (true) {
      load.checkRunning(agentProcess);
      if (endOffsets(admin, topic) > 0) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new BenchException(
            "no event reached topic "
                + topic
                + " within "
                + FIRST_RECORDS_TIMEOUT.toSeconds()
                + " s of load after the warm-up; see the agent log "
                + agentProcess.log());
      }
      control.sleep(Duration.ofMillis(200));
    }
  }

  /**
   * The warm-up: at least {@code --warmup}, then on until the agent's JIT compilers used at most 5%
   * of its CPU in each of two samples in a row, for at most {@code --warmup} again. On two busy
   * cores C2 was still compiling the Kafka producer's and Flume's hot paths 40 s into the load, at
   * up to a third of the agent's CPU, and in bursts, so one quiet sample is not enough
   * (docs/benchmarks.md); a window that includes them measures compilation, not the agent a site
   * runs for months. What is left shows in the JIT compiler column. The samples start before the
   * warm-up ends, so a settled agent waits no longer than {@code --warmup}.
   */
  private void awaitJitSettled(
      EdgeProcess agentProcess, LoadRun load, long loadStarted, EdgeVariant variant, int repeat) {
    long warmupNanos = settings.warmup().toNanos();
    if (warmupNanos == 0) {
      return;
    }
    long sampleNanos = Math.min(JIT_SAMPLE.toNanos(), warmupNanos / 2);
    control.sleep(Duration.ofNanos(warmupNanos - 2 * sampleNanos));
    ThreadCpu before = ThreadCpu.of(agentProcess.pid());
    int settledInARow = 0;
    while (true) {
      control.sleep(Duration.ofNanos(sampleNanos));
      load.checkRunning(agentProcess);
      ThreadCpu now = ThreadCpu.of(agentProcess.pid());
      double jitShare = jitShare(now.secondsSince(before, agentProcess.threadGroups()));
      before = now;
      settledInARow = jitShare <= JIT_SETTLED_SHARE ? settledInARow + 1 : 0;
      long warmedUp = System.nanoTime() - loadStarted;
      long extendedSeconds = TimeUnit.NANOSECONDS.toSeconds(warmedUp - warmupNanos);
      if (warmedUp >= warmupNanos && settledInARow >= 2) {
        if (extendedSeconds > 0) {
          progress.accept(
              String.format(
                  java.util.Locale.ROOT,
                  "%s #%d: warm-up extended by %d s until JIT compilation settled",
                  variant.flagName(),
                  repeat,
                  extendedSeconds));
        }
        return;
      }
      if (warmedUp >= 2 * warmupNanos) {
        progress.accept(
            String.format(
                java.util.Locale.ROOT,
                "%s #%d: JIT compilation still used %.0f%% of the agent's CPU after %d s more warm-up; "
                    + "measuring anyway (see the JIT compiler column; a longer --warmup helps)",
                variant.flagName(),
                repeat,
                100 * jitShare,
                extendedSeconds));
        return;
      }
    }
  }

  /** The JIT compilers' share of the CPU seconds per thread group; 0 when no thread ran. */
  static double jitShare(Map<String, Double> secondsByThreads) {
    double all = secondsByThreads.values().stream().mapToDouble(Double::doubleValue).sum();
    return all == 0
        ? 0
        : secondsByThreads.getOrDefault(ThreadCpu.ThreadGroups.JIT_COMPILER, 0.0) / all;
  }

  private LoadSettings loadSettings(int port) {
    InetSocketAddress target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    return new LoadSettings(
            target,
            settings.protocol(),
            settings.protocol() == Protocol.UDP ? Framing.NONE : Framing.NEWLINE,
            settings.connections(),
            Math.max(100, settings.connections()),
            settings.rate(),
            0,
            LOAD_LIMIT,
            FormatMix.parse("--mix", FormatMix.DEFAULT),
            SizeSpec.fixed(settings.size()),
            1,
            TlsSettings.DEFAULT)
        .validate();
  }

  /** The load generator on its own thread, for one trial. */
  private final class LoadRun {
    final LoadGenerator generator;
    private final Thread thread;
    private volatile LoadResult result;
    private volatile Exception failure;

    LoadRun(LoadSettings load) {
      this.generator = new LoadGenerator(load, Clock.SYSTEM);
      this.thread =
          new Thread(
              () -> {
                try {
                  result = generator.run(null, 1_000);
                } catch (ConnectFailedException | InterruptedException | RuntimeException e) {
                  failure = e;
                }
              },
              "flafka-bench-load");
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    /**
     * Fails the trial if the generator stopped on its own: the agent refused or broke a connection.
     */
    void checkRunning(EdgeProcess agentProcess) {
      if (thread.isAlive()) {
        return;
      }
      join();
      control.checkNotAborted();
      String why =
          failure != null
              ? failure.getMessage()
              : result != null && result.failure() != null ? result.failure() : "it stopped early";
      throw new BenchException(
          "the load generator stopped before the measure window ended: "
              + why
              + (agentProcess.isAlive() ? "" : "; the agent process had exited")
              + " (agent log: "
              + agentProcess.log()
              + ")");
    }

    void join() {
      try {
        thread.join(JOIN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Counters at one instant of a trial; {@code udpSocketDrops} -1 on TCP or where unreadable. */
  private record Snapshot(
      long nanos,
      long kafkaEvents,
      long sourceAccepted,
      long sinkDrained,
      long generatorSent,
      Duration agentCpu,
      ThreadCpu agentThreads,
      Duration brokerCpu,
      long ownCpuNanos,
      long udpSocketDrops) {}

  private Snapshot snapshot(
      Admin admin, String topic, EdgeProcess agentProcess, LoadGenerator load, int listenPort) {
    long nanos = System.nanoTime();
    Duration agentCpu = agentProcess.cpuTime();
    ThreadCpu agentThreads = ThreadCpu.of(agentProcess.pid());
    Duration brokerCpu = secure != null ? null : broker.cpuTime();
    long ownCpu = ownCpuNanos();
    long sent = load.progress().events();
    EdgeProcess.Counts counts = agentProcess.counts();
    // the kernel's count, not the agent's metric: stock Flume's UDP source has none
    long udpDrops =
        settings.protocol() == Protocol.UDP ? UdpKernelStats.socketDrops(listenPort) : -1;
    return new Snapshot(
        nanos,
        endOffsets(admin, topic),
        counts.sourceAccepted(),
        counts.sinkDrained(),
        sent,
        agentCpu,
        agentThreads,
        brokerCpu,
        ownCpu,
        udpDrops);
  }

  /**
   * Creates the trial's topic and waits until every partition answers an offset request: right
   * after creation the broker may still say it does not host a partition, which is retriable.
   */
  private void createTopic(Admin admin, String topic) {
    long deadline = System.nanoTime() + TOPIC_TIMEOUT.toNanos();
    try {
      admin
          .createTopics(List.of(new NewTopic(topic, settings.partitions(), (short) 1)))
          .all()
          .get(TOPIC_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      // Describe first: an offset request for a partition the broker does not host yet makes the
      // admin client log an ERROR (to stdout under the CLI's default logging), a describe does not.
      while (true) {
        try {
          if (admin
              .describeTopics(Set.of(topic))
              .allTopicNames()
              .get(TOPIC_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .get(topic)
              .partitions()
              .stream()
              .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
            requestEndOffsets(admin, topic);
            return;
          }
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
            throw e;
          }
        }
        control.sleep(Duration.ofMillis(100));
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new BenchException(
          "could not create topic "
              + topic
              + " with "
              + settings.partitions()
              + " partitions: "
              + (e.getCause() == null ? e : e.getCause())
              + " (broker log: "
              + brokerLog()
              + ")",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted while creating topic " + topic, e);
    }
  }

  /**
   * The topic's records once the agent has delivered what it held: its end offsets unchanged over
   * {@link #SETTLED}; -1 if they still grow after {@link #SETTLE_TIMEOUT}.
   */
  private long settledEndOffsets(Admin admin, String topic) {
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    long last = endOffsets(admin, topic);
    long stableSince = System.nanoTime();
    while (System.nanoTime() - deadline < 0) {
      control.sleep(SETTLE_POLL);
      long now = endOffsets(admin, topic);
      if (now != last) {
        last = now;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince >= SETTLED.toNanos()) {
        return now;
      }
    }
    return -1;
  }

  private long endOffsets(Admin admin, String topic) {
    try {
      return requestEndOffsets(admin, topic);
    } catch (ExecutionException | TimeoutException e) {
      throw new BenchException(
          "could not read the end offsets of topic "
              + topic
              + " from the broker: "
              + e
              + " (broker log: "
              + brokerLog()
              + ")",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted while reading offsets", e);
    }
  }

  private long requestEndOffsets(Admin admin, String topic)
      throws ExecutionException, TimeoutException, InterruptedException {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < settings.partitions(); p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    long total = 0;
    for (ListOffsetsResult.ListOffsetsResultInfo info :
        admin
            .listOffsets(request)
            .all()
            .get(TOPIC_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
            .values()) {
      total += info.offset();
    }
    return total;
  }

  private void deleteTopic(Admin admin, String topic) {
    try {
      admin.deleteTopics(Set.of(topic)).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Only disk space is at stake: the broker's directory goes when the run ends.
      progress.accept("could not delete topic " + topic + " (" + e + "); continuing");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeBroker() {
    KafkaBrokerProcess running;
    SecurePipeline runningSecure;
    synchronized (lock) {
      running = broker;
      runningSecure = secure;
      broker = null;
      secure = null;
    }
    control.stop(running);
    if (runningSecure != null) {
      runningSecure.close();
    }
  }

  /** A loopback port free for {@code protocol} now, for an agent that cannot choose its own. */
  private static int freeLoopbackPort(Protocol protocol) {
    try {
      return protocol.freeLoopbackPort();
    } catch (IOException e) {
      throw new BenchException("could not find a free loopback port: " + e.getMessage(), e);
    }
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  private static long ownCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return 0;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
