package org.flafka.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.flafka.partitioner.PartitionMath;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.ContractEvent;
import org.flafka.stack.HdfsProcess;
import org.flafka.stack.KafkaBrokerProcess;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecurePipeline;
import org.flafka.stack.ThreadCpu;

/**
 * Runs {@code flafka bench core}: how fast a core agent drains a topic into HDFS, for each {@link
 * CoreVariant}, in one run, on the same topic contents. Performance is measured here, never in unit
 * tests.
 *
 * <p>One run: a KRaft broker process and an HDFS process (a MiniDFSCluster with one DataNode); a
 * topic prefilled with {@code --events} syslog events with the edge header contract as record
 * headers ({@link ContractEvent}), from {@code --hosts} devices, timestamps within the last hour of
 * the layout's day ({@link #spreadSeconds}); then, per trial, a fresh consumer group and HDFS root
 * and the core agent started as its own process on the production classpath. The window runs from
 * the last poll (every 200 ms) before the agent's first drained event (sum of the sinks'
 * EventDrainSuccessCount) until it has drained the whole topic or {@code --duration} has passed;
 * start-up and the consumer group's join stay outside it. Events per second = events drained in the
 * window / its length. The agent's CPU (user + system) over the window is reported per million
 * events, in total and by thread group ({@link ThreadCpu}: sink runners, HDFS sink threads, Kafka
 * source runners, GC, JIT), with the broker's and HDFS's, and the number of files the agent created
 * (counted after it stopped cleanly; the trial's HDFS root is then deleted, so every trial finds
 * the DataNode as empty). Variants alternate within each repeat, so a change in the machine's load
 * hits all of them alike.
 *
 * <p>With {@code --secure} the broker and HDFS are the {@link SecurePipeline}'s, in this JVM: the
 * prefill, the topic's creation and the agents reach Kafka over SASL_SSL with Kerberos, the agents
 * write HDFS with Kerberos; the broker's and HDFS's CPU are then not reported apart.
 *
 * <p>Every process this class starts is killed when a trial or the run ends, fails or is
 * interrupted (the stack also kills its children when this JVM exits).
 */
public final class CoreBench {
  private static final Duration FIRST_EVENT_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final String TOPIC = "core-bench";
  private static final int PRODUCE_BATCH = 10_000;

  private final CoreBenchSettings settings;
  private final Consumer<String> progress;
  private final Object lock = new Object();
  private KafkaBrokerProcess broker;
  private HdfsProcess hdfs;
  private SecurePipeline secure;
  private AgentProcess agent;
  private final RunControl control = new RunControl();

  /**
   * {@code progress} gets one line per step (stack started, agent started, trial measured); never
   * null.
   */
  public CoreBench(CoreBenchSettings settings, Consumer<String> progress) {
    this.settings = settings.validate();
    this.progress = progress;
  }

  /**
   * Runs every trial and returns them; throws {@link BenchException} naming the part that failed
   * and its log.
   */
  public CoreBenchReport run() {
    AgentRuntime stock = AgentRuntime.locate();
    AgentRuntime ours = OurPlugins.addTo(stock);
    long started = System.currentTimeMillis();
    String machine = machine();
    List<CoreTrial> trials = new ArrayList<>();
    try {
      if (settings.secure()) {
        SecurePipeline startedStack = SecureStack.start(settings.workDir(), true, progress);
        synchronized (lock) {
          secure = startedStack;
        }
        control.checkNotAborted();
        secure.client().createTopic(TOPIC, settings.partitions());
      } else {
        startPlainStack();
      }
      progress.accept(
          String.format(
              Locale.ROOT,
              "prefilling %,d events from %d hosts into %d partitions",
              settings.prefilled(),
              settings.hosts(),
              settings.partitions()));
      prefill();
      try (FileSystem fs =
          secure != null
              ? secure.adminFileSystem()
              : FileSystem.newInstance(hdfs.uri(), new Configuration())) {
        int number = 0;
        for (int repeat = 1; repeat <= settings.repeats(); repeat++) {
          for (CoreVariant variant : settings.variants()) {
            number++;
            control.checkNotAborted();
            CoreTrial trial =
                run(variant, repeat, number, variant.usesTemplate() ? ours : stock, fs);
            trials.add(trial);
            progress.accept(
                String.format(
                    Locale.ROOT,
                    "%s #%d: %,.0f events/s into HDFS (%,d events in %.1f s%s); agent %.2f CPU-s per "
                        + "million events",
                    variant.flagName(),
                    repeat,
                    trial.eventsPerSecond(),
                    trial.drained(),
                    trial.seconds(),
                    trial.drainedAll() ? "" : ", window ended before the topic was " + "drained",
                    trial.agentCpuPerMillion()));
          }
        }
      } catch (IOException e) {
        throw new BenchException(
            "could not read HDFS at "
                + (secure != null ? secure.hdfsUri() : hdfs.uri())
                + ": "
                + e.getMessage()
                + " (HDFS log: "
                + (secure != null ? SecureStack.LOG : hdfs.log())
                + ")",
            e);
      }
    } finally {
      closeStack();
    }
    return new CoreBenchReport(settings, trials, started, machine);
  }

