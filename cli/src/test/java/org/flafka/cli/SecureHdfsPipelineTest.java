package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.flafka.cli.SecureKafkaPipelineTest.await;
import static org.flafka.cli.SecureKafkaPipelineTest.awaitLog;
import static org.flafka.cli.SecureKafkaPipelineTest.manifestOfTenEvents;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.flafka.contract.HdfsKerberos;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.Kdc;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecureHdfs;
import org.flafka.stack.SecureKafka;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edge → Kafka over SASL_SSL (SCRAM-SHA-512) → core → a Kerberized HDFS (block access tokens, data
 * transfer protection privacy, HTTPS-only web servers), with real parts: {@code flafka load}, both
 * agents as processes rendered from the templates, the core's HDFS sinks logging in from a keytab
 * with {@code _HOST} in the principal, and {@code flafka audit} over HDFS (with Kerberos, byte for
 * byte) and over the topic. A core whose keytab is missing or whose principal is wrong says so in
 * one line naming the setting, keeps every event, and delivers them all once the credentials are
 * fixed. The broker and HDFS are the module's {@link SharedSecureStack}'s (a secure MiniDFSCluster
 * takes seconds to start), the class's topics, users and HDFS directory its own.
 *
 * <p>Not tested here: an audit without a login against this cluster. The NameNode runs in this JVM
 * and has made its principal the JVM's login user, so such an audit would read as the superuser.
 */
@Tag("e2e")
@ExtendWith(SharedSecureStack.Extension.class)
@Order(SharedSecureStack.LAST)
class SecureHdfsPipelineTest {
  private static final String CORE_PRINCIPAL = "flafka-core/" + HdfsKerberos.localHostName();
  private static final String CORE_PRINCIPAL_SETTING =
      "flafka-core/" + HdfsKerberos.HOST_PLACEHOLDER + "@" + Kdc.REALM;
  private static final String AUDIT_PRINCIPAL = "flafka-audit";
  private static final String DATA_DIR = "/flafka";

  @TempDir static Path tmp;
  private static SecureKafka kafka;
  private static SecureHdfs hdfs;
  private static AgentRuntime runtime;
  private static Path coreKeytab;
  private static Path auditKeytab;
  private static Path hdfsClientConfig;

