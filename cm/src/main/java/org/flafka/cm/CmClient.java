package org.flafka.cm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.flafka.cm.CmException.Reason;
import org.flafka.cm.model.ApiBulkCommandList;
import org.flafka.cm.model.ApiCluster;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiConfigUpdate;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.cm.model.ApiList;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiRoleConfigGroup;
import org.flafka.cm.model.ApiService;
import org.flafka.cm.model.ApiServiceConfig;
import org.flafka.cm.model.ApiTimeSeriesRequest;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small client for the Cloudera Manager REST API, written to the published API (v19 to v4x; the
 * contract tests check it against the v32 OpenAPI spec): discovery of clusters, services, roles and
 * role config groups, reading and updating configuration (Flume's {@code agent_config_file} /
 * {@code agent_name}), role and service restarts with command polling, time-series queries and
 * dashboards.
 *
 * <p>Every failure a user can act on is a {@link CmException} with a one-line message saying what
 * to fix; the password never appears in a message or a log line. Instances are thread-safe.
 *
 * <p>{@link #connect} negotiates the API version: {@code GET /api/version} gives the server's
 * highest, the client uses the lower of that and {@link #MAX_API_VERSION} (or the pinned {@code
 * cm.api.version}), and every call then goes to {@code <url>/api/v<N>/...}.
 */
public final class CmClient {
  /**
   * Lowest API version this client talks (CM 5.14). Every call it makes exists unchanged from v19
   * on.
   */
  public static final int MIN_API_VERSION = 19;

  /**
   * Highest API version this client asks for: the newest with recorded real responses (v48, CM
   * 7.x). A newer server still serves v48.
   */
  public static final int MAX_API_VERSION = 48;

  public static final String FLUME_SERVICE_TYPE = "FLUME";
  public static final String KAFKA_SERVICE_TYPE = "KAFKA";
  public static final String FLUME_AGENT_ROLE_TYPE = "AGENT";
  public static final String KAFKA_BROKER_ROLE_TYPE = "KAFKA_BROKER";

  /** Flume AGENT role config group key holding the whole flume.conf text. */
  public static final String AGENT_CONFIG_FILE = "agent_config_file";

  /**
   * Flume AGENT role config group key selecting the properties prefix inside {@link
   * #AGENT_CONFIG_FILE}.
   */
  public static final String AGENT_NAME = "agent_name";

  /** Longer time-series GET URLs are sent as {@code POST /timeseries} (v11+) instead. */
  static final int MAX_GET_URL_LENGTH = 2000;

  /**
   * Which config view to read: SUMMARY has only the non-default values; FULL adds defaults and
   * docs.
   */
  public enum ConfigView {
    SUMMARY,
    FULL
  }

  private static final Logger LOG = LoggerFactory.getLogger(CmClient.class);
  private static final Pattern VERSION_ANSWER = Pattern.compile("\"?[vV]?(\\d{1,3})\"?");
  private static final int MAX_LISTED_NAMES = 20;

  private final CmClientConfig config;
  private final HttpClient http;
  private final ObjectMapper json;
  private final String authorization;
  private final String root;
  private final int serverApiVersion;
  private final int apiVersion;

