package org.flafka.audit;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flafka.cli.FlafkaRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code flafka audit} on local files (any Hadoop file system works), and its input errors. */
class AuditCommandTest {
  @TempDir static Path tmp;
  private static LoadRun run;
  private static Path landed;

  @BeforeAll
  static void load() throws Exception {
    run = LoadRun.run(tmp, 3, 1, 300);
    landed = Files.createDirectories(tmp.resolve("landed/dt=2026-11-21/host=x"));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    for (byte[] body : run.bodies.values()) {
      text.write(body);
      text.write('\n');
    }
    Files.write(landed.resolve("core-h-hdfs1.1.log"), text.toByteArray());
  }

  @Test
  void everythingDeliveredPassesWithExitZero() {
    FlafkaRun audit =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--path",
            tmp.resolve("landed").toUri().toString());

    assertEquals(0, audit.exitCode(), audit.err() + audit.out());
    assertTrue(
        audit
            .out()
            .contains("devices: 3, with problems: 0\nPASSED: nothing missing or corrupted\n"),
        audit.out());
    assertTrue(
        audit.out().contains("delivered                    300  distinct sequences\n"),
        audit.out());
  }

  @Test
  void aPlainDirectoryNeedsNoScheme() {
    FlafkaRun audit =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--path",
            tmp.resolve("landed").toString(),
            "--verbose");

    assertEquals(0, audit.exitCode(), audit.err());
    assertTrue(
        audit.out().contains("dev 000002 dev-000002.site: sent 100, delivered 100\n"), audit.out());
  }

  @Test
  void auditIsListedInTheRootHelp() {
    assertTrue(flafka("--help").out().contains("  audit "), "audit missing from flafka --help");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--path /x --topic t|give either --bootstrap-server and --topic (Kafka) or --path (HDFS)",
        "--verbose|give either --bootstrap-server and --topic (Kafka) or --path (HDFS)",
        "--topic t|Kafka needs both --bootstrap-server HOST:PORT and --topic NAME",
        "--path /x --from 2026-11-21T00:00:00Z|--from and --to apply to Kafka only; select HDFS files by --path "
            + "(e.g. .../dt=2026-11-21)",
        "--bootstrap-server h:1 --topic t --include-in-progress|--include-in-progress applies to --path only",
        "--bootstrap-server h:1 --topic t --to yesterday|--to 'yesterday' is not an ISO-8601 instant "
            + "(e.g. 2026-11-21T06:00:00Z)",
        "--path /x --format xml|--format must be text or json but was 'xml'",
        "--path /x --timeout soon|--timeout 'soon' is not a duration (e.g. 30s, 5m, 500ms)",
        "--path /x --max-ranges -1|--max-ranges must be 0 or more but was -1",
      })
  void badFlagsAreOneLineErrors(String flags, String message) {
    String[] args = ("audit --manifest " + run.manifest + " " + flags).trim().split(" ");
    FlafkaRun audit = flafka(args);
    assertEquals(2, audit.exitCode(), audit.err());
    assertEquals("flafka: " + message + "\n", audit.err());
  }

  @Test
  void manifestErrorsSayWhatToGive() throws Exception {
    Path none = tmp.resolve("none.json");
    FlafkaRun missing = flafka("audit", "--manifest", none.toString(), "--path", landed.toString());
    assertEquals(2, missing.exitCode());
    assertEquals(
        "flafka: manifest "
            + none
            + " does not exist: give the file `flafka load --manifest` wrote\n",
        missing.err());

    Path other = Files.writeString(tmp.resolve("other.json"), "{\"devices\": []}");
    FlafkaRun notOurs =
        flafka("audit", "--manifest", other.toString(), "--path", landed.toString());
    assertEquals(2, notOurs.exitCode());
    assertEquals(
        "flafka: manifest "
            + other
            + " has no manifestVersion: give the file `flafka load --manifest` "
            + "wrote\n",
        notOurs.err());

    Path broken = Files.writeString(tmp.resolve("broken.json"), "{\"manifestVersion\": 1,");
    FlafkaRun notJson =
        flafka("audit", "--manifest", broken.toString(), "--path", landed.toString());
    assertEquals(2, notJson.exitCode());
    assertTrue(
        notJson.err().startsWith("flafka: manifest " + broken + " is not JSON ("), notJson.err());
  }
}
