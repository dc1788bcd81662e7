package org.flafka.cli;

import static org.flafka.cli.BenchRuns.assertBadFlagsAreOneLineAndExitTwo;
import static org.flafka.cli.BenchRuns.children;
import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code flafka bench edge|core --secure}: the variants it refuses, and a tiny run of each bench on
 * the secure stack (Kafka over SASL_SSL with Kerberos, HDFS with Kerberos and {@code privacy}) that
 * delivers everything, with agents configured for it and the trust store's password nowhere others
 * can read it.
 */
class BenchSecureCommandTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "core | --secure --variants ours,stock-tuned | --variants stock-tuned: cannot run with --secure: Flume's HDFS sink",
        "core | --secure --variants stock | --variants stock: cannot run with --secure: it is Flume's default configuration",
        "core | --secure | --variants stock-tuned: cannot run with --secure",
        "edge | --secure --variants ours,stock | --variants stock: cannot run with --secure: it is a fixed configuration",
        "edge | --secure --variants rsyslog | --variants rsyslog: cannot run with --secure: the bench configures rsyslog's omkafka without SASL or TLS",
        "edge | --secure --variants ours --kafka-latency 5ms | --kafka-latency 5ms: cannot be used with --secure",
      })
  void variantsTheSecureStackCannotRunAreRefusedInOneLineBeforeAnythingStarts(
      String bench, String flags, String message) {
    assertBadFlagsAreOneLineAndExitTwo(bench, flags, message);
  }

  @Test
  void helpOfBothBenchesExplainsSecure() {
    for (String bench : List.of("edge", "core")) {
      FlafkaRun run = flafka("bench", bench, "--help");
      assertEquals(ExitCode.OK, run.exitCode(), run.err());
      String help = run.out().replaceAll("\\s+", " ");
      assertTrue(help.contains("--secure Run on a secure stack"), help);
      assertTrue(help.contains("their CPU is not reported apart"), help);
    }
  }

  /**
   * The core bench on the secure stack: the prefill and the topic over SASL_SSL, the default core
   * draining every record into Kerberized HDFS.
   */
  @Test
  @Tag("e2e")
  @Timeout(240)
  void aSecureCoreRunDrainsEveryRecordOverSaslSslIntoKerberizedHdfs(@TempDir Path dir)
      throws Exception {
    Set<Long> before = children();
    Path report = dir.resolve("report.json");
    FlafkaRun run =
        flafka(
            "bench",
            "core",
            "--secure",
            "--variants",
            "ours",
            "--events",
            "3000",
            "--warmup-events",
            "1000",
            "--hosts",
            "20",
            "--partitions",
            "2",
            "--repeats",
            "1",
            "--duration",
            "60s",
            "--format",
            "json",
            "--out",
            report.toString(),
            "--work-dir",
            dir.resolve("work").toString());
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    assertTrue(
        run.err().contains("flafka bench: Kafka SASL_SSL (GSSAPI) at "), "the stack line: " + run);
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertTrue(json.at("/settings/secure").asBoolean(), json.toString());
    JsonNode trial = json.get("trials").get(0);
    assertTrue(trial.get("drainedAll").asBoolean(), "every record into HDFS: " + trial);
    assertTrue(trial.get("files").asLong() > 0, "files in HDFS: " + trial);
    assertTrue(trial.get("agentCpuSeconds").asDouble() > 0, "agent CPU measured: " + trial);
    assertTrue(trial.get("brokerCpuSeconds").isNull(), "the broker shares the JVM: " + trial);

    Path work = only(dir.resolve("work"));
    String password = password(work);
    for (Path config : files(work, "core.properties")) {
      String text = assertSecureKafka(config);
      assertTrue(
          text.contains(".hdfs.kerberosPrincipal = flafka-core@FLAFKA.TEST\n"), config + text);
      assertTrue(text.contains(".hdfs.namenodePrincipal = hdfs/localhost@FLAFKA.TEST\n"), text);
      assertTrue(text.contains(".hdfs.dataTransferProtection = privacy\n"), config + text);
    }
    assertNoSecretOthersCanRead(run, report, work, password);
    assertEquals(before, children(), "every agent process ended");
  }

  /** The edge bench on the secure stack: ours delivers every event it was sent over SASL_SSL. */
  @Test
  @Tag("e2e")
  @Timeout(240)
  void aSecureEdgeRunDeliversEveryEventOverSaslSsl(@TempDir Path dir) throws Exception {
    Set<Long> before = children();
    Path report = dir.resolve("report.json");
    FlafkaRun run =
        flafka(
            "bench",
            "edge",
            "--secure",
            "--variants",
            "ours",
            "--repeats",
            "1",
            "--warmup",
            "1s",
            "--duration",
            "2s",
            "--rate",
            "20000",
            "--connections",
            "2",
            "--format",
            "json",
            "--out",
            report.toString(),
            "--work-dir",
            dir.resolve("work").toString());
    assertEquals(ExitCode.OK, run.exitCode(), run.err());
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertTrue(json.at("/settings/secure").asBoolean(), json.toString());
    JsonNode trial = json.get("trials").get(0);
    assertTrue(trial.get("kafkaEvents").asLong() > 0, "events reached Kafka: " + trial);
    assertTrue(trial.get("trialSent").asLong() > 0, trial.toString());
    assertEquals(
        trial.get("trialSent").asLong(),
        trial.get("trialInKafka").asLong(),
        "every event sent is in Kafka: " + trial);
    assertTrue(trial.get("agentCpuSeconds").asDouble() > 0, "agent CPU measured: " + trial);

    Path work = only(dir.resolve("work"));
    String password = password(work);
    List<Path> configs = files(work, "edge.properties");
    assertFalse(configs.isEmpty(), "the agent's configuration in " + work);
    for (Path config : configs) {
      assertSecureKafka(config);
    }
    assertNoSecretOthersCanRead(run, report, work, password);
    assertEquals(before, children(), "every agent process ended");
  }

  private static String assertSecureKafka(Path config) throws IOException {
    String text = Files.readString(config);
    assertTrue(text.contains(".security.protocol = SASL_SSL\n"), config + ":\n" + text);
    assertTrue(text.contains(".sasl.mechanism = GSSAPI\n"), config + ":\n" + text);
    assertTrue(text.contains("Krb5LoginModule required useKeyTab=true"), config + ":\n" + text);
    assertFalse(text.contains("PLAINTEXT"), config + ":\n" + text);
    return text;
  }

  /** The trust store's password, from the secrets file, which only its owner may read. */
  private static String password(Path work) throws IOException {
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
    assertTrue(password != null && password.length() >= 16, "a trust store password");
    return password;
  }

  /**
   * Neither the output nor the report holds the password, and every file under the work directory
   * (configurations, agent logs) that holds it is its owner's only.
   */
  private static void assertNoSecretOthersCanRead(
      FlafkaRun run, Path report, Path work, String password) throws IOException {
    assertFalse(run.out().contains(password), "the password is not on stdout");
    assertFalse(run.err().contains(password), "the password is not on stderr");
    assertFalse(Files.readString(report).contains(password), "the password is not in the report");
    try (Stream<Path> all = Files.walk(work)) {
      for (Path file : all.filter(Files::isRegularFile).toList()) {
        if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(password)) {
          assertEquals(
              "rw-------",
              PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
              "the password is in " + file + ", which others can read");
        }
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
}
