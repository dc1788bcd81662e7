package org.flafka.sweep.cm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClient.ConfigView;
import org.flafka.cm.CmException;
import org.flafka.cm.CommandProgress;
import org.flafka.cm.TimeSeriesQuery;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiRoleConfigGroup;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;
import org.flafka.sweep.target.AgentSample;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.target.TrialEnvironment;

/**
 * The {@code cm} target: trials run on a cluster Cloudera Manager manages, driven through its REST
 * API ({@link CmClient}). Two AGENT role config groups of one FLUME service, each with one role,
 * run the edge and the core agent: a run PUTs the rendered configuration as the group's {@code
 * agent_config_file} (with {@code agent_name}), restarts both roles and polls the commands, reads
 * the agents' counters and CPU back from {@code /timeseries} ({@link CounterReading}), and stops
 * the roles. Topics cannot be made through CM: each run gets a new topic with its partitions
 * through Kafka's AdminClient, a consumer group and an HDFS directory of its own, all named with
 * {@link CmTargetSettings#runPrefix()} so no run sees another's (or an earlier sweep's) events; a
 * run's topic and group are deleted when the next run starts and at the end.
 *
 * <p>{@link #close} puts back the two groups' {@code agent_config_file} and {@code agent_name} as
 * they were and starts again the roles that were running, so a sweep leaves the cluster as it found
 * it (but for the runs' HDFS directories, which hold what the audit read).
 *
 * <p>CM collects metrics about once a minute: {@link #sample} returns the counters as of the newest
 * collection, waiting for one newer than the previous sample's, so each sample sees the pipeline
 * move (or shows it stuck).
 */
public final class CmTarget implements Target {
  /**
   * Assumed until a series states its {@code metricCollectionFrequencyMs}: CM's usual one minute.
   */
  static final Duration DEFAULT_COLLECTION_INTERVAL = Duration.ofMinutes(1);

  private static final int DEFAULT_KAFKA_PORT = 9092;
  private static final String KAFKA_PORT_KEY = "port";

  /**
   * One agent of the pipeline: its role config group, its one role, and what to restore at the end.
   */
  private record Agent(
      Tier tier,
      String group,
      String role,
      String host,
      Map<String, String> original,
      boolean wasStarted) {}

  private final CmClient client;
  private final CmTargetSettings settings;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<Tier, Instant> lastPoint = new EnumMap<>(Tier.class);
  private Consumer<String> status = line -> {};
  private String cluster;
  private String service;
  private Agent edge;
  private Agent core;
  private String bootstrapServers;
  private TrialTopics topics;
  private String runTopic;
  private volatile boolean agentsRunning;
  private volatile boolean configChanged;
  private Instant agentsStarted;
  private volatile Duration collectionInterval = DEFAULT_COLLECTION_INTERVAL;

  public CmTarget(CmClient client, CmTargetSettings settings) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String description() {
    if (edge == null || core == null) {
      return "Cloudera Manager at " + client.config().url();
    }
    return "Cloudera Manager at "
        + client.config().url()
        + ": cluster '"
        + cluster
        + "', Flume service '"
        + service
        + "', edge agent role "
        + edge.role()
        + " (group "
        + edge.group()
        + ", host "
        + edge.host()
        + "), core agent role "
        + core.role()
        + " (group "
        + core.group()
        + "); Kafka "
        + bootstrapServers
        + "; HDFS "
        + settings.hdfsRoot();
  }

