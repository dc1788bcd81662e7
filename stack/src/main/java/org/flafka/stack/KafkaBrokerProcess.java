package org.flafka.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link KafkaBroker} in its own JVM ({@link KafkaBrokerMain}), so that the CPU an agent uses can
 * be measured apart from the broker's. {@link #close()} stops it (SIGTERM, then SIGKILL after
 * {@link ChildProcess#STOP_GRACE}); the broker also exits if this JVM dies.
 */
public final class KafkaBrokerProcess implements KafkaCluster, AutoCloseable {
  /** Heap for the broker JVM unless the caller passes its own JVM options. */
  public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final ChildProcess process;
  private final String bootstrapServers;

  private KafkaBrokerProcess(ChildProcess process, String bootstrapServers) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
  }

  /** Starts a broker process with its data in {@code dir} and its log in {@code dir/broker.log}. */
  public static KafkaBrokerProcess start(Path dir) {
    return start(dir, Map.of(), DEFAULT_JVM_OPTIONS);
  }

  /**
   * Starts a broker process with its data in {@code dir}, broker settings {@code overrides} (see
   * {@link KafkaBroker#start(Path, Map)}) and {@code jvmOptions} (heap, GC) for its JVM.
   */
  public static KafkaBrokerProcess start(
      Path dir, Map<String, String> overrides, List<String> jvmOptions) {
    return start(dir, overrides, jvmOptions, Duration.ZERO);
  }

  /**
   * Starts a broker process as {@link #start(Path, Map, List)} does, which clients reach through a
   * {@link LatencyProxy} in that process delaying each direction by {@code clientLatency} (none
   * when zero; the proxy's CPU then counts as the broker's).
   */
  public static KafkaBrokerProcess start(
      Path dir, Map<String, String> overrides, List<String> jvmOptions, Duration clientLatency) {
    Path root = Directories.create(dir).toAbsolutePath();
    Path readyFile = root.resolve("broker.ready");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--dir",
                root.resolve("data").toString(),
                "--ready-file",
                readyFile.toString(),
                "--exit-with-parent"));
    overrides.forEach(
        (key, value) -> {
          args.add("--set");
          args.add(key + "=" + value);
        });
    if (!clientLatency.isZero()) {
      args.add("--client-latency-ms");
      args.add(Long.toString(clientLatency.toMillis()));
    }
    ChildProcess process =
        ChildProcess.startJava(
            "Kafka broker process",
            StackClasspath.withProcessLogging(jvmOptions),
            StackClasspath.current(),
            KafkaBrokerMain.class.getName(),
            args,
            root,
            root.resolve("broker.log"));
    return new KafkaBrokerProcess(process, process.awaitReadyFile(readyFile, READY_TIMEOUT));
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public long pid() {
    return process.pid();
  }

  /** CPU time the broker process has used so far (see {@link ChildProcess#cpuTime()}). */
  public Duration cpuTime() {
    return process.cpuTime();
  }

  public Path log() {
    return process.log();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the broker with SIGKILL, as a crash would. */
  public void kill() {
    process.kill();
  }

  /** Stops the broker cleanly (its data directory is deleted). */
  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "KafkaBrokerProcess[" + bootstrapServers + ", " + process + "]";
  }
}
