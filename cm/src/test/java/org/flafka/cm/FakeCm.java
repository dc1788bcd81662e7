package org.flafka.cm;

import static org.flafka.cm.contract.SpecExamples.firstItem;
import static org.flafka.cm.contract.SpecExamples.items;
import static org.flafka.cm.contract.SpecExamples.with;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmTestServer;
import org.flafka.cm.contract.CmTestServer.Response;

/**
 * A small cluster served by {@link CmTestServer}, every body built from the spec's examples with
 * only values changed: cluster "Cluster 1" with services flume (FLUME), kafka (KAFKA) and hdfs
 * (HDFS); the flume service has two AGENT roles in the non-base group "flume-AGENT-edge" and one in
 * "flume-AGENT-BASE".
 */
final class FakeCm {
  static final String USER = "admin";
  static final String PASSWORD = "pw-Zx81-secret";
  static final String CLUSTER = "Cluster 1";

  private FakeCm() {}

  static CmTestServer server() {
    return CmTestServer.http(USER, PASSWORD);
  }

  /** Registers the discovery endpoints of the standard cluster. */
  static CmTestServer withCluster(CmTestServer server) {
    return server
        .on("GET", "/clusters", r -> ok(items(cluster(CLUSTER))))
        .on(
            "GET",
            "/clusters/{clusterName}/services",
            r ->
                ok(
                    items(
                        service("flume", "FLUME"),
                        service("kafka", "KAFKA"),
                        service("hdfs", "HDFS"))))
        .on(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roles",
            r ->
                ok(
                    items(
                        role("flume-AGENT-a1", "AGENT", "flume-AGENT-edge", "edge1.example.com"),
                        role("flume-AGENT-b2", "AGENT", "flume-AGENT-edge", "edge2.example.com"),
                        role("flume-AGENT-c3", "AGENT", "flume-AGENT-BASE", "core1.example.com"))))
        .on(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups",
            r ->
                ok(
                    items(
                        group("flume-AGENT-BASE", "AGENT", true),
                        group("flume-AGENT-edge", "AGENT", false))));
  }

  static ObjectNode cluster(String name) {
    return with(firstItem("GET", "/clusters", 200), "name", name, "displayName", name);
  }

  static ObjectNode service(String name, String type) {
    return with(
        firstItem("GET", "/clusters/{clusterName}/services", 200),
        "name",
        name,
        "type",
        type,
        "displayName",
        name,
        "clusterRef.clusterName",
        CLUSTER);
  }

  static ObjectNode role(String name, String type, String group, String host) {
    return with(
        firstItem("GET", "/clusters/{clusterName}/services/{serviceName}/roles", 200),
        "name",
        name,
        "type",
        type,
        "roleConfigGroupRef.roleConfigGroupName",
        group,
        "hostRef.hostname",
        host,
        "roleState",
        "STARTED");
  }

  static ObjectNode group(String name, String roleType, boolean base) {
    return with(
        firstItem("GET", "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups", 200),
        "name",
        name,
        "roleType",
        roleType,
        "base",
        base,
        "displayName",
        name);
  }

  /** A config item from the spec's example for GET .../config. */
  static ObjectNode config(String name, String value) {
    return with(
        firstItem(
            "GET",
            "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config",
            200),
        "name",
        name,
        "value",
        value);
  }

  /** 200 with a JSON body built from the spec's examples (judged by what the spec says). */
  static Response ok(ObjectNode body) {
    return Response.json(200, body, Strictness.SPEC);
  }

  /**
   * Client settings for {@code url}; the CM and trust store passwords in the environment; fast
   * polling.
   */
  static CmClientConfig config(String url, String... extra) {
    Map<String, String> settings = new HashMap<>();
    settings.put(CmClientConfig.URL, url);
    settings.put(CmClientConfig.USER, USER);
    settings.put(CmClientConfig.COMMAND_POLL_INTERVAL_MS, "10");
    settings.put(CmClientConfig.COMMAND_TIMEOUT_MS, "5000");
    settings.put(CmClientConfig.REQUEST_TIMEOUT_MS, "5000");
    for (int i = 0; i < extra.length; i += 2) {
      settings.put(extra[i], extra[i + 1]);
    }
    return CmClientConfig.from(
        settings,
        Map.of(
            CmClientConfig.DEFAULT_PASSWORD_ENV,
            PASSWORD,
            CmClientConfig.DEFAULT_TRUSTSTORE_PASSWORD_ENV,
            TestTls.PASSWORD));
  }
}
