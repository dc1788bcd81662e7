package org.flafka.sweep.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.flafka.cli.ExitCode;
import org.flafka.cli.SharedSecureStack;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmValidatingProxy;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.Kdc;
import org.flafka.stack.OurPlugins;
import org.flafka.stack.SecureHdfs;
import org.flafka.stack.SecureKafka;
import org.flafka.sweep.cm.CmTargetEndToEndTest.Result;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole {@code flafka sweep --target cm} on a secure cluster: the CM emulator in front of the
 * module's {@link SharedSecureStack}, its SecureKafka (SASL_SSL) and SecureHdfs (Kerberos, data
 * transfer protection privacy), its two AGENT roles real Flume processes started with the KDC's
 * settings in their Java options, as a CM role's Java Configuration Options carry them. Each agent
 * logs in as itself, from its own {@code --edge-vars}/{@code --core-vars}: the edge with
 * SCRAM-SHA-512 as {@value #EDGE_USER}, the core with Kerberos (GSSAPI) as {@value #CORE_PRINCIPAL}
 * for Kafka and HDFS alike, each with a secrets file of its own; the sweep's AdminClient and its
 * HDFS audit log in as {@value #SWEEP_PRINCIPAL} ({@code --kafka-config}, {@code
 * --hdfs-principal}/{@code --hdfs-keytab}). The trial is audited with nothing missing; the
 * configurations CM pushed speak SASL_SSL to the secure listener only and hold no password; no
 * password is in the sweep's output, results or the agents' logs.
 */
