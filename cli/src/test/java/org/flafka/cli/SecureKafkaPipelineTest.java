package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.CertificateAuthority;
import org.flafka.stack.Hdfs;
import org.flafka.stack.Kdc;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecureKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline on a secure cluster, with real parts: syslog from {@code flafka load} → an
 * edge agent (process) rendered from the template → Kafka over SASL_SSL (GSSAPI or SCRAM-SHA-512)
 * or SSL with client certificates → a core agent (process) → HDFS, then {@code flafka audit} over
 * HDFS (byte for byte: every body's mark and checksum) and over the secure topic with {@code
 * --kafka-config}. Each agent's passwords live only in its secrets file; the rendered
 * configurations hold none.
 *
 * <p>The broker is the module's {@link SharedSecureStack}'s, each test on topics and users of its
 * own; HDFS is a plain one of the class's own.
 */
@Tag("e2e")
@ExtendWith(SharedSecureStack.Extension.class)
class SecureKafkaPipelineTest {
  private static final int EVENTS = 3000;

  /** A password given as a value rather than a ${provider:file:key} reference. */
  private static final Pattern PASSWORD_VALUE = Pattern.compile("password\"?\\s*=\\s*\"?[^$\"\\s]");

  @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.NEVER)
  static Path tmp;

  private static SecureKafka kafka;
  private static Hdfs hdfs;
  private static AgentRuntime runtime;

  @BeforeAll
  static void start(SharedSecureStack stack) {
    kafka = stack.kafka();
    hdfs = Hdfs.start(tmp.resolve("hdfs"));
    runtime = OurPlugins.addTo(AgentRuntime.locate());
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void kerberosAgentsCarryEveryEventByteForByteOverSaslSsl() throws Exception {
    Path edgeKeytab = kafka.kdc().createPrincipal("flafka-edge/localhost");
    Path coreKeytab = kafka.kdc().createPrincipal("flafka-core/localhost");
    Path edgeSecrets = secrets("edge-gssapi", truststorePassword());
    Path coreSecrets = secrets("core-gssapi", truststorePassword());
    Map<String, Object> edge = saslSsl(edgeSecrets);
    edge.put("kafka_kerberos_principal", Kdc.qualified("flafka-edge/localhost"));
    edge.put("kafka_kerberos_keytab", edgeKeytab.toString());
    Map<String, Object> core = saslSsl(coreSecrets);
    core.put("kafka_kerberos_principal", Kdc.qualified("flafka-core/localhost"));
    core.put("kafka_kerberos_keytab", coreKeytab.toString());

    Path clientConfig =
        clientConfig(
            "audit-gssapi", kafka.gssapiClient("audit", kafka.kdc().createPrincipal("audit")));
    pipeline("gssapi", edge, core, clientConfig);
  }

  @Test
  void scramAgentsCarryEveryEventByteForByteOverSaslSsl() throws Exception {
    kafka.addScramUser("edge-paris", "edge-scram-password");
    kafka.addScramUser("core-paris", "core-scram-password");
    Map<String, Object> edge =
        saslSsl(
            secrets("edge-scram", truststorePassword() + "sasl.password=edge-scram-password\n"));
    edge.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    edge.put("kafka_sasl_username", "edge-paris");
    Map<String, Object> core =
        saslSsl(
            secrets("core-scram", truststorePassword() + "sasl.password=core-scram-password\n"));
    core.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    core.put("kafka_sasl_username", "core-paris");

    pipeline(
        "scram",
        edge,
        core,
        clientConfig("audit-scram", kafka.scramClient("core-paris", "core-scram-password")));
  }

  @Test
  void agentsWithClientCertificatesCarryEveryEventByteForByteOverSsl() throws Exception {
    CertificateAuthority.Store edgeStore = kafka.ca().issue("flafka-edge");
    CertificateAuthority.Store coreStore = kafka.ca().issue("flafka-core");
    Map<String, Object> edge =
        ssl(secrets("edge-ssl", truststorePassword() + keystorePasswords(edgeStore)), edgeStore);
    Map<String, Object> core =
        ssl(secrets("core-ssl", truststorePassword() + keystorePasswords(coreStore)), coreStore);

    pipeline("mtls", edge, core, clientConfig("audit-ssl", kafka.sslClient(coreStore)));
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void
      anEdgeWithAWrongScramPasswordKeepsEveryEventAndDeliversThemAllOnceThePasswordIsFixedWithoutARestart()
          throws Exception {
    String topic = "fixed-later";
    kafka.createTopic(topic, 2);
    kafka.addScramUser("edge-lyon", "the-password-the-cluster-has");
    Path secrets =
        secrets("edge-lyon", truststorePassword() + "sasl.password=the-agents-password\n");
    Map<String, Object> edgeVars = saslSsl(secrets);
    edgeVars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    edgeVars.put("kafka_sasl_username", "edge-lyon");
    edgeVars.put("kafka_topic", topic);
    edgeVars.put("edge_listeners", List.of("tcp"));
    edgeVars.put("edge_bind_address", "127.0.0.1");
    edgeVars.put("edge_tcp_port", 0);
    edgeVars.put("edge_kafka_sinks", 1);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    // Its own disk buffer: the default /var/lib/flafka/edge kept the events of the runs before
    edgeVars.put("edge_data_dir", dir.resolve("edge-data").toString());
    Path manifest = dir.resolve("sent.json");
    String properties = AgentTemplates.render(Tier.EDGE, edgeVars);
    try (AgentProcess edge =
        AgentProcess.builder("edge", properties, dir.resolve("edge"))
            .runtime(runtime)
            .jvmOptions(kafka.jvmOptions())
            .start()) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      sendFiveHundred(port, "31", manifest);
      await(edge, "CHANNEL.ch0", "EventPutSuccessCount", 500);
      // Kafka 4 clients rebootstrap after a failed login rather than fail the send: Kafka's own
      // ERROR line says the login failed, the sink's line names the setting to fix
      awaitLog(
          edge,
          "failed authentication due to: Authentication failed during authentication"
              + " due to invalid credentials with SASL mechanism SCRAM-SHA-512");
      awaitLog(edge, "setting: sasl.jaas.config username/password");
      List<String> named =
          Files.readAllLines(edge.log()).stream()
              .filter(line -> line.contains("setting: sasl.jaas.config"))
              .toList();
      assertEquals(1, named.size(), "one line, not one per retry: " + named);
      String line = named.get(0);
      assertTrue(line.contains(" ERROR "), line);
      assertTrue(
          line.contains(
              "Kafka record sink kafka0: Kafka refused the SCRAM-SHA-512 credentials of user"
                  + " 'edge-lyon'; setting: sasl.jaas.config username/password (template:"
                  + " kafka_sasl_username, sasl.password in kafka_secrets_file). Fix: "),
          line);
      assertFalse(
          Files.readString(edge.log()).contains("Unable to deliver event"),
          "no stack trace from Flume's sink runner");
      assertEquals(
          500,
          edge.metrics().counter("CHANNEL.ch0", "ChannelSize"),
          "every event waits in the channel");
      assertEquals(0, edge.metrics().counter("SINK.kafka0", "EventDrainSuccessCount"));

      Path auditConfig =
          clientConfig("audit-lyon", kafka.scramClient("edge-lyon", "the-agents-password"));
      FlafkaRun refused = auditKafka(manifest, topic, auditConfig);
      assertEquals(2, refused.exitCode(), refused.out() + refused.err());
      assertEquals(1, refused.err().strip().lines().count(), refused.err());
      assertTrue(refused.err().contains("sasl.jaas.config username/password"), refused.err());
      assertTrue(refused.err().contains("kafka_sasl_username"), refused.err());

      // While the password stays wrong no producer thread loops: the sink retires a refused
      // producer and makes the next after a growing pause. A coarse bound, which a looping
      // sender (about half a core) would break; making a producer every few seconds does not.
      Duration cpuBefore = edge.cpuTime();
      long wrongSince = System.nanoTime();
      Thread.sleep(10_000);
      double cores =
          (edge.cpuTime().minus(cpuBefore).toNanos()) / (double) (System.nanoTime() - wrongSince);
      System.out.printf(
          Locale.ROOT, "the agent used %.3f cores while the password was wrong%n", cores);
      assertTrue(
          cores < 0.25,
          String.format(
                  Locale.ROOT, "the agent used %.2f cores while the password was wrong", cores)
              + "; its log ends:\n"
              + logTail(edge));

      // the right password in the secrets file (still its owner's only), the agent left running
      Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rw-------"));
      Files.writeString(
          secrets, truststorePassword() + "sasl.password=the-password-the-cluster-has\n");
      Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("r--------"));
      await(edge, "SINK.kafka0", "EventDrainSuccessCount", 500);
      assertTrue(edge.isAlive(), "the same agent, never restarted");
      assertTrue(
          edge.metrics().counter("SINK.kafka0", "KafkaProducerReplacementCount") >= 1,
          "a new producer read the fixed secrets file");
      assertEquals(0, edge.metrics().counter("CHANNEL.ch0", "ChannelSize"));
    }
    FlafkaRun delivered =
        auditKafka(
            manifest,
            topic,
            clientConfig(
                "audit-lyon-fixed",
                kafka.scramClient("edge-lyon", "the-password-the-cluster-has")));
    assertEquals(0, delivered.exitCode(), delivered.out() + delivered.err());
    assertTrue(
        Pattern.compile("records read +500\n").matcher(delivered.out()).find(), delivered.out());
  }

  /**
   * An edge whose Kerberos principal the KDC does not know (deleted, or never created: its keytab
   * names it all the same): one ERROR line naming the principal's setting, every event kept in the
   * channel; once the principal exists and its keytab is placed again, the same agent delivers all
   * 500, none lost.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anEdgeWithAPrincipalTheKdcDoesNotKnowNamesItAndDeliversEveryEventOnceItIsKnown()
      throws Exception {
    String topic = "principal-later";
    kafka.createTopic(topic, 2);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    String principal = "flafka-edge-metz/localhost";
    Path keytab = dir.resolve("edge.keytab");
    Files.copy(kafka.kdc().createPrincipal(principal), keytab);
    kafka.kdc().deletePrincipal(principal);
    Map<String, Object> edgeVars = saslSsl(secrets("edge-metz", truststorePassword()));
    edgeVars.put("kafka_kerberos_principal", Kdc.qualified(principal));
    edgeVars.put("kafka_kerberos_keytab", keytab.toString());
    edgeVars.put("kafka_topic", topic);
    edgeVars.put("edge_listeners", List.of("tcp"));
    edgeVars.put("edge_bind_address", "127.0.0.1");
    edgeVars.put("edge_tcp_port", 0);
    edgeVars.put("edge_kafka_sinks", 1);
    edgeVars.put("edge_data_dir", dir.resolve("edge-data").toString());
    Path manifest = dir.resolve("sent.json");
    try (AgentProcess edge =
        AgentProcess.builder(
                "edge", AgentTemplates.render(Tier.EDGE, edgeVars), dir.resolve("edge"))
            .runtime(runtime)
            .jvmOptions(kafka.jvmOptions())
            .start()) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      sendFiveHundred(port, "36", manifest);
      await(edge, "CHANNEL.ch0", "EventPutSuccessCount", 500);
      awaitLog(edge, "(template: kafka_kerberos_principal");
      List<String> named =
          Files.readAllLines(edge.log()).stream()
              .filter(line -> line.contains("(template: kafka_kerberos_principal"))
              .toList();
      assertEquals(1, named.size(), "one line, not one per retry: " + named);
      assertTrue(named.get(0).contains(" ERROR "), named.get(0));
      assertTrue(named.get(0).contains("Kafka record sink kafka0: "), named.get(0));
      assertTrue(named.get(0).contains(Kdc.qualified(principal)), named.get(0));
      assertEquals(0, edge.metrics().counter("SINK.kafka0", "EventDrainSuccessCount"));

      // the principal made again and its new keytab placed, the agent left running
      Path issued = kafka.kdc().createPrincipal(principal);
      Files.setPosixFilePermissions(keytab, PosixFilePermissions.fromString("rw-------"));
      Files.copy(issued, keytab, StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(keytab, PosixFilePermissions.fromString("r--------"));
      await(edge, "SINK.kafka0", "EventDrainSuccessCount", 500);
      assertTrue(edge.isAlive(), "the same agent, never restarted");
      assertEquals(0, edge.metrics().counter("CHANNEL.ch0", "ChannelSize"));
    }
    FlafkaRun delivered =
        auditKafka(
            manifest,
            topic,
            clientConfig(
                "audit-metz",
                kafka.gssapiClient("audit-metz", kafka.kdc().createPrincipal("audit-metz"))));
    assertEquals(0, delivered.exitCode(), delivered.out() + delivered.err());
    assertTrue(
        Pattern.compile("records read +500\n").matcher(delivered.out()).find(), delivered.out());
  }

  /**
   * The edge's Kafka record channel ({@code edge_channel_type: kafka}: no sink, each put written to
   * Kafka before it commits) refused for a wrong SCRAM password: one ERROR line naming the setting
   * (the sink's words), every put refused, so the source keeps the events and stops reading its
   * sender; no producer thread loops; once the password is fixed in its secrets file the same agent
   * writes every event sent, none lost.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void
      anEdgeWithAKafkaChannelAndAWrongScramPasswordHoldsEveryEventAndWritesThemAllOnceThePasswordIsFixed()
          throws Exception {
    String topic = "channel-fixed-later";
    kafka.createTopic(topic, 2);
    kafka.addScramUser("edge-nantes", "the-password-the-cluster-has");
    Path secrets =
        secrets("edge-nantes", truststorePassword() + "sasl.password=the-agents-password\n");
    Map<String, Object> edgeVars = saslSsl(secrets);
    edgeVars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    edgeVars.put("kafka_sasl_username", "edge-nantes");
    edgeVars.put("kafka_topic", topic);
    edgeVars.put("edge_listeners", List.of("tcp"));
    edgeVars.put("edge_bind_address", "127.0.0.1");
    edgeVars.put("edge_tcp_port", 0);
    edgeVars.put("edge_channel_type", "kafka");
    edgeVars.put("edge_kafka_sinks", 1);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    edgeVars.put("edge_data_dir", dir.resolve("edge-data").toString());
    Path manifest = dir.resolve("sent.json");
    String properties = AgentTemplates.render(Tier.EDGE, edgeVars);
    assertTrue(properties.contains("org.flafka.edge.channel.KafkaRecordChannel"), properties);
    try (AgentProcess edge =
        AgentProcess.builder("edge", properties, dir.resolve("edge"))
            .runtime(runtime)
            .jvmOptions(kafka.jvmOptions())
            .start()) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      // the sender may be held back until the password is fixed: it sends on a thread of its own
      CompletableFuture<Void> sending =
          CompletableFuture.runAsync(() -> sendFiveHundred(port, "33", manifest));
      awaitLog(edge, "setting: sasl.jaas.config username/password");
      await(edge, "SOURCE.syslog_tcp", "ReadPauseCount", 1);

      // While the password stays wrong every put is refused; no producer thread loops: the
      // channel retires a refused producer and makes the next after a growing pause
      Duration cpuBefore = edge.cpuTime();
      long wrongSince = System.nanoTime();
      Thread.sleep(10_000);
      double cores =
          (edge.cpuTime().minus(cpuBefore).toNanos()) / (double) (System.nanoTime() - wrongSince);
      System.out.printf(
          Locale.ROOT,
          "the agent with a Kafka channel used %.3f cores while the password was wrong%n",
          cores);
      assertTrue(
          cores < 0.25,
          String.format(
                  Locale.ROOT, "the agent used %.2f cores while the password was wrong", cores)
              + "; its log ends:\n"
              + logTail(edge));
      List<String> named =
          Files.readAllLines(edge.log()).stream()
              .filter(line -> line.contains("setting: sasl.jaas.config"))
              .toList();
      assertEquals(1, named.size(), "one line, not one per refused put: " + named);
      String line = named.get(0);
      assertTrue(line.contains(" ERROR "), line);
      assertTrue(
          line.contains(
              "Kafka record channel ch0: Kafka refused the SCRAM-SHA-512 credentials of user"
                  + " 'edge-nantes'; setting: sasl.jaas.config username/password (template:"
                  + " kafka_sasl_username, sasl.password in kafka_secrets_file). Fix: "),
          line);
      assertTrue(line.contains("The source keeps the events of every refused put"), line);
      assertEquals(0, edge.metrics().counter("CHANNEL.ch0", "EventPutSuccessCount"));
      assertEquals(0, edge.metrics().counter("SOURCE.syslog_tcp", "ChannelFullDropCount"));

      // the right password in the secrets file (still its owner's only), the agent left running
      Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rw-------"));
      Files.writeString(
          secrets, truststorePassword() + "sasl.password=the-password-the-cluster-has\n");
      Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("r--------"));
      await(edge, "CHANNEL.ch0", "EventPutSuccessCount", 500);
      sending.get(60, TimeUnit.SECONDS);
      assertTrue(edge.isAlive(), "the same agent, never restarted");
      assertEquals(500, edge.metrics().counter("SOURCE.syslog_tcp", "EventAcceptedCount"));
      assertEquals(0, edge.metrics().counter("SOURCE.syslog_tcp", "ChannelFullDropCount"));
    }
    FlafkaRun delivered =
        auditKafka(
            manifest,
            topic,
            clientConfig(
                "audit-nantes", kafka.scramClient("edge-nantes", "the-password-the-cluster-has")));
    assertEquals(0, delivered.exitCode(), delivered.out() + delivered.err());
    assertTrue(
        Pattern.compile("records read +500\n").matcher(delivered.out()).find(), delivered.out());
  }

  /**
   * The edge's Kafka record channel names the setting for a missing keytab (its producer cannot
   * even be made: the agent starts all the same, refusing every put) and keeps every event until
   * the keytab is placed, then writes them all; and names the setting for a broker certificate its
   * trust store does not trust.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anEdgeWithAKafkaChannelNamesTheSettingForAMissingKeytabAndAnUntrustedBrokerCertificate()
      throws Exception {
    String topic = "channel-keytab";
    kafka.createTopic(topic, 2);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    Path issued = kafka.kdc().createPrincipal("flafka-edge-caen/localhost");
    Path keytab = dir.resolve("placed-later.keytab");
    Map<String, Object> vars = saslSsl(secrets("edge-caen", truststorePassword()));
    vars.put("kafka_kerberos_principal", Kdc.qualified("flafka-edge-caen/localhost"));
    vars.put("kafka_kerberos_keytab", keytab.toString());
    Path manifest = dir.resolve("sent.json");
    try (AgentProcess edge = startEdgeWithAKafkaChannel(topic, vars, dir)) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      CompletableFuture<Void> sending =
          CompletableFuture.runAsync(() -> sendFiveHundred(port, "34", manifest));
      assertEdgeChannelRefused(
          edge,
          "setting: sasl.jaas.config keyTab",
          "Kafka record channel ch0: Kerberos login failed: keytab '"
              + keytab
              + "' does not exist or is not readable by this user; setting: sasl.jaas.config keyTab"
              + " (template: kafka_kerberos_keytab). Fix: ");

      // the keytab placed as the Ansible role places it, the agent left running
      Files.copy(issued, keytab);
      Files.setPosixFilePermissions(keytab, PosixFilePermissions.fromString("r--------"));
      await(edge, "CHANNEL.ch0", "EventPutSuccessCount", 500);
      sending.get(60, TimeUnit.SECONDS);
      assertTrue(edge.isAlive(), "the same agent, never restarted");
      assertEquals(0, edge.metrics().counter("SOURCE.syslog_tcp", "ChannelFullDropCount"));
    }
    FlafkaRun delivered =
        auditKafka(
            manifest,
            topic,
            clientConfig(
                "audit-caen",
                kafka.gssapiClient("audit-caen", kafka.kdc().createPrincipal("audit-caen"))));
    assertEquals(0, delivered.exitCode(), delivered.out() + delivered.err());
    assertTrue(
        Pattern.compile("records read +500\n").matcher(delivered.out()).find(), delivered.out());

    String untrustedTopic = "channel-untrusted";
    kafka.createTopic(untrustedTopic, 1);
    Path untrustedDir = Files.createDirectories(tmp.resolve(untrustedTopic));
    CertificateAuthority other =
        CertificateAuthority.create(
            untrustedDir.resolve("other-ca"), "A CA the broker does not use");
    kafka.addScramUser("edge-brest", "edge-brest-password");
    Map<String, Object> untrusting =
        saslSsl(
            secrets(
                "edge-untrusting",
                "ssl.truststore.password="
                    + other.trustStore().password()
                    + "\nsasl.password=edge-brest-password\n"));
    untrusting.put("kafka_ssl_truststore_location", other.trustStore().path().toString());
    untrusting.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    untrusting.put("kafka_sasl_username", "edge-brest");
    try (AgentProcess edge = startEdgeWithAKafkaChannel(untrustedTopic, untrusting, untrustedDir)) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      CompletableFuture<Void> sending =
          CompletableFuture.runAsync(
              () -> sendFiveHundred(port, "35", untrustedDir.resolve("sent.json")));
      assertEdgeChannelRefused(
          edge,
          "setting: ssl.truststore.location",
          "Kafka record channel ch0: the broker's certificate is not trusted; setting:"
              + " ssl.truststore.location (template: kafka_ssl_truststore_location). Fix: ");
      sending.cancel(true);
    }
  }

  private static AgentProcess startEdgeWithAKafkaChannel(
      String topic, Map<String, Object> variables, Path dir) {
    Map<String, Object> vars = new LinkedHashMap<>(variables);
    vars.put("kafka_topic", topic);
    vars.put("edge_listeners", List.of("tcp"));
    vars.put("edge_bind_address", "127.0.0.1");
    vars.put("edge_tcp_port", 0);
    vars.put("edge_channel_type", "kafka");
    vars.put("edge_kafka_sinks", 1);
    vars.put("edge_data_dir", dir.resolve("edge-data").toString());
    return AgentProcess.builder("edge", AgentTemplates.render(Tier.EDGE, vars), dir.resolve("edge"))
        .runtime(runtime)
        .jvmOptions(kafka.jvmOptions())
        .start();
  }

  /**
   * The edge's Kafka channel logged one ERROR line holding {@code line}, found by {@code marker},
   * and has written nothing; the source has dropped nothing.
   */
  private static void assertEdgeChannelRefused(AgentProcess edge, String marker, String line)
      throws Exception {
    awaitLog(edge, marker);
    await(edge, "SOURCE.syslog_tcp", "ReadPauseCount", 1);
    List<String> named =
        Files.readAllLines(edge.log()).stream().filter(l -> l.contains(marker)).toList();
    assertEquals(1, named.size(), "one line, not one per refused put: " + named);
    assertTrue(named.get(0).contains(" ERROR "), named.get(0));
    assertTrue(named.get(0).contains(line), named.get(0));
    assertTrue(named.get(0).contains("The source keeps the events of every refused put"));
    assertEquals(0, edge.metrics().counter("CHANNEL.ch0", "EventPutSuccessCount"));
    assertEquals(0, edge.metrics().counter("SOURCE.syslog_tcp", "ChannelFullDropCount"));
  }

  /**
   * The core's Kafka channel refused for a wrong SCRAM password: one ERROR line naming the setting
   * (the edge's words), nothing read or committed, little CPU; once the password is fixed in its
   * secrets file the running core reads every event into HDFS, without a restart.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aCoreWithAWrongScramPasswordNamesTheSettingAndReadsEveryEventOnceItIsFixed()
      throws Exception {
    String topic = "core-fixed-later";
    kafka.createTopic(topic, 2);
    kafka.addScramUser("edge-rennes", "edge-rennes-password");
    kafka.addScramUser("core-rennes", "the-password-the-cluster-has");
    Path dir = Files.createDirectories(tmp.resolve(topic));
    Map<String, Object> edgeVars =
        saslSsl(
            secrets("edge-rennes", truststorePassword() + "sasl.password=edge-rennes-password\n"));
    edgeVars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    edgeVars.put("kafka_sasl_username", "edge-rennes");
    edgeVars.put("kafka_topic", topic);
    edgeVars.put("edge_listeners", List.of("tcp"));
    edgeVars.put("edge_bind_address", "127.0.0.1");
    edgeVars.put("edge_tcp_port", 0);
    edgeVars.put("edge_kafka_sinks", 1);
    edgeVars.put("edge_data_dir", dir.resolve("edge-data").toString());
    Path coreSecrets =
        secrets("core-rennes", truststorePassword() + "sasl.password=the-agents-password\n");
    Map<String, Object> coreVars = saslSsl(coreSecrets);
    coreVars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    coreVars.put("kafka_sasl_username", "core-rennes");
    coreVars.put("kafka_topic", topic);
    String group = "core-" + topic;
    coreVars.put("core_consumer_group", group);
    coreVars.put("core_hdfs_sinks", 1);
    String root = hdfs.uri() + "/" + topic;
    coreVars.put("core_hdfs_root", root);
    coreVars.put("core_data_dir", dir.resolve("core-data").toString());
    coreVars.put("core_hdfs_batch_size", 100);
    Path manifest = dir.resolve("sent.json");
    try (AgentProcess core =
            AgentProcess.builder(
                    "core", AgentTemplates.render(Tier.CORE, coreVars), dir.resolve("core"))
                .runtime(runtime)
                .jvmOptions(kafka.jvmOptions())
                .start();
        AgentProcess edge =
            AgentProcess.builder(
                    "edge", AgentTemplates.render(Tier.EDGE, edgeVars), dir.resolve("edge"))
                .runtime(runtime)
                .jvmOptions(kafka.jvmOptions())
                .start()) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      sendFiveHundred(port, "32", manifest);
      await(edge, "SINK.kafka0", "EventDrainSuccessCount", 500);
      awaitLog(core, "setting: sasl.jaas.config username/password");

      // While the password stays wrong the channel makes a new consumer after a growing pause;
      // none loops, none reads.
      Duration cpuBefore = core.cpuTime();
      long wrongSince = System.nanoTime();
      Thread.sleep(15_000);
      double cores =
          (core.cpuTime().minus(cpuBefore).toNanos()) / (double) (System.nanoTime() - wrongSince);
      System.out.printf(
          Locale.ROOT, "the core used %.3f cores while its password was wrong%n", cores);
      assertTrue(
          cores < 0.25,
          String.format(Locale.ROOT, "the core used %.2f cores while its password was wrong", cores)
              + "; its log ends:\n"
              + logTail(core));
      List<String> named =
          Files.readAllLines(core.log()).stream()
              .filter(line -> line.contains("setting: sasl.jaas.config"))
              .toList();
      assertEquals(1, named.size(), "one line, not one per new consumer: " + named);
      String line = named.get(0);
      assertTrue(line.contains(" ERROR "), line);
      assertTrue(
          line.contains(
              "Kafka refused the SCRAM-SHA-512 credentials of user 'core-rennes'; setting:"
                  + " sasl.jaas.config username/password (template: kafka_sasl_username,"
                  + " sasl.password in kafka_secrets_file). Fix: "),
          line);
      assertTrue(line.contains("retrying with a new consumer"), line);
      assertFalse(
          Files.readString(core.log()).contains("Unable to deliver event"),
          "no stack trace from Flume's sink runner");
      assertEquals(0, core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount"));
      try (Admin admin = kafka.admin()) {
        Map<?, ?> committed =
            admin
                .listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        assertTrue(
            committed.values().stream().allMatch(java.util.Objects::isNull),
            "nothing committed: " + committed);
      }

      // the right password in the secrets file (still its owner's only), the core left running
      Files.setPosixFilePermissions(coreSecrets, PosixFilePermissions.fromString("rw-------"));
      Files.writeString(
          coreSecrets, truststorePassword() + "sasl.password=the-password-the-cluster-has\n");
      Files.setPosixFilePermissions(coreSecrets, PosixFilePermissions.fromString("r--------"));
      await(core, "SINK.hdfs0", "EventDrainSuccessCount", 500);
      assertTrue(core.isAlive(), "the same agent, never restarted");
      core.stop();
    }
    FlafkaRun hdfsAudit = flafka("audit", "--manifest", manifest.toString(), "--path", root);
    assertEquals(0, hdfsAudit.exitCode(), hdfsAudit.out() + hdfsAudit.err());
  }

  /**
   * The core's Kafka channel names the setting for a missing keytab (its consumer cannot even be
   * made, and the agent starts all the same) and for a broker certificate its trust store does not
   * trust: one ERROR line each, nothing read.
   */
  @Test
  void aCoreNamesTheSettingForAMissingKeytabAndAnUntrustedBrokerCertificate() throws Exception {
    String topic = "core-refused";
    kafka.createTopic(topic, 1);
    Path dir = Files.createDirectories(tmp.resolve(topic));

    Map<String, Object> missingKeytab = saslSsl(secrets("core-no-keytab", truststorePassword()));
    missingKeytab.put("kafka_kerberos_principal", Kdc.qualified("flafka-core/localhost"));
    missingKeytab.put("kafka_kerberos_keytab", dir.resolve("nowhere.keytab").toString());
    assertCoreRefused(
        topic,
        missingKeytab,
        dir.resolve("core-keytab"),
        "Kafka record channel ch0: ",
        "Kerberos login failed: keytab '"
            + dir.resolve("nowhere.keytab")
            + "' does not exist or is not readable by this user; setting: sasl.jaas.config keyTab"
            + " (template: kafka_kerberos_keytab). Fix: ");

    CertificateAuthority other =
        CertificateAuthority.create(dir.resolve("other-ca"), "A CA the broker does not use");
    kafka.addScramUser("core-brest", "core-brest-password");
    Map<String, Object> untrusting =
        saslSsl(
            secrets(
                "core-untrusting",
                "ssl.truststore.password="
                    + other.trustStore().password()
                    + "\nsasl.password=core-brest-password\n"));
    untrusting.put("kafka_ssl_truststore_location", other.trustStore().path().toString());
    untrusting.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    untrusting.put("kafka_sasl_username", "core-brest");
    assertCoreRefused(
        topic,
        untrusting,
        dir.resolve("core-trust"),
        "Kafka record channel ch0: ",
        "the broker's certificate is not trusted; setting: ssl.truststore.location (template:"
            + " kafka_ssl_truststore_location). Fix: ");
  }

  /**
   * The core's Kafka source (with memory channels instead of Kafka channels) names the setting for
   * a wrong SCRAM password as the channel does: one ERROR line, nothing read.
   */
  @Test
  void aCoreReadingWithKafkaSourcesNamesTheSettingForAWrongPassword() throws Exception {
    String topic = "core-source-refused";
    kafka.createTopic(topic, 1);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    kafka.addScramUser("core-vannes", "the-password-the-cluster-has");
    Map<String, Object> vars =
        saslSsl(secrets("core-vannes", truststorePassword() + "sasl.password=a-wrong-one\n"));
    vars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    vars.put("kafka_sasl_username", "core-vannes");
    vars.put("core_channel_type", "memory");
    vars.put("core_kafka_sources", 1);
    assertCoreRefused(
        topic,
        vars,
        dir.resolve("core"),
        "Kafka record source kafka0: ",
        "Kafka refused the SCRAM-SHA-512 credentials of user 'core-vannes'; setting:"
            + " sasl.jaas.config username/password (template: kafka_sasl_username, sasl.password in"
            + " kafka_secrets_file). Fix: ");
  }

  /**
   * A core started with {@code variables} logs {@code line} once, as an ERROR of {@code component},
   * and reads nothing.
   */
  /** Sends 500 events from 3 devices over TCP to {@code port}, recorded in {@code manifest}. */
  private static void sendFiveHundred(int port, String seed, Path manifest) {
    FlafkaRun load =
        flafka(
            "load",
            "--target",
            "127.0.0.1:" + port,
            "--protocol",
            "tcp",
            "--devices",
            "3",
            "--count",
            "500",
            "--seed",
            seed,
            "--manifest",
            manifest.toString(),
            "--quiet");
    assertEquals(0, load.exitCode(), load.err());
  }

  private static void assertCoreRefused(
      String topic, Map<String, Object> variables, Path dir, String component, String line)
      throws Exception {
    Map<String, Object> vars = new LinkedHashMap<>(variables);
    vars.put("kafka_topic", topic);
    vars.put("core_consumer_group", "core-" + topic);
    vars.put("core_hdfs_sinks", 1);
    vars.put("core_hdfs_root", hdfs.uri() + "/" + topic);
    vars.put("core_data_dir", dir.resolve("data").toString());
    try (AgentProcess core =
        AgentProcess.builder("core", AgentTemplates.render(Tier.CORE, vars), dir)
            .runtime(runtime)
            .jvmOptions(kafka.jvmOptions())
            .start()) {
      awaitLog(core, line);
      List<String> named =
          Files.readAllLines(core.log()).stream().filter(l -> l.contains(line)).toList();
      assertEquals(1, named.size(), "one line, not one per new consumer: " + named);
      assertTrue(named.get(0).contains(" ERROR "), named.get(0));
      assertTrue(named.get(0).contains(component + line), named.get(0));
      assertEquals(0, core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount"));
    }
  }

  private static FlafkaRun auditKafka(Path manifest, String topic, Path clientConfig) {
    return flafka(
        "audit",
        "--manifest",
        manifest.toString(),
        "--bootstrap-server",
        kafka.saslSslBootstrapServers(),
        "--topic",
        topic,
        "--kafka-config",
        clientConfig.toString());
  }

  @Test
  void theAuditNamesTheSettingToFixForEachKindOfBadCredential() throws Exception {
    kafka.createTopic("credentials", 1);
    Path manifest = manifestOfTenEvents(tmp);

    Map<String, String> missingKeytab =
        kafka.gssapiClient("audit-missing", tmp.resolve("nowhere.keytab"));
    assertFailure(
        manifest,
        missingKeytab,
        "keytab '" + tmp.resolve("nowhere.keytab") + "'",
        "kafka_kerberos_keytab");

    Path keytab = kafka.kdc().createPrincipal("audit-known");
    assertFailure(
        manifest,
        kafka.gssapiClient("audit-unknown", keytab),
        "audit-unknown",
        "kafka_kerberos_keytab");

    Path staleKeytab = kafka.kdc().createPrincipal("audit-stale");
    kafka.kdc().deletePrincipal("audit-stale");
    assertFailure(
        manifest,
        kafka.gssapiClient("audit-stale", staleKeytab),
        "principal 'audit-stale@" + Kdc.REALM + "'",
        "kafka_kerberos_principal");

    CertificateAuthority other = CertificateAuthority.create(tmp.resolve("other-ca"), "Other CA");
    Map<String, String> untrusting = kafka.scramClient("nobody", "nothing");
    untrusting.put("ssl.truststore.location", other.trustStore().path().toString());
    untrusting.put("ssl.truststore.password", other.trustStore().password());
    assertFailure(manifest, untrusting, "not trusted", "kafka_ssl_truststore_location");
  }

  /** A manifest in {@code dir} of ten events sent to a socket that reads and forgets them. */
  static Path manifestOfTenEvents(Path dir) throws Exception {
    Path manifest = dir.resolve("ten-events.json");
    try (ServerSocket sink = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      Thread drain =
          new Thread(
              () -> {
                try (Socket socket = sink.accept();
                    InputStream in = socket.getInputStream()) {
                  in.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                  // the load's own exit code says whether it was sent
                }
              });
      drain.start();
      FlafkaRun load =
          flafka(
              "load",
              "--target",
              "127.0.0.1:" + sink.getLocalPort(),
              "--protocol",
              "tcp",
              "--count",
              "10",
              "--manifest",
              manifest.toString(),
              "--quiet");
      assertEquals(0, load.exitCode(), load.err());
      drain.join(10_000);
    }
    return manifest;
  }

  private static void assertFailure(
      Path manifest, Map<String, String> client, String what, String setting) throws IOException {
    Path config = clientConfig("bad-" + Math.abs(client.hashCode()), client);
    FlafkaRun run =
        flafka(
            "audit",
            "--manifest",
            manifest.toString(),
            "--bootstrap-server",
            client.get("bootstrap.servers"),
            "--topic",
            "credentials",
            "--kafka-config",
            config.toString(),
            "--timeout",
            "20s");
    assertEquals(2, run.exitCode(), run.out() + run.err());
    String err = run.err().strip();
    assertEquals(1, err.lines().count(), err);
    assertFalse(err.contains("\tat "), "no stack trace: " + err);
    assertTrue(err.contains(what), err);
    assertTrue(err.contains(setting), err);
    assertTrue(err.contains("Fix: "), err);
  }

  /**
   * Starts a core and an edge agent for {@code topic}, sends {@link #EVENTS} events with {@code
   * flafka load}, waits until the core has written them all, stops it (closing its files) and
   * audits HDFS and the topic.
   */
  private static void pipeline(
      String topic,
      Map<String, Object> edgeVariables,
      Map<String, Object> coreVariables,
      Path clientConfig)
      throws Exception {
    kafka.createTopic(topic, 2);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    String root = hdfs.uri() + "/" + topic;

    Map<String, Object> coreVars = new LinkedHashMap<>(coreVariables);
    coreVars.put("kafka_topic", topic);
    coreVars.put("core_consumer_group", "core-" + topic);
    coreVars.put("core_kafka_sources", 1);
    coreVars.put("core_hdfs_sinks", 1);
    coreVars.put("core_hdfs_root", root);
    coreVars.put("core_data_dir", dir.resolve("core-data").toString());
    coreVars.put("core_hdfs_batch_size", 100);
    String coreProperties = AgentTemplates.render(Tier.CORE, coreVars);

    Map<String, Object> edgeVars = new LinkedHashMap<>(edgeVariables);
    edgeVars.put("kafka_topic", topic);
    edgeVars.put("edge_listeners", List.of("tcp"));
    edgeVars.put("edge_bind_address", "127.0.0.1");
    edgeVars.put("edge_tcp_port", 0);
    edgeVars.put("edge_kafka_sinks", 1);
    edgeVars.put("edge_data_dir", dir.resolve("edge-data").toString());
    String edgeProperties = AgentTemplates.render(Tier.EDGE, edgeVars);

    for (String rendered : List.of(coreProperties, edgeProperties)) {
      assertFalse(
          PASSWORD_VALUE.matcher(rendered).find(),
          "a rendered configuration holds no password, only references: " + rendered);
    }

    try (AgentProcess core =
            AgentProcess.builder("core", coreProperties, dir.resolve("core"))
                .runtime(runtime)
                .jvmOptions(kafka.jvmOptions())
                .start();
        AgentProcess edge =
            AgentProcess.builder("edge", edgeProperties, dir.resolve("edge"))
                .runtime(runtime)
                .jvmOptions(kafka.jvmOptions())
                .start()) {
      int port = (int) await(edge, "SOURCE.syslog_tcp", "ListenPort", 1);
      Path manifest = dir.resolve("sent.json");
      FlafkaRun load =
          flafka(
              "load",
              "--target",
              "127.0.0.1:" + port,
              "--protocol",
              "tcp",
              "--devices",
              "7",
              "--count",
              Integer.toString(EVENTS),
              "--size",
              "200-600",
              "--seed",
              "30",
              "--manifest",
              manifest.toString(),
              "--quiet");
      assertEquals(0, load.exitCode(), load.err());
      await(core, "SINK.hdfs0", "EventDrainSuccessCount", EVENTS);
      core.stop();

      FlafkaRun hdfsAudit = flafka("audit", "--manifest", manifest.toString(), "--path", root);
      assertEquals(0, hdfsAudit.exitCode(), hdfsAudit.out() + hdfsAudit.err());

      FlafkaRun kafkaAudit =
          flafka(
              "audit",
              "--manifest",
              manifest.toString(),
              "--bootstrap-server",
              (String) edgeVariables.get("kafka_bootstrap_servers"),
              "--topic",
              topic,
              "--kafka-config",
              clientConfig.toString());
      assertEquals(0, kafkaAudit.exitCode(), kafkaAudit.out() + kafkaAudit.err());
      assertTrue(
          Pattern.compile("records read +" + String.format(Locale.ROOT, "%,d", EVENTS) + "\n")
              .matcher(kafkaAudit.out())
              .find(),
          kafkaAudit.out());
    }
  }

  private static Map<String, Object> saslSsl(Path secrets) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("kafka_bootstrap_servers", kafka.saslSslBootstrapServers());
    variables.put("kafka_security_protocol", "SASL_SSL");
    variables.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
    variables.put("kafka_secrets_file", secrets.toString());
    return variables;
  }

  private static Map<String, Object> ssl(Path secrets, CertificateAuthority.Store keyStore) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("kafka_bootstrap_servers", kafka.sslBootstrapServers());
    variables.put("kafka_security_protocol", "SSL");
    variables.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
    variables.put("kafka_ssl_keystore_location", keyStore.path().toString());
    variables.put("kafka_secrets_file", secrets.toString());
    return variables;
  }

  private static String truststorePassword() {
    return "ssl.truststore.password=" + kafka.ca().trustStore().password() + "\n";
  }

  private static String keystorePasswords(CertificateAuthority.Store store) {
    return "ssl.keystore.password="
        + store.password()
        + "\nssl.key.password="
        + store.password()
        + "\n";
  }

  /** An agent's secrets file, as the Ansible role places it: its owner's only. */
  private static Path secrets(String name, String content) throws IOException {
    Path file = tmp.resolve(name + "-secrets.properties");
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
    return file;
  }

  /** A Kafka client properties file for {@code --kafka-config}, without bootstrap.servers. */
  private static Path clientConfig(String name, Map<String, String> client) throws IOException {
    Properties properties = new Properties();
    properties.putAll(client);
    properties.remove("bootstrap.servers");
    Path file = tmp.resolve(name + ".properties");
    try (var out = Files.newBufferedWriter(file)) {
      properties.store(out, null);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  static long await(AgentProcess agent, String component, String counter, long atLeast)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    long value = 0;
    while (System.nanoTime() < deadline) {
      value = agent.metrics().counter(component, counter);
      if (value >= atLeast) {
        return value;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        component
            + " "
            + counter
            + " stayed at "
            + value
            + ", below "
            + atLeast
            + "; the agent's log ends:\n"
            + logTail(agent));
  }

  static void awaitLog(AgentProcess agent, String text) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (Files.readString(agent.log()).contains(text)) {
          return;
        }
      } catch (IOException e) {
        // not written yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "the agent never logged '" + text + "'; its log ends:\n" + logTail(agent));
  }

  static String logTail(AgentProcess agent) {
    try {
      List<String> lines = Files.readAllLines(agent.log());
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