  /**
   * Finds cluster, service, the two groups and their roles, and the brokers; remembers what to
   * restore.
   */
  @Override
  public synchronized void start(Consumer<String> status) {
    this.status = status;
    status.accept(
        "Cloudera Manager at "
            + client.config().url()
            + " (API v"
            + client.apiVersion()
            + "): finding the Flume agents");
    try {
      cluster = client.findCluster(settings.cluster()).name();
      service =
          client.findService(cluster, CmClient.FLUME_SERVICE_TYPE, settings.flumeService()).name();
      List<ApiRoleConfigGroup> groups =
          client.roleConfigGroups(cluster, service).stream()
              .filter(g -> CmClient.FLUME_AGENT_ROLE_TYPE.equals(g.roleType()))
              .toList();
      Map<String, List<ApiRole>> roles =
          client.rolesByConfigGroup(cluster, service, CmClient.FLUME_AGENT_ROLE_TYPE);
      Agent edgeAgent = agent(Tier.EDGE, settings.edgeGroup(), "--cm-edge-group", groups, roles);
      Agent coreAgent = agent(Tier.CORE, settings.coreGroup(), "--cm-core-group", groups, roles);
      if (edgeAgent.group().equals(coreAgent.group())) {
        throw new TargetException(
            "the edge and the core agent cannot share role config group '"
                + edgeAgent.group()
                + "' (one agent_config_file each): give two groups with --cm-edge-group"
                + " and --cm-core-group");
      }
      bootstrapServers =
          settings.kafkaBootstrap() != null ? settings.kafkaBootstrap() : discoverBrokers();
      edge = edgeAgent;
      core = coreAgent;
    } catch (CmException e) {
      throw new TargetException(e.getMessage(), e);
    }
    topics = new TrialTopics(bootstrapServers, settings.kafkaClient());
    topics.checkReachable();
    status.accept(
        "edge agent: role "
            + edge.role()
            + " (group "
            + edge.group()
            + ") on "
            + edge.host()
            + "; core agent: role "
            + core.role()
            + " (group "
            + core.group()
            + "); Kafka "
            + bootstrapServers
            + "; HDFS "
            + settings.hdfsRoot()
            + agentVariableNames());
  }

  /** The names (never the values) of the agents' own variables, for the start-up line. */
  private String agentVariableNames() {
    return variableNames("edge", settings.edgeVariables())
        + variableNames("core", settings.coreVariables());
  }

  private static String variableNames(String tier, Map<String, Object> variables) {
    return variables.isEmpty()
        ? ""
        : "; the "
            + tier
            + " agent's own variables: "
            + String.join(", ", new TreeSet<>(variables.keySet()));
  }

  private Agent agent(
      Tier tier,
      String requested,
      String flag,
      List<ApiRoleConfigGroup> groups,
      Map<String, List<ApiRole>> roles) {
    String present =
        groups.stream()
            .map(
                g ->
                    g.name()
                        + " ("
                        + roles.getOrDefault(g.name(), List.of()).size()
                        + " role"
                        + (roles.getOrDefault(g.name(), List.of()).size() == 1 ? "" : "s")
                        + ")")
            .sorted()
            .collect(Collectors.joining(", "));
    ApiRoleConfigGroup group;
    if (requested != null) {
      group =
          groups.stream()
              .filter(g -> g.name().equals(requested))
              .findFirst()
              .orElseThrow(
                  () ->
                      new TargetException(
                          "role config group '"
                              + requested
                              + "' ("
                              + flag
                              + ") not found among the AGENT groups of service '"
                              + service
                              + "' in cluster '"
                              + cluster
                              + "'; AGENT groups there: "
                              + (present.isEmpty() ? "(none)" : present)));
    } else {
      String word = tier.id();
      List<ApiRoleConfigGroup> named = groups.stream().filter(g -> mentions(g, word)).toList();
      if (named.size() != 1) {
        throw new TargetException(
            "cannot tell which AGENT role config group of service '"
                + service
                + "' runs the "
                + word
                + " agent ("
                + (named.isEmpty() ? "no" : named.size())
                + " group names say '"
                + word
                + "'): give it with "
                + flag
                + "; AGENT groups there: "
                + (present.isEmpty() ? "(none)" : present));
      }
      group = named.get(0);
    }
    List<ApiRole> members = roles.getOrDefault(group.name(), List.of());
    if (members.size() != 1) {
      throw new TargetException(
          "role config group '"
              + group.name()
              + "' ("
              + tier.id()
              + ") has "
              + members.size()
              + " AGENT roles; the sweep drives one "
              + tier.id()
              + " agent: "
              + (members.isEmpty()
                  ? "add an AGENT role to the group in CM"
                  : "give a group with one role (" + "move the others to another group in CM)")
              + ", or choose another with "
              + flag);
    }
    ApiRole role = members.get(0);
    String host = role.hostRef() == null ? null : role.hostRef().hostname();
    Map<String, String> original = new LinkedHashMap<>();
    original.put(CmClient.AGENT_NAME, null);
    original.put(CmClient.AGENT_CONFIG_FILE, null);
    for (ApiConfig config :
        client.roleConfigGroupConfig(cluster, service, group.name(), ConfigView.SUMMARY)) {
      if (original.containsKey(config.name())) {
        original.put(config.name(), config.value());
      }
    }
    return new Agent(
        tier, group.name(), role.name(), host, original, "STARTED".equals(role.roleState()));
  }

