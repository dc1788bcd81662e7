package org.flafka.cm;

import static org.flafka.cm.FakeCm.CLUSTER;
import static org.flafka.cm.FakeCm.config;
import static org.flafka.cm.FakeCm.ok;
import static org.flafka.cm.contract.SpecExamples.fixture;
import static org.flafka.cm.contract.SpecExamples.items;
import static org.flafka.cm.contract.SpecExamples.response;
import static org.flafka.cm.contract.SpecExamples.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.flafka.cm.CmClient.ConfigView;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmTestServer;
import org.flafka.cm.contract.CmTestServer.Request;
import org.flafka.cm.contract.CmTestServer.Response;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiConfig;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiService;
import org.flafka.cm.model.ApiServiceConfig;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The client against a spec-validated stand-in CM: every request and response is checked against
 * the v32 spec.
 */
class CmClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GROUP_CONFIG =
      "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config";
  private static final String ROLE_RESTART =
      "/clusters/{clusterName}/services/{serviceName}/roleCommands/restart";

  private final CmTestServer server = FakeCm.server();

  @AfterEach
  void everyExchangeConformsToTheSpec() {
    server.close();
    server.assertConforms();
  }

  private CmClient connect(String... extra) {
    return CmClient.connect(config(server.url(), extra));
  }

  @ParameterizedTest(name = "server v{0}, pinned {1} -> v{2}")
  @CsvSource({"v32, , 32", "v48, , 48", "v60, , 48", "v19, , 19", "v41, 19, 19", "v48, v33, 33"})
  void negotiatesTheLowerOfTheServersAndItsOwnHighestVersion(
      String serverAnswer, String pinned, int expected) {
    FakeCm.withCluster(server).versionAnswer(serverAnswer);
    CmClient client = pinned == null ? connect() : connect(CmClientConfig.API_VERSION, pinned);
    assertEquals(expected, client.apiVersion());
    client.clusters();
    Request last = server.requests().get(server.requests().size() - 1);
    assertEquals("/api/v" + expected + "/clusters", last.rawPath());
    assertEquals(expected, last.apiVersion());
  }

  @Test
  void refusesAServerOlderThanV19() {
    server.versionAnswer("v18");
    CmException e = assertThrows(CmException.class, this::connect);
    assertEquals(CmException.Reason.UNEXPECTED_RESPONSE, e.reason());
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " supports API versions up to v18; flafka needs v19 or "
            + "later (Cloudera Manager 5.14 or later)",
        e.getMessage());
  }

  @Test
  void refusesAPinnedVersionAboveTheServers() {
    server.versionAnswer("v32");
    CmException e =
        assertThrows(CmException.class, () -> connect(CmClientConfig.API_VERSION, "40"));
    assertEquals(CmException.Reason.INVALID_CONFIG, e.reason());
    assertEquals(
        "--cm-api-version 40 is higher than the highest API version Cloudera Manager at "
            + server.url()
            + " supports (v32): pin v32 or lower, or leave it unset",
        e.getMessage());
  }

  @Test
  void discoversServicesRolesAndGroupsFromTheRolesOwnReferences() {
    CmClient client = connect();
    FakeCm.withCluster(server);
    assertEquals(CLUSTER, client.findCluster(null).name());
    ApiService flume = client.findService(CLUSTER, CmClient.FLUME_SERVICE_TYPE, null);
    assertEquals("flume", flume.name());
    assertEquals("kafka", client.findService(CLUSTER, CmClient.KAFKA_SERVICE_TYPE, "kafka").name());
    Map<String, List<ApiRole>> byGroup =
        client.rolesByConfigGroup(CLUSTER, "flume", CmClient.FLUME_AGENT_ROLE_TYPE);
    assertEquals(List.of("flume-AGENT-edge", "flume-AGENT-BASE"), List.copyOf(byGroup.keySet()));
    assertEquals(
        List.of("flume-AGENT-a1", "flume-AGENT-b2"),
        byGroup.get("flume-AGENT-edge").stream().map(ApiRole::name).toList());
    assertEquals("edge2.example.com", byGroup.get("flume-AGENT-edge").get(1).hostRef().hostname());
    assertTrue(client.roleConfigGroups(CLUSTER, "flume").get(0).isBase());
    // names are percent-encoded path segments ("Cluster 1")
    assertEquals(
        "/api/v32/clusters/Cluster%201/services/flume/roles",
        server
            .requests("GET", "/clusters/{clusterName}/services/{serviceName}/roles")
            .get(0)
            .rawPath());
  }

  @Test
  void findServiceNamesTheCandidatesWhenItCannotChoose() {
    CmClient client = connect();
    server.on(
        "GET",
        "/clusters/{clusterName}/services",
        r ->
            ok(
                items(
                    FakeCm.service("flume-edge", "FLUME"),
                    FakeCm.service("flume-core", "FLUME"),
                    FakeCm.service("hdfs", "HDFS"))));
    CmException several =
        assertThrows(
            CmException.class,
            () -> client.findService(CLUSTER, CmClient.FLUME_SERVICE_TYPE, null));
    assertEquals(
        "cluster 'Cluster 1' has 2 FLUME services (flume-core, flume-edge): choose one with "
            + "--cm-flume-service",
        several.getMessage());
    CmException none =
        assertThrows(
            CmException.class,
            () -> client.findService(CLUSTER, CmClient.KAFKA_SERVICE_TYPE, null));
    assertEquals(CmException.Reason.NOT_FOUND, none.reason());
    assertEquals(
        "no KAFKA service in cluster 'Cluster 1' of Cloudera Manager at "
            + server.url()
            + "; services there: flume-core (FLUME), flume-edge (FLUME), hdfs (HDFS)",
        none.getMessage());
    CmException wrongType =
        assertThrows(
            CmException.class,
            () -> client.findService(CLUSTER, CmClient.KAFKA_SERVICE_TYPE, "hdfs"));
    assertTrue(
        wrongType
            .getMessage()
            .startsWith("service 'hdfs' in cluster 'Cluster 1' is of type HDFS, not KAFKA"),
        wrongType.getMessage());
  }

  @Test
  void readsRoleConfigGroupConfigInTheRequestedView() {
    CmClient client = connect();
    server.on(
        "GET",
        GROUP_CONFIG,
        r ->
            ok(
                items(
                    FakeCm.config(CmClient.AGENT_NAME, "tier1"),
                    FakeCm.config(CmClient.AGENT_CONFIG_FILE, "tier1.sources = r1\n"))));
    List<ApiConfig> full =
        client.roleConfigGroupConfig(CLUSTER, "flume", "flume-AGENT-edge", ConfigView.FULL);
    assertEquals(
        List.of("agent_name", "agent_config_file"), full.stream().map(ApiConfig::name).toList());
    assertEquals("tier1.sources = r1\n", full.get(1).value());
    assertEquals("...", full.get(1).defaultValue());
    client.roleConfigGroupConfig(CLUSTER, "flume", "flume-AGENT-edge", ConfigView.SUMMARY);
    List<Request> reads = server.requests("GET", GROUP_CONFIG);
    assertEquals("FULL", reads.get(0).query().get("view"));
    assertEquals("SUMMARY", reads.get(1).query().get("view"));
    assertEquals(
        "/api/v32/clusters/Cluster%201/services/flume/roleConfigGroups/flume-AGENT-edge/config",
        reads.get(0).rawPath());
  }

  @Test
  void updatesAFlumeAgentWithOnePartialPut() throws Exception {
    CmClient client = connect();
    String flumeConf =
        "tier1.sources = r1\ntier1.channels = c1\ntier1.sinks.k1.flumeBatchSize = 1000\n";
    server.on(
        "PUT",
        GROUP_CONFIG,
        r ->
            ok(
                items(
                    FakeCm.config(CmClient.AGENT_NAME, "tier1"),
                    FakeCm.config(CmClient.AGENT_CONFIG_FILE, flumeConf))));
    List<ApiConfig> stored =
        client.updateFlumeAgentConfig(
            CLUSTER, "flume", "flume-AGENT-edge", "tier1", flumeConf, "sweep trial 7");
    assertEquals(flumeConf, stored.get(1).value());
    Request put = server.requests("PUT", GROUP_CONFIG).get(0);
    assertEquals(
        "{\"items\":[{\"name\":\"agent_name\",\"value\":\"tier1\"},{\"name\":\"agent_config_file\","
            + "\"value\":"
            + JSON.writeValueAsString(flumeConf)
            + "}]}",
        put.body());
    assertEquals("application/json", put.contentType());
    assertEquals(Map.of("message", "sweep trial 7"), put.query());
  }

  @Test
  void anUpdateAnsweredWith204ReadsTheStoredConfigBack() {
    CmClient client = connect();
    server
        .on("PUT", GROUP_CONFIG, r -> Response.empty(204))
        .on("GET", GROUP_CONFIG, r -> ok(items(FakeCm.config("agent_java_opts", "-Xmx2g"))));
    Map<String, String> values = new LinkedHashMap<>();
    values.put("agent_java_opts", "-Xmx2g");
    values.put("log4j_safety_valve", null);
    List<ApiConfig> stored =
        client.updateRoleConfigGroupConfig(CLUSTER, "flume", "flume-AGENT-edge", values, null);
    assertEquals("-Xmx2g", stored.get(0).value());
    Request put = server.requests("PUT", GROUP_CONFIG).get(0);
    assertEquals(
        "{\"items\":[{\"name\":\"agent_java_opts\",\"value\":\"-Xmx2g\"},"
            + "{\"name\":\"log4j_safety_valve\",\"value\":null}]}",
        put.body());
    assertEquals(Map.of(), put.query());
    assertEquals("SUMMARY", server.requests("GET", GROUP_CONFIG).get(0).query().get("view"));
  }

  @Test
  void readsAndUpdatesServiceConfig() {
    CmClient client = connect();
    String path = "/clusters/{clusterName}/services/{serviceName}/config";
    ObjectNode serviceConfig = response("GET", path, 200);
    with((ObjectNode) serviceConfig.get("items").get(0), "name", "num.partitions", "value", "12");
    server.on("GET", path, r -> ok(serviceConfig)).on("PUT", path, r -> ok(serviceConfig));
    ApiServiceConfig read = client.serviceConfig(CLUSTER, "kafka", ConfigView.FULL);
    assertEquals("12", read.items().get(0).value());
    assertEquals("...", read.roleTypeConfigs().get(0).roleType());
    client.updateServiceConfig(CLUSTER, "kafka", Map.of("num.partitions", "12"), "sweep");
    assertEquals(
        "{\"items\":[{\"name\":\"num.partitions\",\"value\":\"12\"}]}",
        server.requests("PUT", path).get(0).body());
  }

  @Test
  void restartsRolesAndPollsEachCommandToTheEnd() {
    CmClient client = connect();
    server.on(
        "POST",
        ROLE_RESTART,
        r ->
            Response.json(
                201,
                bulk(List.of(command(101, true, null), command(102, true, null)), List.of()),
                Strictness.SPEC));
    Map<Long, AtomicInteger> polls = new ConcurrentHashMap<>();
    server.on(
        "GET",
        "/commands/{commandId}",
        r -> {
          long id = Long.parseLong(r.pathParameters().get("commandId"));
          int poll = polls.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
          return ok(command(id, poll < 3, poll < 3 ? null : true));
        });
    List<String> progress = new ArrayList<>();
    List<ApiCommand> done =
        client.restartRoles(
            CLUSTER,
            "flume",
            List.of("flume-AGENT-a1", "flume-AGENT-b2"),
            c -> progress.add(c.id() + ":" + c.isActive()));
    assertEquals(List.of(101L, 102L), done.stream().map(ApiCommand::id).toList());
    assertTrue(done.stream().allMatch(ApiCommand::isSuccess));
    assertEquals(
        List.of(
            "101:true",
            "101:true",
            "101:true",
            "101:false",
            "102:true",
            "102:true",
            "102:true",
            "102:false"),
        progress);
    assertEquals(
        "{\"items\":[\"flume-AGENT-a1\",\"flume-AGENT-b2\"]}",
        server.requests("POST", ROLE_RESTART).get(0).body());
  }

  @Test
  void aFailedRoleCommandIsReportedOnlyOnceEveryOtherHasFinished() {
    CmClient client = connect();
    String stop = "/clusters/{clusterName}/services/{serviceName}/roleCommands/stop";
    server.on(
        "POST",
        stop,
        r ->
            Response.json(
                201,
                bulk(List.of(command(501, true, null), command(502, true, null)), List.of()),
                Strictness.SPEC));
    Map<Long, AtomicInteger> polls = new ConcurrentHashMap<>();
    server.on(
        "GET",
        "/commands/{commandId}",
        r -> {
          long id = Long.parseLong(r.pathParameters().get("commandId"));
          int poll = polls.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
          return ok(
              id == 501
                  ? command(501, false, false)
                  : command(502, poll < 3, poll < 3 ? null : true));
        });
    CmException e =
        assertThrows(
            CmException.class,
            () ->
                client.stopRoles(
                    CLUSTER,
                    "flume",
                    List.of("flume-AGENT-a1", "flume-AGENT-b2"),
                    CommandProgress.NONE));
    assertEquals(CmException.Reason.COMMAND_FAILED, e.reason());
    assertEquals(
        "'Restart' (command 501) on role flume-AGENT-a1 failed: Restarted", e.getMessage());
    assertEquals(3, polls.get(502L).get(), "the second command was followed to its end");
    assertEquals(
        "{\"items\":[\"flume-AGENT-a1\",\"flume-AGENT-b2\"]}",
        server.requests("POST", stop).get(0).body());
  }

  @Test
  void aFailedRestartSaysWhyWithTheFailedChildCommands() {
    CmClient client = connect();
    server.on(
        "POST",
        ROLE_RESTART,
        r ->
            Response.json(
                201, bulk(List.of(command(201, true, null)), List.of()), Strictness.SPEC));
    server.on(
        "GET",
        "/commands/{commandId}",
        r -> {
          ObjectNode failed = command(201, false, false);
          with(
              failed,
              "resultMessage",
              "Command failed to run because service flume has an invalid configuration.");
          ObjectNode child = (ObjectNode) failed.get("children").get("items").get(0);
          with(
              child,
              "id",
              202,
              "name",
              "Start",
              "active",
              false,
              "success",
              false,
              "resultMessage",
              "Supervisor returned FATAL: agent exited with code 1");
          with(
              (ObjectNode) failed.get("children").get("items").get(1),
              "active",
              false,
              "success",
              true);
          return ok(failed);
        });
    CmException e =
        assertThrows(
            CmException.class,
            () ->
                client.restartRoles(
                    CLUSTER, "flume", List.of("flume-AGENT-a1"), CommandProgress.NONE));
    assertEquals(CmException.Reason.COMMAND_FAILED, e.reason());
    assertEquals(
        "'Restart' (command 201) on role flume-AGENT-a1 failed: Command failed to run because service "
            + "flume has an invalid configuration. ('Start' (command 202): Supervisor returned FATAL: agent exited "
            + "with code 1)",
        e.getMessage());
  }

  @Test
  void bulkErrorsFailTheRestartNamingTheRoles() {
    CmClient client = connect();
    server.on(
        "POST",
        ROLE_RESTART,
        r ->
            Response.json(
                201,
                bulk(
                    List.of(command(301, true, null)),
                    List.of("Role flume-AGENT-zz: role is in maintenance mode")),
                Strictness.SPEC));
    CmException e =
        assertThrows(
            CmException.class,
            () ->
                client.restartRoles(
                    CLUSTER,
                    "flume",
                    List.of("flume-AGENT-a1", "flume-AGENT-zz"),
                    CommandProgress.NONE));
    assertEquals(
        "Cloudera Manager could not restart role(s) of service 'flume': Role flume-AGENT-zz: role is in "
            + "maintenance mode; restart commands started anyway: 'Restart' (command 301) on role flume-AGENT-a1",
        e.getMessage());
  }

  @Test
  void aCommandThatNeverEndsTimesOut() {
    CmClient client = connect(CmClientConfig.COMMAND_TIMEOUT_MS, "150");
    server
        .on(
            "POST",
            "/clusters/{clusterName}/services/{serviceName}/commands/restart",
            r -> Response.json(201, command(401, true, null), Strictness.SPEC))
        .on("GET", "/commands/{commandId}", r -> ok(command(401, true, null)));
    CmException e =
        assertThrows(
            CmException.class, () -> client.restartService(CLUSTER, "flume", CommandProgress.NONE));
    assertEquals(CmException.Reason.COMMAND_FAILED, e.reason());
    assertEquals(
        "'Restart' (command 401) on role flume-AGENT-a1 is still running after 150 ms "
            + "(--cm-command-timeout-ms); it was not aborted: follow it in Cloudera Manager under Running "
            + "Commands",
        e.getMessage());
    assertTrue(server.requests("GET", "/commands/{commandId}").size() >= 1);
  }

  @Test
  void queriesTimeSeriesWithUtcTimesAndTheRollupAskedFor() {
    CmClient client = connect();
    server.on("GET", "/timeseries", r -> ok(fixture("timeseries-network-receive.json")));
    Instant from = Instant.parse("2022-11-29T04:49:12.024Z");
    Instant to = Instant.parse("2022-11-29T04:54:12.024Z");
    String tsquery =
        "SELECT total_bytes_receive_rate_across_network_interfaces WHERE category = HOST";
    List<ApiTimeSeriesResponse> responses =
        client.queryTimeSeries(TimeSeriesQuery.raw(tsquery, from, to));
    Request get = server.requests("GET", "/timeseries").get(0);
    assertEquals(
        Map.of(
            "query",
            tsquery,
            "from",
            "2022-11-29T04:49:12.024Z",
            "to",
            "2022-11-29T04:54:12.024Z",
            "contentType",
            "application/json",
            "desiredRollup",
            "RAW",
            "mustUseDesiredRollup",
            "true"),
        get.query());
    ApiTimeSeries host = responses.get(0).timeSeries().get(0);
    assertEquals(
        "cod--qfdcinkqrzw-leader0.agent-in.jfha-h5rc.a0.cloudera.site",
        host.metadata().attribute("hostname"));
    assertEquals(List.of("bytes"), host.metadata().unitNumerators());
    assertEquals(List.of("seconds"), host.metadata().unitDenominators());
    assertEquals(1032.2, host.data().get(0).value());
    assertEquals(Instant.parse("2022-11-29T04:54:03.770Z"), host.data().get(0).instant());
    assertEquals("CLUSTER", responses.get(0).timeSeries().get(2).metadata().attribute("category"));
  }

  @Test
  void readsRoleSeriesWithAliasesAndEmptyData() {
    CmClient client = connect();
    server.on("GET", "/timeseries", r -> ok(fixture("timeseries-role-mem-rss.json")));
    List<ApiTimeSeries> series =
        client
            .queryTimeSeries(
                new TimeSeriesQuery(
                    "SELECT last(mem_rss) AS mem_rss " + "WHERE category = ROLE",
                    null,
                    null,
                    TimeSeriesQuery.Rollup.RAW,
                    false))
            .get(0)
            .timeSeries();
    assertEquals("mem_rss", series.get(0).metadata().alias());
    assertEquals(
        "hdfs-DATANODE-bf4b8e304dd0b549bcad6614d3129033",
        series.get(0).metadata().attribute("roleName"));
    assertEquals(598151168.0, series.get(0).data().get(0).value());
    assertEquals(List.of(), series.get(1).data());
    Map<String, String> query = server.requests("GET", "/timeseries").get(0).query();
    assertFalse(query.containsKey("from"));
    assertFalse(query.containsKey("to"));
    assertEquals("false", query.get("mustUseDesiredRollup"));
  }

  @Test
  void aQueryTooLongForAUrlIsPosted() throws Exception {
    CmClient client = connect();
    server.on(
        "POST",
        "/timeseries",
        r -> Response.json(201, fixture("timeseries-network-receive.json"), Strictness.SPEC));
    String longQuery =
        "SELECT total_bytes_receive_rate_across_network_interfaces WHERE "
            + "hostname = \"h\" OR ".repeat(150)
            + "hostname = \"last\"";
    Instant from = Instant.parse("2024-03-01T10:00:00Z");
    List<ApiTimeSeriesResponse> responses =
        client.queryTimeSeries(TimeSeriesQuery.raw(longQuery, from, null));
    assertEquals(3, responses.get(0).timeSeries().size());
    assertEquals(List.of(), server.requests("GET", "/timeseries"));
    JsonNode body = JSON.readTree(server.requests("POST", "/timeseries").get(0).body());
    assertEquals(longQuery, body.get("query").asText());
    assertEquals("2024-03-01T10:00:00Z", body.get("from").asText());
    assertFalse(body.has("to"));
    assertEquals("RAW", body.get("desiredRollup").asText());
    assertTrue(body.get("mustUseDesiredRollup").asBoolean());
  }

  @Test
  void readsTimeSeriesAsCsv() {
    CmClient client = connect();
    String csv =
        "entityName,metricName,timestamp,value\nhost1,bytes_receive_rate,2024-03-01T10:00:00.000Z,12.5\n";
    server.on("GET", "/timeseries", r -> new Response(200, "text/csv", csv, Strictness.SPEC));
    assertEquals(
        csv,
        client.queryTimeSeriesCsv(TimeSeriesQuery.raw("SELECT bytes_receive_rate", null, null)));
    assertEquals(
        "text/csv", server.requests("GET", "/timeseries").get(0).query().get("contentType"));
  }

  @Test
  void replacesADashboardByDeletingAndCreatingIt() throws Exception {
    CmClient client = connect();
    String dashboardPath = "/timeseries/dashboards/{dashboardName}";
    ObjectNode existing =
        with(response("GET", dashboardPath, 200), "name", "Flume Ingest", "json", "{\"v\":1}");
    server
        .on("GET", "/timeseries/dashboards", r -> ok(items(existing)))
        .on(
            "GET",
            dashboardPath,
            r ->
                r.pathParameters().get("dashboardName").equals("Flume Ingest")
                    ? ok(existing)
                    : Response.error(404, "Dashboard not found"))
        .on("DELETE", dashboardPath, r -> ok(existing))
        .on(
            "POST",
            "/timeseries/dashboards",
            r -> Response.json(201, (ObjectNode) readTree(r.body()), Strictness.DECLARED_ONLY));
    assertEquals(List.of(new ApiDashboard("Flume Ingest", "{\"v\":1}")), client.dashboards());
    assertEquals("{\"v\":1}", client.dashboard("Flume Ingest").orElseThrow().json());
    assertTrue(client.dashboard("Kafka Lag").isEmpty());
    ApiDashboard replaced = client.replaceDashboard(new ApiDashboard("Flume Ingest", "{\"v\":2}"));
    assertEquals("{\"v\":2}", replaced.json());
    List<String> calls =
        server.requests().stream()
            .filter(r -> r.rawPath().startsWith("/api/v32/timeseries"))
            .map(r -> r.method() + " " + r.rawPath())
            .toList();
    assertEquals(
        List.of(
            "GET /api/v32/timeseries/dashboards",
            "GET /api/v32/timeseries/dashboards/Flume%20Ingest",
            "GET /api/v32/timeseries/dashboards/Kafka%20Lag",
            "DELETE /api/v32/timeseries/dashboards/Flume%20Ingest",
            "POST /api/v32/timeseries/dashboards"),
        calls);
    assertEquals(
        "{\"items\":[{\"name\":\"Flume Ingest\",\"json\":\"{\\\"v\\\":2}\"}]}",
        server.requests("POST", "/timeseries/dashboards").get(0).body());
  }

  @Test
  void deletingAMissingDashboardIsNotAnError() {
    CmClient client = connect();
    server.on(
        "DELETE", "/timeseries/dashboards/{dashboardName}", r -> Response.error(404, "not found"));
    assertFalse(client.deleteDashboard("Nope"));
  }

  private static JsonNode readTree(String body) {
    try {
      return JSON.readTree(body);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** An ApiCommand from the spec's example, with an id, state and the role it restarts. */
  private static ObjectNode command(long id, boolean active, Boolean success) {
    ObjectNode command = response("GET", "/commands/{commandId}", 200);
    with(
        command,
        "id",
        id,
        "name",
        "Restart",
        "active",
        active,
        "roleRef.roleName",
        "flume-AGENT-a1",
        "resultMessage",
        active ? "Restarting" : "Restarted");
    if (success == null) {
      command.remove("success");
    } else {
      with(command, "success", success);
    }
    return command;
  }

  private static ObjectNode bulk(List<ObjectNode> commands, List<String> errors) {
    ObjectNode bulk = response("POST", ROLE_RESTART, 201);
    ArrayNode items = bulk.withArray("items");
    items.removeAll();
    commands.forEach(items::add);
    ArrayNode errorList = bulk.withArray("errors");
    errorList.removeAll();
    errors.forEach(errorList::add);
    return bulk;
  }
}
