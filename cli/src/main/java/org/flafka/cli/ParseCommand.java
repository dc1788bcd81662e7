package org.flafka.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.flafka.interceptors.HostNames;
import org.flafka.syslog.Defect;
import org.flafka.syslog.InvalidOptionException;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.SyslogCodes;
import org.flafka.syslog.SyslogParser;
import org.flafka.syslog.SyslogParserOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code flafka parse}: runs the edge agent's lenient parser over messages from files or standard
 * input and prints, per message, one JSON object with everything it understood, so an operator can
 * see how a device's format is read before (or after) pointing the device at an edge agent.
 */
@Command(
    name = "parse",
    mixinStandardHelpOptions = true,
    description =
        "Parse syslog messages and print what was understood, one JSON object per message: "
            + "status, format, defects and the leniency switches that allowed them, every header field, "
            + "structured data, the message, the host header the edge agent would set, and the raw message.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka parse < device.log",
      "  flafka parse --zone Europe/Paris --peer 10.1.2.3 asa.log ios.log",
      "  flafka parse --framing octet-counting capture.bin",
      "  flafka parse --set permit.missing.pri=false < device.log",
      "  flafka parse < device.log | jq -r .status | sort | uniq -c",
    })
final class ParseCommand implements Callable<Integer> {

  /** Largest message accepted, so a binary file or a runaway length cannot exhaust memory. */
  static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  /** How messages are separated in the input. */
  enum Framing {
    NEWLINE("newline"),
    OCTET_COUNTING("octet-counting");

    private final String name;

    Framing(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  @ParentCommand private Flafka root;

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "FILE",
      arity = "0..*",
      description = "Files to read, in order; none or '-': standard input.")
  private List<String> files = new ArrayList<>();

  @Option(
      names = "--framing",
      paramLabel = "FRAMING",
      defaultValue = "newline",
      converter = FramingConverter.class,
      description =
          "newline (default: one message per line, a CR before the LF is dropped, empty lines "
              + "skipped) or octet-counting (RFC 6587: '<length> <message>' frames).")
  private Framing framing;

  @Option(
      names = "--zone",
      paramLabel = "ZONE",
      description =
          "Time zone for timestamps without one, e.g. Europe/Paris or +01:00 (default: UTC, the "
              + "parser option timezone.default).")
  private String zone;

  @Option(
      names = "--received",
      paramLabel = "INSTANT",
      description =
          "Receive time as an ISO-8601 instant, e.g. 2026-11-21T06:30:00Z (default: now). Year-less "
              + "stamps are resolved and implausible ones rejected relative to it.")
  private String received;

  @Option(
      names = "--peer",
      paramLabel = "ADDRESS",
      description =
          "Sender address, as an edge source would record it: the host header falls back to it.")
  private String peer;

  @Option(
      names = "--set",
      paramLabel = "OPTION=VALUE",
      description =
          "A parser option, e.g. permit.missing.pri=false (repeatable). Options: "
              + "timezone.default, timezone.abbreviations, timestamp.max.past.ms, timestamp.max.future.ms "
              + "and the permit.* / detect.* leniency switches; docs/tools/parser.md lists them all.")
  private Map<String, String> parserSettings = new LinkedHashMap<>();

  private final ObjectMapper json = new ObjectMapper();