  private static boolean mentions(ApiRoleConfigGroup group, String word) {
    return group.name().toLowerCase(Locale.ROOT).contains(word)
        || group.displayName() != null
            && group.displayName().toLowerCase(Locale.ROOT).contains(word);
  }

  /**
   * The brokers of the KAFKA service: each KAFKA_BROKER role's host name and its group's {@code
   * port} (Kafka's default 9092 when the group leaves it at its default).
   */
  private String discoverBrokers() {
    String kafka;
    try {
      kafka =
          client.findService(cluster, CmClient.KAFKA_SERVICE_TYPE, settings.kafkaService()).name();
    } catch (CmException e) {
      throw new TargetException(e.getMessage() + "; or give the brokers with --kafka-bootstrap", e);
    }
    List<ApiRole> brokers = client.roles(cluster, kafka, CmClient.KAFKA_BROKER_ROLE_TYPE);
    if (brokers.isEmpty()) {
      throw new TargetException(
          "KAFKA service '"
              + kafka
              + "' has no KAFKA_BROKER role: give the brokers with"
              + " --kafka-bootstrap");
    }
    Map<String, Integer> ports = new LinkedHashMap<>();
    List<String> servers = new ArrayList<>();
    for (ApiRole broker : brokers) {
      if (broker.hostRef() == null || broker.hostRef().hostname() == null) {
        throw new TargetException(
            "Cloudera Manager names no host name for broker role "
                + broker.name()
                + " (API v"
                + client.apiVersion()
                + " gives only host ids): give the brokers with"
                + " --kafka-bootstrap");
      }
      int port =
          ports.computeIfAbsent(broker.roleConfigGroupName(), group -> brokerPort(kafka, group));
      servers.add(broker.hostRef().hostname() + ":" + port);
    }
    return String.join(",", servers);
  }

  private int brokerPort(String kafka, String group) {
    for (ApiConfig config :
        client.roleConfigGroupConfig(cluster, kafka, group, ConfigView.SUMMARY)) {
      if (KAFKA_PORT_KEY.equals(config.name()) && config.value() != null) {
        try {
          return Integer.parseInt(config.value().trim());
        } catch (NumberFormatException e) {
          throw new TargetException(
              "broker group '"
                  + group
                  + "' of service '"
                  + kafka
                  + "' has port '"
                  + config.value()
                  + "', not a number: give the brokers with --kafka-bootstrap");
        }
      }
    }
    return DEFAULT_KAFKA_PORT;
  }

