package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.flafka.syslog.SyslogParserOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParseCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RECEIVED = "2026-11-21T06:30:05Z";

  @TempDir Path dir;

  /** The outcome of one command line: exit code, standard output, standard error. */
  private record Run(int exitCode, String out, String err) {
    List<JsonNode> lines() throws IOException {
      List<JsonNode> nodes = new ArrayList<>();
      for (String line : out.split("\n")) {
        if (!line.isEmpty()) {
          nodes.add(JSON.readTree(line));
        }
      }
      return nodes;
    }
  }

  private static Run run(byte[] stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        Flafka.execute(
            new ByteArrayInputStream(stdin), new PrintWriter(out), new PrintWriter(err), args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private static Run run(String stdin, String... args) {
    return run(stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  @Test
  void theHelpNamesEveryParserOptionThatIsNotALeniencySwitch() {
    Run help = run("", "parse", "--help");
    // picocli wraps long words after a dot: "timezone.\n abbreviations"
    String text = help.out().replaceAll("\\.\\s+", ".");
    for (String key : SyslogParserOptions.keys()) {
      if (!key.startsWith("permit.") && !key.startsWith("detect.")) {
        assertTrue(
            text.contains(key),
            "flafka parse --help does not name parser option " + key + ":\n" + help.out());
      }
    }
  }

  private static String[] parse(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "parse";
    all[1] = "--received";
    all[2] = RECEIVED;
    System.arraycopy(args, 0, all, 3, args.length);
    return all;
  }

  @Test
  void printsEveryFieldOfEachLineOfStandardInput() throws IOException {
    String rfc5424 =
        "<165>1 2026-11-21T06:30:00.123Z Edge-Router-7.example.net evntslog 1234 ID47 "
            + "[exampleSDID@32473 iut=\"3\" eventSource=\"App\"] link flap";
    String junk = "GET /index.html HTTP/1.1";
    Run run = run(rfc5424 + "\r\n\n" + junk + "\n", parse("--peer", "10.9.8.7"));

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    List<JsonNode> lines = run.lines();
    assertEquals(2, lines.size(), run.out());

    JsonNode first = lines.get(0);
    assertEquals("-", first.get("input").asText());
    assertEquals(0, first.get("offset").asLong());
    assertEquals("ok", first.get("status").asText());
    assertEquals("rfc5424", first.get("format").asText());
    assertEquals(0, first.get("defects").size());
    assertEquals(165, first.get("pri").asInt());
    assertEquals(20, first.get("facility").asInt());
    assertEquals("local4", first.get("facility_name").asText());
    assertEquals(5, first.get("severity").asInt());
    assertEquals("notice", first.get("severity_name").asText());
    assertEquals(1, first.get("version").asInt());
    assertEquals("2026-11-21T06:30:00.123Z", first.get("timestamp").asText());
    assertEquals("message", first.get("timestamp_source").asText());
    assertEquals("2026-11-21T06:30:00.123Z", first.get("timestamp_text").asText());
    assertEquals("edge-router-7.example.net", first.get("host").asText());
    assertEquals("Edge-Router-7.example.net", first.get("hostname").asText());
    assertEquals("evntslog", first.get("app").asText());
    assertEquals("1234", first.get("procid").asText());
    assertEquals("ID47", first.get("msgid").asText());
    assertEquals("3", first.get("structured_data").get("exampleSDID@32473").get("iut").asText());
    assertEquals(
        "App", first.get("structured_data").get("exampleSDID@32473").get("eventSource").asText());
    assertEquals("link flap", first.get("message").asText());
    assertEquals(RECEIVED, first.get("received").asText());
    assertEquals("10.9.8.7", first.get("peer").asText());
    assertEquals(rfc5424, first.get("raw").asText());
    assertFalse(first.has("raw_base64"));

    JsonNode second = lines.get(1);
    // The CRLF and the empty line are framing, not messages: the junk starts 3 bytes after the
    // first line.
    assertEquals(rfc5424.length() + 3, second.get("offset").asLong());
    assertEquals("raw", second.get("status").asText());
    assertEquals("unknown", second.get("format").asText());
    assertEquals("10.9.8.7", second.get("host").asText());
    assertTrue(second.get("hostname").isNull());
    assertTrue(second.get("facility").isNull());
    assertEquals(RECEIVED, second.get("timestamp").asText());
    assertEquals("received", second.get("timestamp_source").asText());
    assertEquals(junk, second.get("raw").asText());
  }

  @Test
  void namesTheDefectsAndTheSwitchesThatAllowedThem() throws IOException {
    // No PRI: tolerated by permit.missing.pri (on by default).
    JsonNode line = run("Nov 21 06:30:00 sw1 app: hi\n", parse()).lines().get(0);
    assertEquals("lenient", line.get("status").asText());
    assertTrue(
        JSON.createArrayNode().add("missing-pri").equals(line.get("defects")), line.toString());
    assertTrue(
        JSON.createArrayNode().add("permit.missing.pri").equals(line.get("leniencies")),
        line.toString());

    JsonNode strict =
        run("Nov 21 06:30:00 sw1 app: hi\n", parse("--set", "permit.missing.pri=false"))
            .lines()
            .get(0);
    assertEquals("raw", strict.get("status").asText());
  }

  @Test
  void zoneLessStampsAreReadInTheGivenZone() throws IOException {
    JsonNode line =
        run("<13>Nov 21 07:30:00 sw1 app: hi\n", parse("--zone", "Europe/Paris")).lines().get(0);
    assertEquals("2026-11-21T06:30:00Z", line.get("timestamp").asText());
    assertEquals("Nov 21 07:30:00", line.get("timestamp_text").asText());
  }

  @Test
  void bytesThatAreNotUtf8AreShownAsBase64() throws IOException {
    byte[] latin1 =
        "<14>Nov 21 06:30:00 printer lpd: J\u00fcrgen\n".getBytes(StandardCharsets.ISO_8859_1);
    JsonNode line = run(latin1, parse()).lines().get(0);
    assertFalse(line.has("raw"));
    byte[] message = java.util.Arrays.copyOf(latin1, latin1.length - 1);
    assertEquals(Base64.getEncoder().encodeToString(message), line.get("raw_base64").asText());
  }

  @Test
  void withoutHostnameOrPeerTheHostIsUnknown() throws IOException {
    assertEquals("unknown", run("junk\n", parse()).lines().get(0).get("host").asText());
  }

  @Test
  void readsOctetCountedFramesFromFilesInOrder() throws IOException {
    String a = "<13>1 - host-a app - - - first";
    String b = "<13>1 - host-b app - - - second\nwith a line feed inside";
    Path first = dir.resolve("a.bin");
    Files.writeString(
        first, a.length() + " " + a + b.getBytes(StandardCharsets.UTF_8).length + " " + b);
    Path second = dir.resolve("b.log");
    Files.writeString(second, "<13>1 - host-c app - - - third\n");

    Run run = run("", parse("--framing", "octet-counting", first.toString()));
    assertEquals(0, run.exitCode(), run.err());
    List<JsonNode> lines = run.lines();
    assertEquals(2, lines.size(), run.out());
    assertEquals(first.toString(), lines.get(0).get("input").asText());
    assertEquals(3, lines.get(0).get("offset").asLong());
    assertEquals(a, lines.get(0).get("raw").asText());
    assertEquals(b, lines.get(1).get("raw").asText());
    assertEquals(3 + a.length() + 3, lines.get(1).get("offset").asLong());

    Run both = run("", parse(first.toString(), second.toString()));
    List<JsonNode> newlineFramed = both.lines();
    assertEquals(
        second.toString(), newlineFramed.get(newlineFramed.size() - 1).get("input").asText());
    assertEquals("host-c", newlineFramed.get(newlineFramed.size() - 1).get("hostname").asText());
  }

  @Test
  void aMalformedFrameIsOneLineNamingTheFileAndOffset() throws IOException {
    Path capture = dir.resolve("capture.bin");
    String good = "<13>1 - h app - - - ok";
    Files.writeString(capture, good.length() + " " + good + "\nGET / HTTP/1.1\n");
    Run run = run("", parse("--framing", "octet-counting", capture.toString()));

    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertEquals(
        "flafka: "
            + capture
            + ": malformed octet-counting frame at byte "
            + (good.length() + 4)
            + ": expected a decimal length, found 'G' (is the input newline-framed? then drop --framing "
            + "octet-counting)\n",
        run.err());
    // What came before the bad frame was still printed.
    assertEquals(1, run.lines().size());
  }

  @Test
  void aTruncatedFrameIsReported() {
    Run run = run("40 <13>1 - h app - - - short", parse("--framing", "octet-counting"));
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertEquals(
        "flafka: -: malformed octet-counting frame at byte 0: the frame announces 40 bytes but the "
            + "input ends after 25 (is the input newline-framed? then drop --framing octet-counting)\n",
        run.err());
  }

  @Test
  void aMissingFileIsReportedBeforeAnythingIsPrinted() {
    Path missing = dir.resolve("nope.log");
    Run run = run("", parse(missing.toString()));
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertEquals(
        "flafka: " + missing + ": cannot read the file (missing, or no permission)\n", run.err());
    assertEquals("", run.out());
  }

  @Test
  void badOptionValuesAreOneLineErrors() {
    Run received = run("", "parse", "--received", "yesterday");
    assertEquals(ExitCode.INVALID_INPUT, received.exitCode());
    assertEquals(
        "flafka: --received: 'yesterday' is not an ISO-8601 instant; write it like 2026-11-21T06:30:00Z "
            + "or 2026-11-21T06:30:00.5+01:00\n",
        received.err());

    Run zone = run("", parse("--zone", "Mars/Olympus"));
    assertEquals(ExitCode.INVALID_INPUT, zone.exitCode());
    assertTrue(
        zone.err()
            .startsWith(
                "flafka: --zone: Invalid value \"Mars/Olympus\" for option "
                    + "\"timezone.default\": "),
        zone.err());
    assertEquals(1, zone.err().lines().count(), zone.err());

    Run option = run("", parse("--set", "permit.missing.pri=maybe"));
    assertEquals(ExitCode.INVALID_INPUT, option.exitCode());
    assertEquals(
        "flafka: --set: Invalid value \"maybe\" for option \"permit.missing.pri\": expected true or false\n",
        option.err());

    Run framing = run("", parse("--framing", "lf"));
    assertEquals(ExitCode.INVALID_INPUT, framing.exitCode());
    assertTrue(
        framing.err().contains("'lf' is not a framing; use newline or octet-counting"),
        framing.err());
  }

  @Test
  void isListedInTheRootHelp() {
    Run help = run("", "--help");
    assertEquals(0, help.exitCode());
    assertTrue(help.out().contains("parse "), help.out());
  }
}
