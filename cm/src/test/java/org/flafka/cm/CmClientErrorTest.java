package org.flafka.cm;

import static org.flafka.cm.FakeCm.CLUSTER;
import static org.flafka.cm.FakeCm.PASSWORD;
import static org.flafka.cm.FakeCm.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flafka.cm.CmClient.ConfigView;
import org.flafka.cm.CmException.Reason;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmTestServer;
import org.flafka.cm.contract.CmTestServer.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each mistake a user can make ends in one CmException whose message says what to fix, never the
 * password.
 */
class CmClientErrorTest {
  private static final String GROUP_CONFIG =
      "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config";

  private final List<CmTestServer> servers = new ArrayList<>();

  @AfterEach
  void everyExchangeConformsToTheSpec() {
    for (CmTestServer server : servers) {
      server.close();
      server.assertConforms();
    }
  }

  private CmTestServer server() {
    CmTestServer server = FakeCm.withCluster(FakeCm.server());
    servers.add(server);
    return server;
  }

  private static CmException failure(
      Reason reason, org.junit.jupiter.api.function.Executable call) {
    CmException e = assertThrows(CmException.class, call);
    assertEquals(reason, e.reason(), e.getMessage());
    assertFalse(
        e.getMessage().contains(PASSWORD), "the message shows the password: " + e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "not one line: " + e.getMessage());
    return e;
  }

