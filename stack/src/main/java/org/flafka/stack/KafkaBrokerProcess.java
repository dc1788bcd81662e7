package org.flafka.stack;

import java.io.IOException;
import java.nio.file.Files;
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

  /** The running process; a restart replaces it. */
  private volatile ChildProcess process;

  private final String bootstrapServers;

  /** How to start the process again ({@link #restart()}), or null when it is not restartable. */
  private final Launch launch;

  private KafkaBrokerProcess(ChildProcess process, String bootstrapServers, Launch launch) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.launch = launch;
  }

  /** Everything {@link ChildProcess#startJava} needs, kept to start the same broker again. */
  private record Launch(List<String> jvmOptions, List<String> args, Path root, Path readyFile) {
    ChildProcess start() {
      try {
        Files.deleteIfExists(readyFile);
      } catch (IOException e) {
        throw new StackException("could not delete " + readyFile + ": " + e.getMessage(), e);
      }
      return ChildProcess.startJava(
          "Kafka broker process",
          StackClasspath.withProcessLogging(jvmOptions),
          StackClasspath.current(),
          KafkaBrokerMain.class.getName(),
          args,
          root,
          root.resolve("broker.log"));
    }
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
    return start(dir, overrides, jvmOptions, clientLatency, null);
  }

  /**
   * Starts a broker process that {@link #stop()} stops keeping its data and {@link #restart()}
   * starts again on the same port with that data, as a broker restarted in the field is. {@link
   * #close()} stops it too and leaves the data in {@code dir/data} for the caller to delete.
   */
  public static KafkaBrokerProcess startRestartable(
      Path dir, Map<String, String> overrides, List<String> jvmOptions) {
    return start(dir, overrides, jvmOptions, Duration.ZERO, KafkaBroker.Ports.allocate());
  }

  private static KafkaBrokerProcess start(
      Path dir,
      Map<String, String> overrides,
      List<String> jvmOptions,
      Duration clientLatency,
      KafkaBroker.Ports ports) {
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
    if (ports != null) {
      args.addAll(
          List.of(
              "--port",
              Integer.toString(ports.listener()),
              "--controller-port",
              Integer.toString(ports.controller())));
    }
    Launch launch = new Launch(List.copyOf(jvmOptions), List.copyOf(args), root, readyFile);
    ChildProcess process = launch.start();
    return new KafkaBrokerProcess(
        process, process.awaitReadyFile(readyFile, READY_TIMEOUT), ports == null ? null : launch);
  }

  /**
   * Stops a {@link #startRestartable restartable} broker cleanly, keeping its data, until {@link
   * #restart()}.
   */
  public synchronized void stop() {
    requireRestartable("stop");
    process.close();
  }

  /**
   * Starts a stopped {@link #startRestartable restartable} broker again on the same port with the
   * same data, and waits until it accepts clients.
   */
  public synchronized void restart() {
    requireRestartable("restart");
    if (process.isAlive()) {
      return;
    }
    ChildProcess restarted = launch.start();
    String address = restarted.awaitReadyFile(launch.readyFile(), READY_TIMEOUT);
    if (!address.equals(bootstrapServers)) {
      restarted.close();
      throw new StackException(
          "Kafka broker process restarted at " + address + " instead of " + bootstrapServers);
    }
    process = restarted;
  }

  private void requireRestartable(String what) {
    if (launch == null) {
      throw new StackException(
          "cannot " + what + " " + this + ": only a broker from startRestartable can");
    }
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

  /**
   * Stops the broker cleanly (its data directory is deleted, unless it is {@link #startRestartable
   * restartable}).
   */
  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "KafkaBrokerProcess[" + bootstrapServers + ", " + process + "]";
  }
}
