package org.flafka.sweep.local;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.contract.HdfsKerberos;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.Directories;
import org.flafka.stack.HdfsProcess;
import org.flafka.stack.KafkaBrokerProcess;
import org.flafka.stack.KafkaCluster;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecurePipeline;
import org.flafka.stack.StackException;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.audit.Landing;
import org.flafka.sweep.audit.LoadMarkAudit;
import org.flafka.sweep.audit.TrialAudit;
import org.flafka.sweep.target.AgentSample;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.target.TrialEnvironment;

/**
 * The {@code local} target: everything on this machine, each part in its own process so the agents'
 * CPU can be read apart: a KRaft Kafka broker and a single-node HDFS (MiniDFSCluster) from the
 * stack module, and for each run an edge and a core agent as real Flume processes on the production
 * agent classpath plus this project's plugins. Every run gets its own topic, consumer group and
 * HDFS directory, so no run sees another's events.
 *
 * <p>With {@code secure}, the broker and HDFS are a secure cluster's instead ({@link
 * SecurePipeline}): Kafka over SASL_SSL with Kerberos, HDFS with Kerberos and data transfer
 * protection, principals and keytabs for each agent and for the sweep's own clients.
 *
 * <p>Child processes die with this JVM: the stack's shutdown hook kills them on a normal exit,
 * Ctrl-C or SIGTERM; the {@link Reaper} kills them when this JVM is killed outright.
 */
public final class LocalTarget implements Target {
  private static final String LOOPBACK = "127.0.0.1";

  private final Path workDir;
  private final Integer syslogPort;
  private final Set<Protocol> protocols;
  private final List<String> agentJvmOptions;
  private final boolean secure;
  private Reaper reaper;
  private SecurePipeline secureStack;
  private LoadMarkAudit secureAudit;
  private KafkaBrokerProcess kafka;
  private HdfsProcess hdfs;
  private AgentRuntime runtime;
  private URLClassLoader agentClasses;
  private final Map<String, Boolean> classPresence = new LinkedHashMap<>();
  private AgentProcess edge;
  private AgentProcess core;
  private TrialEnvironment current;
  private boolean closed;

  /**
   * @param workDir where the broker, HDFS and the runs keep their files
   * @param syslogPort the edge's syslog port, or null for a free one per run
   * @param protocols the load protocols the space uses (checked for a free {@code syslogPort})
   */
  public LocalTarget(
      Path workDir, Integer syslogPort, Set<Protocol> protocols, List<String> agentJvmOptions) {
    this(workDir, syslogPort, protocols, agentJvmOptions, false);
  }

  /**
   * @param secure the stack as a secure cluster has it ({@link SecurePipeline}) instead of a plain
   *     one
   */
  public LocalTarget(
      Path workDir,
      Integer syslogPort,
      Set<Protocol> protocols,
      List<String> agentJvmOptions,
      boolean secure) {
    this.workDir = workDir.toAbsolutePath();
    this.syslogPort = syslogPort;
    this.protocols = Set.copyOf(protocols);
    this.agentJvmOptions = List.copyOf(agentJvmOptions);
    this.secure = secure;
  }

  /** Recorded in the results as the target, so a comparison knows which stack it was. */
  @Override
  public String description() {
    if (secure) {
      return "local secure stack: KRaft Kafka broker (SASL_SSL, GSSAPI) and Kerberized"
          + " MiniDFSCluster (data transfer protection privacy) in the sweep's JVM, Flume agents"
          + " each in its own process";
    }
    return "local stack: KRaft Kafka broker, MiniDFSCluster and Flume agents, each in its own process";
  }

  /**
   * The audit of this target's trials: {@code flafka audit} as it is, or on the secure stack as the
   * sweep's own principal (Kerberos for HDFS, SASL_SSL for Kafka), logged in when first needed.
   */
  public TrialAudit audit() {
    if (!secure) {
      return new LoadMarkAudit();
    }
    return new TrialAudit() {
      @Override
      public String name() {
        return "flafka audit";
      }

      @Override
      public AuditCounts audit(Path manifest, Landing landing) throws Exception {
        return secureAudit().audit(manifest, landing);
      }
    };
  }

