package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.flafka.cli.SecureKafkaPipelineTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flafka.contract.HdfsKerberos;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.Kdc;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecureHdfs;
import org.flafka.stack.SecureKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents outlive their Kerberos tickets: with the KDC issuing tickets that live {@link #LIFETIME},
 * an edge (Kafka sink over SASL_SSL with GSSAPI) and a core (Kafka channel over GSSAPI, HDFS sink
 * logging in to a Kerberized HDFS from its keytab) carry a steady load for more than two ticket
 * lifetimes, and every event arrives (audit: 0 missing) with no login error in either log.
 *
 * <p>Expired tickets must matter for this to prove anything. A client's own Kerberos code uses only
 * current tickets, so an agent whose login was not renewed cannot get a service ticket once its
 * first ticket has expired. The broker asks every client to log in again on its open connections
 * every {@link #REAUTHENTICATION} ({@code connections.max.reauth.ms}), so the Kafka clients need
 * new service tickets all along; the HDFS client's idle connection to the NameNode closes after 10
 * s and reconnects at least every 30 s (the lease renewal) with a new service ticket.
 *
 * <p>The lifetime is as short as both renewals allow with their default settings: Kafka's refresh
 * thread and Hadoop's {@code checkTGTAndReloginFromKeytab} log in again after 80% of the ticket's
 * life but not sooner than 60 s after the last login ({@code
 * sasl.kerberos.min.time.before.relogin}, {@code hadoop.kerberos.min.seconds.before.relogin}); with
 * 60 s or less Kafka's thread would log in again at once, over and over. Every ticket the KDC
 * issues during this class lives that short (the broker's too); the default is put back at the end.
 *
 * <p>The broker is the class's own, started after the lifetime is shortened: no other class should
 * have its clients log in again every {@link #REAUTHENTICATION}, so the module's {@link
 * SharedSecureStack} does not ask for it. HDFS is the shared one: what it proves here is the core's
 * login, which the NameNode's own (made before the lifetime is shortened) does not change.
 */
@Tag("e2e")
@ExtendWith(SharedSecureStack.Extension.class)
@Order(SharedSecureStack.LAST)
class KerberosTicketRenewalTest {
  private static final Duration LIFETIME = Duration.ofSeconds(75);
  private static final Duration REAUTHENTICATION = Duration.ofSeconds(15);
  private static final int RATE = 10;

  /** At {@link #RATE}, the load lasts about 160 s: past the first tickets' and the second's end. */
  private static final int EVENTS = 1600;

  private static final String EDGE_KAFKA_PRINCIPAL = "flafka-edge-renew/localhost";
  private static final String CORE_KAFKA_PRINCIPAL = "flafka-core-renew/localhost";
  private static final String CORE_HDFS_PRINCIPAL = "flafka-core/" + HdfsKerberos.localHostName();
  private static final String AUDIT_PRINCIPAL = "flafka-audit";
  private static final String DATA_DIR = "/renewal";
  private static final String TOPIC = "renewal";

  /**
   * What must not appear while the tickets are renewed: an ERROR line about a login, the HDFS
   * sink's warning that it could not renew, or the JDK's word that a client had no current ticket
   * (which Hadoop's client logs at WARN, e.g. when its lease renewal cannot reconnect). Kafka's
   * WARN that it moved its refresh to 60 s after the last login is expected with tickets this
   * short.
   */
  private static final Pattern LOGIN_TROUBLE =
      Pattern.compile(
          "ERROR.*(GSS|[Kk]erberos|[Ll]ogin|[Aa]uthentication|TGT|credentials)"
              + "|could not renew the Kerberos ticket"
              + "|No valid credentials provided|Failed to find any Kerberos tgt");

  @TempDir static Path tmp;
  private static SecureKafka kafka;
  private static SecureHdfs hdfs;
  private static AgentRuntime runtime;

  @BeforeAll
  static void start(SharedSecureStack stack) {
    // before the lifetime is shortened: the shared HDFS's servers, if they start here, log in for
    // the default lifetime and serve the classes after this one
    hdfs = stack.hdfs();
    Kdc.jvmWide().setMaximumTicketLifetime(LIFETIME);
    kafka =
        SecureKafka.start(
            tmp.resolve("kafka"),
            Map.of("connections.max.reauth.ms", Long.toString(REAUTHENTICATION.toMillis())));
    runtime = OurPlugins.addTo(AgentRuntime.locate());
    hdfs.mkdirsOwnedBy(DATA_DIR, "flafka-core");
  }

  @AfterAll
  static void stop() {
    try {
      if (kafka != null) {
        kafka.close();
      }
    } finally {
      Kdc.jvmWide().setMaximumTicketLifetime(Kdc.DEFAULT_MAXIMUM_TICKET_LIFETIME);
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void agentsKeepDeliveringAcrossSeveralTicketLifetimes() throws Exception {
    kafka.createTopic(TOPIC, 2);
    Path dir = Files.createDirectories(tmp.resolve(TOPIC));
    Path edgeKeytab = kafka.kdc().createPrincipal(EDGE_KAFKA_PRINCIPAL);
    Path coreKafkaKeytab = kafka.kdc().createPrincipal(CORE_KAFKA_PRINCIPAL);
    Path coreHdfsKeytab = kafka.kdc().createPrincipal(CORE_HDFS_PRINCIPAL);
    Path auditKeytab = kafka.kdc().createPrincipal(AUDIT_PRINCIPAL);
    Path manifest = dir.resolve("sent.json");
    String root = hdfs.uri() + DATA_DIR + "/" + TOPIC;

    long started = System.nanoTime();
    try (AgentProcess core = core(root, coreKafkaKeytab, coreHdfsKeytab, dir.resolve("core"));
        AgentProcess edge = edge(edgeKeytab, dir.resolve("edge"))) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      CompletableFuture<FlafkaRun> load = CompletableFuture.supplyAsync(() -> send(port, manifest));

      // Past the end of the agents' first tickets (and one reauthentication more), the core is
      // still writing what the edge sends.
      sleepUntil(started, LIFETIME.plus(REAUTHENTICATION).plusSeconds(5));
      long afterFirstExpiry = core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount");
      sleepUntil(started, LIFETIME.multipliedBy(2).minusSeconds(5));
      long later = core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount");
      assertTrue(
          later > afterFirstExpiry,
          "nothing reached HDFS between "
              + afterFirstExpiry
              + " events and "
              + later
              + " after the first tickets expired");

      FlafkaRun sent = load.get();
      assertEquals(0, sent.exitCode(), sent.err());
      assertTrue(
          Duration.ofNanos(System.nanoTime() - started).compareTo(LIFETIME.multipliedBy(2)) > 0,
          "the load ended before the second tickets expired; send more events");
      await(core, "SINK.hdfs0", "EventDrainSuccessCount", EVENTS);
      core.stop();

      for (AgentProcess agent : List.of(edge, core)) {
        List<String> trouble =
            Files.readAllLines(agent.log()).stream()
                .filter(line -> LOGIN_TROUBLE.matcher(line).find())
                .collect(Collectors.toList());
        assertEquals(List.of(), trouble, agent.name() + " logged trouble with its login");
      }
      // Kafka's refresh thread says when it logs in again: the tickets did run out and were
      // renewed, rather than the test ending before they could.
      assertTrue(
          Files.readString(edge.log()).contains("Initiating re-login for " + EDGE_KAFKA_PRINCIPAL),
          "the edge's Kafka login was never renewed; its log: " + edge.log());
    }

    FlafkaRun hdfsAudit =
        flafka(
            "audit",
            "--manifest",
            manifest.toString(),
            "--path",
            root,
            "--hdfs-config",
            hdfsClientConfig().toString(),
            "--hdfs-principal",
            AUDIT_PRINCIPAL,
            "--hdfs-keytab",
            auditKeytab.toString());
    assertEquals(0, hdfsAudit.exitCode(), hdfsAudit.out() + hdfsAudit.err());
    assertTrue(hdfsAudit.out().contains("missing"), hdfsAudit.out());
  }

  private static void sleepUntil(long startedNanos, Duration sinceStart)
      throws InterruptedException {
    long wait = startedNanos + sinceStart.toNanos() - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private static FlafkaRun send(int port, Path manifest) {
    return flafka(
        "load",
        "--target",
        "127.0.0.1:" + port,
        "--protocol",
        "tcp",
        "--devices",
        "4",
        "--rate",
        Integer.toString(RATE),
        "--count",
        Integer.toString(EVENTS),
        "--size",
        "200-600",
        "--seed",
        "30",
        "--manifest",
        manifest.toString(),
        "--quiet");
  }

  private static AgentProcess core(String root, Path kafkaKeytab, Path hdfsKeytab, Path dir)
      throws IOException {
    Map<String, Object> vars = gssapi(CORE_KAFKA_PRINCIPAL, kafkaKeytab, dir);
    vars.put("kafka_topic", TOPIC);
    vars.put("core_consumer_group", "core-" + TOPIC);
    vars.put("core_hdfs_sinks", 1);
    vars.put("core_hdfs_root", root);
    vars.put("core_data_dir", dir.resolve("data").toString());
    vars.put("core_hdfs_batch_size", 100);
    vars.put("hdfs_kerberos_principal", "flafka-core/_HOST@" + Kdc.REALM);
    vars.put("hdfs_kerberos_keytab", hdfsKeytab.toString());
    vars.put("hdfs_namenode_principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    vars.put("hdfs_data_transfer_protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    return AgentProcess.builder("core", AgentTemplates.render(Tier.CORE, vars), dir)
        .runtime(runtime)
        .jvmOptions(kafka.jvmOptions())
        .start();
  }

  private static AgentProcess edge(Path keytab, Path dir) throws IOException {
    Map<String, Object> vars = gssapi(EDGE_KAFKA_PRINCIPAL, keytab, dir);
    vars.put("kafka_topic", TOPIC);
    vars.put("edge_listeners", List.of("tcp"));
    vars.put("edge_bind_address", "127.0.0.1");
    vars.put("edge_tcp_port", 0);
    vars.put("edge_kafka_sinks", 1);
    vars.put("edge_data_dir", dir.resolve("data").toString());
    return AgentProcess.builder("edge", AgentTemplates.render(Tier.EDGE, vars), dir)
        .runtime(runtime)
        .jvmOptions(kafka.jvmOptions())
        .start();
  }

  /** An agent's Kafka settings for GSSAPI over SASL_SSL, its trust store password in a file. */
  private static Map<String, Object> gssapi(String principal, Path keytab, Path dir)
      throws IOException {
    Files.createDirectories(dir);
    Path secrets = dir.resolve("kafka-secrets.properties");
    Files.writeString(
        secrets, "ssl.truststore.password=" + kafka.ca().trustStore().password() + "\n");
    Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("r--------"));
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("kafka_bootstrap_servers", kafka.saslSslBootstrapServers());
    vars.put("kafka_security_protocol", "SASL_SSL");
    vars.put("kafka_sasl_mechanism", "GSSAPI");
    vars.put("kafka_kerberos_principal", Kdc.qualified(principal));
    vars.put("kafka_kerberos_keytab", keytab.toString());
    vars.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
    vars.put("kafka_secrets_file", secrets.toString());
    return vars;
  }

  private static Path hdfsClientConfig() throws IOException {
    Properties client = new Properties();
    client.setProperty(
        "dfs.namenode.kerberos.principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    client.setProperty("dfs.data.transfer.protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    Path file = tmp.resolve("hdfs-client.properties");
    try (var out = Files.newBufferedWriter(file)) {
      client.store(out, null);
    }
    return file;
  }
}