@Tag("e2e")
@ExtendWith(SharedSecureStack.Extension.class)
@Order(SharedSecureStack.LAST)
class CmTargetOnASecureClusterTest {
  private static final List<String> AGENT_JVM =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m");
  private static final String EDGE_GROUP = "flume-AGENT-BASE";
  private static final String CORE_GROUP = "flume-AGENT-2";
  private static final String EDGE_USER = "flafka-edge";
  private static final String CORE_PRINCIPAL = "flafka-core";
  private static final String SWEEP_PRINCIPAL = "flafka-sweep";
  private static final int RATE = 1000;

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aWholeTrialRunsOnTheSecureClusterAuditedWithNothingMissingAndNoSecretShown(
      SharedSecureStack stack) throws Exception {
    Set<Long> before = CmTargetEndToEndTest.children();
    Path space =
        Files.writeString(
            dir.resolve("tiny.yml"),
            """
                name: tiny-secure
                timing: {warmup: 1s, measure: 3s, repeats: 1, drain: 60s}
                load: {protocol: tcp, rate: %d, connections: 1, devices: 10}
                set: {edge_kafka_sinks: 1, core_kafka_sources: 1, core_hdfs_sinks: 1}
                dimensions:
                  core_hdfs_batch_size: [10000]
                """
                .formatted(RATE));
    Path cmPassword = Files.writeString(dir.resolve("cm-password"), "s3cret\n");
    String edgePassword = "the-edge's-scram-password";
    String trustStorePassword;
    Result sweep;
    String saslSsl;
    SecureKafka kafka = stack.kafka();
    SecureHdfs hdfs = stack.hdfs();
    try (CmEmulator emulator =
            CmEmulator.start(
                CmEmulatorConfig.builder(dir.resolve("cm"))
                    .kafka(kafka)
                    .credentials("admin", "s3cret")
                    .agents(2)
                    .sampleInterval(Duration.ofSeconds(1))
                    .runtime(OurPlugins.addTo(AgentRuntime.locate()))
                    // the roles' Java options: where the KDC is, as CM's Kerberos integration
                    // gives its Flume roles
                    .agentJvmOptions(
                        Stream.concat(AGENT_JVM.stream(), kafka.jvmOptions().stream()).toList())
                    .build());
        CmValidatingProxy proxy = new CmValidatingProxy(emulator.url(), Strictness.DECLARED_ONLY)) {
      saslSsl = kafka.saslSslBootstrapServers();
      trustStorePassword = kafka.ca().trustStore().password();
      Kdc kdc = kafka.kdc();
      kafka.addScramUser(EDGE_USER, edgePassword);
      Path coreKeytab = kdc.createPrincipal(CORE_PRINCIPAL);
      Path sweepKeytab = kdc.createPrincipal(SWEEP_PRINCIPAL);
      // an administrator's step: the core's principal may write under the sweep's directory
      hdfs.mkdirsOwnedBy("/flafka-sweep", CORE_PRINCIPAL);

      // what an administrator places on each agent's host: its own secrets file, owner only
      Path edgeSecrets =
          ownerOnly(
              "edge-secrets.properties",
              Map.of("sasl.password", edgePassword, "ssl.truststore.password", trustStorePassword));
      Path coreSecrets =
          ownerOnly(
              "core-secrets.properties", Map.of("ssl.truststore.password", trustStorePassword));
      Map<String, Object> edge = new LinkedHashMap<>();
      edge.put("kafka_security_protocol", "SASL_SSL");
      edge.put("kafka_sasl_mechanism", SecureKafka.SCRAM_MECHANISM);
      edge.put("kafka_sasl_username", EDGE_USER);
      edge.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
      edge.put("kafka_ssl_truststore_type", "PKCS12");
      edge.put("kafka_secrets_file", edgeSecrets.toString());
      Map<String, Object> core = new LinkedHashMap<>();
      core.put("kafka_security_protocol", "SASL_SSL");
      core.put("kafka_sasl_mechanism", "GSSAPI");
      core.put("kafka_sasl_kerberos_service_name", SecureKafka.SERVICE_NAME);
      core.put("kafka_kerberos_principal", Kdc.qualified(CORE_PRINCIPAL));
      core.put("kafka_kerberos_keytab", coreKeytab.toString());
      core.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
      core.put("kafka_ssl_truststore_type", "PKCS12");
      core.put("kafka_secrets_file", coreSecrets.toString());
      core.put("hdfs_kerberos_principal", Kdc.qualified(CORE_PRINCIPAL));
      core.put("hdfs_kerberos_keytab", coreKeytab.toString());
      core.put("hdfs_namenode_principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
      core.put("hdfs_data_transfer_protection", SecureHdfs.DATA_TRANSFER_PROTECTION);

      // the sweep's own clients: its AdminClient and its audit log in as the sweep's principal
      Map<String, String> sweepKafka =
          new LinkedHashMap<>(kafka.gssapiClient(SWEEP_PRINCIPAL, sweepKeytab));
      sweepKafka.remove("bootstrap.servers");
      Path kafkaConfig = ownerOnly("sweep-kafka.properties", sweepKafka);
      Path hdfsConfig =
          Files.writeString(
              dir.resolve("sweep-hdfs.properties"),
              "dfs.namenode.kerberos.principal="
                  + Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL)
                  + "\ndfs.data.transfer.protection="
                  + SecureHdfs.DATA_TRANSFER_PROTECTION
                  + "\n");

      sweep =
          CmTargetEndToEndTest.run(
              "sweep",
              space.toString(),
              "--target",
              "cm",
              "--out",
              dir.resolve("results").toString(),
              "--cm-url",
              proxy.url(),
              "--cm-password-file",
              cmPassword.toString(),
              "--cm-command-poll-interval-ms",
              "200",
              "--cm-edge-group",
              EDGE_GROUP,
              "--cm-core-group",
              CORE_GROUP,
              "--kafka-bootstrap",
              saslSsl,
              "--kafka-config",
              kafkaConfig.toString(),
              "--edge-vars",
              yaml("edge-vars.yml", edge).toString(),
              "--core-vars",
              yaml("core-vars.yml", core).toString(),
              "--hdfs-root",
              hdfs.uri() + "/flafka-sweep",
              "--hdfs-principal",
              Kdc.qualified(SWEEP_PRINCIPAL),
              "--hdfs-keytab",
              sweepKeytab.toString(),
              "--hdfs-config",
              hdfsConfig.toString(),
              "--agent-data-dir",
              dir.resolve("agents").toString(),
              "--port",
              Integer.toString(CmTargetEndToEndTest.freePort()),
              "--edge-bind-address",
              "127.0.0.1");
      assertEquals(ExitCode.OK, sweep.code(), sweep.toString());
      proxy.assertConforms();
    }
    assertEquals(
        before, CmTargetEndToEndTest.children(), "every process the emulator started is gone");
    assertTrue(
        sweep.err().contains("the edge agent's own variables: kafka_sasl_mechanism,"),
        "the start-up line names the agents' own variables: " + sweep);

    JsonNode results = results(dir.resolve("results"));
    assertTrue(results.get("complete").asBoolean(), results.toString());
    assertEquals(1, results.get("trials").size(), results.toString());
    JsonNode trial = results.at("/trials/0");
    assertEquals("ok", trial.get("status").asText(), trial.toString());
    JsonNode run = trial.at("/runs/0");
    long sent = run.get("sent").asLong();
    assertTrue(sent > 2 * RATE, run.toString());
    assertTrue(run.get("drained").asBoolean(), run.toString());
    assertEquals(0, run.get("countedLoss").asLong(), run.toString());
    // the audit read it all from HDFS, over Kerberos as the sweep's principal
    assertEquals(sent, run.at("/audit/delivered").asLong(), run.toString());
    assertEquals(0, run.at("/audit/missing").asLong(), run.toString());
    // CM's counters, integrated, agree with the audit: the agents ran as CM's roles
    assertEquals(sent, run.get("edgeAccepted").asLong(), run.toString());
    assertEquals(
        run.at("/audit/delivered").asLong(), run.get("delivered").asLong(), run.toString());
    // the agents' logins are the hosts', not the configuration measured: not in the trial's
    // settings
    for (String login : List.of("kafka_security_protocol", "kafka_sasl", "hdfs_kerberos")) {
      assertFalse(trial.get("settings").toString().contains(login), trial.toString());
    }

    // what CM pushed to each role and the agent ran
    String pushedEdge = Files.readString(pushed("edge.properties"));
    String pushedCore = Files.readString(pushed("core.properties"));
    for (String config : List.of(pushedEdge, pushedCore)) {
      List<String> bootstraps =
          config.lines().filter(line -> line.contains(".bootstrap.servers = ")).toList();
      assertFalse(bootstraps.isEmpty(), config);
      for (String line : bootstraps) {
        assertTrue(line.endsWith(" = " + saslSsl), "only the SASL_SSL listener: " + line);
      }
      assertTrue(config.contains(".security.protocol = SASL_SSL\n"), config);
      assertFalse(config.contains("PLAINTEXT"), config);
      assertFalse(config.contains(edgePassword), config);
      assertFalse(config.contains(trustStorePassword), config);
    }
    assertTrue(pushedEdge.contains(".sasl.mechanism = SCRAM-SHA-512\n"), pushedEdge);
    assertTrue(pushedEdge.contains("username=\"" + EDGE_USER + "\""), pushedEdge);
    assertFalse(pushedEdge.contains("Krb5LoginModule"), pushedEdge);
    assertTrue(pushedCore.contains(".sasl.mechanism = GSSAPI\n"), pushedCore);
    assertFalse(pushedCore.contains("ScramLoginModule"), pushedCore);
    assertTrue(
        pushedCore.contains(".hdfs.kerberosPrincipal = " + Kdc.qualified(CORE_PRINCIPAL) + "\n"),
        pushedCore);
    assertTrue(pushedCore.contains(".hdfs.dataTransferProtection = privacy\n"), pushedCore);

    // no password in the sweep's output, its results, or the agents' files and logs
    for (String secret : List.of(edgePassword, trustStorePassword)) {
      assertFalse(sweep.out().contains(secret) || sweep.err().contains(secret), sweep.toString());
      for (Path root : List.of(dir.resolve("results"), dir.resolve("cm"), dir.resolve("agents"))) {
        if (!Files.exists(root)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(root)) {
          for (Path file : files.filter(Files::isRegularFile).toList()) {
            assertFalse(
                new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(secret),
                "a password is in " + file);
          }
        }
      }
    }
  }

