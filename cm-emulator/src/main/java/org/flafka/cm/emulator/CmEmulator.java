package org.flafka.cm.emulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flafka.cm.CmClient;
import org.flafka.cm.TimeSeriesQuery.Rollup;
import org.flafka.cm.model.ApiBulkCommandList;
import org.flafka.cm.model.ApiCluster;
import org.flafka.cm.model.ApiClusterRef;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiConfigUpdate;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.cm.model.ApiHostRef;
import org.flafka.cm.model.ApiList;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiRoleConfigGroup;
import org.flafka.cm.model.ApiRoleConfigGroupRef;
import org.flafka.cm.model.ApiService;
import org.flafka.cm.model.ApiServiceConfig;
import org.flafka.cm.model.ApiServiceRef;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesRequest;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.flafka.stack.AgentComponents;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.OurPlugins;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Cloudera Manager emulator: the part of the CM REST API the kit uses
 * (docs/reference/cloudera-manager.md sections 1.1-1.7), answering with CM's JSON shapes (the
 * {@code org.flafka.cm.model} records), behind HTTP basic auth, on 127.0.0.1. It is backed by real
 * parts: each Flume AGENT role is a real Flume agent process; a config PUT followed by a restart
 * command really restarts that agent with the new {@code agent_config_file} and {@code agent_name}
 * (the command fails, naming the component Flume dropped, if the configuration is broken); {@code
 * /timeseries} answers tsqueries from the agents' real metrics, the broker's meters and the host's
 * network counters, sampled in the background under CM's metric names.
 *
 * <pre>{@code
 * try (CmEmulator cm = CmEmulator.start(CmEmulatorConfig.builder(dir).kafka(broker).build())) {
 *     CmClient client = CmClient.connect(CmClientConfig.from(Map.of("cm.url", cm.url(), ...), env));
 * }
 * }</pre>
 */