  private synchronized LoadMarkAudit secureAudit() {
    requireStarted();
    if (secureAudit == null) {
      Configuration conf = secureStack.hdfsClientConfiguration();
      UserGroupInformation login;
      try {
        login = secureStack.clientLogin(conf);
      } catch (HdfsKerberos.LoginFailure e) {
        throw new TargetException("the sweep's HDFS login failed: " + e.getMessage(), e);
      }
      Map<String, String> kafkaClient = new LinkedHashMap<>(secureStack.clientSettings());
      kafkaClient.remove("bootstrap.servers");
      secureAudit = new LoadMarkAudit(kafkaClient, conf, login);
    }
    return secureAudit;
  }

  /** The broker and HDFS start with the sweep. */
  @Override
  public boolean startsCold() {
    return true;
  }

  @Override
  public synchronized void start(Consumer<String> status) {
    if (syslogPort != null) {
      for (Protocol protocol : protocols) {
        checkFree(syslogPort, protocol);
      }
    }
    locateRuntime();
    reaper = Reaper.start(workDir.resolve("children.pids"));
    if (secure) {
      startSecure(status);
      return;
    }
    status.accept("starting Kafka (KRaft) and HDFS (MiniDFSCluster) in " + workDir);
    CompletableFuture<KafkaBrokerProcess> broker =
        CompletableFuture.supplyAsync(
            tracked(() -> KafkaBrokerProcess.start(workDir.resolve("kafka"))));
    CompletableFuture<HdfsProcess> namenode =
        CompletableFuture.supplyAsync(tracked(() -> HdfsProcess.start(workDir.resolve("hdfs"))));
    try {
      kafka = broker.join();
    } catch (CompletionException e) {
      kafka = null;
    }
    try {
      hdfs = namenode.join();
    } catch (CompletionException e) {
      hdfs = null;
    }
    reaper.track();
    if (kafka == null || hdfs == null) {
      Throwable failure = (kafka == null ? broker : namenode).handle((ok, error) -> error).join();
      close();
      Throwable cause =
          failure instanceof CompletionException && failure.getCause() != null
              ? failure.getCause()
              : failure;
      throw new TargetException(
          "could not start the local "
              + (kafka == null ? "Kafka broker" : "HDFS")
              + ": "
              + firstLine(cause),
          cause);
    }
    status.accept("Kafka at " + kafka.bootstrapServers() + ", HDFS at " + hdfs.uri());
  }

  private void startSecure(Consumer<String> status) {
    status.accept(
        "starting a secure Kafka (KRaft, SASL_SSL with Kerberos) and HDFS (MiniDFSCluster with"
            + " Kerberos) in "
            + workDir);
    try {
      secureStack = SecurePipeline.start(workDir.resolve("secure"), "sweep");
    } catch (RuntimeException e) {
      close();
      throw new TargetException("could not start the local secure stack: " + firstLine(e), e);
    }
    status.accept(secureStack.describe());
  }

  private <T> Supplier<T> tracked(Supplier<T> starter) {
    return () -> {
      T started = starter.get();
      reaper.track();
      return started;
    };
  }

  /**
   * The agent classpath with this project's plugins; also all {@link #cannotRun} needs, so a dry
   * run calls it.
   */
  private void locateRuntime() {
    if (runtime != null) {
      return;
    }
    try {
      runtime = OurPlugins.addTo(AgentRuntime.locate());
    } catch (StackException e) {
      throw new TargetException(e.getMessage(), e);
    }
    agentClasses = new URLClassLoader(urls(runtime.classpath()), null);
  }

  /**
   * Checks every class the configuration names exists on the agent classpath; needs no process
   * running.
   */
  @Override
  public synchronized Optional<String> cannotRun(Tier tier, String properties) {
    locateRuntime();
    Properties parsed = new Properties();
    try {
      parsed.load(new StringReader(properties));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> missing = new TreeSet<>();
    for (String key : parsed.stringPropertyNames()) {
      String value = parsed.getProperty(key).trim();
      if ((key.endsWith(".type") || key.endsWith(".partitioner.class"))
          && value.matches("[a-z][\\w]*(\\.\\w+)+(\\$\\w+)?")) {
        boolean present =
            classPresence.computeIfAbsent(
                value,
                name -> agentClasses.findResource(name.replace('.', '/') + ".class") != null);
        if (!present) {
          missing.add(value);
        }
      }
    }
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "needs "
            + String.join(", ", missing)
            + ", which the agent classpath lacks (not written"
            + " or not built yet)");
  }

