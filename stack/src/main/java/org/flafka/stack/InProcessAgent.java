package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flume.Sink;
import org.apache.flume.SinkProcessor;
import org.apache.flume.SinkRunner;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.flume.node.Application;
import org.apache.flume.node.FileConfigurationSource;
import org.apache.flume.node.MaterializedConfiguration;
import org.apache.flume.node.UriConfigurationProvider;
import org.apache.flume.sink.AbstractSingleSinkProcessor;
import org.apache.flume.sink.AbstractSinkProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flume agent running in this JVM, started the way Flume 1.11's own main does for {@code -f FILE
 * --no-reload-conf}: a UriConfigurationProvider materialises the configuration and an Application
 * starts it (docs/reference/dependencies.md, "Starting agents in a JVM, and as processes" names
 * PropertiesFileConfigurationProvider, deprecated in 1.11, which does the same). Quick and easy to
 * debug, but it runs on this JVM's classpath: only {@link AgentProcess} proves the production
 * classpath is complete.
 *
 * <p>Metrics come from this JVM's MBeans, so two in-process agents must not share component names;
 * Flume's metrics server is not started. Relative paths in the configuration resolve against this
 * JVM's working directory.
 */
public final class InProcessAgent implements FlumeAgent {
  private static final Logger LOG = LoggerFactory.getLogger(InProcessAgent.class);

  /** How long {@link #start} waits for every component to report itself started. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final AgentComponents components;
  private final Application application;
  private boolean stopped;

  private InProcessAgent(AgentComponents components, Application application) {
    this.components = components;
    this.application = application;
  }

  /**
   * Writes {@code properties} to {@code dir/<agent>.properties} and starts agent {@code agent} from
   * it in this JVM. Returns once every declared component runs; fails naming any component Flume
   * dropped.
   */
  public static InProcessAgent start(String agent, String properties, Path dir) {
    AgentComponents components = AgentComponents.declaredIn(agent, properties);
    Path file = Directories.create(dir).resolve(agent + ".properties");
    try {
      Files.writeString(file, properties, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
    }
    // What Flume's main does for -f FILE --no-reload-conf: no backup directory, no event bus, no
    // polling
    MaterializedConfiguration configuration =
        new UriConfigurationProvider(
                agent, List.of(new FileConfigurationSource(file.toUri())), null, null, 0)
            .getConfiguration();
    Set<String> dropped = dropped(components, configuration);
    if (!dropped.isEmpty()) {
      throw new StackException(
          "Flume agent "
              + agent
              + " (in-process, "
              + file
              + ") dropped "
              + AgentComponents.describe(dropped)
              + " at start-up: Flume logged why as a WARN or ERROR naming it"
              + " in this JVM's log; fix the configuration");
    }
    Application application = new Application();
    application.handleConfigurationEvent(configuration);
    InProcessAgent started = new InProcessAgent(components, application);
    try {
      started.awaitStarted();
    } catch (RuntimeException e) {
      started.stop();
      throw e;
    }
    LOG.info("Flume agent {} started in-process from {}", agent, file);
    return started;
  }

  /** Declared components missing from what Flume materialised, as metric group names. */
  private static Set<String> dropped(
      AgentComponents components, MaterializedConfiguration configuration) {
    Set<String> sinks = new LinkedHashSet<>();
    for (SinkRunner runner : configuration.getSinkRunners().values()) {
      SinkProcessor processor = runner.getPolicy();
      if (processor instanceof AbstractSingleSinkProcessor single) {
        sinks.add(single.getSink().getName());
      } else if (processor instanceof AbstractSinkProcessor group) {
        group.getSinks().stream().map(Sink::getName).forEach(sinks::add);
      }
    }
    Set<String> dropped = new LinkedHashSet<>();
    components.sources().stream()
        .filter(name -> !configuration.getSourceRunners().containsKey(name))
        .map(AgentComponents.Kind.SOURCE::metricName)
        .forEach(dropped::add);
    components.channels().stream()
        .filter(name -> !configuration.getChannels().containsKey(name))
        .map(AgentComponents.Kind.CHANNEL::metricName)
        .forEach(dropped::add);
    components.sinks().stream()
        .filter(name -> !sinks.contains(name))
        .map(AgentComponents.Kind.SINK::metricName)
        .forEach(dropped::add);
    return dropped;
  }

  private void awaitStarted() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      Set<String> missing = AgentStartup.notStarted(components, metrics());
      if (missing.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new StackException(
            "Flume agent "
                + name()
                + " (in-process): "
                + AgentComponents.describe(missing)
                + " did not start within "
                + START_TIMEOUT.toSeconds()
                + " s; see this JVM's log");
      }
      ChildProcess.sleep(Duration.ofMillis(100));
    }
  }

  @Override
  public String name() {
    return components.agent();
  }

  @Override
  public AgentComponents components() {
    return components;
  }

  /** Metrics of every Flume component registered in this JVM (see the class comment). */
  @Override
  public AgentMetrics metrics() {
    return AgentMetrics.of(JMXPollUtil.getAllMBeans());
  }

  @Override
  public synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    application.stop();
    LOG.info("Flume agent {} stopped", name());
  }

  @Override
  public String toString() {
    return "InProcessAgent[" + name() + "]";
  }
}