  @BeforeAll
  static void start(SharedSecureStack stack) throws IOException {
    kafka = stack.kafka();
    hdfs = stack.hdfs();
    runtime = OurPlugins.addTo(AgentRuntime.locate());
    kafka.addScramUser("edge-nancy", "edge-password");
    kafka.addScramUser("core-nancy", "core-password");
    coreKeytab = kafka.kdc().createPrincipal(CORE_PRINCIPAL);
    auditKeytab = kafka.kdc().createPrincipal(AUDIT_PRINCIPAL);
    hdfs.mkdirsOwnedBy(DATA_DIR, "flafka-core");
    Properties client = new Properties();
    client.setProperty(
        "dfs.namenode.kerberos.principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    client.setProperty("dfs.data.transfer.protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    hdfsClientConfig = tmp.resolve("hdfs-client.properties");
    try (var out = Files.newBufferedWriter(hdfsClientConfig)) {
      client.store(out, null);
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void everyEventCrossesSecureKafkaIntoKerberizedHdfsByteForByte() throws Exception {
    String topic = "secure-e2e";
    kafka.createTopic(topic, 2);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    String root = root(topic);
    try (AgentProcess core = core(topic, CORE_PRINCIPAL_SETTING, coreKeytab, dir.resolve("core"));
        AgentProcess edge = edge(topic, dir.resolve("edge"))) {
      send(edge, dir, 1000);
      await(core, "SINK.hdfs0", "EventDrainSuccessCount", 1000);
      core.stop();
    }
    assertHdfsAuditPasses(dir.resolve("sent.json"), root);

    Path kafkaConfig = tmp.resolve("audit-scram.properties");
    Properties properties = new Properties();
    properties.putAll(kafka.scramClient("core-nancy", "core-password"));
    properties.remove("bootstrap.servers");
    try (var out = Files.newBufferedWriter(kafkaConfig)) {
      properties.store(out, null);
    }
    Files.setPosixFilePermissions(kafkaConfig, PosixFilePermissions.fromString("rw-------"));
    FlafkaRun kafkaAudit =
        flafka(
            "audit",
            "--manifest",
            dir.resolve("sent.json").toString(),
            "--bootstrap-server",
            kafka.saslSslBootstrapServers(),
            "--topic",
            topic,
            "--kafka-config",
            kafkaConfig.toString());
    assertEquals(0, kafkaAudit.exitCode(), kafkaAudit.out() + kafkaAudit.err());
  }

  /**
   * A core started with the wrong principal, then restarted with the right one but its keytab not
   * yet in place: each time one log line names the setting to fix and nothing is drained; once the
   * keytab is placed the running agent delivers every event, without a restart.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aCoreWithWrongCredentialsKeepsEveryEventUntilTheyAreFixed() throws Exception {
    String topic = "credentials-fixed";
    kafka.createTopic(topic, 2);
    Path dir = Files.createDirectories(tmp.resolve(topic));
    String wrong = "flafka-kore/" + HdfsKerberos.HOST_PLACEHOLDER + "@" + Kdc.REALM;
    Path keytab = dir.resolve("placed-later.keytab");
    try (AgentProcess edge = edge(topic, dir.resolve("edge"))) {
      try (AgentProcess core = core(topic, wrong, coreKeytab, dir.resolve("core-wrong"))) {
        send(edge, dir, 500);
        await(edge, "SINK.kafka0", "EventDrainSuccessCount", 500);
        String line =
            "holds no key for principal 'flafka-kore/"
                + HdfsKerberos.localHostName()
                + "@"
                + Kdc.REALM
                + "'; setting: hdfs.kerberosPrincipal (template: hdfs_kerberos_principal) or"
                + " hdfs.kerberosKeytab";
        awaitLog(core, line);
        assertOneLine(core, line);
        assertEquals(0, core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount"));
      }
      try (AgentProcess core =
          core(topic, CORE_PRINCIPAL_SETTING, keytab, dir.resolve("core-right"))) {
        String line =
            "keytab '"
                + keytab
                + "' does not exist; setting: hdfs.kerberosKeytab (template: hdfs_kerberos_keytab)."
                + " Fix: ";
        awaitLog(core, line);
        assertOneLine(core, line);
        assertEquals(0, core.metrics().counter("SINK.hdfs0", "EventDrainSuccessCount"));

        Files.copy(coreKeytab, keytab);
        await(core, "SINK.hdfs0", "EventDrainSuccessCount", 500);
        core.stop();
      }
    }
    assertHdfsAuditPasses(dir.resolve("sent.json"), root(topic));
  }

  @Test
  void theAuditNamesTheSettingToFixForAMissingKeytabAndAWrongPrincipal() throws Exception {
    String root = hdfs.uri() + DATA_DIR;
    Path manifest = manifestOfTenEvents(tmp);

    FlafkaRun missing =
        audit(manifest, root, AUDIT_PRINCIPAL, tmp.resolve("nowhere.keytab").toString());
    assertOneLineNaming(missing, "keytab '" + tmp.resolve("nowhere.keytab") + "' does not exist");
    assertOneLineNaming(missing, "setting: --hdfs-keytab");

    FlafkaRun wrong = audit(manifest, root, "flafka-odit", auditKeytab.toString());
    assertOneLineNaming(wrong, "holds no key for principal 'flafka-odit'");
    assertOneLineNaming(wrong, "setting: --hdfs-principal");
  }

  private static FlafkaRun audit(Path manifest, String root, String principal, String keytab) {
    return flafka(
        "audit",
        "--manifest",
        manifest.toString(),
        "--path",
        root,
        "--hdfs-config",
        hdfsClientConfig.toString(),
        "--hdfs-principal",
        principal,
        "--hdfs-keytab",
        keytab);
  }

  private static void assertOneLineNaming(FlafkaRun run, String text) {
    assertEquals(2, run.exitCode(), run.out() + run.err());
    String err = run.err().strip();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains(text), err);
    assertTrue(err.contains("Fix: "), err);
  }

  private static void assertHdfsAuditPasses(Path manifest, String root) {
    FlafkaRun audit = audit(manifest, root, AUDIT_PRINCIPAL, auditKeytab.toString());
    assertEquals(0, audit.exitCode(), audit.out() + audit.err());
    assertTrue(audit.out().contains("missing"), audit.out());
  }

  /** The failure is one line in the agent's log: no stack trace follows it. */
  private static void assertOneLine(AgentProcess agent, String text) throws IOException {
    List<String> lines = Files.readAllLines(agent.log());
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        String next = i + 1 < lines.size() ? lines.get(i + 1) : "";
        assertFalse(next.startsWith("\tat "), "a stack trace follows: " + next);
      }
    }
  }

  private static String root(String topic) {
    return hdfs.uri() + DATA_DIR + "/" + topic;
  }

  private static AgentProcess core(String topic, String principal, Path keytab, Path dir)
      throws IOException {
    Map<String, Object> vars = scram("core-nancy", "core-password", dir);
    vars.put("kafka_topic", topic);
    vars.put("core_consumer_group", "core-" + topic);
    vars.put("core_hdfs_sinks", 1);
    vars.put("core_hdfs_root", root(topic));
    vars.put("core_hdfs_batch_size", 100);
    vars.put("core_hdfs_retry_interval", 2);
    vars.put("hdfs_kerberos_principal", principal);
    vars.put("hdfs_kerberos_keytab", keytab.toString());
    vars.put("hdfs_namenode_principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    vars.put("hdfs_data_transfer_protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    return AgentProcess.builder("core", AgentTemplates.render(Tier.CORE, vars), dir)
        .runtime(runtime)
        .jvmOptions(kafka.jvmOptions())
        .start();
  }

  private static AgentProcess edge(String topic, Path dir) throws IOException {
    Map<String, Object> vars = scram("edge-nancy", "edge-password", dir);
    vars.put("kafka_topic", topic);
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

  /** An agent's Kafka settings for SCRAM over SASL_SSL, its passwords in its own secrets file. */
  private static Map<String, Object> scram(String user, String password, Path dir)
      throws IOException {
    Files.createDirectories(dir);
    Path secrets = dir.resolve("kafka-secrets.properties");
    Files.writeString(
        secrets,
        "sasl.password="
            + password
            + "\nssl.truststore.password="
            + kafka.ca().trustStore().password()
            + "\n");
    Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("r--------"));
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("kafka_bootstrap_servers", kafka.saslSslBootstrapServers());
    vars.put("kafka_security_protocol", "SASL_SSL");
    vars.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
    vars.put("kafka_sasl_username", user);
    vars.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
    vars.put("kafka_secrets_file", secrets.toString());
    return vars;
  }

  /**
   * Sends {@code count} events over TCP with {@code flafka load}, the manifest in dir/sent.json.
   */
  private static Path send(AgentProcess edge, Path dir, int count) throws Exception {
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
            "5",
            "--count",
            Integer.toString(count),
            "--size",
            "200-600",
            "--seed",
            "30",
            "--manifest",
            manifest.toString(),
            "--quiet");
    assertEquals(0, load.exitCode(), load.err());
    return manifest;
  }
}