  private void startPlainStack() {
    progress.accept("starting the Kafka broker and HDFS processes in " + settings.workDir());
    KafkaBrokerProcess startedBroker =
        KafkaBrokerProcess.start(settings.workDir().resolve("broker"));
    synchronized (lock) {
      broker = startedBroker;
    }
    control.checkNotAborted();
    HdfsProcess startedHdfs = HdfsProcess.start(settings.workDir().resolve("hdfs"));
    synchronized (lock) {
      hdfs = startedHdfs;
    }
    control.checkNotAborted();
    broker.createTopic(TOPIC, settings.partitions());
  }

  private String bootstrapServers() {
    return secure != null ? secure.bootstrapServers() : broker.bootstrapServers();
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
    AgentProcess runningAgent;
    synchronized (lock) {
      runningAgent = agent;
    }
    if (runningAgent != null) {
      runningAgent.kill();
    }
    closeStack();
  }

  private CoreTrial run(
      CoreVariant variant, int repeat, int number, AgentRuntime runtime, FileSystem fs)
      throws IOException {
    String name = String.format(Locale.ROOT, "%02d-%s", number, variant.flagName());
    Path dir = settings.workDir().resolve(name);
    String hdfsRoot = secure != null ? secure.coreHdfsRoot(name) : hdfs.uri() + "/" + name;
    CoreVariant.Target target =
        new CoreVariant.Target(
            bootstrapServers(), TOPIC, "bench-" + name, hdfsRoot, dir.resolve("data"));
    progress.accept(variant.flagName() + " #" + repeat + ": starting the agent in " + dir);
    long agentStarted = System.nanoTime();
    AgentProcess.Builder builder =
        AgentProcess.builder(
                CoreVariant.AGENT,
                variant.properties(
                    target,
                    secure != null
                        ? SecureStack.variables(
                            settings.oursVariables(), secure.coreVariables(name))
                        : settings.oursVariables()),
                dir.resolve("agent"))
            .runtime(runtime);
    List<String> jvmOptions =
        settings.agentJvmOptions().isEmpty()
            ? AgentProcess.DEPLOYED_JVM_OPTIONS
            : settings.agentJvmOptions();
    builder.jvmOptions(secure != null ? secure.agentJvmOptions(jvmOptions) : jvmOptions);
    AgentProcess started = builder.start();
    synchronized (lock) {
      agent = started;
    }
    try {
      List<String> sinks = List.copyOf(started.components().sinks());
      long deadline = System.nanoTime() + FIRST_EVENT_TIMEOUT.toNanos();
      // The window starts at the last poll that found the warm-up not yet drained (with no warm-up:
      // nothing drained), so the first measured batch counts.
      Snapshot start = snapshot(started, sinks);
      while (true) {
        checkRunning(started, variant);
        control.sleep(POLL);
        Snapshot now = snapshot(started, sinks);
        if (now.drained > settings.warmupEvents()) {
          break;
        }
        start = now;
        if (System.nanoTime() > deadline) {
          throw new BenchException(
              variant.flagName()
                  + " #"
                  + repeat
                  + " drained nothing in "
                  + FIRST_EVENT_TIMEOUT.toMinutes()
                  + " min; see the agent log "
                  + started.log());
        }
      }
      long windowEnd = start.nanos + settings.duration().toNanos();
      while (true) {
        control.sleep(POLL);
        checkRunning(started, variant);
        Snapshot end = snapshot(started, sinks);
        boolean drainedAll = end.drained >= settings.prefilled();
        if (drainedAll || end.nanos >= windowEnd) {
          Map<String, Double> threads =
              end.agentThreads.secondsSince(start.agentThreads, ThreadCpu.ThreadGroups.FLUME_AGENT);
          // A clean stop, not SIGKILL: the NameNode reserves a whole block for every file a killed
          // agent leaves open, until its lease expires, and after a few trials had no room left for
          // the next.
          started.stop();
          long files = countFiles(fs, hdfsRoot);
          fs.delete(new org.apache.hadoop.fs.Path(hdfsRoot), true);
          return new CoreTrial(
              variant,
              repeat,
              (start.nanos - agentStarted) / 1e9,
              (end.nanos - start.nanos) / 1e9,
              end.drained - start.drained,
              drainedAll,
              seconds(end.agentCpu.minus(start.agentCpu)),
              seconds(start.brokerCpu, end.brokerCpu),
              seconds(start.hdfsCpu, end.hdfsCpu),
              files,
              threads);
        }
      }
    } finally {
      if (started.isAlive()) {
        started.kill();
      }
      synchronized (lock) {
        agent = null;
      }
    }
  }

