package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flume agent in its own JVM, started as a deployment starts it: {@code java -cp <agent runtime>
 * org.apache.flume.node.Application -n <agent> -f <file> --no-reload-conf} with Flume's HTTP JSON
 * metrics on a loopback port, stdout and stderr in {@code <dir>/agent.log}. Only this proves the
 * production classpath ({@link AgentRuntime}) has everything the configuration needs.
 *
 * <p>{@link #stop()} sends SIGTERM (Flume's shutdown hook stops the components) and SIGKILL after
 * {@link ChildProcess#STOP_GRACE}; {@link #kill()} sends SIGKILL at once, as a crash would. {@link
 * #cpuTime()} feeds CPU-seconds-per-million-events. Starting again with the same directory appends
 * to the same log.
 */
public final class AgentProcess implements FlumeAgent {
  private static final Logger LOG = LoggerFactory.getLogger(AgentProcess.class);

  /**
   * Heap of the agent JVM unless the caller passes its own JVM options, as one line for help texts;
   * the JDK's default collector (G1), whose short pauses a UDP listener needs. A smaller initial
   * heap than a deployed agent's, so tests can run several agents at once.
   */
  public static final String DEFAULT_JVM_OPTIONS_LINE = "-Xms256m -Xmx1g";

  /** {@link #DEFAULT_JVM_OPTIONS_LINE}, one option an element. */
  public static final List<String> DEFAULT_JVM_OPTIONS =
      List.of(DEFAULT_JVM_OPTIONS_LINE.split(" "));

  /**
   * The JVM options a deployed agent runs with: the Ansible role's {@code flafka_agent_java_opts}
   * default (a test holds the two equal). {@code flafka bench} and {@code flafka sweep} run their
   * agents with these unless told otherwise, so that they measure what is deployed: the initial
   * heap sizes the young generation, and with it how often the batches an agent holds in flight are
   * copied by the collector.
   */
  public static final String DEPLOYED_JVM_OPTIONS_LINE = "-Xms1g -Xmx1g -XX:+UseG1GC";

  /** {@link #DEPLOYED_JVM_OPTIONS_LINE}, one option an element. */
  public static final List<String> DEPLOYED_JVM_OPTIONS =
      List.of(DEPLOYED_JVM_OPTIONS_LINE.split(" "));

  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
  static final String MAIN_CLASS = "org.apache.flume.node.Application";

  /**
   * Flume's metrics server takes its port as a setting, so the port is allocated here and retried
   * if taken.
   */
  private static final int START_ATTEMPTS = 3;

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final AgentComponents components;
  private final ChildProcess process;
  private final Path configFile;
  private final int metricsPort;

  private AgentProcess(
      AgentComponents components, ChildProcess process, Path configFile, int metricsPort) {
    this.components = components;
    this.process = process;
    this.configFile = configFile;
    this.metricsPort = metricsPort;
  }

  /**
   * Starts agent {@code agent} from {@code properties} in {@code dir} on the located {@link
   * AgentRuntime}.
   */
  public static AgentProcess start(String agent, String properties, Path dir) {
    return builder(agent, properties, dir).start();
  }

  /** For a runtime with plugins, other JVM options or another start timeout. */
  public static Builder builder(String agent, String properties, Path dir) {
    return new Builder(agent, properties, dir);
  }

  /** Settings of an agent process; {@link #start()} launches it. */
  public static final class Builder {
    private final String agent;
    private final String properties;
    private final Path dir;
    private AgentRuntime runtime;
    private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    private Duration startTimeout = DEFAULT_START_TIMEOUT;
    private Path fileSystemMountPoint;
    private long fileSystemBytes;

    private Builder(String agent, String properties, Path dir) {
      this.agent = Objects.requireNonNull(agent, "agent");
      this.properties = Objects.requireNonNull(properties, "properties");
      this.dir = Objects.requireNonNull(dir, "dir");
    }

    /** The classpath to run on; by default {@link AgentRuntime#locate()}. */
    public Builder runtime(AgentRuntime runtime) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
      return this;
    }

    /** JVM options (heap, GC, system properties) replacing {@link #DEFAULT_JVM_OPTIONS}. */
    public Builder jvmOptions(List<String> jvmOptions) {
      this.jvmOptions = List.copyOf(jvmOptions);
      return this;
    }

    /**
     * Gives the agent a file system of its own, {@code bytes} large, at {@code mountPoint}: a disk
     * that fills up, for the fault suite. It is a tmpfs mounted in a mount namespace of the agent's
     * own (unshare(1); a user namespace too when not run as root, so no privilege is needed), gone
     * with the process.
     */
    public Builder privateFileSystem(Path mountPoint, long bytes) {
      this.fileSystemMountPoint = mountPoint.toAbsolutePath();
      this.fileSystemBytes = bytes;
      return this;
    }

    public Builder startTimeout(Duration startTimeout) {
      this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
      return this;
    }

    /**
     * Writes the configuration to {@code <dir>/<agent>.properties}, launches the agent and returns
     * once every declared component runs. Fails, killing the process, naming any component Flume
     * dropped or that did not start, with the log to read.
     */
    public AgentProcess start() {
      AgentComponents components = AgentComponents.declaredIn(agent, properties);
      AgentRuntime resolved = runtime != null ? runtime : AgentRuntime.locate();
      Path root = Directories.create(dir).toAbsolutePath();
      Path configFile = root.resolve(agent + ".properties");
      try {
        Files.writeString(configFile, properties, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("could not write " + configFile + ": " + e.getMessage(), e);
      }
      for (int attempt = 1; ; attempt++) {
        int port = FreePort.allocate();
        List<String> command =
            ChildProcess.javaCommand(
                options(resolved, port),
                resolved.classpathString(),
                MAIN_CLASS,
                List.of("-n", agent, "-f", configFile.toString(), "--no-reload-conf"));
        ChildProcess process =
            ChildProcess.start(
                "Flume agent " + agent, withFileSystem(command), root, root.resolve("agent.log"));
        AgentProcess started = new AgentProcess(components, process, configFile, port);
        if (started.awaitStarted(startTimeout)) {
          LOG.info(
              "Flume agent {} started: pid {}, metrics on port {}, log {}",
              agent,
              process.pid(),
              port,
              process.log());
          return started;
        }
        process.kill();
        if (attempt == START_ATTEMPTS) {
          throw new StackException(
              "Flume agent "
                  + agent
                  + ": its metrics server could not bind a port in "
                  + START_ATTEMPTS
                  + " attempts; see "
                  + process.log());
        }
        LOG.info("Flume agent {}: metrics port {} was taken, restarting with another", agent, port);
      }
    }

    /**
     * {@code command} run by unshare(1) in a mount namespace where a tmpfs is mounted first, when
     * {@link #privateFileSystem} asked for one. The shell execs the command, so the agent keeps the
     * process id that is stopped and killed.
     */
    private List<String> withFileSystem(List<String> command) {
      if (fileSystemMountPoint == null) {
        return command;
      }
      Directories.create(fileSystemMountPoint);
      List<String> wrapped = new ArrayList<>(List.of("unshare", "--mount"));
      if (!runsAsRoot()) {
        wrapped.addAll(List.of("--user", "--map-root-user"));
      }
      wrapped.addAll(
          List.of(
              "sh",
              "-c",
              "mount -t tmpfs -o size=\"$1\" flafka-agent-fs \"$2\" && shift 2 && exec \"$@\"",
              "sh",
              Long.toString(fileSystemBytes),
              fileSystemMountPoint.toString()));
      wrapped.addAll(command);
      return wrapped;
    }

    private static boolean runsAsRoot() {
      try {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }

    private List<String> options(AgentRuntime runtime, int metricsPort) {
      List<String> options = new ArrayList<>(jvmOptions);
      options.add("-Dflume.monitoring.type=http");
      options.add("-Dflume.monitoring.port=" + metricsPort);
      runtime.logConfig().ifPresent(config -> options.add("-Dlog4j2.configurationFile=" + config));
      return options;
    }
  }

  /**
   * Waits until the metrics show every declared component started. Returns false when the metrics
   * server could not bind its port (the caller retries on another); throws when Flume dropped a
   * component, the process died or the timeout passed.
   */
  private boolean awaitStarted(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Set<String> missing = components.metricNames();
    while (true) {
      String output = process.output();
      Optional<String> dropped = AgentStartup.droppedComponent(output);
      if (dropped.isPresent()) {
        process.kill();
        throw new StackException(
            "Flume agent "
                + name()
                + " dropped a component at start-up: "
                + dropped.get()
                + "; fix "
                + configFile
                + " (log: "
                + process.log()
                + ")");
      }
      if (output.contains(AgentStartup.METRICS_SERVER_FAILED)) {
        return false;
      }
      if (!process.isAlive()) {
        int code = process.kill();
        throw new StackException(
            "Flume agent "
                + name()
                + " exited with code "
                + code
                + " before it started; see "
                + process.log()
                + ":\n"
                + process.logTail(20));
      }
      Optional<AgentMetrics> metrics = fetchMetrics();
      if (metrics.isPresent()) {
        missing = AgentStartup.notStarted(components, metrics.get());
        if (missing.isEmpty()) {
          return true;
        }
      }
      if (System.nanoTime() > deadline) {
        process.kill();
        throw new StackException(
            "Flume agent "
                + name()
                + ": "
                + (metrics.isEmpty()
                    ? "its metrics endpoint " + metricsUri() + " did not answer"
                    : AgentComponents.describe(missing) + " did not start")
                + " within "
                + timeout.toSeconds()
                + " s, so it was killed; see "
                + process.log()
                + ":\n"
                + process.logTail(20));
      }
      ChildProcess.sleep(Duration.ofMillis(200));
    }
  }

  private Optional<AgentMetrics> fetchMetrics() {
    HttpRequest request =
        HttpRequest.newBuilder(metricsUri()).timeout(Duration.ofSeconds(5)).GET().build();
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200
          ? Optional.of(AgentMetrics.parseJson(response.body()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while reading metrics of Flume agent " + name(), e);
    }
  }

  /**
   * {@code http://127.0.0.1:<port>/metrics}. Flume's server listens on every interface; use
   * loopback.
   */
  public URI metricsUri() {
    return URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
  }

  public int metricsPort() {
    return metricsPort;
  }

  /** Reads the agent's metrics from its HTTP endpoint; fails if the agent does not answer. */
  @Override
  public AgentMetrics metrics() {
    return fetchMetrics()
        .orElseThrow(
            () ->
                new StackException(
                    "Flume agent "
                        + name()
                        + " did not answer "
                        + metricsUri()
                        + (process.isAlive() ? "" : ": the process has exited")
                        + "; see "
                        + process.log()));
  }

  @Override
  public String name() {
    return components.agent();
  }

  @Override
  public AgentComponents components() {
    return components;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** CPU time (user + system) the agent process has used so far; zero after it exited. */
  public Duration cpuTime() {
    return process.cpuTime();
  }

  /** The agent's log: its stdout and stderr. */
  public Path log() {
    return process.log();
  }

  /** What this run of the agent has logged so far. */
  public String output() {
    return process.output();
  }

  public Path configFile() {
    return configFile;
  }

  /** SIGTERM, then SIGKILL if Flume has not shut down within {@link ChildProcess#STOP_GRACE}. */
  @Override
  public void stop() {
    stop(ChildProcess.STOP_GRACE);
  }

  /** SIGTERM, then SIGKILL if Flume has not shut down within {@code grace}. */
  public void stop(Duration grace) {
    if (process.isAlive()) {
      int code = process.stop(grace);
      LOG.info("Flume agent {} stopped (exit code {})", name(), code);
    } else {
      process.close();
    }
  }

  /** SIGKILL: the agent dies at once, as in a crash, without flushing anything. */
  public void kill() {
    process.kill();
    LOG.info("Flume agent {} killed", name());
  }

  @Override
  public String toString() {
    return "AgentProcess[" + name() + ", " + process + "]";
  }
}
