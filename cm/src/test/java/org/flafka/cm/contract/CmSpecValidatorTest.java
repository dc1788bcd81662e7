package org.flafka.cm.contract;

import static org.flafka.cm.contract.CmSpecValidator.Strictness.DECLARED_ONLY;
import static org.flafka.cm.contract.CmSpecValidator.Strictness.SPEC;
import static org.flafka.cm.contract.SpecExamples.firstItem;
import static org.flafka.cm.contract.SpecExamples.fixture;
import static org.flafka.cm.contract.SpecExamples.items;
import static org.flafka.cm.contract.SpecExamples.response;
import static org.flafka.cm.contract.SpecExamples.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.stream.Stream;
import org.flafka.cm.model.ApiBulkCommandList;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiConfigUpdate;
import org.flafka.cm.model.ApiList;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiRoleConfigGroup;
import org.flafka.cm.model.ApiService;
import org.flafka.cm.model.ApiTimeSeriesRequest;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The validator accepts what the spec allows and, above all, rejects what it does not. */
class CmSpecValidatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final CmSpecValidator validator = new CmSpecValidator();

  /** The operations the client uses: method, path as sent, status of the spec's example. */
  static Stream<Arguments> clientOperations() {
    return Stream.of(
        Arguments.of("GET", "/clusters", "/api/v32/clusters", 200),
        Arguments.of(
            "GET", "/clusters/{clusterName}/services", "/api/v32/clusters/c1/services", 200),
        Arguments.of(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roles",
            "/api/v32/clusters/c1/services/flume/roles",
            200),
        Arguments.of(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups",
            "/api/v32/clusters/c1/services/flume/roleConfigGroups",
            200),
        Arguments.of(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}",
            "/api/v32/clusters/c1/services/flume/roleConfigGroups/g",
            200),
        Arguments.of(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config",
            "/api/v32/clusters/c1/services/flume/roleConfigGroups/g/config",
            200),
        Arguments.of(
            "PUT",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config",
            "/api/v32/clusters/c1/services/flume/roleConfigGroups/g/config",
            204),
        Arguments.of(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/config",
            "/api/v32/clusters/c1/services/kafka/config",
            200),
        Arguments.of(
            "PUT",
            "/clusters/{clusterName}/services/{serviceName}/config",
            "/api/v32/clusters/c1/services/kafka/config",
            204),
        Arguments.of(
            "POST",
            "/clusters/{clusterName}/services/{serviceName}/roleCommands/restart",
            "/api/v32/clusters/c1/services/flume/roleCommands/restart",
            201),
        Arguments.of(
            "POST",
            "/clusters/{clusterName}/services/{serviceName}/commands/restart",
            "/api/v32/clusters/c1/services/flume/commands/restart",
            201),
        Arguments.of("GET", "/commands/{commandId}", "/api/v32/commands/12345", 200),
        Arguments.of("GET", "/timeseries", "/api/v32/timeseries", 200),
        Arguments.of("POST", "/timeseries", "/api/v32/timeseries", 201),
        Arguments.of("GET", "/timeseries/dashboards", "/api/v32/timeseries/dashboards", 200),
        Arguments.of("POST", "/timeseries/dashboards", "/api/v32/timeseries/dashboards", 201),
        Arguments.of(
            "GET",
            "/timeseries/dashboards/{dashboardName}",
            "/api/v32/timeseries/dashboards/Flume%20Ingest",
            200));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("clientOperations")
  void theSpecsOwnExamplesConformToItsSchemas(
      String method, String template, String path, int status) {
    ObjectNode example = response(method, template, status);
    List<String> violations =
        validator.validateResponse(
            method, path, status, "application/json", example.toString(), SPEC);
    assertEquals(List.of(), violations);
  }

  @Test
  void rejectsAListWhoseItemsAreNotAnArray() {
    String body = "{\"items\": {\"name\": \"c1\"}}";
    List<String> violations =
        validator.validateResponse("GET", "/api/v32/clusters", 200, "application/json", body, SPEC);
    assertEquals(1, violations.size(), CmSpecValidator.report(violations));
    assertTrue(
        violations.get(0).startsWith("GET /clusters response 200 body: $.items:"),
        violations.get(0));
    assertTrue(violations.get(0).contains("array"), violations.get(0));
  }

  @Test
  void rejectsWrongTypesDeepInsideRefsAndAllOf() {
    ObjectNode command = response("GET", "/commands/{commandId}", 200);
    with(command, "id", "12345", "active", "yes");
    ((ObjectNode) command.get("children"))
        .withArray("items")
        .add(JSON.createObjectNode().put("success", "true"));
    List<String> violations =
        validator.validateResponse(
            "GET", "/api/v32/commands/12345", 200, "application/json", command.toString(), SPEC);
    assertEquals(3, violations.size(), CmSpecValidator.report(violations));
    assertTrue(
        violations.stream().anyMatch(v -> v.contains("$.id") && v.contains("number")),
        violations.toString());
    assertTrue(
        violations.stream().anyMatch(v -> v.contains("$.active") && v.contains("boolean")),
        violations.toString());
    assertTrue(
        violations.stream().anyMatch(v -> v.contains("$.children.items[2].success")),
        violations.toString());
  }

  @Test
  void rejectsAValueOutsideAnEnum() {
    ObjectNode role =
        with(
            firstItem("GET", "/clusters/{clusterName}/services/{serviceName}/roles", 200),
            "roleState",
            "RUNNING");
    List<String> violations =
        validator.validateResponse(
            "GET",
            "/api/v32/clusters/c/services/s/roles",
            200,
            "application/json",
            items(role).toString(),
            SPEC);
    assertEquals(1, violations.size(), CmSpecValidator.report(violations));
    assertTrue(violations.get(0).contains("$.items[0].roleState"), violations.get(0));
  }

  @Test
  void rejectsAQueryValueOutsideTheParametersEnum() {
    // The spec's view enum is upper case; CM parses it case-insensitively, but the client sends
    // what the spec says
    List<String> violations =
        validator.validateRequest(
            "GET",
            "/api/v32/clusters/c/services/s/roleConfigGroups/g/config",
            "view=full",
            null,
            "",
            DECLARED_ONLY);
    assertEquals(1, violations.size(), CmSpecValidator.report(violations));
    assertTrue(
        violations
            .get(0)
            .startsWith(
                "GET /clusters/{clusterName}/services/{serviceName}/roleConfigGroups/"
                    + "{roleConfigGroupName}/config query parameter 'view' = 'full'"),
        violations.get(0));
    assertEquals(
        List.of(),
        validator.validateRequest(
            "GET",
            "/api/v32/clusters/c/services/s/roleConfigGroups/g/config",
            "view=FULL",
            null,
            "",
            DECLARED_ONLY));
  }

  @Test
  void rejectsUndeclaredQueryParametersAndWrongParameterTypes() {
    List<String> violations =
        validator.validateRequest(
            "GET",
            "/api/v32/timeseries",
            "query=select%20x&mustUseDesiredRollup=yes&limit=5",
            null,
            "",
            DECLARED_ONLY);
    assertEquals(2, violations.size(), CmSpecValidator.report(violations));
    assertTrue(
        violations.stream().anyMatch(v -> v.contains("'mustUseDesiredRollup' = 'yes'")),
        violations.toString());
    assertTrue(
        violations.stream().anyMatch(v -> v.contains("query parameter 'limit' is not declared")),
        violations.toString());
    List<String> badId =
        validator.validateRequest("GET", "/api/v32/commands/abc", null, null, "", DECLARED_ONLY);
    assertEquals(1, badId.size(), CmSpecValidator.report(badId));
    assertTrue(badId.get(0).contains("path parameter 'commandId' = 'abc'"), badId.get(0));
  }

  @Test
  void rejectsUnknownPathsMethodsAndBodiesWhereNoneIsTaken() {
    assertEquals(
        List.of("GET /api/v32/flume/agents: no such path in the v32 spec"),
        validator.validateRequest("GET", "/api/v32/flume/agents", null, null, "", SPEC));
    List<String> put =
        validator.validateRequest(
            "PUT", "/api/v32/timeseries/dashboards/d", null, "application/json", "{}", SPEC);
    assertEquals(
        List.of(
            "PUT /api/v32/timeseries/dashboards/d: the spec defines only [GET, DELETE] on this path"),
        put);
    List<String> bodyOnGet =
        validator.validateRequest(
            "GET", "/api/v32/clusters", null, "application/json", "{\"items\":[]}", SPEC);
    assertEquals(List.of("GET /clusters: takes no request body, got '{\"items\":[]}'"), bodyOnGet);
    assertEquals(
        List.of("GET /clusters: not under /api/vNN"),
        validator.validateRequest("GET", "/clusters", null, null, "", SPEC));
  }

  @Test
  void rejectsARequestBodyOfTheWrongShape() {
    // a bare array instead of the {"items": [...]} wrapper
    List<String> violations =
        validator.validateRequest(
            "POST",
            "/api/v32/clusters/c/services/flume/roleCommands/restart",
            null,
            "application/json",
            "[\"flume-AGENT-1\"]",
            DECLARED_ONLY);
    assertEquals(1, violations.size(), CmSpecValidator.report(violations));
    assertTrue(
        violations.get(0).contains("request body: $: array found, object expected"),
        violations.get(0));
    List<String> wrongType =
        validator.validateRequest(
            "POST",
            "/api/v32/clusters/c/services/flume/roleCommands/restart",
            null,
            "application/json",
            "{\"items\":[1]}",
            DECLARED_ONLY);
    assertEquals(1, wrongType.size(), CmSpecValidator.report(wrongType));
    List<String> wrongContentType =
        validator.validateRequest(
            "PUT",
            "/api/v32/clusters/c/services/k/config",
            null,
            "text/plain",
            "{\"items\":[]}",
            DECLARED_ONLY);
    assertEquals(1, wrongContentType.size(), CmSpecValidator.report(wrongContentType));
    assertTrue(
        wrongContentType.get(0).contains("Content-Type 'text/plain'"), wrongContentType.get(0));
  }

  @Test
  void declaredOnlyReportsPropertiesTheV32SchemasDoNotDeclareAndSpecAllowsThem() {
    ObjectNode clusters = fixture("clusters.json");
    assertEquals(
        List.of(),
        validator.validateResponse(
            "GET", "/api/v48/clusters", 200, "application/json", clusters.toString(), SPEC));
    List<String> strict =
        validator.validateResponse(
            "GET",
            "/api/v48/clusters",
            200,
            "application/json",
            clusters.toString(),
            DECLARED_ONLY);
    assertEquals(1, strict.size(), CmSpecValidator.report(strict));
    assertTrue(
        strict
            .get(0)
            .contains("$.items[0].tags: property 'tags' is not declared by the v32 schema"),
        strict.get(0));
  }

  @Test
  void recordedV48ResponsesConformToTheSpec() {
    for (String[] recorded :
        new String[][] {
          {"/api/v48/clusters", "clusters.json"},
          {"/api/v48/clusters/cod--qfdcinkqrzw/services", "services-view-full.json"},
          {"/api/v48/timeseries", "timeseries-network-receive.json"},
          {"/api/v48/timeseries", "timeseries-role-mem-rss.json"}
        }) {
      List<String> violations =
          validator.validateResponse(
              "GET", recorded[0], 200, "application/json", fixture(recorded[1]).toString(), SPEC);
      assertEquals(List.of(), violations, recorded[1]);
    }
  }

  @Test
  void statusQuirksAndErrorsAreHandledAsDocumented() {
    String dashboards = response("POST", "/timeseries/dashboards", 201).toString();
    // the spec declares 201; a real server may answer 200
    assertEquals(
        List.of(),
        validator.validateResponse(
            "POST", "/api/v32/timeseries/dashboards", 200, "application/json", dashboards, SPEC));
    // 204 without a body even where the spec attaches a schema
    assertEquals(
        List.of(),
        validator.validateResponse(
            "PUT", "/api/v32/clusters/c/services/k/config", 204, null, "", SPEC));
    // an empty 200 where a body is declared is a violation
    List<String> empty =
        validator.validateResponse("GET", "/api/v32/clusters", 200, null, "", SPEC);
    assertEquals(
        List.of(
            "GET /clusters response 200: empty body; the spec declares [application/json ApiClusterList]"),
        empty);
    // a non-JSON success body is a violation
    List<String> html =
        validator.validateResponse("GET", "/api/v32/clusters", 200, "text/html", "<html/>", SPEC);
    assertEquals(1, html.size(), CmSpecValidator.report(html));
    // error bodies are not in the spec, so they are not judged
    assertEquals(
        List.of(),
        validator.validateResponse(
            "GET", "/api/v32/clusters/x/services", 404, "text/html", "<html/>", SPEC));
    // /api/version is outside the spec, checked by its own rule
    assertEquals(
        List.of(),
        validator.validateResponse("GET", "/api/version", 200, "text/plain", "v32", SPEC));
    assertEquals(
        1,
        validator
            .validateResponse("GET", "/api/version", 200, "text/plain", "{\"v\":1}", SPEC)
            .size());
  }

  @Test
  void amendmentsAllowNullConfigValuesAndCsvTimeSeries() throws Exception {
    String reset =
        JSON.writeValueAsString(
            new ApiList<>(List.of(new ApiConfigUpdate("agent_java_opts", null))));
    assertEquals("{\"items\":[{\"name\":\"agent_java_opts\",\"value\":null}]}", reset);
    assertEquals(
        List.of(),
        validator.validateRequest(
            "PUT",
            "/api/v32/clusters/c/services/flume/roleConfigGroups/g/config",
            "message=reset",
            "application/json",
            reset,
            DECLARED_ONLY));
    assertEquals(
        List.of(),
        validator.validateResponse(
            "GET",
            "/api/v32/timeseries",
            200,
            "text/csv",
            "entityName,metricName,timestamp,value\n",
            SPEC));
    assertEquals(2, CmApiSpec.AMENDMENTS.size());
  }

  @Test
  void modelRecordsSerialiseToShapesTheSpecDeclares() throws Exception {
    // what the emulator will send: parse the spec's examples into the model, write them back,
    // validate strictly
    String rolesPath = "/api/v32/clusters/c/services/flume/roles";
    ApiList<ApiRole> roles =
        JSON.readValue(
            response("GET", "/clusters/{clusterName}/services/{serviceName}/roles", 200).toString(),
            JSON.getTypeFactory().constructParametricType(ApiList.class, ApiRole.class));
    assertStrict("GET", rolesPath, JSON.writeValueAsString(roles));
    ApiList<ApiService> services =
        JSON.readValue(
            response("GET", "/clusters/{clusterName}/services", 200).toString(),
            JSON.getTypeFactory().constructParametricType(ApiList.class, ApiService.class));
    assertStrict("GET", "/api/v32/clusters/c/services", JSON.writeValueAsString(services));
    ApiRoleConfigGroup group =
        JSON.readValue(
            response(
                    "GET",
                    "/clusters/{clusterName}/services/{serviceName}/"
                        + "roleConfigGroups/{roleConfigGroupName}",
                    200)
                .toString(),
            ApiRoleConfigGroup.class);
    assertStrict(
        "GET",
        "/api/v32/clusters/c/services/flume/roleConfigGroups/g",
        JSON.writeValueAsString(group));
    ApiCommand command =
        JSON.readValue(response("GET", "/commands/{commandId}", 200).toString(), ApiCommand.class);
    assertStrict("GET", "/api/v32/commands/12345", JSON.writeValueAsString(command));
    ApiBulkCommandList bulk =
        JSON.readValue(
            response(
                    "POST",
                    "/clusters/{clusterName}/services/{serviceName}/roleCommands/restart",
                    201)
                .toString(),
            ApiBulkCommandList.class);
    assertStrict(
        "POST",
        "/api/v32/clusters/c/services/flume/roleCommands/restart",
        JSON.writeValueAsString(bulk));
    ApiList<ApiTimeSeriesResponse> series =
        JSON.readValue(
            fixture("timeseries-network-receive.json").toString(),
            JSON.getTypeFactory()
                .constructParametricType(ApiList.class, ApiTimeSeriesResponse.class));
    assertStrict("GET", "/api/v32/timeseries", JSON.writeValueAsString(series));
    String request =
        JSON.writeValueAsString(
            new ApiTimeSeriesRequest(
                "select x", "2024-01-01T00:00:00Z", null, "application/json", "RAW", true));
    assertEquals(
        List.of(),
        validator.validateRequest(
            "POST", "/api/v32/timeseries", null, "application/json", request, DECLARED_ONLY));
  }

  private void assertStrict(String method, String path, String body) {
    int status = method.equals("POST") ? 201 : 200;
    List<String> violations =
        validator.validateResponse(method, path, status, "application/json", body, DECLARED_ONLY);
    assertEquals(List.of(), violations, body);
  }
}