  /** Counters at one instant of a trial; the broker's and HDFS's CPU null when in this JVM. */
  private record Snapshot(
      long nanos,
      long drained,
      Duration agentCpu,
      ThreadCpu agentThreads,
      Duration brokerCpu,
      Duration hdfsCpu) {}

  private Snapshot snapshot(AgentProcess started, List<String> sinks) {
    long nanos = System.nanoTime();
    Duration agentCpu = started.cpuTime();
    ThreadCpu agentThreads = ThreadCpu.of(started.pid());
    return new Snapshot(
        nanos,
        drained(started, sinks),
        agentCpu,
        agentThreads,
        secure != null ? null : broker.cpuTime(),
        secure != null ? null : hdfs.cpuTime());
  }

  private static long drained(AgentProcess agent, List<String> sinks) {
    var metrics = agent.metrics();
    long drained = 0;
    for (String sink : sinks) {
      drained += metrics.sink(sink, "EventDrainSuccessCount");
    }
    return drained;
  }

  private void checkRunning(AgentProcess started, CoreVariant variant) {
    control.checkNotAborted();
    if (!started.isAlive()) {
      throw new BenchException(
          "the " + variant.flagName() + " agent exited; see its log " + started.log());
    }
  }

  private static long countFiles(FileSystem fs, String root) throws IOException {
    long files = 0;
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(root);
    if (!fs.exists(path)) {
      return 0;
    }
    RemoteIterator<LocatedFileStatus> listing = fs.listFiles(path, true);
    while (listing.hasNext()) {
      listing.next();
      files++;
    }
    return files;
  }

  /**
   * How many seconds back the prefilled timestamps reach: the last hour, but never into the day
   * before in the layout's zone, so every host lands in one {@code dt=} bucket and the file count
   * means the same whenever the bench runs (just after midnight it was twice the hosts).
   */
  static long spreadSeconds(long nowMillis, ZoneId zone) {
    Instant now = Instant.ofEpochMilli(nowMillis);
    long intoDay =
        Duration.between(now.atZone(zone).toLocalDate().atStartOfDay(zone).toInstant(), now)
            .toSeconds();
    return Math.max(1, Math.min(3600, intoDay + 1));
  }

