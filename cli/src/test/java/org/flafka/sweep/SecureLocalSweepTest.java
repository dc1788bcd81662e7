package org.flafka.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flafka.cli.ExitCode;
import org.flafka.cli.Flafka;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka sweep --secure} for real: one short trial on the local stack as a secure cluster
 * has it (Kafka over SASL_SSL with Kerberos, a Kerberized HDFS with data transfer protection
 * privacy), the agents as processes with their own principals and keytabs. Every event sent lands
 * in HDFS (the audit, itself over Kerberos, finds none missing); the agents' rendered
 * configurations speak SASL_SSL with GSSAPI to the secure listener only and log in to HDFS with
 * Kerberos; the trust store's password, the one secret the agents need, is in the secrets file
 * (owner only) and nowhere else: not in the sweep's output, the rendered files or the results; and
 * the results say the stack was secure.
 */
@Tag("e2e")
class SecureLocalSweepTest {
  private static final Pattern STARTED =
      Pattern.compile("Kafka SASL_SSL \\(GSSAPI\\) at (localhost:\\d+), HDFS with Kerberos");

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aTinySecureSweepDeliversEverythingOverKerberosAndTlsWithoutShowingASecret()
      throws Exception {
    Path space = dir.resolve("tiny.yml");
    Files.writeString(
        space,
        """
                name: tiny-secure
                timing: {warmup: 1s, measure: 3s, repeats: 1, drain: 60s}
                load: {protocol: tcp, rate: 1000, connections: 1, devices: 10}
                set: {edge_kafka_sinks: 1, core_kafka_sources: 1, core_hdfs_sinks: 1}
                dimensions:
                  core_hdfs_batch_size: [10000]
                """);
    Path out = dir.resolve("results");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        Flafka.execute(
            new PrintWriter(stdout),
            new PrintWriter(stderr),
            "sweep",
            space.toString(),
            "--secure",
            "--keep-work",
            "--out",
            out.toString(),
            // quick to start, not for measuring: this test checks the secure stack works
            "--agent-jvm-option",
            "-XX:TieredStopAtLevel=1",
            "--agent-jvm-option",
            "-XX:+UseSerialGC",
            "--agent-jvm-option",
            "-Xmx256m");
    String output = "stdout:\n" + stdout + "\nstderr:\n" + stderr;
    assertEquals(ExitCode.OK, code, output);
    Matcher started = STARTED.matcher(stderr.toString());
    assertTrue(started.find(), "the start-up line says what the stack is: " + output);
    String saslSsl = started.group(1);

    Path results = only(out);
    JsonNode json = new ObjectMapper().readTree(results.resolve("results.json").toFile());
    assertTrue(
        json.get("target").asText().startsWith("local secure stack: KRaft Kafka broker (SASL_SSL,"),
        "the results record a secure stack: " + json.get("target"));
    JsonNode trials = json.get("trials");
    assertEquals(1, trials.size(), json.toString());
    for (JsonNode trial : trials) {
      assertEquals("ok", trial.get("status").asText(), trial.toString());
      for (JsonNode run : trial.get("runs")) {
        long sent = run.get("sent").asLong();
        assertTrue(sent > 1000, run.toString());
        assertEquals(sent, run.at("/audit/delivered").asLong(), run.toString());
        assertEquals(0, run.at("/audit/missing").asLong(), run.toString());
        assertEquals(0, run.at("/audit/corrupted").asLong(), run.toString());
      }
    }

    Path work = results.resolve("work");
    Path secretsFile = work.resolve("secure").resolve("kafka-secrets.properties");
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(secretsFile)),
        "the secrets file is its owner's only");
    Properties secrets = new Properties();
    try (var reader = Files.newBufferedReader(secretsFile)) {
      secrets.load(reader);
    }
    String password = secrets.getProperty("ssl.truststore.password");
    assertTrue(password != null && password.length() >= 16, "a trust store password: " + secrets);

    List<Path> edges = files(work.resolve("trials"), "edge.properties");
    List<Path> cores = files(work.resolve("trials"), "core.properties");
    assertFalse(edges.isEmpty() || cores.isEmpty(), "rendered configurations in " + work);
    for (Path config : concat(edges, cores)) {
      String text = Files.readString(config);
      assertTrue(text.contains(".security.protocol = SASL_SSL\n"), config + ":\n" + text);
      assertTrue(text.contains(".sasl.mechanism = GSSAPI\n"), config + ":\n" + text);
      assertTrue(text.contains("Krb5LoginModule required useKeyTab=true"), config + ":\n" + text);
      assertFalse(text.contains("PLAINTEXT"), config + ":\n" + text);
      List<String> bootstraps =
          text.lines().filter(line -> line.contains(".bootstrap.servers = ")).toList();
      assertFalse(bootstraps.isEmpty(), config + ":\n" + text);
      for (String line : bootstraps) {
        assertTrue(line.endsWith(" = " + saslSsl), "only the SASL_SSL listener: " + line);
      }
    }
    for (Path config : cores) {
      String text = Files.readString(config);
      assertTrue(
          text.contains(".hdfs.kerberosPrincipal = flafka-core@FLAFKA.TEST\n"), config + text);
      assertTrue(text.contains(".hdfs.dataTransferProtection = privacy\n"), config + text);
    }

    assertFalse(output.contains(password), "the password is not in the sweep's output");
    // the results, the best configuration, and each trial's rendered files and agent logs
    try (Stream<Path> all = Files.walk(results)) {
      for (Path file : all.filter(Files::isRegularFile).toList()) {
        if (file.startsWith(work.resolve("secure"))) {
          // the secure stack's own stores and settings, the secrets file among them: owner only
          continue;
        }
        assertFalse(
            new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(password),
            "the password is in " + file);
      }
    }
  }

  private static Path only(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      List<Path> list = files.toList();
      assertEquals(1, list.size(), list.toString());
      return list.get(0);
    }
  }

  private static List<Path> files(Path root, String name) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(file -> file.getFileName().toString().equals(name)).toList();
    }
  }

  private static List<Path> concat(List<Path> a, List<Path> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }
}