  /** The configuration file the emulator's role ran its agent with (the one trial's). */
  private Path pushed(String name) throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("cm"))) {
      List<Path> found = files.filter(f -> f.getFileName().toString().equals(name)).toList();
      assertEquals(1, found.size(), name + ": " + found);
      return found.get(0);
    }
  }

  /** A properties file made with mode 0600, so no moment exists where others can read it. */
  private Path ownerOnly(String name, Map<String, String> entries) throws IOException {
    Path file =
        Files.createFile(
            dir.resolve(name),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        out.write(entry.getKey() + "=" + entry.getValue() + "\n");
      }
    }
    return file;
  }

  /** A flat YAML file of the variables, every value quoted. */
  private Path yaml(String name, Map<String, Object> variables) throws IOException {
    StringBuilder text = new StringBuilder();
    variables.forEach(
        (key, value) ->
            text.append(key)
                .append(": '")
                .append(value.toString().replace("'", "''"))
                .append("'\n"));
    return Files.writeString(dir.resolve(name), text.toString());
  }

  private static JsonNode results(Path out) throws IOException {
    try (Stream<Path> runs = Files.list(out)) {
      List<Path> all = runs.toList();
      assertEquals(1, all.size(), all.toString());
      return new ObjectMapper().readTree(all.get(0).resolve("results.json").toFile());
    }
  }
}
