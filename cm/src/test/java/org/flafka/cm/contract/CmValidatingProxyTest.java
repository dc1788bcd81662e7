package org.flafka.cm.contract;

import static org.flafka.cm.contract.SpecExamples.firstItem;
import static org.flafka.cm.contract.SpecExamples.items;
import static org.flafka.cm.contract.SpecExamples.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmTestServer.Response;
import org.flafka.cm.model.ApiCluster;
import org.junit.jupiter.api.Test;

/** The proxy the CM emulator's tests put between the client and the emulator. */
class CmValidatingProxyTest {

  private static CmClient clientThrough(CmValidatingProxy proxy) {
    return CmClient.connect(
        CmClientConfig.from(
            Map.of(CmClientConfig.URL, proxy.url()),
            Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "pw")));
  }

  @Test
  void passesAConformingConversationThrough() {
    ObjectNode cluster = with(firstItem("GET", "/clusters", 200), "name", "c1");
    try (CmTestServer target =
            CmTestServer.http("admin", "pw")
                .on("GET", "/clusters", r -> Response.json(200, items(cluster), Strictness.SPEC));
        CmValidatingProxy proxy = new CmValidatingProxy(target.url(), Strictness.SPEC)) {
      List<ApiCluster> clusters = clientThrough(proxy).clusters();
      assertEquals("c1", clusters.get(0).name());
      proxy.assertConforms();
      target.assertConforms();
    }
  }

  @Test
  void reportsAResponseTheSpecDoesNotAllow() {
    // an emulator bug: roleState outside the enum, and a property v32 does not declare
    ObjectNode role = firstItem("GET", "/clusters/{clusterName}/services/{serviceName}/roles", 200);
    with(role, "roleState", "RUNNING");
    role.put("pid", 4242);
    try (CmTestServer target =
            CmTestServer.http("admin", "pw")
                .on(
                    "GET",
                    "/clusters/{clusterName}/services/{serviceName}/roles",
                    r -> Response.json(200, items(role), Strictness.SPEC));
        CmValidatingProxy proxy = new CmValidatingProxy(target.url(), Strictness.DECLARED_ONLY)) {
      clientThrough(proxy).roles("c1", "flume");
      List<String> violations = proxy.violations();
      assertEquals(2, violations.size(), CmSpecValidator.report(violations));
      assertTrue(violations.get(0).contains("$.items[0].roleState"), violations.get(0));
      assertTrue(violations.get(1).contains("property 'pid' is not declared"), violations.get(1));
      AssertionError failed = assertThrows(AssertionError.class, proxy::assertConforms);
      assertTrue(
          failed.getMessage().startsWith("exchanges that break the CM v32 spec:"),
          failed.getMessage());
    }
  }
}