  @Test
  void connectionRefused() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    CmException e =
        failure(Reason.UNREACHABLE, () -> CmClient.connect(config("http://127.0.0.1:" + port)));
    assertEquals(
        "cannot connect to Cloudera Manager at http://127.0.0.1:"
            + port
            + " (connection refused): check "
            + "--cm-url (CM listens on 7180 for HTTP, 7183 for HTTPS)",
        e.getMessage());
  }

  @Test
  void unknownHost() {
    CmException e =
        failure(
            Reason.UNREACHABLE, () -> CmClient.connect(config("https://cm.nosuch.invalid:7183")));
    assertEquals(
        "cannot resolve host 'cm.nosuch.invalid' of --cm-url https://cm.nosuch.invalid:7183: check the "
            + "host name",
        e.getMessage());
  }

  @Test
  void aServerThatNeverAnswersTimesOut() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket connection = silent.accept()) {
                  // hold the connection open, say nothing
                  connection.getInputStream().read(new byte[512]);
                  Thread.sleep(5_000);
                } catch (IOException | InterruptedException done) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String url = "http://127.0.0.1:" + silent.getLocalPort();
      CmException e =
          failure(
              Reason.UNREACHABLE,
              () -> CmClient.connect(config(url, CmClientConfig.REQUEST_TIMEOUT_MS, "300")));
      assertEquals(
          "Cloudera Manager at "
              + url
              + " did not answer /api/version within 300 ms: check that it is "
              + "healthy, or raise --cm-request-timeout-ms",
          e.getMessage());
      acceptor.interrupt();
    }
  }

  @Test
  void wrongPassword() {
    CmTestServer server = server();
    CmClientConfig wrong =
        CmClientConfig.from(
            Map.of(CmClientConfig.URL, server.url()),
            Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "not-" + PASSWORD));
    CmException e = failure(Reason.UNAUTHORIZED, () -> CmClient.connect(wrong));
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " rejected user 'admin' (HTTP 401): check --cm-user / "
            + "FLAFKA_CM_PASSWORD",
        e.getMessage());
    assertFalse(e.getMessage().contains("not-" + PASSWORD));
  }

  @Test
  void wrongPasswordFromAFileNamesTheFile(@TempDir Path dir) throws IOException {
    CmTestServer server = server();
    Path file = dir.resolve("cm.pw");
    Files.writeString(file, "wrong-one\n");
    CmClientConfig wrong =
        CmClientConfig.from(
            Map.of(
                CmClientConfig.URL,
                server.url(),
                CmClientConfig.USER,
                "sweeper",
                CmClientConfig.PASSWORD_FILE,
                file.toString()),
            Map.of());
    CmException e = failure(Reason.UNAUTHORIZED, () -> CmClient.connect(wrong));
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " rejected user 'sweeper' (HTTP 401): check --cm-user / "
            + "--cm-password-file "
            + file,
        e.getMessage());
  }

  @Test
  void forbiddenWrite() {
    CmTestServer server = server().on("PUT", GROUP_CONFIG, r -> Response.error(403, "Forbidden"));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e =
        failure(
            Reason.FORBIDDEN,
            () ->
                client.updateFlumeAgentConfig(
                    CLUSTER, "flume", "flume-AGENT-edge", "tier1", "tier1.sources = r1\n", null));
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " refused user 'admin' (HTTP 403) PUT "
            + "/api/v32/clusters/Cluster%201/services/flume/roleConfigGroups/flume-AGENT-edge/config: give the user "
            + "a CM role that may change configuration and restart roles (e.g. Configurator, Cluster Administrator "
            + "or Full Administrator)",
        e.getMessage());
  }

  @Test
  void missingClusterListsTheClustersThatExist() {
    CmTestServer server =
        server()
            .on(
                "GET",
                "/clusters/{clusterName}/services/{serviceName}/roleConfigGroups/{roleConfigGroupName}/config",
                r -> Response.error(404, "Cluster 'Prod' not found."));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e =
        failure(
            Reason.NOT_FOUND,
            () ->
                client.roleConfigGroupConfig(
                    "Prod", "flume", "flume-AGENT-BASE", ConfigView.SUMMARY));
    assertEquals(
        "cluster 'Prod' not found in Cloudera Manager at "
            + server.url()
            + "; clusters there: Cluster 1",
        e.getMessage());
    CmException named = failure(Reason.NOT_FOUND, () -> client.findCluster("Prod"));
    assertEquals(e.getMessage(), named.getMessage());
  }

  @Test
  void missingServiceListsTheServicesThatExist() {
    CmTestServer server =
        server()
            .on(
                "GET",
                "/clusters/{clusterName}/services/{serviceName}/roles",
                r -> Response.error(404, "Service 'flume1' not found in cluster 'Cluster 1'."));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e = failure(Reason.NOT_FOUND, () -> client.roles(CLUSTER, "flume1"));
    assertEquals(
        "service 'flume1' not found in cluster 'Cluster 1'; services there: flume (FLUME), hdfs (HDFS), "
            + "kafka (KAFKA)",
        e.getMessage());
  }

  @Test
  void missingRoleConfigGroupListsTheGroupsThatExist() {
    CmTestServer server =
        server().on("PUT", GROUP_CONFIG, r -> Response.error(404, "Role config group not found"));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e =
        failure(
            Reason.NOT_FOUND,
            () ->
                client.updateFlumeAgentConfig(
                    CLUSTER, "flume", "flume-AGENT-1", "tier1", "tier1.sources = r1\n", null));
    assertEquals(
        "role config group 'flume-AGENT-1' not found in service 'flume' of cluster 'Cluster 1'; groups "
            + "there: flume-AGENT-BASE (AGENT, base), flume-AGENT-edge (AGENT)",
        e.getMessage());
  }

  @Test
  void missingRolesAreNamed() {
    CmTestServer server =
        server()
            .on(
                "POST",
                "/clusters/{clusterName}/services/{serviceName}/roleCommands/restart",
                r -> Response.error(404, "Role not found"));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e =
        failure(
            Reason.NOT_FOUND,
            () ->
                client.restartRoles(
                    CLUSTER,
                    "flume",
                    List.of("flume-AGENT-a1", "flume-AGENT-x9"),
                    CommandProgress.NONE));
    assertEquals(
        "role(s) [flume-AGENT-x9] not found in service 'flume' of cluster 'Cluster 1'; roles there: "
            + "flume-AGENT-a1, flume-AGENT-b2, flume-AGENT-c3",
        e.getMessage());
  }

  @Test
  void aNotJsonAnswerPointsAtTheUrl() {
    CmTestServer server = server();
    server.on(
        "GET",
        "/clusters",
        r ->
            new Response(
                200,
                "text/html",
                "<html><head><title>Knox login</title></head></html>",
                Strictness.SPEC));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e = assertThrows(CmException.class, client::clusters);
    assertEquals(Reason.UNEXPECTED_RESPONSE, e.reason());
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " answered GET /api/v32/clusters with text/html that is "
            + "not JSON ('<html><head><title>Knox login</title></head></html>'): is --cm-url the Cloudera Manager "
            + "server itself (not a login page or proxy)?",
        e.getMessage());
    // the stand-in's answer broke the spec on purpose: the validator must have said so
    assertEquals(1, server.violations().size(), server.violations().toString());
    servers.remove(server);
    server.close();
  }

  @Test
  void aServerErrorCarriesCmsMessage() {
    CmTestServer server =
        server()
            .on(
                "GET",
                "/timeseries",
                r ->
                    Response.error(
                        500, "Error in tsquery: unknown metric 'event_drain_sucess_rate'"));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e =
        failure(
            Reason.UNEXPECTED_RESPONSE,
            () ->
                client.queryTimeSeries(
                    TimeSeriesQuery.raw("SELECT event_drain_sucess_rate", null, null)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cloudera Manager at "
                    + server.url()
                    + " answered GET /api/v32/timeseries "
                    + "with HTTP 500: Error in tsquery: unknown metric 'event_drain_sucess_rate'"),
        e.getMessage());
  }

  @Test
  void aCommandThatIsNotThere() {
    CmTestServer server =
        server().on("GET", "/commands/{commandId}", r -> Response.error(404, "no command"));
    CmClient client = CmClient.connect(config(server.url()));
    CmException e = failure(Reason.NOT_FOUND, () -> client.command(77));
    assertEquals("command 77 not found in Cloudera Manager at " + server.url(), e.getMessage());
  }

  // ---------------------------------------------------------------------------------------------------------
  // TLS

  @TempDir static Path certificates;

  /**
   * A certificate for 127.0.0.1 and localhost, and one for another host; made once (keytool takes a
   * second).
   */
  private static TestTls forLoopback;

  private static TestTls forOtherHost;

  @BeforeAll
  static void makeCertificates() throws Exception {
    forLoopback =
        TestTls.create(
            Files.createDirectory(certificates.resolve("loopback")), "dns:localhost,ip:127.0.0.1");
    forOtherHost =
        TestTls.create(Files.createDirectory(certificates.resolve("other")), "dns:cm.example.com");
  }

  private CmTestServer tlsServer(TestTls tls) throws Exception {
    CmTestServer server =
        FakeCm.withCluster(CmTestServer.https(tls.serverContext(), FakeCm.USER, PASSWORD));
    servers.add(server);
    return server;
  }

  @Test
  void trustsCmThroughTheGivenTrustStore() throws Exception {
    TestTls tls = forLoopback;
    CmTestServer server = tlsServer(tls);
    CmClient client =
        CmClient.connect(
            config(server.url(), CmClientConfig.TRUSTSTORE_PATH, tls.trustStore.toString()));
    assertEquals(List.of(CLUSTER), client.clusters().stream().map(c -> c.name()).toList());
  }

  @Test
  void anUntrustedCertificateSaysHowToTrustIt() throws Exception {
    CmTestServer server = tlsServer(forLoopback);
    CmException e = failure(Reason.TLS, () -> CmClient.connect(config(server.url())));
    assertEquals(
        "Cloudera Manager at "
            + server.url()
            + " presented a TLS certificate that the JVM's default "
            + "trust store does not trust: put the CA certificate that signed CM's certificate in a trust store and "
            + "give it with --cm-truststore-path (password in the variable named by --cm-truststore-password-env)",
        e.getMessage());
  }

  @Test
  void aCertificateForAnotherHostIsNamed() throws Exception {
    TestTls tls = forOtherHost;
    CmTestServer server = tlsServer(tls);
    CmException e =
        failure(
            Reason.TLS,
            () ->
                CmClient.connect(
                    config(
                        server.url(), CmClientConfig.TRUSTSTORE_PATH, tls.trustStore.toString())));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cloudera Manager at "
                    + server.url()
                    + " presented a TLS certificate "
                    + "for another host (No subject alternative names"),
        e.getMessage());
    assertTrue(
        e.getMessage().endsWith("): use the host name the certificate names in --cm-url"),
        e.getMessage());
  }

  @Test
  void httpsAgainstAPlainHttpPort() throws IOException {
    // a plain-HTTP server (as CM's Jetty on 7180) answers a TLS ClientHello with an HTTP 400
    try (ServerSocket plain = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread responder =
          new Thread(
              () -> {
                try (Socket socket = plain.accept()) {
                  socket.getInputStream().read(new byte[512]);
                  socket
                      .getOutputStream()
                      .write(
                          ("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n"
                                  + "Connection: close\r\n\r\n")
                              .getBytes(StandardCharsets.US_ASCII));
                } catch (IOException done) {
                  // the client hung up
                }
              });
      responder.setDaemon(true);
      responder.start();
      String url = "https://127.0.0.1:" + plain.getLocalPort();
      CmException e = failure(Reason.TLS, () -> CmClient.connect(config(url)));
      assertEquals(
          "Cloudera Manager at "
              + url
              + " does not speak TLS on that port: use http:// for a "
              + "plain-HTTP port (7180) or the TLS port (7183) in --cm-url",
          e.getMessage());
    }
  }

  @Test
  void aHandshakeThatNeverCompletesTimesOut() throws IOException {
    try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket connection = mute.accept()) {
                  // hold the connection open, say nothing
                  connection.getInputStream().read(new byte[512]);
                  Thread.sleep(5_000);
                } catch (IOException | InterruptedException done) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String url = "https://127.0.0.1:" + mute.getLocalPort();
      CmException e =
          failure(
              Reason.UNREACHABLE,
              () ->
                  CmClient.connect(
                      config(
                          url,
                          CmClientConfig.CONNECT_TIMEOUT_MS,
                          "300",
                          CmClientConfig.REQUEST_TIMEOUT_MS,
                          "300")));
      assertEquals(
          "Cloudera Manager at "
              + url
              + " did not complete a connection (TCP and TLS handshake) in "
              + "time: check --cm-url (host, port, firewall; https:// needs CM's TLS port, 7183) or raise "
              + "--cm-connect-timeout-ms (now 300 ms)",
          e.getMessage());
      acceptor.interrupt();
    }
  }

  @Test
  void aTrustStoreThatCannotBeOpened(@TempDir Path dir) throws Exception {
    TestTls tls = forLoopback;
    CmTestServer server = tlsServer(tls);
    Map<String, String> settings =
        Map.of(
            CmClientConfig.URL,
            server.url(),
            CmClientConfig.TRUSTSTORE_PATH,
            tls.trustStore.toString());
    CmException wrongPassword =
        failure(
            Reason.INVALID_CONFIG,
            () ->
                CmClient.connect(
                    CmClientConfig.from(
                        settings,
                        Map.of(
                            CmClientConfig.DEFAULT_PASSWORD_ENV,
                            PASSWORD,
                            CmClientConfig.DEFAULT_TRUSTSTORE_PASSWORD_ENV,
                            "wrong"))));
    assertTrue(
        wrongPassword
            .getMessage()
            .startsWith("--cm-truststore-path " + tls.trustStore + " cannot be opened as PKCS12 ("),
        wrongPassword.getMessage());
    assertTrue(
        wrongPassword
            .getMessage()
            .endsWith(
                "): check the password in the variable named by " + "--cm-truststore-password-env"),
        wrongPassword.getMessage());
    Path missing = dir.resolve("nope.jks");
    CmException absent =
        failure(
            Reason.INVALID_CONFIG,
            () ->
                CmClient.connect(
                    config(server.url(), CmClientConfig.TRUSTSTORE_PATH, missing.toString())));
    assertEquals("--cm-truststore-path " + missing + " does not exist", absent.getMessage());
  }
}