  @Override
  public Integer call() {
    SyslogParser parser = new SyslogParser(parserOptions());
    long receivedMillis = receivedMillis();
    List<String> inputs = files.isEmpty() ? List.of("-") : files;
    for (String input : inputs) {
      if (!input.equals("-") && !Files.isReadable(Path.of(input))) {
        throw UserException.invalidInput(
            input + ": cannot read the file (missing, or no permission)");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    ParseResult result = new ParseResult();
    for (String input : inputs) {
      boolean isStdin = input.equals("-");
      InputStream stream = null;
      try {
        stream = isStdin ? root.stdin() : Files.newInputStream(Path.of(input));
        FrameReader frames = new FrameReader(new BufferedInputStream(stream), input, framing);
        for (byte[] message = frames.next(); message != null; message = frames.next()) {
          parser.parse(message, 0, message.length, receivedMillis, result);
          out.println(
              json.writeValueAsString(describe(input, frames.messageOffset(), message, result)));
        }
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write JSON", e);
      } catch (IOException e) {
        throw UserException.invalidInput(input + ": cannot read: " + e);
      } finally {
        // Standard input belongs to the caller; only files we opened are ours to close.
        if (stream != null && !isStdin) {
          try {
            stream.close();
          } catch (IOException e) {
            // Nothing was written to it; a failed close loses nothing.
          }
        }
      }
    }
    out.flush();
    return ExitCode.OK;
  }

  private SyslogParserOptions parserOptions() {
    Map<String, String> settings = new LinkedHashMap<>(parserSettings);
    if (zone != null) {
      settings.put(SyslogParserOptions.TIMEZONE_DEFAULT, zone);
    }
    try {
      return SyslogParserOptions.from(settings);
    } catch (InvalidOptionException e) {
      String flag =
          e.key().equals(SyslogParserOptions.TIMEZONE_DEFAULT) && zone != null ? "--zone" : "--set";
      throw UserException.invalidInput(flag + ": " + e.getMessage());
    }
  }

  private long receivedMillis() {
    if (received == null) {
      return System.currentTimeMillis();
    }
    try {
      return Instant.parse(received).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw UserException.invalidInput(
          "--received: '"
              + received
              + "' is not an ISO-8601 instant; write it like 2026-11-21T06:30:00Z or 2026-11-21T06:30:00.5+01:00");
    }
  }

  /**
   * One output line: every field, in a fixed order; absent fields are null so every line has every
   * key.
   */
  private Map<String, Object> describe(
      String input, long offset, byte[] message, ParseResult result) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("input", input);
    line.put("offset", offset);
    line.put("status", result.status().headerValue());
    line.put("format", result.format().headerValue());
    List<String> defects = new ArrayList<>();
    List<String> leniencies = new ArrayList<>();
    for (Defect defect : Defect.values()) {
      if (result.hasDefect(defect)) {
        defects.add(defect.headerValue());
        if (defect.permittedBy() != null) {
          leniencies.add(defect.permittedBy().key());
        }
      }
    }
    line.put("defects", defects);
    line.put("leniencies", leniencies);
    line.put("pri", result.hasPri() ? result.pri() : null);
    line.put("facility", result.hasPri() ? result.facility() : null);
    line.put("facility_name", result.hasPri() ? SyslogCodes.facilityName(result.facility()) : null);
    line.put("severity", result.hasPri() ? result.severity() : null);
    line.put("severity_name", result.hasPri() ? SyslogCodes.severityName(result.severity()) : null);
    line.put("version", result.version() >= 0 ? result.version() : null);
    line.put("timestamp", Instant.ofEpochMilli(result.timestampMillis()).toString());
    line.put("timestamp_ms", result.timestampMillis());
    line.put("timestamp_source", result.timestampSource().headerValue());
    line.put("timestamp_text", result.timestampText());
    line.put(
        "host", HostNames.hostHeader(result.hostname(), peer, true, HostNames.DEFAULT_MAX_LENGTH));
    line.put("hostname", result.hostname());
    line.put("app", result.app());
    line.put("procid", result.procid());
    line.put("msgid", result.msgid());
    line.put("structured_data", result.sdElementCount() > 0 ? result.structuredData() : null);
    line.put("message", result.message());
    line.put("received", Instant.ofEpochMilli(result.receivedMillis()).toString());
    line.put("peer", peer);
    String text = strictUtf8(message);
    if (text != null) {
      line.put("raw", text);
    } else {
      line.put("raw_base64", Base64.getEncoder().encodeToString(message));
    }
    return line;
  }

  /**
   * The message as a string when it is valid UTF-8, else null (the caller then shows it as base64).
   */
  private static String strictUtf8(byte[] message) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(message))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Accepts the framings' names as RFC 6587 writes them; the error lists them. */
  static final class FramingConverter implements ITypeConverter<Framing> {
    @Override
    public Framing convert(String value) {
      for (Framing framing : Framing.values()) {
        if (framing.toString().equals(value)) {
          return framing;
        }
      }
      throw new TypeConversionException(
          "'" + value + "' is not a framing; use newline or octet-counting");
    }
  }