  /** The zone of the agents' {@code dt=} buckets: {@code --set core_hdfs_time_zone}, else UTC. */
  private ZoneId layoutZone() {
    Object zone = settings.oursVariables().get("core_hdfs_time_zone");
    try {
      return zone == null ? ZoneOffset.UTC : ZoneId.of(zone.toString());
    } catch (DateTimeException e) {
      return ZoneOffset.UTC; // the template's own check names the bad value when the agent renders
    }
  }

  /**
   * Fills the topic with {@code --events} contract-shaped records and waits until Kafka has them
   * all.
   */
  private void prefill() {
    long now = System.currentTimeMillis();
    long spreadSeconds = spreadSeconds(now, layoutZone());
    try (KafkaProducer<byte[], byte[]> producer =
        secure != null
            ? ContractEvent.producer(secure.clientSettings())
            : ContractEvent.producer(broker.bootstrapServers())) {
      List<ContractEvent> batch = new ArrayList<>(PRODUCE_BATCH);
      Map<ContractEvent, Integer> partitionOf = new IdentityHashMap<>();
      int[][] hostSets = hostPartitionSets();
      for (long n = 0; n < settings.prefilled(); n++) {
        String id = "b" + n;
        String host = hostName((int) (n % settings.hosts()));
        long timestamp = now - (n % spreadSeconds) * 1000L;
        ContractEvent event =
            new ContractEvent(
                id,
                ContractEvent.syslogBody(id, host, timestamp, settings.size()),
                ContractEvent.contractHeaders(id, host, timestamp));
        batch.add(event);
        if (hostSets != null) {
          // the host's partitions in turn, as the host-affinity partitioner visits them
          int[] set = hostSets[(int) (n % settings.hosts())];
          partitionOf.put(event, set[(int) ((n / settings.hosts()) % set.length)]);
        }
        if (batch.size() == PRODUCE_BATCH) {
          control.checkNotAborted();
          ContractEvent.send(producer, TOPIC, batch, partitionOf::get);
          batch.clear();
          partitionOf.clear();
        }
      }
      ContractEvent.send(producer, TOPIC, batch, partitionOf::get);
    } catch (IllegalStateException e) {
      control.checkNotAborted();
      throw new BenchException(
          "could not prefill topic "
              + TOPIC
              + ": "
              + e.getMessage()
              + " (broker log: "
              + brokerLog()
              + ")",
          e);
    }
  }

  /**
   * Each host's partitions under the edge's host-affinity partitioner ({@link PartitionMath}), by
   * host number; null when the records go where Kafka's own partitioner puts them.
   */
  private int[][] hostPartitionSets() {
    if (settings.hostPartitions() == 0) {
      return null;
    }
    int[][] sets = new int[settings.hosts()][];
    for (int host = 0; host < sets.length; host++) {
      byte[] key = hostName(host).getBytes(StandardCharsets.UTF_8);
      sets[host] =
          PartitionMath.hostPartitions(
              PartitionMath.hostStart(key, settings.partitions()),
              settings.hostPartitions(),
              settings.partitions());
    }
    return sets;
  }

  private static String hostName(int host) {
    return "edge-router-" + host;
  }

  private void closeStack() {
    KafkaBrokerProcess runningBroker;
    HdfsProcess runningHdfs;
    SecurePipeline runningSecure;
    synchronized (lock) {
      runningBroker = broker;
      runningHdfs = hdfs;
      runningSecure = secure;
      broker = null;
      hdfs = null;
      secure = null;
    }
    if (runningSecure != null) {
      runningSecure.close();
    }
    try {
      if (runningHdfs != null) {
        runningHdfs.close();
      }
    } finally {
      control.stop(runningBroker);
    }
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  /** CPU seconds from {@code start} to {@code end}; NaN when not measured (in this JVM). */
  private static double seconds(Duration start, Duration end) {
    return start == null || end == null ? Double.NaN : seconds(end.minus(start));
  }

  private static String machine() {
    return ReportFormat.machine()
        + ", load average "
        + String.format(
            Locale.ROOT,
            "%.1f",
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
        + " at the start";
  }
}