  private CmClient(CmClientConfig config) {
    this.config = config;
    this.json =
        new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    this.root = config.url().toString();
    char[] password = config.password();
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (config.user() + ":" + new String(password)).getBytes(StandardCharsets.UTF_8));
    java.util.Arrays.fill(password, '\0');
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            // CM answers with a session cookie; sending it back spares it a password check per call
            .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ORIGINAL_SERVER));
    if (config.url().getScheme().equals("https")) {
      builder.sslContext(sslContext(config));
    }
    this.http = builder.build();
    this.serverApiVersion = readServerApiVersion();
    this.apiVersion = chooseApiVersion(serverApiVersion);
    LOG.info(
        "Cloudera Manager at {}: API v{} (server supports up to v{})",
        root,
        apiVersion,
        serverApiVersion);
  }

  /**
   * Connects to Cloudera Manager: checks the URL, credentials and TLS trust with {@code GET
   * /api/version}, and picks the API version.
   *
   * @throws CmException if CM cannot be reached, rejects the user, or is older than v{@value
   *     #MIN_API_VERSION}
   */
  public static CmClient connect(CmClientConfig config) {
    return new CmClient(Objects.requireNonNull(config, "config"));
  }

  /** The API version every call uses. */
  public int apiVersion() {
    return apiVersion;
  }

  /** The highest API version the server said it supports. */
  public int serverApiVersion() {
    return serverApiVersion;
  }

  public CmClientConfig config() {
    return config;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Discovery

  /** {@code GET /clusters}: the (base) clusters CM manages. */
  public List<ApiCluster> clusters() {
    return getList(Scope.NONE, new TypeReference<ApiList<ApiCluster>>() {}, "clusters").items();
  }

  /**
   * The cluster named {@code name}, or the only cluster when {@code name} is null.
   *
   * @throws CmException naming the clusters that exist, if there is no such cluster or several and
   *     no name
   */
  public ApiCluster findCluster(String name) {
    List<ApiCluster> clusters = clusters();
    if (name != null) {
      return clusters.stream()
          .filter(c -> name.equals(c.name()))
          .findFirst()
          .orElseThrow(
              () ->
                  notFound(
                      "cluster '"
                          + name
                          + "' not found in "
                          + where()
                          + "; clusters there: "
                          + names(clusters.stream().map(ApiCluster::name).toList())));
    }
    if (clusters.size() == 1) {
      return clusters.get(0);
    }
    if (clusters.isEmpty()) {
      throw notFound(where() + " manages no cluster");
    }
    throw new CmException(
        Reason.INVALID_CONFIG,
        where()
            + " manages "
            + clusters.size()
            + " clusters ("
            + names(clusters.stream().map(ApiCluster::name).toList())
            + "): choose one with --cm-cluster");
  }

  /** {@code GET /clusters/{cluster}/services}. */
  public List<ApiService> services(String cluster) {
    return getList(
            Scope.cluster(cluster),
            new TypeReference<ApiList<ApiService>>() {},
            "clusters",
            cluster,
            "services")
        .items();
  }

  /**
   * The service of {@code type} (e.g. {@link #FLUME_SERVICE_TYPE}) named {@code name}, or the only
   * one of that type when {@code name} is null.
   *
   * @throws CmException naming the services that exist, if there is none or several and no name
   */
  public ApiService findService(String cluster, String type, String name) {
    List<ApiService> services = services(cluster);
    List<ApiService> ofType = services.stream().filter(s -> type.equals(s.type())).toList();
    String present = names(services.stream().map(s -> s.name() + " (" + s.type() + ")").toList());
    if (name != null) {
      ApiService service =
          services.stream()
              .filter(s -> name.equals(s.name()))
              .findFirst()
              .orElseThrow(
                  () ->
                      notFound(
                          "service '"
                              + name
                              + "' not found in cluster '"
                              + cluster
                              + "' of "
                              + where()
                              + "; services there: "
                              + present));
      if (!type.equals(service.type())) {
        throw notFound(
            "service '"
                + name
                + "' in cluster '"
                + cluster
                + "' is of type "
                + service.type()
                + ", not "
                + type
                + "; services there: "
                + present);
      }
      return service;
    }
    if (ofType.size() == 1) {
      return ofType.get(0);
    }
    if (ofType.isEmpty()) {
      throw notFound(
          "no "
              + type
              + " service in cluster '"
              + cluster
              + "' of "
              + where()
              + "; services there: "
              + present);
    }
    throw new CmException(
        Reason.INVALID_CONFIG,
        "cluster '"
            + cluster
            + "' has "
            + ofType.size()
            + " "
            + type
            + " services ("
            + names(ofType.stream().map(ApiService::name).toList())
            + "): choose one with --cm-"
            + type.toLowerCase(Locale.ROOT)
            + "-service");
  }

  /** {@code GET /clusters/{cluster}/services/{service}/roles}. */
  public List<ApiRole> roles(String cluster, String service) {
    return getList(
            Scope.service(cluster, service),
            new TypeReference<ApiList<ApiRole>>() {},
            "clusters",
            cluster,
            "services",
            service,
            "roles")
        .items();
  }

  /**
   * The roles of one type, e.g. {@link #FLUME_AGENT_ROLE_TYPE} (filtered here, so it works on every
   * version).
   */
  public List<ApiRole> roles(String cluster, String service, String roleType) {
    return roles(cluster, service).stream().filter(r -> roleType.equals(r.type())).toList();
  }

  /** {@code GET /clusters/{cluster}/services/{service}/roleConfigGroups}. */
  public List<ApiRoleConfigGroup> roleConfigGroups(String cluster, String service) {
    return getList(
            Scope.service(cluster, service),
            new TypeReference<ApiList<ApiRoleConfigGroup>>() {},
            "clusters",
            cluster,
            "services",
            service,
            "roleConfigGroups")
        .items();
  }

  /** {@code GET /clusters/{cluster}/services/{service}/roleConfigGroups/{group}}. */
  public ApiRoleConfigGroup roleConfigGroup(String cluster, String service, String group) {
    return get(
        Scope.group(cluster, service, group),
        ApiRoleConfigGroup.class,
        "clusters",
        cluster,
        "services",
        service,
        "roleConfigGroups",
        group);
  }

  /**
   * The roles of {@code roleType} grouped by the role config group each belongs to, as the server
   * reports it in {@code roleConfigGroupRef} (no group name is guessed). Groups keep the server's
   * order of first appearance.
   *
   * @throws CmException if a role does not name its group
   */
  public Map<String, List<ApiRole>> rolesByConfigGroup(
      String cluster, String service, String roleType) {
    Map<String, List<ApiRole>> byGroup = new LinkedHashMap<>();
    for (ApiRole role : roles(cluster, service, roleType)) {
      String group = role.roleConfigGroupName();
      if (group == null) {
        throw new CmException(
            Reason.UNEXPECTED_RESPONSE,
            where()
                + " listed role '"
                + role.name()
                + "' of service '"
                + service
                + "' without its roleConfigGroupRef");
      }
      byGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(role);
    }
    return byGroup;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Configuration

  /** {@code GET .../roleConfigGroups/{group}/config?view=...}. */
  public List<ApiConfig> roleConfigGroupConfig(
      String cluster, String service, String group, ConfigView view) {
    return getList(
            Scope.group(cluster, service, group),
            Map.of("view", view.name()),
            new TypeReference<ApiList<ApiConfig>>() {},
            "clusters",
            cluster,
            "services",
            service,
            "roleConfigGroups",
            group,
            "config")
        .items();
  }

  /**
   * {@code PUT .../roleConfigGroups/{group}/config}: a partial update; keys not given keep their
   * values, a null value resets its key to the default. {@code message} (may be null) is CM's audit
   * note.
   *
   * @return the group's configuration as the server reports it after the update (summary view)
   */
  public List<ApiConfig> updateRoleConfigGroupConfig(
      String cluster, String service, String group, Map<String, String> values, String message) {
    Scope scope = Scope.group(cluster, service, group);
    String[] segments = {
      "clusters", cluster, "services", service, "roleConfigGroups", group, "config"
    };
    Reply reply = send("PUT", scope, segments, messageParam(message), configBody(values));
    if (reply.body().isBlank()) {
      return roleConfigGroupConfig(cluster, service, group, ConfigView.SUMMARY);
    }
    return parse(reply, "PUT", segments, new TypeReference<ApiList<ApiConfig>>() {}).items();
  }

  /**
   * Sets a Flume agent's configuration in its role config group: {@value #AGENT_NAME} and the whole
   * {@code flume.conf} text as {@value #AGENT_CONFIG_FILE}, in one PUT. Restart the roles to apply
   * it.
   */
  public List<ApiConfig> updateFlumeAgentConfig(
      String cluster,
      String service,
      String group,
      String agentName,
      String flumeConf,
      String message) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(AGENT_NAME, Objects.requireNonNull(agentName, "agentName"));
    values.put(AGENT_CONFIG_FILE, Objects.requireNonNull(flumeConf, "flumeConf"));
    return updateRoleConfigGroupConfig(cluster, service, group, values, message);
  }

  /** {@code GET /clusters/{cluster}/services/{service}/config?view=...}. */
  public ApiServiceConfig serviceConfig(String cluster, String service, ConfigView view) {
    return get(
        Scope.service(cluster, service),
        Map.of("view", view.name()),
        ApiServiceConfig.class,
        "clusters",
        cluster,
        "services",
        service,
        "config");
  }

  /**
   * {@code PUT /clusters/{cluster}/services/{service}/config}: partial update, as for role config
   * groups.
   */
  public ApiServiceConfig updateServiceConfig(
      String cluster, String service, Map<String, String> values, String message) {
    Scope scope = Scope.service(cluster, service);
    String[] segments = {"clusters", cluster, "services", service, "config"};
    Reply reply = send("PUT", scope, segments, messageParam(message), configBody(values));
    if (reply.body().isBlank()) {
      return serviceConfig(cluster, service, ConfigView.SUMMARY);
    }
    return parse(reply, "PUT", segments, new TypeReference<ApiServiceConfig>() {});
  }

  // ---------------------------------------------------------------------------------------------------------
  // Commands

  /**
   * Restarts roles ({@code POST .../roleCommands/restart} with {@code {"items":[names]}}) and waits
   * until every restart has finished, polling every {@code cm.command.poll.interval.ms} for up to
   * {@code cm.command.timeout.ms}.
   *
   * @return the finished commands, one per role
   * @throws CmException if a role could not be restarted (naming it and CM's reason) or the wait
   *     timed out; it is thrown once every command has finished, naming each that failed
   */
  public List<ApiCommand> restartRoles(
      String cluster, String service, List<String> roleNames, CommandProgress progress) {
    return roleCommand(cluster, service, "restart", roleNames, progress);
  }

  /** Starts roles ({@code POST .../roleCommands/start}) and waits as {@link #restartRoles} does. */
  public List<ApiCommand> startRoles(
      String cluster, String service, List<String> roleNames, CommandProgress progress) {
    return roleCommand(cluster, service, "start", roleNames, progress);
  }

  /** Stops roles ({@code POST .../roleCommands/stop}) and waits as {@link #restartRoles} does. */
  public List<ApiCommand> stopRoles(
      String cluster, String service, List<String> roleNames, CommandProgress progress) {
    return roleCommand(cluster, service, "stop", roleNames, progress);
  }

  private List<ApiCommand> roleCommand(
      String cluster,
      String service,
      String action,
      List<String> roleNames,
      CommandProgress progress) {
    if (roleNames.isEmpty()) {
      throw new IllegalArgumentException("no role to " + action);
    }
    Scope scope = Scope.roles(cluster, service, roleNames);
    String[] segments = {"clusters", cluster, "services", service, "roleCommands", action};
    Reply reply = send("POST", scope, segments, Map.of(), toJson(new ApiList<>(roleNames)));
    ApiBulkCommandList bulk =
        parse(reply, "POST", segments, new TypeReference<ApiBulkCommandList>() {});
    if (!bulk.errors().isEmpty()) {
      String started =
          bulk.items().isEmpty()
              ? ""
              : "; "
                  + action
                  + " commands started anyway: "
                  + bulk.items().stream().map(CmClient::describe).collect(Collectors.joining(", "));
      throw new CmException(
          Reason.COMMAND_FAILED,
          "Cloudera Manager could not "
              + action
              + " role(s) of "
              + "service '"
              + service
              + "': "
              + String.join("; ", bulk.errors())
              + started);
    }
    // every command is waited for, also after one failed, so none is still running when this
    // returns
    long deadline = System.nanoTime() + config.commandTimeout().toNanos();
    List<ApiCommand> finished = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (ApiCommand command : bulk.items()) {
      try {
        finished.add(await(command, deadline, progress));
      } catch (CmException e) {
        if (e.reason() != Reason.COMMAND_FAILED) {
          throw e;
        }
        failures.add(e.getMessage());
      }
    }
    if (!failures.isEmpty()) {
      throw new CmException(Reason.COMMAND_FAILED, String.join("; ", failures));
    }
    return finished;
  }

  /**
   * Restarts a whole service ({@code POST .../services/{service}/commands/restart}) and waits for
   * it.
   */
  public ApiCommand restartService(String cluster, String service, CommandProgress progress) {
    String[] segments = {"clusters", cluster, "services", service, "commands", "restart"};
    Reply reply = send("POST", Scope.service(cluster, service), segments, Map.of(), null);
    ApiCommand command = parse(reply, "POST", segments, new TypeReference<ApiCommand>() {});
    return await(command, System.nanoTime() + config.commandTimeout().toNanos(), progress);
  }

  /** {@code GET /commands/{id}}. */
  public ApiCommand command(long id) {
    return get(Scope.command(id), ApiCommand.class, "commands", Long.toString(id));
  }

  /**
   * Waits until {@code command} is no longer active, polling {@code GET /commands/{id}}.
   *
   * @return the finished, successful command
   * @throws CmException if it failed (with CM's {@code resultMessage} and those of failed child
   *     commands) or did not finish within {@code timeout}
   */
  public ApiCommand waitForCommand(ApiCommand command, Duration timeout, CommandProgress progress) {
    return await(command, System.nanoTime() + timeout.toNanos(), progress);
  }

  private ApiCommand await(ApiCommand command, long deadlineNanos, CommandProgress progress) {
    ApiCommand current = command;
    progress.update(current);
    while (current.isActive()) {
      if (current.id() == null || current.isSynchronous()) {
        throw new CmException(
            Reason.UNEXPECTED_RESPONSE,
            where()
                + " returned an active command without "
                + "an id to poll: "
                + describe(current));
      }
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        throw new CmException(
            Reason.COMMAND_FAILED,
            describe(current)
                + " is still running after "
                + readable(config.commandTimeout())
                + " ("
                + CmClientConfig.flag(CmClientConfig.COMMAND_TIMEOUT_MS)
                + "); it was not aborted: follow it in Cloudera Manager under Running Commands");
      }
      sleep(Math.min(remaining, config.commandPollInterval().toNanos()));
      current = command(current.id());
      progress.update(current);
    }
    if (!current.isSuccess()) {
      throw new CmException(Reason.COMMAND_FAILED, failureOf(current));
    }
    return current;
  }

  private static String failureOf(ApiCommand command) {
    StringBuilder message = new StringBuilder(describe(command)).append(" failed");
    if (command.resultMessage() != null && !command.resultMessage().isBlank()) {
      message.append(": ").append(command.resultMessage().strip());
    }
    List<String> children = new ArrayList<>();
    collectFailedChildren(command, children);
    if (!children.isEmpty()) {
      message.append(" (").append(String.join("; ", children)).append(")");
    }
    return message.toString();
  }

  private static void collectFailedChildren(ApiCommand command, List<String> into) {
    if (command.children() == null) {
      return;
    }
    for (ApiCommand child : command.children().items()) {
      if (Boolean.FALSE.equals(child.success())) {
        String text = describe(child);
        if (child.resultMessage() != null && !child.resultMessage().isBlank()) {
          text += ": " + child.resultMessage().strip();
        }
        into.add(text);
      }
      collectFailedChildren(child, into);
    }
  }

  private static String describe(ApiCommand command) {
    StringBuilder text =
        new StringBuilder("'")
            .append(command.name() == null ? "command" : command.name())
            .append("'");
    if (command.id() != null && !command.isSynchronous()) {
      text.append(" (command ").append(command.id()).append(")");
    }
    if (command.roleRef() != null && command.roleRef().roleName() != null) {
      text.append(" on role ").append(command.roleRef().roleName());
    } else if (command.serviceRef() != null && command.serviceRef().serviceName() != null) {
      text.append(" on service ").append(command.serviceRef().serviceName());
    } else if (command.hostRef() != null && command.hostRef().hostname() != null) {
      text.append(" on host ").append(command.hostRef().hostname());
    }
    return text.toString();
  }

  private static void sleep(long nanos) {
    try {
      Thread.sleep(Duration.ofNanos(nanos).toMillis(), (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CmException(
          Reason.COMMAND_FAILED, "interrupted while waiting for a Cloudera Manager command");
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Time series

  /**
   * Runs a tsquery: {@code GET
   * /timeseries?query=...&from=...&to=...&contentType=application/json&desiredRollup=
   * ...&mustUseDesiredRollup=...}, or {@code POST /timeseries} with the same fields as JSON when
   * the URL would be longer than {@value #MAX_GET_URL_LENGTH} characters. Times are sent as UTC
   * ISO-8601 ({@code ...Z}).
   *
   * @return one response per {@code ;}-separated statement
   */
  public List<ApiTimeSeriesResponse> queryTimeSeries(TimeSeriesQuery query) {
    Map<String, String> params = timeSeriesParams(query, "application/json");
    URI getUri = apiUri(new String[] {"timeseries"}, params);
    TypeReference<ApiList<ApiTimeSeriesResponse>> type = new TypeReference<>() {};
    if (getUri.toString().length() <= MAX_GET_URL_LENGTH) {
      return getList(Scope.NONE, params, type, "timeseries").items();
    }
    ApiTimeSeriesRequest body =
        new ApiTimeSeriesRequest(
            query.query(),
            params.get("from"),
            params.get("to"),
            "application/json",
            query.desiredRollup().name(),
            query.mustUseDesiredRollup());
    String[] segments = {"timeseries"};
    Reply reply = send("POST", Scope.NONE, segments, Map.of(), toJson(body));
    return parse(reply, "POST", segments, type).items();
  }

  /**
   * The same query answered as CSV ({@code contentType=text/csv}): one row per point, no metadata.
   */
  public String queryTimeSeriesCsv(TimeSeriesQuery query) {
    return send(
            "GET",
            Scope.NONE,
            new String[] {"timeseries"},
            timeSeriesParams(query, "text/csv"),
            null)
        .body();
  }

  private static Map<String, String> timeSeriesParams(TimeSeriesQuery query, String contentType) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("query", query.query());
    if (query.from() != null) {
      params.put("from", DateTimeFormatter.ISO_INSTANT.format(query.from()));
    }
    if (query.to() != null) {
      params.put("to", DateTimeFormatter.ISO_INSTANT.format(query.to()));
    }
    params.put("contentType", contentType);
    params.put("desiredRollup", query.desiredRollup().name());
    params.put("mustUseDesiredRollup", Boolean.toString(query.mustUseDesiredRollup()));
    return params;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Dashboards

  /** {@code GET /timeseries/dashboards}: the user-customised dashboards. */
  public List<ApiDashboard> dashboards() {
    return getList(
            Scope.NONE, new TypeReference<ApiList<ApiDashboard>>() {}, "timeseries", "dashboards")
        .items();
  }

  /** {@code GET /timeseries/dashboards/{name}}, or empty if there is no such dashboard. */
  public Optional<ApiDashboard> dashboard(String name) {
    String[] segments = {"timeseries", "dashboards", name};
    Reply reply = send("GET", Scope.dashboard(name), segments, Map.of(), null);
    if (reply.status() == 404) {
      return Optional.empty();
    }
    return Optional.of(parse(reply, "GET", segments, new TypeReference<ApiDashboard>() {}));
  }

  /**
   * {@code POST /timeseries/dashboards}. CM creates all or none: if any of them exists already,
   * nothing is created (use {@link #replaceDashboard}).
   */
  public List<ApiDashboard> createDashboards(List<ApiDashboard> dashboards) {
    String[] segments = {"timeseries", "dashboards"};
    Reply reply = send("POST", Scope.NONE, segments, Map.of(), toJson(new ApiList<>(dashboards)));
    if (reply.body().isBlank()) {
      return dashboards;
    }
    return parse(reply, "POST", segments, new TypeReference<ApiList<ApiDashboard>>() {}).items();
  }

  /** {@code DELETE /timeseries/dashboards/{name}}; false if there was no such dashboard. */
  public boolean deleteDashboard(String name) {
    Reply reply =
        send(
            "DELETE",
            Scope.dashboard(name),
            new String[] {"timeseries", "dashboards", name},
            Map.of(),
            null);
    return reply.status() != 404;
  }

  /**
   * Creates or replaces one dashboard: the API has no update, and creating an existing name fails,
   * so this deletes it (if present) and creates it again.
   */
  public ApiDashboard replaceDashboard(ApiDashboard dashboard) {
    deleteDashboard(dashboard.name());
    List<ApiDashboard> created = createDashboards(List.of(dashboard));
    return created.isEmpty() ? dashboard : created.get(0);
  }

  // ---------------------------------------------------------------------------------------------------------
  // HTTP and JSON

  /** What a call addresses, so a 404 can be explained by listing what does exist. */
  private record Scope(
      String cluster,
      String service,
      String group,
      List<String> roles,
      Long commandId,
      String dashboard) {
    static final Scope NONE = new Scope(null, null, null, null, null, null);

    static Scope cluster(String cluster) {
      return new Scope(cluster, null, null, null, null, null);
    }

    static Scope service(String cluster, String service) {
      return new Scope(cluster, service, null, null, null, null);
    }

    static Scope group(String cluster, String service, String group) {
      return new Scope(cluster, service, group, null, null, null);
    }

    static Scope roles(String cluster, String service, List<String> roles) {
      return new Scope(cluster, service, null, List.copyOf(roles), null, null);
    }

    static Scope command(long id) {
      return new Scope(null, null, null, null, id, null);
    }

    static Scope dashboard(String name) {
      return new Scope(null, null, null, null, null, name);
    }
  }

  private record Reply(int status, String contentType, String body) {}

  private <T> T get(Scope scope, Class<T> type, String... segments) {
    return get(scope, Map.of(), type, segments);
  }

  private <T> T get(Scope scope, Map<String, String> params, Class<T> type, String... segments) {
    return parse(
        send("GET", scope, segments, params, null),
        "GET",
        segments,
        json.getTypeFactory().constructType(type));
  }

  private <T> T getList(Scope scope, TypeReference<T> type, String... segments) {
    return getList(scope, Map.of(), type, segments);
  }

  private <T> T getList(
      Scope scope, Map<String, String> params, TypeReference<T> type, String... segments) {
    return parse(send("GET", scope, segments, params, null), "GET", segments, type);
  }

  /**
   * Sends one API call and returns a 2xx reply, or a 404 for {@link Scope#dashboard} calls (the
   * caller decides what "missing" means); every other outcome becomes a {@link CmException}.
   */
  private Reply send(
      String method, Scope scope, String[] segments, Map<String, String> params, String jsonBody) {
    URI uri = apiUri(segments, params);
    Reply reply = exchange(method, uri, jsonBody);
    if (reply.status() / 100 == 2 || (reply.status() == 404 && scope.dashboard() != null)) {
      return reply;
    }
    throw httpError(method, uri, reply, scope);
  }

  private Reply exchange(String method, URI uri, String jsonBody) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(config.requestTimeout())
            .header("Authorization", authorization)
            .header("Accept", "application/json");
    if (jsonBody != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    LOG.debug("{} {}", method, uri);
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      String contentType = response.headers().firstValue("Content-Type").orElse("");
      return new Reply(
          response.statusCode(), contentType, response.body() == null ? "" : response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CmException(Reason.UNREACHABLE, "interrupted while calling " + where());
    } catch (IOException e) {
      throw transportError(uri, e);
    }
  }

  private URI apiUri(String[] segments, Map<String, String> params) {
    StringBuilder uri = new StringBuilder(root).append("/api/v").append(apiVersion);
    for (String segment : segments) {
      uri.append('/').append(encode(segment));
    }
    char separator = '?';
    for (Map.Entry<String, String> param : params.entrySet()) {
      uri.append(separator)
          .append(encode(param.getKey()))
          .append('=')
          .append(encode(param.getValue()));
      separator = '&';
    }
    return URI.create(uri.toString());
  }

  /**
   * Percent-encodes everything but RFC 3986 unreserved characters (so "Cluster 1" is
   * "Cluster%201").
   */
  static String encode(String value) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        encoded.append(c);
      } else {
        encoded.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
      }
    }
    return encoded.toString();
  }

  private <T> T parse(Reply reply, String method, String[] segments, TypeReference<T> type) {
    return parse(reply, method, segments, json.getTypeFactory().constructType(type));
  }

  private <T> T parse(Reply reply, String method, String[] segments, JavaType type) {
    String call = method + " " + apiPath(segments);
    if (reply.body().isBlank()) {
      throw new CmException(
          Reason.UNEXPECTED_RESPONSE,
          where()
              + " answered "
              + call
              + " with HTTP "
              + reply.status()
              + " and no body, where the API returns JSON");
    }
    try {
      return json.readValue(reply.body(), type);
    } catch (JsonProcessingException e) {
      boolean looksJson =
          reply.contentType().contains("json") || reply.body().strip().startsWith("{");
      if (!looksJson) {
        throw new CmException(
            Reason.UNEXPECTED_RESPONSE,
            where()
                + " answered "
                + call
                + " with "
                + (reply.contentType().isEmpty() ? "a body" : reply.contentType())
                + " that is not JSON ('"
                + excerpt(reply.body())
                + "'): is "
                + CmClientConfig.flag(CmClientConfig.URL)
                + " the Cloudera Manager server itself (not a login page or proxy)?");
      }
      throw new CmException(
          Reason.UNEXPECTED_RESPONSE,
          where()
              + " answered "
              + call
              + " with JSON this "
              + "client cannot read ("
              + e.getOriginalMessage()
              + "): '"
              + excerpt(reply.body())
              + "'");
    }
  }

  private String toJson(Object body) {
    try {
      return json.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + body.getClass().getSimpleName(), e);
    }
  }

  private String configBody(Map<String, String> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no configuration value to update");
    }
    List<ApiConfigUpdate> items = new ArrayList<>();
    values.forEach((name, value) -> items.add(new ApiConfigUpdate(name, value)));
    return toJson(new ApiList<>(items));
  }

  private static Map<String, String> messageParam(String message) {
    return message == null ? Map.of() : Map.of("message", message);
  }

  private String apiPath(String[] segments) {
    return "/api/v" + apiVersion + "/" + String.join("/", segments);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Errors

  private String where() {
    return "Cloudera Manager at " + root;
  }

  private CmException httpError(String method, URI uri, Reply reply, Scope scope) {
    String call = method + " " + uri.getRawPath();
    String serverSays = serverMessage(reply);
    switch (reply.status()) {
      case 401:
        return new CmException(
            Reason.UNAUTHORIZED,
            where()
                + " rejected user '"
                + config.user()
                + "' (HTTP 401): check "
                + CmClientConfig.flag(CmClientConfig.USER)
                + " / "
                + config.passwordSource());
      case 403:
        return new CmException(
            Reason.FORBIDDEN,
            where()
                + " refused user '"
                + config.user()
                + "' (HTTP 403) "
                + call
                + ": "
                + (method.equals("GET")
                    ? "give the user a CM role that can read the cluster (e.g. Read-Only)"
                    : "give the user a CM role that may change configuration and restart roles (e.g. "
                        + "Configurator, Cluster Administrator or Full Administrator)"));
      case 404:
        return notFound(explainNotFound(scope, call, serverSays));
      default:
        return new CmException(
            Reason.UNEXPECTED_RESPONSE,
            where()
                + " answered "
                + call
                + " with HTTP "
                + reply.status()
                + (serverSays.isEmpty() ? "" : ": " + serverSays));
    }
  }

  /** Finds which named thing does not exist by listing its parent, and says what does. */
  private String explainNotFound(Scope scope, String call, String serverSays) {
    String fallback =
        where()
            + " answered "
            + call
            + " with HTTP 404"
            + (serverSays.isEmpty() ? "" : ": " + serverSays)
            + (scope == Scope.NONE
                ? " (this API version v" + apiVersion + " may lack the call)"
                : "");
    try {
      if (scope.commandId() != null) {
        return "command " + scope.commandId() + " not found in " + where();
      }
      if (scope.cluster() == null) {
        return fallback;
      }
      List<String> clusters = clusters().stream().map(ApiCluster::name).toList();
      if (!clusters.contains(scope.cluster())) {
        return "cluster '"
            + scope.cluster()
            + "' not found in "
            + where()
            + "; clusters there: "
            + names(clusters);
      }
      if (scope.service() == null) {
        return fallback;
      }
      List<ApiService> services = services(scope.cluster());
      if (services.stream().noneMatch(s -> scope.service().equals(s.name()))) {
        return "service '"
            + scope.service()
            + "' not found in cluster '"
            + scope.cluster()
            + "'; services "
            + "there: "
            + names(services.stream().map(s -> s.name() + " (" + s.type() + ")").toList());
      }
      if (scope.group() != null) {
        List<ApiRoleConfigGroup> groups = roleConfigGroups(scope.cluster(), scope.service());
        if (groups.stream().noneMatch(g -> scope.group().equals(g.name()))) {
          return "role config group '"
              + scope.group()
              + "' not found in service '"
              + scope.service()
              + "' of cluster '"
              + scope.cluster()
              + "'; groups there: "
              + names(
                  groups.stream()
                      .map(g -> g.name() + " (" + g.roleType() + (g.isBase() ? ", base" : "") + ")")
                      .toList());
        }
      }
      if (scope.roles() != null) {
        List<String> existing =
            roles(scope.cluster(), scope.service()).stream().map(ApiRole::name).toList();
        List<String> missing = scope.roles().stream().filter(r -> !existing.contains(r)).toList();
        if (!missing.isEmpty()) {
          return "role(s) "
              + missing
              + " not found in service '"
              + scope.service()
              + "' of cluster '"
              + scope.cluster()
              + "'; roles there: "
              + names(existing);
        }
      }
      return fallback;
    } catch (CmException listingFailed) {
      return fallback;
    }
  }

  private CmException notFound(String message) {
    return new CmException(Reason.NOT_FOUND, message);
  }

  /** CM's own error text: the {@code message} of a JSON error body, else the start of the body. */
  private String serverMessage(Reply reply) {
    String body = reply.body().strip();
    if (body.isEmpty()) {
      return "";
    }
    try {
      JsonNode node = json.readTree(body);
      if (node != null && node.hasNonNull("message")) {
        return excerpt(node.get("message").asText());
      }
    } catch (JsonProcessingException notJson) {
      // an HTML error page: its start is still the best hint
    }
    return excerpt(body);
  }

  private CmException transportError(URI uri, IOException e) {
    String host = uri.getHost();
    if (e instanceof HttpConnectTimeoutException) {
      return new CmException(
          Reason.UNREACHABLE,
          where()
              + " did not complete a connection (TCP and TLS "
              + "handshake) in time: check "
              + CmClientConfig.flag(CmClientConfig.URL)
              + " (host, port, firewall; "
              + "https:// needs CM's TLS port, 7183) or raise "
              + CmClientConfig.flag(CmClientConfig.CONNECT_TIMEOUT_MS)
              + " (now "
              + readable(config.connectTimeout())
              + ")",
          e);
    }
    if (e instanceof HttpTimeoutException) {
      return new CmException(
          Reason.UNREACHABLE,
          where()
              + " did not answer "
              + uri.getRawPath()
              + " within "
              + readable(config.requestTimeout())
              + ": check that it is healthy, or raise "
              + CmClientConfig.flag(CmClientConfig.REQUEST_TIMEOUT_MS),
          e);
    }
    if (cause(e, UnresolvedAddressException.class) != null
        || cause(e, java.net.UnknownHostException.class) != null) {
      return new CmException(
          Reason.UNREACHABLE,
          "cannot resolve host '"
              + host
              + "' of "
              + CmClientConfig.flag(CmClientConfig.URL)
              + " "
              + root
              + ": check the host name",
          e);
    }
    SSLException tls = cause(e, SSLException.class);
    if (tls != null) {
      return tlsError(tls);
    }
    if (e instanceof ConnectException || cause(e, ConnectException.class) != null) {
      return new CmException(
          Reason.UNREACHABLE,
          "cannot connect to "
              + where()
              + " (connection refused): check "
              + CmClientConfig.flag(CmClientConfig.URL)
              + " (CM listens on 7180 for HTTP, 7183 for HTTPS)",
          e);
    }
    return new CmException(
        Reason.UNREACHABLE,
        "connection to "
            + where()
            + " failed: "
            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
            + ": check "
            + CmClientConfig.flag(CmClientConfig.URL),
        e);
  }

  private CmException tlsError(SSLException tls) {
    String store =
        config
            .truststorePath()
            .map(p -> "the trust store " + p)
            .orElse("the JVM's default trust store");
    String detail = String.valueOf(tls.getMessage());
    if (cause(tls, CertPathBuilderException.class) != null
        || cause(tls, CertPathValidatorException.class) != null
        || detail.contains("PKIX")) {
      return new CmException(
          Reason.TLS,
          where()
              + " presented a TLS certificate that "
              + store
              + " does not "
              + "trust: put the CA certificate that signed CM's certificate in a trust store and give it with "
              + CmClientConfig.flag(CmClientConfig.TRUSTSTORE_PATH)
              + " (password in the variable named by "
              + CmClientConfig.flag(CmClientConfig.TRUSTSTORE_PASSWORD_ENV)
              + ")",
          tls);
    }
    CertificateException mismatch = cause(tls, CertificateException.class);
    if (mismatch != null
        && String.valueOf(mismatch.getMessage())
            .matches("(?s).*(No subject alternative|No name matching).*")) {
      return new CmException(
          Reason.TLS,
          where()
              + " presented a TLS certificate for another host ("
              + mismatch.getMessage()
              + "): use the host name the certificate names in "
              + CmClientConfig.flag(CmClientConfig.URL),
          tls);
    }
    if (detail.matches(
        "(?s).*(Unrecognized SSL message|Unsupported or unrecognized SSL message|plaintext connection).*")) {
      return new CmException(
          Reason.TLS,
          where()
              + " does not speak TLS on that port: use http:// for a "
              + "plain-HTTP port (7180) or the TLS port (7183) in "
              + CmClientConfig.flag(CmClientConfig.URL),
          tls);
    }
    return new CmException(
        Reason.TLS,
        "TLS handshake with "
            + where()
            + " failed ("
            + detail
            + "): check "
            + CmClientConfig.flag(CmClientConfig.URL)
            + " and "
            + CmClientConfig.flag(CmClientConfig.TRUSTSTORE_PATH),
        tls);
  }

  private static <T extends Throwable> T cause(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  private static String readable(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  private static String excerpt(String text) {
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
  }

  private static String names(List<String> names) {
    if (names.isEmpty()) {
      return "(none)";
    }
    List<String> sorted = new ArrayList<>(names);
    Collections.sort(sorted);
    String shown = String.join(", ", sorted.subList(0, Math.min(sorted.size(), MAX_LISTED_NAMES)));
    return sorted.size() > MAX_LISTED_NAMES
        ? shown + ", ... (" + sorted.size() + " in all)"
        : shown;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Connection set-up

  private int readServerApiVersion() {
    URI uri = URI.create(root + "/api/version");
    Reply reply = exchange("GET", uri, null);
    if (reply.status() / 100 != 2) {
      if (reply.status() == 404) {
        throw new CmException(
            Reason.UNEXPECTED_RESPONSE,
            where()
                + " has no /api/version (HTTP 404): is "
                + CmClientConfig.flag(CmClientConfig.URL)
                + " the Cloudera Manager server (port 7180/7183)?");
      }
      throw httpError("GET", uri, reply, Scope.NONE);
    }
    Matcher matcher = VERSION_ANSWER.matcher(reply.body().strip());
    if (!matcher.matches()) {
      throw new CmException(
          Reason.UNEXPECTED_RESPONSE,
          where()
              + " answered /api/version with '"
              + excerpt(reply.body())
              + "', not an API version such as v32: is "
              + CmClientConfig.flag(CmClientConfig.URL)
              + " the Cloudera Manager server?");
    }
    return Integer.parseInt(matcher.group(1));
  }

  private int chooseApiVersion(int serverMax) {
    if (serverMax < MIN_API_VERSION) {
      throw new CmException(
          Reason.UNEXPECTED_RESPONSE,
          where()
              + " supports API versions up to v"
              + serverMax
              + "; flafka needs v"
              + MIN_API_VERSION
              + " or later (Cloudera Manager 5.14 or later)");
    }
    if (config.apiVersion().isPresent()) {
      int pinned = config.apiVersion().getAsInt();
      if (pinned > serverMax) {
        throw new CmException(
            Reason.INVALID_CONFIG,
            CmClientConfig.flag(CmClientConfig.API_VERSION)
                + " "
                + pinned
                + " is higher than the highest API version "
                + where()
                + " supports (v"
                + serverMax
                + "): pin v"
                + serverMax
                + " or lower, or leave it unset");
      }
      return pinned;
    }
    return Math.min(serverMax, MAX_API_VERSION);
  }

  private static SSLContext sslContext(CmClientConfig config) {
    Optional<Path> path = config.truststorePath();
    if (path.isEmpty()) {
      try {
        return SSLContext.getDefault();
      } catch (GeneralSecurityException e) {
        throw new CmException(
            Reason.TLS, "the JVM has no default TLS context: " + e.getMessage(), e);
      }
    }
    Path store = path.get();
    String flag = CmClientConfig.flag(CmClientConfig.TRUSTSTORE_PATH);
    KeyStore trustStore;
    try (InputStream in = Files.newInputStream(store)) {
      trustStore = KeyStore.getInstance(config.truststoreType());
      trustStore.load(in, config.truststorePassword());
    } catch (NoSuchFileException e) {
      throw new CmException(Reason.INVALID_CONFIG, flag + " " + store + " does not exist");
    } catch (IOException e) {
      boolean badPassword =
          cause(e, java.security.UnrecoverableKeyException.class) != null
              || String.valueOf(e.getMessage()).contains("password");
      throw new CmException(
          Reason.INVALID_CONFIG,
          flag
              + " "
              + store
              + " cannot be opened as "
              + config.truststoreType()
              + " ("
              + e.getMessage()
              + "): "
              + (badPassword
                  ? "check the password in the variable named by "
                      + CmClientConfig.flag(CmClientConfig.TRUSTSTORE_PASSWORD_ENV)
                  : "check the file and " + CmClientConfig.flag(CmClientConfig.TRUSTSTORE_TYPE)),
          e);
    } catch (GeneralSecurityException e) {
      throw new CmException(
          Reason.INVALID_CONFIG,
          flag
              + " "
              + store
              + " cannot be read as "
              + config.truststoreType()
              + ": "
              + e.getMessage(),
          e);
    }
    try {
      if (Collections.list(trustStore.aliases()).stream()
          .noneMatch(alias -> isCertificate(trustStore, alias))) {
        throw new CmException(
            Reason.INVALID_CONFIG,
            flag
                + " "
                + store
                + " holds no certificate: import the CA "
                + "certificate of Cloudera Manager's TLS certificate into it");
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trustStore);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new CmException(
          Reason.INVALID_CONFIG, flag + " " + store + " cannot be used: " + e.getMessage(), e);
    }
  }

  private static boolean isCertificate(KeyStore store, String alias) {
    try {
      return store.isCertificateEntry(alias) || store.getCertificate(alias) != null;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "CmClient{" + root + ", v" + apiVersion + ", user " + config.user() + "}";
  }
}