  /**
   * Splits one input into messages and tracks where each starts, for error messages and the
   * output's {@code offset}. Newline framing: LF ends a message, a CR before it is dropped, empty
   * lines are skipped, a last line without LF still counts. Octet counting (RFC 6587 3.4.1): {@code
   * MSG-LEN SP SYSLOG-MSG}, frames back to back; an LF or CR between frames is tolerated, since
   * captures are often written line by line.
   */
  static final class FrameReader {
    private final InputStream in;
    private final String name;
    private final Framing framing;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private long position;
    private long messageOffset;

    FrameReader(InputStream in, String name, Framing framing) {
      this.in = in;
      this.name = name;
      this.framing = framing;
    }

    /** Byte offset in the input of the message {@link #next()} returned last. */
    long messageOffset() {
      return messageOffset;
    }

    /** The next message, or null at the end of the input. */
    byte[] next() throws IOException {
      return framing == Framing.NEWLINE ? nextLine() : nextFrame();
    }

    private byte[] nextLine() throws IOException {
      while (true) {
        line.reset();
        messageOffset = position;
        int b;
        while ((b = read()) >= 0 && b != '\n') {
          if (line.size() == MAX_MESSAGE_BYTES) {
            throw UserException.invalidInput(
                name
                    + ": line at byte "
                    + messageOffset
                    + " is longer than "
                    + MAX_MESSAGE_BYTES
                    + " bytes; is this a syslog file? For RFC 6587 streams use "
                    + "--framing octet-counting");
          }
          line.write(b);
        }
        byte[] bytes = line.toByteArray();
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\r') {
          length--;
        }
        if (length > 0) {
          return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
        }
        if (b < 0) {
          return null;
        }
      }
    }

    private byte[] nextFrame() throws IOException {
      int b = read();
      while (b == '\n' || b == '\r') {
        b = read();
      }
      if (b < 0) {
        return null;
      }
      long frameOffset = position - 1;
      long length = 0;
      int digits = 0;
      while (b >= '0' && b <= '9') {
        length = length * 10 + (b - '0');
        digits++;
        if (length > MAX_MESSAGE_BYTES) {
          throw malformed(frameOffset, "the length exceeds " + MAX_MESSAGE_BYTES + " bytes");
        }
        b = read();
      }
      if (digits == 0) {
        throw malformed(frameOffset, "expected a decimal length, found " + describe(b));
      }
      if (b != ' ') {
        throw malformed(
            frameOffset, "expected a space after the length " + length + ", found " + describe(b));
      }
      messageOffset = position;
      byte[] message = in.readNBytes((int) length);
      position += message.length;
      if (message.length < length) {
        throw malformed(
            frameOffset,
            "the frame announces " + length + " bytes but the input ends after " + message.length);
      }
      return message;
    }

    private UserException malformed(long frameOffset, String what) {
      return UserException.invalidInput(
          name
              + ": malformed octet-counting frame at byte "
              + frameOffset
              + ": "
              + what
              + " (is the input newline-framed? then drop --framing octet-counting)");
    }

    private static String describe(int b) {
      if (b < 0) {
        return "the end of the input";
      }
      if (b >= 0x20 && b < 0x7f) {
        return "'" + (char) b + "'";
      }
      return String.format("byte 0x%02x", b);
    }

    private int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        position++;
      }
      return b;
    }
  }
}