  @Override
  public synchronized TrialEnvironment prepare(String runName, int partitions, Protocol protocol) {
    requireStarted();
    if (protocol == Protocol.TLS) {
      throw new IllegalStateException(
          "the cm target does not run TLS loads yet (the edge's key store would have"
              + " to be on the agent's host): use tcp or udp");
    }
    deleteRunTopic();
    Path dir = settings.workDir().resolve("trials").resolve(runName);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new TargetException("cannot create " + dir + ": " + e.getMessage(), e);
    }
    String name = settings.runPrefix() + runName;
    topics.create(name, partitions);
    runTopic = name;
    String host = settings.syslogHost() != null ? settings.syslogHost() : edge.host();
    if (host == null) {
      throw new TargetException(
          "Cloudera Manager names no host for the edge role "
              + edge.role()
              + ": give the host the load goes to with --syslog-host");
    }
    String agentDir = settings.agentDataDir().replaceAll("/+$", "") + "/" + name;
    // the agents' own variables first: none of them is the target's (the CLI refuses those)
    Map<String, Object> edgeVariables = new LinkedHashMap<>(settings.edgeVariables());
    edgeVariables.put("agent_name", "edge");
    edgeVariables.put("site", "sweep");
    edgeVariables.put("kafka_bootstrap_servers", bootstrapServers);
    edgeVariables.put("kafka_topic", name);
    edgeVariables.put("edge_listeners", List.of(protocol.flagName()));
    edgeVariables.put("edge_bind_address", settings.edgeBindAddress());
    edgeVariables.put("edge_" + protocol.flagName() + "_port", settings.syslogPort());
    edgeVariables.put("edge_data_dir", agentDir + "/edge");
    Map<String, Object> coreVariables = new LinkedHashMap<>(settings.coreVariables());
    coreVariables.put("agent_name", "core");
    coreVariables.put("kafka_bootstrap_servers", bootstrapServers);
    coreVariables.put("kafka_topic", name);
    coreVariables.put("core_consumer_group", name);
    coreVariables.put(
        "core_hdfs_root", settings.hdfsRoot().toString().replaceAll("/+$", "") + "/" + name);
    coreVariables.put("core_data_dir", agentDir + "/core");
    return new TrialEnvironment(
        runName,
        dir,
        name,
        edgeVariables,
        coreVariables,
        new InetSocketAddress(host, settings.syslogPort()));
  }

  /**
   * PUTs each configuration to its group ({@code agent_name} and {@code agent_config_file} in one
   * call), then restarts both roles and waits for the commands; a failed command fails the trial
   * with CM's message.
   */
  @Override
  public void startAgents(
      TrialEnvironment environment, String edgeProperties, String coreProperties) {
    requireStarted();
    stopAgents();
    String message = "flafka sweep " + settings.runPrefix() + environment.runName();
    configChanged = true;
    try {
      client.updateFlumeAgentConfig(
          cluster,
          service,
          edge.group(),
          String.valueOf(environment.edgeVariables().get("agent_name")),
          edgeProperties,
          message);
      client.updateFlumeAgentConfig(
          cluster,
          service,
          core.group(),
          String.valueOf(environment.coreVariables().get("agent_name")),
          coreProperties,
          message);
      synchronized (this) {
        lastPoint.clear();
        agentsStarted = Instant.now();
        agentsRunning = true;
      }
      client.restartRoles(
          cluster, service, List.of(core.role(), edge.role()), CommandProgress.NONE);
    } catch (CmException e) {
      if (e.reason() == CmException.Reason.COMMAND_FAILED) {
        stopAgents();
        throw new IllegalStateException(e.getMessage(), e);
      }
      throw new TargetException(e.getMessage(), e);
    }
  }

  /**
   * The agent's counters and CPU as of CM's newest collection since the agents started: the first
   * call after a start answers at once; later ones wait (up to three collection intervals) for a
   * collection newer than the one before.
   */
  @Override
  public AgentSample sample(Tier tier) {
    Agent agent;
    Instant previous;
    Instant from;
    synchronized (this) {
      if (!agentsRunning) {
        throw new IllegalStateException("the " + tier.id() + " agent is not running");
      }
      agent = tier == Tier.EDGE ? edge : core;
      previous = lastPoint.get(tier);
      from = agentsStarted;
    }
    Duration interval = collectionInterval;
    long deadline =
        System.nanoTime()
            + Math.max(interval.multipliedBy(3).toNanos(), Duration.ofSeconds(10).toNanos());
    long pause = Math.max(100, Math.min(5000, interval.toMillis() / 10));
    while (true) {
      CounterReading reading = read(agent.role(), from);
      boolean fresh =
          reading.newest() != null && (previous == null || reading.newest().isAfter(previous));
      if (previous == null || fresh || System.nanoTime() > deadline) {
        if (reading.newest() != null) {
          synchronized (this) {
            lastPoint.put(tier, reading.newest());
          }
        }
        return reading.toSample();
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "interrupted while waiting for Cloudera Manager's next collection", e);
      }
    }
  }

  private CounterReading read(String role, Instant from) {
    try {
      var responses =
          client.queryTimeSeries(
              TimeSeriesQuery.raw(CounterReading.query(role).toString(), from, Instant.now()));
      responses.stream()
          .flatMap(r -> r.timeSeries().stream())
          .findFirst()
          .map(series -> CounterReading.collectionInterval(series, collectionInterval))
          .ifPresent(interval -> collectionInterval = interval);
      return CounterReading.of(responses, collectionInterval);
    } catch (CmException e) {
      throw new TargetException(e.getMessage(), e);
    }
  }

  /** Stops both roles (SIGTERM: sinks flush and close their files) and waits for the commands. */
  @Override
  public void stopAgents() {
    synchronized (this) {
      if (!agentsRunning) {
        return;
      }
      agentsRunning = false;
    }
    try {
      client.stopRoles(cluster, service, List.of(edge.role(), core.role()), CommandProgress.NONE);
    } catch (CmException e) {
      if (e.reason() == CmException.Reason.COMMAND_FAILED) {
        throw new IllegalStateException(e.getMessage(), e);
      }
      throw new TargetException(e.getMessage(), e);
    }
  }

  @Override
  public void checkHealthy() {
    requireStarted();
    try {
      client.clusters();
    } catch (CmException e) {
      throw new TargetException(e.getMessage(), e);
    }
    topics.checkReachable();
  }

  /**
   * Stops the agents, puts the groups' {@code agent_name} and {@code agent_config_file} back as
   * they were, starts the roles that were running before, and deletes the last run's topic. What
   * cannot be put back is reported on the status line, naming what to fix in CM.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Agent edgeAgent;
    Agent coreAgent;
    synchronized (this) {
      edgeAgent = edge;
      coreAgent = core;
    }
    if (edgeAgent == null || coreAgent == null) {
      return;
    }
    try {
      stopAgents();
    } catch (RuntimeException e) {
      status.accept(
          "could not stop the agent roles "
              + edgeAgent.role()
              + ", "
              + coreAgent.role()
              + ": "
              + e.getMessage()
              + ": stop them in Cloudera Manager");
    }
    List<String> restart = new ArrayList<>();
    for (Agent agent : configChanged ? List.of(edgeAgent, coreAgent) : List.<Agent>of()) {
      try {
        client.updateRoleConfigGroupConfig(
            cluster,
            service,
            agent.group(),
            agent.original(),
            "flafka sweep: configuration as before " + settings.runPrefix());
        if (agent.wasStarted()) {
          restart.add(agent.role());
        }
      } catch (CmException e) {
        status.accept(
            "could not put back agent_config_file and agent_name of role config group '"
                + agent.group()
                + "': "
                + e.getMessage()
                + ": restore them in Cloudera Manager (Configuration"
                + " history)");
      }
    }
    if (!restart.isEmpty()) {
      try {
        client.startRoles(cluster, service, restart, CommandProgress.NONE);
      } catch (CmException e) {
        status.accept(
            "could not start again the roles that ran before the sweep ("
                + String.join(", ", restart)
                + "): "
                + e.getMessage());
      }
    }
    synchronized (this) {
      deleteRunTopic();
      if (topics != null) {
        topics.close();
      }
    }
  }

  private void deleteRunTopic() {
    if (runTopic != null) {
      topics.deleteQuietly(runTopic, runTopic);
      runTopic = null;
    }
  }

  private void requireStarted() {
    if (closed.get()) {
      throw new TargetException("the cm target was stopped");
    }
    if (edge == null || core == null || topics == null) {
      throw new IllegalStateException("the cm target is not started");
    }
  }
}