public final class CmEmulator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CmEmulator.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VERSIONED = Pattern.compile("/api/v(\\d+)(/.*)?");
  private static final String DEFAULT_AGENT_NAME = "tier1";

  /** The AGENT role config group settings the emulator knows: the two the sweep sets. */
  private static final Map<String, String> AGENT_SETTINGS =
      Map.of(
          CmClient.AGENT_CONFIG_FILE, "Configuration File: the Flume agent's properties text",
          CmClient.AGENT_NAME,
              "Agent Name: the prefix of the agent's properties in the configuration file");

  /** An error answer: status and a one-line message ({@code {"message": ...}}). */
  private static final class HttpError extends RuntimeException {
    private final int status;

    HttpError(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  private record Group(
      String name,
      String displayName,
      String service,
      String roleType,
      boolean base,
      Map<String, String> config) {}

  private final CmEmulatorConfig config;
  private final Topology topology;
  private final AgentRuntime runtime;
  private final List<FlumeRole> flumeRoles = new ArrayList<>();
  private final Map<String, Group> groups = new LinkedHashMap<>();
  private final Map<String, String> kafkaServiceConfig = new LinkedHashMap<>();
  private final Map<Long, CommandRun> commands = new ConcurrentHashMap<>();
  private final Map<String, ApiDashboard> dashboards = new LinkedHashMap<>();
  private final AtomicLong commandIds = new AtomicLong(100);
  private final MetricStore store = new MetricStore();
  private final MetricSampler sampler;
  private final TsQueryEngine queryEngine;
  private final ExecutorService commandThreads =
      Executors.newCachedThreadPool(daemon("cm-emulator-command"));
  private final ScheduledExecutorService sampling =
      Executors.newSingleThreadScheduledExecutor(daemon("cm-emulator-sampler"));
  private final HttpServer server;

  private CmEmulator(CmEmulatorConfig config) {
    this.config = config;
    this.topology =
        new Topology(
            config.cluster(),
            config.hostname(),
            "host-" + config.hostname(),
            config.flumeService(),
            config.kafkaService(),
            config.kafkaService() + "-KAFKA_BROKER-1");
    this.runtime =
        config.runtime() != null
            ? config.runtime()
            : OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
    String flume = config.flumeService();
    groups.put(
        flume + "-AGENT-BASE",
        new Group(
            flume + "-AGENT-BASE",
            "Agent Default Group",
            flume,
            "AGENT",
            true,
            new LinkedHashMap<>()));
    for (int i = 1; i <= config.agents(); i++) {
      String group = i == 1 ? flume + "-AGENT-BASE" : flume + "-AGENT-" + i;
      if (i > 1) {
        groups.put(
            group,
            new Group(group, "Agent Group " + i, flume, "AGENT", false, new LinkedHashMap<>()));
      }
      flumeRoles.add(new FlumeRole(flume + "-AGENT-" + i, group));
    }
    if (config.kafka() != null) {
      // the broker's listener port, under the KAFKA_BROKER key CM uses for it
      // (docs/reference/cloudera-manager.md)
      Map<String, String> brokerConfig = new LinkedHashMap<>();
      String servers = config.kafka().bootstrapServers().split(",")[0];
      brokerConfig.put("port", servers.substring(servers.lastIndexOf(':') + 1));
      groups.put(
          topology.kafkaBrokerGroup(),
          new Group(
              topology.kafkaBrokerGroup(),
              "Kafka Broker Default Group",
              config.kafkaService(),
              CmClient.KAFKA_BROKER_ROLE_TYPE,
              true,
              brokerConfig));
    }
    declareEntities();
    this.sampler =
        new MetricSampler(
            store,
            topology,
            () -> List.copyOf(flumeRoles),
            config.kafka(),
            config.sampleInterval());
    this.queryEngine = new TsQueryEngine(store, config.sampleInterval());
    try {
      this.server =
          HttpServer.create(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port()), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "CM emulator cannot listen on 127.0.0.1:" + config.port() + ": " + e.getMessage(), e);
    }
    server.setExecutor(Executors.newFixedThreadPool(4, daemon("cm-emulator-http")));
    server.createContext("/", this::handle);
  }

  /**
   * Starts the emulator: starts the roles that have an initial configuration (failing if one does
   * not start), begins sampling and listening. {@link #url()} is where to point a client.
   */
  public static CmEmulator start(CmEmulatorConfig config) {
    CmEmulator emulator = new CmEmulator(config);
    try {
      config
          .initialConfigs()
          .forEach(
              (index, agent) -> {
                FlumeRole role = emulator.flumeRoles.get(index - 1);
                Map<String, String> settings = emulator.groups.get(role.group()).config();
                synchronized (settings) {
                  settings.put(CmClient.AGENT_NAME, agent.agentName());
                  settings.put(CmClient.AGENT_CONFIG_FILE, agent.configFile());
                }
                CommandRun run = emulator.newCommand("Start", config.flumeService(), role.name());
                emulator.restart(role, run);
                if (!run.succeeded()) {
                  throw new IllegalStateException(run.toApi().resultMessage());
                }
              });
      long interval = config.sampleInterval().toMillis();
      emulator.sampling.scheduleAtFixedRate(
          emulator::sampleQuietly, 0, interval, TimeUnit.MILLISECONDS);
      emulator.server.start();
    } catch (RuntimeException e) {
      emulator.close();
      throw e;
    }
    LOG.info(
        "CM emulator listening on {} ({} Flume role(s), samples every {} ms)",
        emulator.url(),
        config.agents(),
        config.sampleInterval().toMillis());
    return emulator;
  }

  /** {@code http://127.0.0.1:<port>}: the server root, as {@code --cm-url} takes it. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The Flume AGENT role names, in order (role 1 first). */
  public List<String> flumeRoles() {
    return flumeRoles.stream().map(FlumeRole::name).toList();
  }

  /** The agent process of a role, if it runs. */
  public Optional<AgentProcess> agent(String roleName) {
    return findRole(roleName).flatMap(FlumeRole::agent);
  }

  /** Takes one round of samples now (tests use it to avoid waiting for the schedule). */
  public void sampleNow() {
    sampler.sample();
  }

  @Override
  public void close() {
    server.stop(0);
    sampling.shutdownNow();
    commandThreads.shutdownNow();
    for (FlumeRole role : flumeRoles) {
      role.agent().ifPresent(AgentProcess::stop);
      role.agent(null);
    }
    sampler.close();
    ((ExecutorService) server.getExecutor()).shutdownNow();
  }

  // ---------------------------------------------------------------------------------------------------------
  // HTTP

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      int status;
      Object answer;
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      try {
        authenticate(exchange);
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
          body = in.readAllBytes();
        }
        if (path.equals("/api/version")) {
          send(
              exchange,
              200,
              "text/plain",
              ("v" + config.apiVersion()).getBytes(StandardCharsets.UTF_8));
          return;
        }
        Matcher versioned = VERSIONED.matcher(path);
        if (!versioned.matches()) {
          throw new HttpError(404, "no such resource " + path + ": the API is under /api/v<N>/");
        }
        int version = Integer.parseInt(versioned.group(1));
        if (version > config.apiVersion()) {
          throw new HttpError(
              404,
              "API version v"
                  + version
                  + " is not supported; the highest is v"
                  + config.apiVersion());
        }
        List<String> segments = segments(versioned.group(2) == null ? "" : versioned.group(2));
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        Reply reply = route(method, segments, query, new String(body, StandardCharsets.UTF_8));
        if (reply.text() != null) {
          send(
              exchange,
              reply.status(),
              reply.contentType(),
              reply.text().getBytes(StandardCharsets.UTF_8));
          return;
        }
        status = reply.status();
        answer = reply.body();
      } catch (HttpError e) {
        status = e.status;
        answer = Map.of("message", e.getMessage());
        if (status == 401) {
          exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"Cloudera Manager\"");
        }
      } catch (RuntimeException e) {
        LOG.warn("CM emulator failed on {} {}", method, path, e);
        status = 500;
        answer = Map.of("message", "CM emulator error: " + e);
      }
      send(exchange, status, "application/json", JSON.writeValueAsBytes(answer));
    }
  }

  private record Reply(int status, Object body, String contentType, String text) {
    static Reply json(int status, Object body) {
      return new Reply(status, body, "application/json", null);
    }

    static Reply ok(Object body) {
      return json(200, body);
    }
  }

  private static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private void authenticate(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (config.user() + ":" + config.password()).getBytes(StandardCharsets.UTF_8));
    if (header == null
        || !MessageDigest.isEqual(
            header.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8))) {
      throw new HttpError(401, "Authentication required: wrong or missing user name or password");
    }
  }

  private static List<String> segments(String rawPath) {
    List<String> segments = new ArrayList<>();
    for (String segment : rawPath.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
      }
    }
    return segments;
  }

  private static Map<String, String> query(String rawQuery) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        String name =
            URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value =
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        parameters.put(name, value);
      }
    }
    return parameters;
  }

  private Reply route(String method, List<String> s, Map<String, String> query, String body) {
    int n = s.size();
    if (n >= 1 && s.get(0).equals("clusters")) {
      if (n == 1) {
        return only("GET", method, () -> Reply.ok(new ApiList<>(List.of(cluster()))));
      }
      requireCluster(s.get(1));
      if (n == 2) {
        return only("GET", method, () -> Reply.ok(cluster()));
      }
      if (!s.get(2).equals("services")) {
        throw notFound(s);
      }
      if (n == 3) {
        return only("GET", method, () -> Reply.ok(new ApiList<>(services())));
      }
      ApiService service = service(s.get(3));
      if (n == 4) {
        return only("GET", method, () -> Reply.ok(service));
      }
      return serviceResource(method, service, s.subList(4, n), query, body);
    }
    if (n == 2 && s.get(0).equals("commands")) {
      return only("GET", method, () -> Reply.ok(command(s.get(1)).toApi()));
    }
    if (n >= 1 && s.get(0).equals("timeseries")) {
      if (n == 1) {
        return timeseries(method, query, body);
      }
      if (s.get(1).equals("dashboards")) {
        return dashboards(method, s.subList(2, n), body);
      }
    }
    throw notFound(s);
  }

  private Reply serviceResource(
      String method, ApiService service, List<String> s, Map<String, String> query, String body) {
    String resource = s.get(0);
    int n = s.size();
    switch (resource) {
      case "roles" -> {
        if (n == 1) {
          return only("GET", method, () -> Reply.ok(new ApiList<>(roles(service.name()))));
        }
        if (n == 2) {
          return only(
              "GET",
              method,
              () ->
                  Reply.ok(
                      roles(service.name()).stream()
                          .filter(role -> role.name().equals(s.get(1)))
                          .findFirst()
                          .orElseThrow(
                              () ->
                                  new HttpError(
                                      404,
                                      "Role '"
                                          + s.get(1)
                                          + "' not found in service '"
                                          + service.name()
                                          + "'"))));
        }
      }
      case "roleConfigGroups" -> {
        if (n == 1) {
          return only(
              "GET",
              method,
              () ->
                  Reply.ok(
                      new ApiList<>(
                          groups.values().stream()
                              .filter(g -> g.service().equals(service.name()))
                              .map(g -> toApi(g, false))
                              .toList())));
        }
        Group group = groups.get(s.get(1));
        if (group == null || !group.service().equals(service.name())) {
          throw new HttpError(
              404,
              "Role config group '" + s.get(1) + "' not found in service '" + service.name() + "'");
        }
        if (n == 2) {
          return only("GET", method, () -> Reply.ok(toApi(group, true)));
        }
        if (n == 3 && s.get(2).equals("roles")) {
          return only(
              "GET",
              method,
              () ->
                  Reply.ok(
                      new ApiList<>(
                          roles(service.name()).stream()
                              .filter(role -> group.name().equals(role.roleConfigGroupName()))
                              .toList())));
        }
        if (n == 3 && s.get(2).equals("config")) {
          if (method.equals("PUT")) {
            return Reply.ok(new ApiList<>(updateGroupConfig(group, body)));
          }
          return only(
              "GET",
              method,
              () ->
                  Reply.ok(
                      new ApiList<>(
                          configOf(
                              group,
                              "FULL".equalsIgnoreCase(query.getOrDefault("view", "SUMMARY"))))));
        }
      }
      case "config" -> {
        if (n == 1) {
          if (method.equals("PUT")) {
            return Reply.ok(updateServiceConfig(service, body));
          }
          return only("GET", method, () -> Reply.ok(serviceConfig(service)));
        }
      }
      case "roleCommands" -> {
        if (n == 2) {
          return only("POST", method, () -> Reply.json(201, roleCommand(service, s.get(1), body)));
        }
      }
      case "commands" -> {
        if (n == 2) {
          return only("POST", method, () -> Reply.json(201, serviceCommand(service, s.get(1))));
        }
      }
      default -> {}
    }
    throw new HttpError(
        404,
        "no such resource '"
            + String.join("/", s)
            + "' under service '"
            + service.name()
            + "' (the CM emulator serves roles, roleConfigGroups, config, roleCommands, commands)");
  }

  private static Reply only(
      String allowed, String method, java.util.function.Supplier<Reply> answer) {
    if (!allowed.equals(method)) {
      throw new HttpError(405, method + " is not allowed here; use " + allowed);
    }
    return answer.get();
  }

  private static HttpError notFound(List<String> segments) {
    return new HttpError(
        404,
        "no such resource /"
            + String.join("/", segments)
            + " in the CM emulator (it serves clusters, commands, timeseries, timeseries/dashboards)");
  }

  // ---------------------------------------------------------------------------------------------------------
  // Clusters, services, roles, groups, configuration

  private ApiCluster cluster() {
    return new ApiCluster(
        config.cluster(), config.cluster(), "7.1.7", false, "GOOD_HEALTH", "BASE_CLUSTER");
  }

  private void requireCluster(String name) {
    if (!name.equals(config.cluster())) {
      throw new HttpError(404, "Cluster '" + name + "' not found");
    }
  }

  private List<ApiService> services() {
    List<ApiService> services = new ArrayList<>();
    boolean stale = flumeRoles.stream().anyMatch(FlumeRole::configStale);
    services.add(
        new ApiService(
            config.flumeService(),
            CmClient.FLUME_SERVICE_TYPE,
            "Flume",
            new ApiClusterRef(config.cluster(), config.cluster()),
            "STARTED",
            "GOOD",
            stale ? "STALE" : "FRESH",
            false,
            "GOOD_HEALTH"));
    if (config.kafka() != null) {
      services.add(
          new ApiService(
              config.kafkaService(),
              CmClient.KAFKA_SERVICE_TYPE,
              "Kafka",
              new ApiClusterRef(config.cluster(), config.cluster()),
              "STARTED",
              "GOOD",
              "FRESH",
              false,
              "GOOD_HEALTH"));
    }
    return services;
  }

  private ApiService service(String name) {
    return services().stream()
        .filter(service -> service.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new HttpError(
                    404, "Service '" + name + "' not found in cluster '" + config.cluster() + "'"));
  }

  private List<ApiRole> roles(String service) {
    ApiHostRef host = new ApiHostRef(topology.hostId(), topology.hostname());
    ApiServiceRef serviceRef = new ApiServiceRef(null, config.cluster(), service, null, null);
    List<ApiRole> roles = new ArrayList<>();
    if (service.equals(config.flumeService())) {
      for (FlumeRole role : flumeRoles) {
        String state = role.state();
        boolean started = state.equals("STARTED");
        roles.add(
            new ApiRole(
                role.name(),
                CmClient.FLUME_AGENT_ROLE_TYPE,
                host,
                serviceRef,
                state,
                started ? "GOOD" : "DISABLED",
                role.configStale() ? "STALE" : "FRESH",
                new ApiRoleConfigGroupRef(role.group()),
                "COMMISSIONED",
                false,
                started ? "GOOD_HEALTH" : "STOPPED"));
      }
    } else {
      roles.add(
          new ApiRole(
              topology.kafkaBrokerRole(),
              CmClient.KAFKA_BROKER_ROLE_TYPE,
              host,
              serviceRef,
              "STARTED",
              "GOOD",
              "FRESH",
              new ApiRoleConfigGroupRef(topology.kafkaBrokerGroup()),
              "COMMISSIONED",
              false,
              "GOOD_HEALTH"));
    }
    return roles;
  }

  private ApiRoleConfigGroup toApi(Group group, boolean withConfig) {
    return new ApiRoleConfigGroup(
        group.name(),
        group.displayName(),
        group.roleType(),
        group.base(),
        new ApiServiceRef(null, config.cluster(), group.service(), null, null),
        withConfig ? new ApiList<>(configOf(group, false)) : null);
  }

  private static List<ApiConfig> configOf(Group group, boolean full) {
    Map<String, String> values;
    synchronized (group.config()) {
      values = new LinkedHashMap<>(group.config());
    }
    List<ApiConfig> items = new ArrayList<>();
    if (!full) {
      values.forEach((name, value) -> items.add(ApiConfig.of(name, value)));
      return items;
    }
    if (group.roleType().equals(CmClient.FLUME_AGENT_ROLE_TYPE)) {
      AGENT_SETTINGS.keySet().stream()
          .sorted()
          .forEach(
              name -> {
                String[] doc = AGENT_SETTINGS.get(name).split(": ", 2);
                String defaultValue = name.equals(CmClient.AGENT_NAME) ? DEFAULT_AGENT_NAME : "";
                items.add(
                    new ApiConfig(
                        name,
                        values.get(name),
                        false,
                        defaultValue,
                        doc[0],
                        doc[1],
                        null,
                        false,
                        "OK",
                        null,
                        false));
              });
    }
    return items;
  }

  private List<ApiConfig> updateGroupConfig(Group group, String body) {
    List<ApiConfigUpdate> updates =
        readBody(body, new TypeReference<ApiList<ApiConfigUpdate>>() {}).items();
    boolean agentGroup = group.roleType().equals(CmClient.FLUME_AGENT_ROLE_TYPE);
    for (ApiConfigUpdate update : updates) {
      if (update.name() == null || (agentGroup && !AGENT_SETTINGS.containsKey(update.name()))) {
        throw new HttpError(
            400,
            "Unknown configuration attribute '"
                + update.name()
                + "' for role config group '"
                + group.name()
                + "'; the CM emulator knows "
                + AGENT_SETTINGS.keySet().stream().sorted().collect(Collectors.joining(", ")));
      }
    }
    synchronized (group.config()) {
      for (ApiConfigUpdate update : updates) {
        if (update.value() == null) {
          group.config().remove(update.name());
        } else {
          group.config().put(update.name(), update.value());
        }
      }
    }
    flumeRoles.stream()
        .filter(role -> role.group().equals(group.name()))
        .forEach(role -> role.configStale(true));
    return configOf(group, false);
  }

  private ApiServiceConfig serviceConfig(ApiService service) {
    if (!service.name().equals(config.kafkaService())) {
      return new ApiServiceConfig(List.of(), null);
    }
    synchronized (kafkaServiceConfig) {
      List<ApiConfig> items = new ArrayList<>();
      kafkaServiceConfig.forEach((name, value) -> items.add(ApiConfig.of(name, value)));
      return new ApiServiceConfig(items, null);
    }
  }

  private ApiServiceConfig updateServiceConfig(ApiService service, String body) {
    if (!service.name().equals(config.kafkaService())) {
      throw new HttpError(
          400,
          "the CM emulator keeps no service-level settings for '"
              + service.name()
              + "': Flume agent settings live in role config groups");
    }
    List<ApiConfigUpdate> updates =
        readBody(body, new TypeReference<ApiList<ApiConfigUpdate>>() {}).items();
    synchronized (kafkaServiceConfig) {
      for (ApiConfigUpdate update : updates) {
        if (update.value() == null) {
          kafkaServiceConfig.remove(update.name());
        } else {
          kafkaServiceConfig.put(update.name(), update.value());
        }
      }
    }
    return serviceConfig(service);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Commands

  private ApiBulkCommandList roleCommand(ApiService service, String action, String body) {
    if (!List.of("restart", "start", "stop").contains(action)) {
      throw new HttpError(
          404,
          "role command '"
              + action
              + "' is not supported by the CM emulator "
              + "(restart, start, stop)");
    }
    List<String> names = readBody(body, new TypeReference<ApiList<String>>() {}).items();
    List<ApiCommand> started = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (String name : names) {
      Optional<FlumeRole> role =
          service.name().equals(config.flumeService()) ? findRole(name) : Optional.empty();
      if (role.isEmpty()) {
        errors.add(
            service.name().equals(config.flumeService())
                ? "Role '" + name + "' not found in service '" + service.name() + "'"
                : "the CM emulator cannot "
                    + action
                    + " role '"
                    + name
                    + "' of service '"
                    + service.name()
                    + "': only Flume agents are emulated");
        continue;
      }
      CommandRun run = newCommand(capitalised(action), service.name(), name);
      commandThreads.execute(() -> runRoleAction(role.get(), action, run));
      started.add(run.toApi());
    }
    return new ApiBulkCommandList(started, errors);
  }

  private ApiCommand serviceCommand(ApiService service, String action) {
    if (!List.of("restart", "start", "stop").contains(action)) {
      throw new HttpError(
          404,
          "service command '"
              + action
              + "' is not supported by the CM emulator "
              + "(restart, start, stop)");
    }
    CommandRun parent = newCommand(capitalised(action), service.name(), null);
    if (!service.name().equals(config.flumeService())) {
      parent.finish(
          false,
          "the CM emulator cannot "
              + action
              + " service '"
              + service.name()
              + "': only Flume agents are emulated");
      return parent.toApi();
    }
    commandThreads.execute(
        () -> {
          List<String> failed = new ArrayList<>();
          for (FlumeRole role : flumeRoles) {
            CommandRun child = newCommand(capitalised(action), service.name(), role.name());
            parent.addChild(child);
            runRoleAction(role, action, child);
            if (!child.succeeded()) {
              failed.add(role.name());
            }
          }
          parent.finish(
              failed.isEmpty(),
              failed.isEmpty()
                  ? capitalised(action) + " of service '" + service.name() + "' finished"
                  : capitalised(action) + " failed on role(s) " + String.join(", ", failed));
        });
    return parent.toApi();
  }

  private void runRoleAction(FlumeRole role, String action, CommandRun run) {
    try {
      if (action.equals("stop")) {
        synchronized (
            role) { // after a start or restart still running on the role, as CM runs them in turn
          stop(role);
        }
        run.finish(true, "Stopped role " + role.name());
      } else {
        restart(role, run);
      }
    } catch (RuntimeException e) {
      LOG.warn("command {} on {} failed", run.id(), role.name(), e);
      run.finish(false, "CM emulator error: " + e);
    }
  }

  private static void stop(FlumeRole role) {
    role.agent()
        .ifPresent(
            agent -> {
              role.state("STOPPING");
              agent.stop();
            });
    role.agent(null);
    role.state("STOPPED");
  }

  /**
   * Stops the role's agent and starts it again from its group's current settings; finishes {@code
   * run}.
   */
  private void restart(FlumeRole role, CommandRun run) {
    synchronized (role) {
      stop(role);
      Map<String, String> settings;
      Group group = groups.get(role.group());
      synchronized (group.config()) {
        settings = new LinkedHashMap<>(group.config());
      }
      String agentName = settings.getOrDefault(CmClient.AGENT_NAME, DEFAULT_AGENT_NAME);
      String text = settings.getOrDefault(CmClient.AGENT_CONFIG_FILE, "");
      role.configStale(false);
      if (text.isBlank()) {
        run.finish(
            false,
            "Role "
                + role.name()
                + " has an empty "
                + CmClient.AGENT_CONFIG_FILE
                + " (role config group '"
                + group.name()
                + "'): set a Flume configuration, then start it");
        return;
      }
      AgentComponents declared;
      try {
        declared = AgentComponents.declaredIn(agentName, text);
      } catch (RuntimeException e) {
        run.finish(false, "Role " + role.name() + ": " + e.getMessage());
        return;
      }
      if (declared.sources().isEmpty()
          && declared.channels().isEmpty()
          && declared.sinks().isEmpty()) {
        run.finish(
            false,
            "Role "
                + role.name()
                + ": "
                + CmClient.AGENT_CONFIG_FILE
                + " declares nothing for "
                + CmClient.AGENT_NAME
                + " '"
                + agentName
                + "' (agents in it: "
                + AgentComponents.agentNames(text)
                + ")");
        return;
      }
      role.state("STARTING");
      try {
        AgentProcess agent =
            AgentProcess.builder(agentName, text, config.workDir().resolve(role.name()))
                .runtime(runtime)
                .jvmOptions(config.agentJvmOptions())
                .start();
        role.agent(agent);
        role.state("STARTED");
        run.finish(
            true,
            "Started Flume agent '"
                + agentName
                + "' of role "
                + role.name()
                + " (sources "
                + declared.sources()
                + ", channels "
                + declared.channels()
                + ", sinks "
                + declared.sinks()
                + ")");
      } catch (RuntimeException e) {
        role.state("STOPPED");
        run.finish(
            false,
            "Flume agent '"
                + agentName
                + "' of role "
                + role.name()
                + " did not start: "
                + e.getMessage());
      }
    }
  }

  private CommandRun newCommand(String name, String service, String role) {
    CommandRun run =
        new CommandRun(commandIds.incrementAndGet(), name, config.cluster(), service, role);
    commands.put(run.id(), run);
    return run;
  }

  private CommandRun command(String id) {
    try {
      CommandRun run = commands.get(Long.parseLong(id));
      if (run != null) {
        return run;
      }
    } catch (NumberFormatException notANumber) {
      // answered as not found below
    }
    throw new HttpError(404, "Command '" + id + "' not found");
  }

  private Optional<FlumeRole> findRole(String name) {
    return flumeRoles.stream().filter(role -> role.name().equals(name)).findFirst();
  }

  private static String capitalised(String action) {
    return Character.toUpperCase(action.charAt(0)) + action.substring(1);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Time series and dashboards

  private Reply timeseries(String method, Map<String, String> query, String body) {
    String tsquery;
    String from;
    String to;
    String contentType;
    String rollup;
    if (method.equals("POST")) {
      ApiTimeSeriesRequest request = readBody(body, new TypeReference<ApiTimeSeriesRequest>() {});
      tsquery = request.query();
      from = request.from();
      to = request.to();
      contentType = request.contentType();
      rollup = request.desiredRollup();
    } else if (method.equals("GET")) {
      tsquery = query.get("query");
      from = query.get("from");
      to = query.get("to");
      contentType = query.get("contentType");
      rollup = query.get("desiredRollup");
    } else {
      throw new HttpError(405, method + " is not allowed on /timeseries; use GET or POST");
    }
    if (tsquery == null || tsquery.isBlank()) {
      throw new HttpError(400, "parameter 'query' (a tsquery) is required");
    }
    Instant end = to == null ? Instant.now() : time("to", to);
    Instant start = from == null ? end.minusSeconds(300) : time("from", from);
    Rollup desired;
    try {
      desired = rollup == null ? Rollup.RAW : Rollup.valueOf(rollup.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new HttpError(
          400, "desiredRollup '" + rollup + "' is not one of " + Arrays.toString(Rollup.values()));
    }
    List<ApiTimeSeriesResponse> responses;
    try {
      responses = queryEngine.query(tsquery, start, end, desired);
    } catch (TsQueryEngine.UnsupportedQueryException e) {
      throw new HttpError(400, e.getMessage());
    }
    int status = method.equals("POST") ? 201 : 200;
    if ("text/csv".equalsIgnoreCase(contentType)) {
      return new Reply(status, null, "text/csv", csv(responses));
    }
    return Reply.json(status, new ApiList<>(responses));
  }

  private static String csv(List<ApiTimeSeriesResponse> responses) {
    StringBuilder out = new StringBuilder("entityName,metricName,timestamp,value\n");
    for (ApiTimeSeriesResponse response : responses) {
      for (ApiTimeSeries series : response.timeSeries()) {
        for (ApiTimeSeriesData point : series.data()) {
          out.append('"')
              .append(series.metadata().entityName().replace("\"", "\"\""))
              .append("\",")
              .append(series.metadata().metricName())
              .append(',')
              .append(point.timestamp())
              .append(',')
              .append(point.value())
              .append('\n');
        }
      }
    }
    return out.toString();
  }

  /**
   * ISO-8601 with an offset, or without one (then UTC, the emulator's time zone), or {@code now}.
   */
  private static Instant time(String parameter, String value) {
    if (value.equalsIgnoreCase("now")) {
      return Instant.now();
    }
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException withoutOffset) {
      try {
        return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        throw new HttpError(
            400,
            "parameter '"
                + parameter
                + "' = '"
                + value
                + "' is not an ISO-8601 time such as 2024-05-01T12:00:00Z");
      }
    }
  }

  private Reply dashboards(String method, List<String> s, String body) {
    synchronized (dashboards) {
      if (s.isEmpty()) {
        if (method.equals("POST")) {
          List<ApiDashboard> created =
              readBody(body, new TypeReference<ApiList<ApiDashboard>>() {}).items();
          for (ApiDashboard dashboard : created) {
            if (dashboard.name() == null
                || dashboard.name().isBlank()
                || dashboard.json() == null) {
              throw new HttpError(400, "a dashboard needs a name and a json blob");
            }
            if (dashboards.containsKey(dashboard.name())) {
              throw new HttpError(
                  400,
                  "Dashboard '"
                      + dashboard.name()
                      + "' already exists; no "
                      + "dashboard was created (delete it first)");
            }
          }
          created.forEach(dashboard -> dashboards.put(dashboard.name(), dashboard));
          return Reply.json(201, new ApiList<>(created));
        }
        return only("GET", method, () -> Reply.ok(new ApiList<>(List.copyOf(dashboards.values()))));
      }
      if (s.size() == 1) {
        String name = s.get(0);
        if (!dashboards.containsKey(name)) {
          throw new HttpError(404, "Dashboard '" + name + "' not found");
        }
        if (method.equals("DELETE")) {
          return Reply.ok(dashboards.remove(name));
        }
        return only("GET", method, () -> Reply.ok(dashboards.get(name)));
      }
    }
    throw notFound(s);
  }

  // ---------------------------------------------------------------------------------------------------------

  private static <T> T readBody(String body, TypeReference<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (JsonProcessingException e) {
      throw new HttpError(
          400, "the request body is not the expected JSON: " + e.getOriginalMessage());
    }
  }

  private void declareEntities() {
    store.declare(topology.clusterEntity());
    store.declare(topology.hostEntity());
    store.declare(topology.serviceEntity(config.flumeService(), CmClient.FLUME_SERVICE_TYPE));
    for (FlumeRole role : flumeRoles) {
      store.declare(
          topology.roleEntity(
              role.name(),
              config.flumeService(),
              CmClient.FLUME_SERVICE_TYPE,
              CmClient.FLUME_AGENT_ROLE_TYPE,
              role.group(),
              null));
    }
    if (config.kafka() != null) {
      store.declare(topology.serviceEntity(config.kafkaService(), CmClient.KAFKA_SERVICE_TYPE));
      store.declare(
          topology.roleEntity(
              topology.kafkaBrokerRole(),
              config.kafkaService(),
              CmClient.KAFKA_SERVICE_TYPE,
              CmClient.KAFKA_BROKER_ROLE_TYPE,
              topology.kafkaBrokerGroup(),
              "kafka_brokers"));
    }
  }

  private void sampleQuietly() {
    try {
      sampler.sample();
    } catch (RuntimeException e) {
      LOG.warn("CM emulator sampling failed", e);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicLong count = new AtomicLong();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
