package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.kafka.clients.admin.Admin;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.load.Protocol;
import org.flafka.stack.Hdfs;
import org.flafka.stack.SecureKafka;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.audit.Landing;
import org.flafka.sweep.audit.LoadMarkAudit;
import org.flafka.sweep.cm.CmTarget;
import org.flafka.sweep.cm.CmTargetSettings;
import org.flafka.sweep.target.TrialEnvironment;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka sweep --target cm} on a secure cluster: {@code --kafka-config} reaches the Kafka
 * client the cm target makes its trial topics with (the CM emulator in front of the stack's secure
 * broker, reached over SASL_SSL with SCRAM), with the warning and the one-line error {@code flafka
 * audit} gives; and the sweep's HDFS audit reads as the login it is given ({@code
 * --hdfs-principal}), which a directory only another user may read tells apart from the sweep's own
 * user. The broker is the module's {@link SharedSecureStack}'s; HDFS a plain one of the test's own.
 */
@Tag("e2e")
@ExtendWith(SharedSecureStack.Extension.class)
class SweepOnASecureClusterTest {
  private static final String EDGE_GROUP = "flume-AGENT-BASE";
  private static final String CORE_GROUP = "flume-AGENT-2";

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theCmTargetMakesItsTopicsWithTheKafkaConfigAndAWrongOneIsOneLineNamingIt(
      SharedSecureStack stack) throws Exception {
    Path password = Files.writeString(dir.resolve("cm-password"), "s3cret\n");
    SecureKafka kafka = stack.kafka();
    try (CmEmulator emulator =
        CmEmulator.start(
            CmEmulatorConfig.builder(dir.resolve("cm"))
                .kafka(kafka)
                .credentials("admin", "s3cret")
                .agents(2)
                .sampleInterval(Duration.ofSeconds(1))
                .build())) {
      kafka.addScramUser("sweeper", "the-sweepers-password");

      // a wrong password, in clear, in a file others can read: warned of, then refused in one line
      Map<String, String> wrong = kafka.scramClient("sweeper", "not-the-password");
      Path wrongConfig = clientConfig("wrong", wrong, "rw-r--r--");
      FlafkaRun refused =
          flafka(
              "sweep",
              Files.writeString(dir.resolve("one.yml"), SPACE).toString(),
              "--target",
              "cm",
              "--cm-url",
              emulator.url(),
              "--cm-password-file",
              password.toString(),
              "--cm-edge-group",
              EDGE_GROUP,
              "--cm-core-group",
              CORE_GROUP,
              "--kafka-bootstrap",
              kafka.saslSslBootstrapServers(),
              "--kafka-config",
              wrongConfig.toString(),
              "--hdfs-root",
              "hdfs://127.0.0.1:1/flafka-sweep",
              "--out",
              dir.resolve("out").toString());
      assertEquals(ExitCode.UNEXPECTED_STATE, refused.exitCode(), refused.toString());
      assertEquals(
          List.of(
              "warning: --kafka-config '"
                  + wrongConfig
                  + "' holds a password (sasl.jaas.config) and others can read it. Fix: chmod 600"
                  + " it, or move the password to a file only you can read and refer to it with"
                  + " config.providers"),
          refused.err().lines().filter(line -> line.startsWith("warning: ")).toList(),
          refused.toString());
      List<String> errors =
          refused.err().lines().filter(line -> line.startsWith("flafka: ")).toList();
      assertEquals(1, errors.size(), refused.toString());
      assertTrue(
          errors
              .get(0)
              .startsWith(
                  "flafka: could not reach the brokers at "
                      + kafka.saslSslBootstrapServers()
                      + ": Kafka refused the SCRAM-SHA-512 credentials of user 'sweeper';"
                      + " setting: sasl.jaas.config username/password"),
          errors.get(0));
      assertTrue(
          errors.get(0).endsWith("The client settings are --kafka-config's."), errors.get(0));
      assertFalse(refused.err().contains("\tat "), "no stack trace: " + refused.err());

      // the right one: the target reaches the brokers, and makes and removes a run's topic, over
      // SASL_SSL
      Map<String, String> right = kafka.scramClient("sweeper", "the-sweepers-password");
      right.remove("bootstrap.servers");
      CmClient client =
          CmClient.connect(
              CmClientConfig.from(
                  Map.of(CmClientConfig.URL, emulator.url()),
                  Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "s3cret")));
      CmTargetSettings settings =
          new CmTargetSettings(
              null,
              null,
              EDGE_GROUP,
              CORE_GROUP,
              null,
              kafka.saslSslBootstrapServers(),
              URI.create("hdfs://127.0.0.1:1/flafka-sweep"),
              dir.resolve("agents").toString(),
              CmTargetSettings.DEFAULT_SYSLOG_PORT,
              "127.0.0.1",
              "127.0.0.1",
              dir.resolve("work"),
              "flafka-sweep-secure-",
              right);
      String topic;
      try (CmTarget target = new CmTarget(client, settings)) {
        target.start(line -> {});
        TrialEnvironment trial = target.prepare("t1", 3, Protocol.TCP);
        topic = trial.topic();
        assertEquals("flafka-sweep-secure-t1", topic);
        try (Admin admin = kafka.admin()) {
          assertEquals(
              3,
              admin
                  .describeTopics(Set.of(topic))
                  .allTopicNames()
                  .get(30, TimeUnit.SECONDS)
                  .get(topic)
                  .partitions()
                  .size());
        }
      }
      try (Admin admin = kafka.admin()) {
        assertFalse(
            admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic),
            "the run's topic is removed when the target closes");
      }
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void theSweepsHdfsAuditReadsAsTheLoginItIsGiven() throws Exception {
    Path manifest = SecureKafkaPipelineTest.manifestOfTenEvents(dir);
    try (Hdfs hdfs = Hdfs.start(dir.resolve("hdfs"))) {
      String root = "/flafka-sweep/run1";
      try (FileSystem fs = hdfs.newFileSystem()) {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(root);
        fs.mkdirs(path);
        fs.setOwner(path, "flafka-core", "flafka-core");
        fs.setPermission(path, new FsPermission((short) 0700));
      }
      Landing landing = new Landing.Hdfs(URI.create(hdfs.uri() + root), "text", "none");

      // this JVM's user started the NameNode, so reads everything: nothing delivered, nothing else
      AuditCounts asSuperuser = new LoadMarkAudit().audit(manifest, landing);
      assertEquals(10, asSuperuser.missing(), asSuperuser.toString());

      UserGroupInformation auditor = UserGroupInformation.createRemoteUser("sweep-auditor");
      Exception denied =
          assertThrows(
              Exception.class,
              () ->
                  new LoadMarkAudit(Map.of(), hdfs.clientConfiguration(), auditor)
                      .audit(manifest, landing));
      assertTrue(
          String.valueOf(denied.getMessage()).contains("user=sweep-auditor"),
          "read as the login given: " + denied);
    }
  }

  private static final String SPACE =
      """
            name: one
            timing: {warmup: 1s, measure: 2s, repeats: 1, drain: 10s}
            load: {protocol: tcp, rate: 500, connections: 1, devices: 5}
            set: {edge_kafka_sinks: 1, core_kafka_sources: 1, core_hdfs_sinks: 1}
            dimensions:
              core_hdfs_batch_size: [10000]
            """;

  private Path clientConfig(String name, Map<String, String> client, String mode)
      throws IOException {
    Properties properties = new Properties();
    properties.putAll(client);
    properties.remove("bootstrap.servers");
    Path file = dir.resolve(name + ".properties");
    try (var out = Files.newBufferedWriter(file)) {
      properties.store(out, null);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }
}
