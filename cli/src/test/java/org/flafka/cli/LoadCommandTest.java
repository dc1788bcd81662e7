package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flafka.load.Framing;
import org.flafka.load.NullReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoadCommandTest {

  @Test
  void loadIsListedInTheRootHelp() {
    assertTrue(flafka("--help").out().contains("  load "), "load missing from flafka --help");
  }

  @Test
  void aRunPrintsJsonAndWritesTheManifest(@TempDir Path dir) throws Exception {
    Path manifest = dir.resolve("sent.json");
    try (NullReceiver receiver = NullReceiver.start(Framing.OCTET_COUNTING)) {
      FlafkaRun run =
          flafka(
              "load",
              "--target",
              "127.0.0.1:" + receiver.address().getPort(),
              "--count",
              "500",
              "--devices",
              "10",
              "--connections",
              "2",
              "--framing",
              "octet-counting",
              "--size",
              "256",
              "--format",
              "json",
              "--quiet",
              "--manifest",
              manifest.toString());
      assertEquals(0, run.exitCode(), run.err());
      assertEquals("", run.err());
      JsonNode summary = new ObjectMapper().readTree(run.out());
      assertEquals(500, summary.get("events").asLong());
      assertEquals(500 * 256, summary.get("bytes").asLong());
      assertEquals(500 * (256 + 4), summary.get("wireBytes").asLong());
      assertTrue(summary.get("complete").asBoolean());
      assertEquals(500, receiver.awaitBytes(500 * 260, 10_000) / 260);
      JsonNode written = new ObjectMapper().readTree(Files.readAllBytes(manifest));
      assertEquals(10, written.get("devices").size());
      written.get("devices").forEach(device -> assertEquals(50, device.get("sent").asLong()));
    }
  }

  @Test
  void theTextSummarySaysWhatWasSentAndProgressGoesToStderr() throws Exception {
    try (NullReceiver receiver = NullReceiver.start(Framing.NONE)) {
      FlafkaRun run =
          flafka(
              "load",
              "--target",
              "127.0.0.1:" + receiver.address().getPort(),
              "--count",
              "1000",
              "--rate",
              "2000",
              "--devices",
              "4");
      assertEquals(0, run.exitCode(), run.err());
      assertTrue(run.out().startsWith("sent 1,000 events (0.2 MB) in "), run.out());
      assertTrue(
          run.out()
              .contains(
                  "; tcp newline to 127.0.0.1:"
                      + receiver.address().getPort()
                      + " over 1 connection, 4 devices"),
          run.out());
      // Half a second at 2,000/s: the progress line (every second) may or may not come; nothing
      // else may.
      assertTrue(run.err().isEmpty() || run.err().startsWith("flafka load: "), run.err());
    }
  }

  @Test
  void measureNullReportsWhatTheReceiverGot() {
    FlafkaRun run = flafka("load", "--measure-null", "--count", "20000", "--quiet");
    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.out().contains("null receiver got 4,020,000 of 4,020,000 bytes"), run.out());
  }

  @Test
  void tlsInsecureWarnsOnStderr() throws Exception {
    int port = closedPort();
    FlafkaRun run =
        flafka(
            "load",
            "--target",
            "127.0.0.1:" + port,
            "--protocol",
            "tls",
            "--tls-insecure",
            "--count",
            "1");
    assertTrue(
        run.err().startsWith("flafka load: WARNING: --tls-insecure accepts any certificate"),
        run.err());
  }

  @Test
  void aRefusedTargetExitsThreeWithOneLine() throws Exception {
    int port = closedPort();
    FlafkaRun run = flafka("load", "--target", "127.0.0.1:" + port, "--count", "10");
    assertEquals(ExitCode.UNEXPECTED_STATE, run.exitCode());
    assertEquals(
        "flafka: cannot connect to 127.0.0.1:"
            + port
            + " over tcp: connection refused; is the "
            + "receiver listening there?"
            + System.lineSeparator(),
        run.err());
    assertEquals("", run.out());
  }

  @Test
  void aUdpTargetThatRefusesDatagramsExitsThree() throws Exception {
    int port = closedUdpPort();
    FlafkaRun run =
        flafka(
            "load",
            "--protocol",
            "udp",
            "--target",
            "127.0.0.1:" + port,
            "--count",
            "100000",
            "--rate",
            "20000",
            "--quiet");
    assertEquals(ExitCode.UNEXPECTED_STATE, run.exitCode(), run.err());
    assertTrue(
        run.err().startsWith("flafka: connection 0 to 127.0.0.1:" + port + " failed after "),
        run.err());
    assertTrue(
        run.err()
            .endsWith(
                " events: the receiver refused UDP datagrams (ICMP port unreachable); is it "
                    + "listening on 127.0.0.1:"
                    + port
                    + "?"
                    + System.lineSeparator()),
        run.err());
    assertTrue(run.out().startsWith("sent "), run.out());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--mix rfc5424=4,syslog=1|flafka: --mix: unknown format 'syslog'; use rfc5424, rfc3164, asa, pix, ios, junk",
        "--protocol udp --size 70000|flafka: message size 70000 is above 65507 bytes, the most one UDP datagram "
            + "carries; use smaller sizes or --protocol tcp",
        "--rate 0|flafka: --rate must be above 0 events/s (or max) but was 0; to send nothing, don't run load",
        "--rate fast|flafka: --rate must be events per second or max but was 'fast'",
        "--protocol sctp|flafka: --protocol must be udp, tcp or tls but was 'sctp'",
        "--framing lf|flafka: --framing must be newline or octet-counting but was 'lf'",
        "--duration 3x|flafka: --duration '3x' is not a duration (e.g. 30s, 5m, 500ms)",
        "--format xml|flafka: --format must be text or json but was 'xml'",
        "--connections 3 --devices 2|flafka: --connections 3 is more than --devices 2: each device sends on one "
            + "connection, which keeps its sequence in order; use at most 2 connections or more devices",
        "--manifest /nonexistent-dir/sent.json|flafka: --manifest /nonexistent-dir/sent.json: directory "
            + "/nonexistent-dir does not exist",
      })
  void badFlagsExitTwoWithOneLineNamingTheFlag(String flags, String message) {
    String[] args = ("load --target 127.0.0.1:9 --count 10 " + flags).split(" ");
    FlafkaRun run = flafka(args);
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode(), run.err());
    assertEquals(message + System.lineSeparator(), run.err());
  }

  @Test
  void aTargetMustBeHostAndPort() {
    assertEquals(
        "flafka: --target 'edge1' is not HOST:PORT (e.g. 127.0.0.1:514)" + System.lineSeparator(),
        flafka("load", "--target", "edge1", "--count", "1").err());
    assertEquals(
        "flafka: --target HOST:PORT is required (or --measure-null)" + System.lineSeparator(),
        flafka("load", "--count", "1").err());
    FlafkaRun notANumber = flafka("load", "--target", "127.0.0.1:9", "--count", "ten");
    assertEquals(ExitCode.INVALID_INPUT, notANumber.exitCode());
    assertFalse(notANumber.err().contains("Exception"), notANumber.err());
  }

  private static int closedUdpPort() throws Exception {
    try (java.net.DatagramSocket socket =
        new java.net.DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