  @Override
  public synchronized TrialEnvironment prepare(String runName, int partitions, Protocol protocol) {
    requireStarted();
    Path dir = workDir.resolve("trials").resolve(runName);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new TargetException("cannot create " + dir + ": " + e.getMessage(), e);
    }
    String topic = "sweep-" + runName;
    KafkaCluster topics = secureStack != null ? secureStack.client() : kafka;
    topics.createTopic(topic, partitions);
    int port = syslogPort != null ? syslogPort : freePort(protocol);
    Map<String, Object> edgeVariables = new LinkedHashMap<>();
    edgeVariables.put("agent_name", "edge");
    edgeVariables.put("site", "sweep");
    edgeVariables.put("kafka_bootstrap_servers", topics.bootstrapServers());
    edgeVariables.put("kafka_topic", topic);
    edgeVariables.put("edge_listeners", List.of(protocol.flagName()));
    edgeVariables.put("edge_bind_address", LOOPBACK);
    edgeVariables.put("edge_" + protocol.flagName() + "_port", port);
    edgeVariables.put("edge_data_dir", dir.resolve("edge-data").toString());
    if (secureStack != null) {
      edgeVariables.putAll(secureStack.edgeVariables());
    }
    Map<String, Object> coreVariables = new LinkedHashMap<>();
    coreVariables.put("agent_name", "core");
    coreVariables.put("kafka_bootstrap_servers", topics.bootstrapServers());
    coreVariables.put("kafka_topic", topic);
    coreVariables.put("core_consumer_group", "sweep-" + runName);
    coreVariables.put("core_data_dir", dir.resolve("core-data").toString());
    if (secureStack != null) {
      coreVariables.putAll(secureStack.coreVariables(runName));
    } else {
      coreVariables.put("core_hdfs_root", hdfs.uri() + "/sweep/" + runName);
    }
    current =
        new TrialEnvironment(
            runName,
            dir,
            topic,
            edgeVariables,
            coreVariables,
            new InetSocketAddress(LOOPBACK, port));
    return current;
  }

  @Override
  public void startAgents(
      TrialEnvironment environment, String edgeProperties, String coreProperties) {
    requireStarted();
    stopAgents();
    List<String> jvmOptions =
        secureStack != null ? secureStack.agentJvmOptions(agentJvmOptions) : agentJvmOptions;
    CompletableFuture<AgentProcess> coreStart =
        CompletableFuture.supplyAsync(
            tracked(
                () ->
                    AgentProcess.builder(
                            "core", coreProperties, environment.directory().resolve("core"))
                        .runtime(runtime)
                        .jvmOptions(jvmOptions)
                        .start()));
    CompletableFuture<AgentProcess> edgeStart =
        CompletableFuture.supplyAsync(
            tracked(
                () ->
                    AgentProcess.builder(
                            "edge", edgeProperties, environment.directory().resolve("edge"))
                        .runtime(runtime)
                        .jvmOptions(jvmOptions)
                        .start()));
    AgentProcess startedCore = joinQuietly(coreStart);
    AgentProcess startedEdge = joinQuietly(edgeStart);
    synchronized (this) {
      core = startedCore;
      edge = startedEdge;
    }
    if (startedCore == null || startedEdge == null) {
      Throwable failure =
          (startedEdge == null ? edgeStart : coreStart).handle((ok, error) -> error).join();
      stopAgents();
      Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
      throw new IllegalStateException(firstLine(cause), cause);
    }
  }

  private static <T> T joinQuietly(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      return null;
    }
  }

  @Override
  public AgentSample sample(Tier tier) {
    AgentProcess agent;
    synchronized (this) {
      agent = tier == Tier.EDGE ? edge : core;
    }
    if (agent == null) {
      throw new IllegalStateException("the " + tier.id() + " agent is not running");
    }
    long now = System.nanoTime();
    return new AgentSample(agent.metrics().counters(), agent.cpuTime().toNanos() / 1e9, now);
  }

  @Override
  public void stopAgents() {
    stopAgents(AgentProcess::stop);
  }

  @Override
  public void killAgents() {
    stopAgents(AgentProcess::kill);
  }

  private void stopAgents(Consumer<AgentProcess> stop) {
    AgentProcess stoppingEdge;
    AgentProcess stoppingCore;
    TrialEnvironment environment;
    synchronized (this) {
      stoppingEdge = edge;
      stoppingCore = core;
      environment = current;
      edge = null;
      core = null;
    }
    // Edge first: its Kafka sinks flush into the topic while the core still reads.
    CompletableFuture<Void> edgeStop =
        CompletableFuture.runAsync(() -> stopQuietly(stoppingEdge, stop));
    CompletableFuture<Void> coreStop =
        CompletableFuture.runAsync(() -> stopQuietly(stoppingCore, stop));
    edgeStop.join();
    coreStop.join();
    if (environment != null) {
      for (String data : List.of("edge-data", "core-data")) {
        try {
          Directories.deleteRecursively(environment.directory().resolve(data));
        } catch (UncheckedIOException e) {
          // a file channel's leftovers only cost disk space until the work directory goes
        }
      }
    }
  }

  private static void stopQuietly(AgentProcess agent, Consumer<AgentProcess> stop) {
    if (agent != null) {
      stop.accept(agent);
    }
  }

  @Override
  public synchronized void checkHealthy() {
    requireStarted();
    if (secureStack != null) {
      // in this JVM: it cannot die apart from the sweep
      return;
    }
    if (!kafka.isAlive()) {
      throw new TargetException("the local Kafka broker process has died; see " + kafka.log());
    }
    if (!hdfs.isAlive()) {
      throw new TargetException("the local HDFS process has died; see " + hdfs.log());
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      stopAgents();
    } finally {
      CompletableFuture<Void> brokerStop =
          CompletableFuture.runAsync(
              () -> {
                if (kafka != null) {
                  kafka.close();
                }
              });
      CompletableFuture<Void> hdfsStop =
          CompletableFuture.runAsync(
              () -> {
                if (hdfs != null) {
                  hdfs.close();
                }
              });
      brokerStop.join();
      hdfsStop.join();
      if (secureStack != null) {
        secureStack.close();
      }
      if (reaper != null) {
        reaper.close();
      }
      if (agentClasses != null) {
        try {
          agentClasses.close();
        } catch (IOException e) {
          // only open jar handles; nothing to report
        }
      }
    }
  }

  private void requireStarted() {
    if ((kafka == null || hdfs == null) && secureStack == null) {
      throw new IllegalStateException("the local target is not started");
    }
    if (closed) {
      throw new TargetException("the local target was stopped");
    }
  }

  /**
   * Fails with the one line a user needs when {@code port} is taken for {@code protocol} on
   * loopback.
   */
  static void checkFree(int port, Protocol protocol) {
    try {
      if (protocol == Protocol.UDP) {
        new DatagramSocket(new InetSocketAddress(LOOPBACK, port)).close();
      } else {
        try (ServerSocket socket = new ServerSocket()) {
          socket.bind(new InetSocketAddress(LOOPBACK, port));
        }
      }
    } catch (IOException e) {
      throw new TargetException(
          protocol.flagName().toUpperCase(Locale.ROOT)
              + " port "
              + port
              + " on "
              + LOOPBACK
              + " is in use ("
              + e.getMessage()
              + "): choose a free one with --port, or leave"
              + " --port out to use any free port");
    }
  }

  private static int freePort(Protocol protocol) {
    try {
      return protocol.freeLoopbackPort();
    } catch (IOException e) {
      throw new TargetException("no free loopback port: " + e.getMessage(), e);
    }
  }

  private static URL[] urls(List<Path> classpath) {
    List<URL> urls = new ArrayList<>();
    for (Path entry : classpath) {
      try {
        urls.add(entry.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("not a classpath entry: " + entry, e);
      }
    }
    return urls.toArray(URL[]::new);
  }

  static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
