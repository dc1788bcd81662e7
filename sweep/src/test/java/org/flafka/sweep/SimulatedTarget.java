package org.flafka.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flafka.load.Framing;
import org.flafka.load.NullReceiver;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;
import org.flafka.sweep.target.AgentSample;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.target.TrialEnvironment;

/**
 * A target without processes, for testing the sweep around it: the edge "accepts" what really
 * reaches a {@link NullReceiver} from the real load generator, and the core delivers it at {@value
 * #EVENTS_PER_HDFS_SINK} events/s per HDFS sink declared in the rendered core configuration. A core
 * batch size of {@value #BROKEN_BATCH} fails to start, as a configuration Flume rejects would. With
 * a {@link #rampUp}, the core starts at a quarter of that and reaches it linearly over the ramp's
 * length from the target's start, as a stack that warms does.
 */
final class SimulatedTarget implements Target {
  static final long EVENTS_PER_HDFS_SINK = 3000;
  static final long BROKEN_BATCH = 777;
  private static final Pattern SINKS = Pattern.compile("(?m)^core\\.sinks = (.*)$");
  private static final Pattern BATCH =
      Pattern.compile("(?m)^core\\.sinks\\.hdfs0\\.hdfs\\.batchSize = (\\d+)$");

  private final Path directory;
  final List<String> calls = new CopyOnWriteArrayList<>();
  private NullReceiver receiver;
  private long lastCoreSample;
  private long coreRate;
  private long deliveredBefore;
  private long framesBefore;
  private volatile boolean healthy = true;
  volatile boolean closed;

  /** Whether it says it starts cold, as the local stack does. */
  volatile boolean cold;

  /** How long after {@link #start} the core reaches its full rate; zero: at once. */
  volatile java.time.Duration rampUp = java.time.Duration.ZERO;

  private long startNanos;

  SimulatedTarget(Path directory) {
    this.directory = directory;
  }

  /** The next health check fails, as if the broker had died. */
  void breakTheStack() {
    healthy = false;
  }

  @Override
  public String description() {
    return "simulated";
  }

  @Override
  public void start(Consumer<String> status) {
    calls.add("start");
    startNanos = System.nanoTime();
    try {
      receiver = NullReceiver.start(Framing.NEWLINE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public TrialEnvironment prepare(String runName, int partitions, Protocol protocol) {
    calls.add("prepare " + runName + " partitions=" + partitions);
    try {
      return new TrialEnvironment(
          runName,
          directory.resolve(runName),
          "sweep-" + runName,
          Map.of("kafka_topic", "sweep-" + runName),
          Map.of(
              "kafka_topic",
              "sweep-" + runName,
              "core_hdfs_root",
              "hdfs://simulated/sweep/" + runName),
          receiver.address());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void startAgents(
      TrialEnvironment environment, String edgeProperties, String coreProperties) {
    Matcher batch = BATCH.matcher(coreProperties);
    if (batch.find() && Long.parseLong(batch.group(1)) == BROKEN_BATCH) {
      calls.add("startAgents failed");
      throw new IllegalStateException(
          "Flume agent core dropped a component at start-up: sink hdfs0");
    }
    Matcher sinks = SINKS.matcher(coreProperties);
    if (!sinks.find()) {
      throw new AssertionError("no core.sinks in " + coreProperties);
    }
    coreRate = EVENTS_PER_HDFS_SINK * sinks.group(1).trim().split(" ").length;
    lastCoreSample = System.nanoTime();
    framesBefore = receiver.frames();
    deliveredBefore = 0;
    calls.add("startAgents " + environment.runName() + " coreRate=" + coreRate);
  }

  @Override
  public synchronized AgentSample sample(Tier tier) {
    long now = System.nanoTime();
    long accepted = receiver.frames() - framesBefore;
    if (tier == Tier.EDGE) {
      return new AgentSample(
          Map.of(
              "SOURCE.syslog_tcp",
              Map.of("EventAcceptedCount", accepted),
              "CHANNEL.ch0",
              Map.of(
                  "EventTakeSuccessCount",
                  accepted,
                  "ChannelSize",
                  0L,
                  "ChannelCapacity",
                  100_000L),
              "SINK.kafka0",
              Map.of("EventDrainSuccessCount", accepted)),
          0.001 * accepted / 1000,
          now);
    }
    // the core delivers at most coreRate since the last look, and never more than the edge accepted
    long delivered =
        Math.min(
            accepted,
            deliveredBefore + (long) (coreRate * warmth(now) * (now - lastCoreSample) / 1e9));
    deliveredBefore = delivered;
    lastCoreSample = now;
    long backlog = accepted - delivered;
    return new AgentSample(
        Map.of(
            "SOURCE.kafka0",
            Map.of("EventAcceptedCount", delivered + Math.min(backlog, 100)),
            "CHANNEL.ch0",
            Map.of(
                "EventTakeSuccessCount",
                delivered,
                "ChannelSize",
                Math.min(backlog, 100L),
                "ChannelCapacity",
                100L),
            "SINK.hdfs0",
            Map.of("EventDrainSuccessCount", delivered)),
        0.002 * delivered / 1000,
        now);
  }

  /** The share of its full rate the core delivers at {@code now}. */
  private double warmth(long now) {
    if (rampUp.isZero()) {
      return 1;
    }
    return Math.min(1, 0.25 + 0.75 * (now - startNanos) / (double) rampUp.toNanos());
  }

  @Override
  public boolean startsCold() {
    return cold;
  }

  @Override
  public void stopAgents() {
    calls.add("stopAgents");
  }

  @Override
  public void killAgents() {
    calls.add("killAgents");
  }

  @Override
  public void checkHealthy() {
    if (!healthy) {
      throw new TargetException("the simulated broker has died");
    }
  }

  @Override
  public void close() {
    closed = true;
    calls.add("close");
    if (receiver != null) {
      try {
        receiver.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
