package org.flafka.syslog;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares a {@link ParseResult} with what a corpus record's source asserts, field by field,
 * translating each source's way of printing a field into ours. The translations that are more than
 * renaming are recorded as normalisations so the summary can list them:
 *
 * <ul>
 *   <li>{@code rsyslog-space-after-tag}: rsyslog's message keeps the space that follows the tag;
 *       ours starts after it.
 *   <li>{@code rsyslog-escapes}: rsyslog prints control characters (and, where the test enables it,
 *       8-bit bytes) as {@code #ooo} or C escapes; our message is the raw bytes, escaped the same
 *       way to compare.
 *   <li>{@code default-pri}: rsyslog fills in PRI 13 (user.notice, RFC 3164 4.3.3) for a message
 *       without PRI; we report facility and severity absent.
 *   <li>{@code bom}: go-syslog keeps the UTF-8 BOM in the message; our message view starts after
 *       it.
 *   <li>{@code nil-dash}: fluentd prints an RFC 5424 NILVALUE as "-"; we report the field absent.
 *   <li>{@code millis}: sources keep micro- or nanoseconds; we keep milliseconds, so times are
 *       compared to the millisecond.
 * </ul>
 *
 * go-syslog's {@code partial} result for an invalid message is compared on the header fields it had
 * read before the error (pri, version, timestamp, hostname, app, procid, msgid); its partial
 * structured data and message stop at the error while a lenient parse goes on, so those two are not
 * compared.
 */
final class CorpusComparison {
  /** Keys that only describe or repeat something compared elsewhere. */
  private static final Set<String> INFORMATIONAL =
      Set.of(
          "facility_name",
          "severity_name",
          "_rsyslog_output_line",
          "timestamp_note",
          "timestamp_yearless",
          "timestamp_go",
          "alt_expectation_default",
          "alt_expectation_regexp",
          "desired_but_not_met",
          "error",
          "partial");

  /** Keys stating that the source rejected the message. */
  static final Set<String> REJECTION_KEYS =
      Set.of(
          "valid",
          "parse_error",
          "parse_failed",
          "parse_rejected_by_strict_rfc3164",
          "status",
          "headerless",
          "rfc5424_regexp_match");

  private final CorpusRecord record;
  private final ParseResult result;
  private final List<String> mismatches = new ArrayList<>();
  private final Set<String> normalisations = new TreeSet<>();

  private CorpusComparison(CorpusRecord record, ParseResult result) {
    this.record = record;
    this.result = result;
  }

  /**
   * Differences between {@code result} and {@code expect}; {@code normalisations} receives those
   * applied.
   */
  static List<String> compare(
      CorpusRecord record, JsonNode expect, ParseResult result, Set<String> normalisations) {
    CorpusComparison comparison = new CorpusComparison(record, result);
    comparison.compareAll(expect);
    normalisations.addAll(comparison.normalisations);
    return comparison.mismatches;
  }

  private void compareAll(JsonNode expect) {
    for (Iterator<Map.Entry<String, JsonNode>> it = expect.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      compareField(field.getKey(), field.getValue(), expect, false);
    }
    if (expect.hasNonNull("partial") && !expect.path("valid").asBoolean(false)) {
      for (Iterator<Map.Entry<String, JsonNode>> it = expect.get("partial").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (!field.getKey().equals("structured_data") && !field.getKey().startsWith("message")) {
          compareField(field.getKey(), field.getValue(), expect, true);
        }
      }
    }
  }

  private void compareField(String key, JsonNode value, JsonNode expect, boolean partial) {
    if (INFORMATIONAL.contains(key)) {
      return;
    }
    String source = record.sourceName();
    switch (key) {
      case "pri" -> compareInt(key, value, result.pri(), expect);
      case "facility" -> compareInt(key, value, result.facility(), expect);
      case "severity" -> compareInt(key, value, result.severity(), expect);
      case "version" -> compareInt(key, value, result.version(), expect);
      case "hostname" -> compareText(key, value, result.hostname());
      case "appname", "appname_rfc5424" -> compareText(key, value, result.app());
      case "procid" -> compareText(key, value, result.procid());
      case "msgid" -> compareText(key, value, result.msgid());
      case "tag" -> compareTag(value);
      case "message" -> compareMessage(value);
      case "message_b64" -> check(key, Base64.getDecoder().decode(value.asText()), messageBytes());
      case "message_absent" -> check(key, "", result.message());
      case "structured_data" -> compareStructuredData(value);
      case "structured_data_rsyslog_json" -> compareRsyslogStructuredData(value);
      case "timestamp", "timestamp_rfc3164_buggyday" -> compareSourceTimestamp(key, value.asText());
      case "timestamp_iso", "timestamp_utc" -> compareIsoTimestamp(key, value.asText());
      case "timestamp_local_naive" ->
          compareLocalTimestamp(key, LocalDateTime.parse(value.asText()));
      case "timestamp_subseconds" -> compareSubseconds(value.asText());
      case "timestamp_absent", "timestamp_absent_uses_receive_time" ->
          check(key, TimestampSource.RECEIVED, result.timestampSource());
      case "hostname_from_receiver", "hostname_absent" -> check(key, null, result.hostname());
      case "valid" -> {
        if (!partial) {
          compareAccepted(key, value.asBoolean());
        }
      }
      case "parse_error", "parse_failed", "parse_rejected_by_strict_rfc3164" ->
          compareAccepted(key, false);
      case "rfc5424_regexp_match" -> compareAccepted(key, value.asBoolean());
      case "headerless" -> check(key, ParseStatus.RAW, result.status());
      case "status" -> {
        if (value.isNull()) {
          check(key, true, result.status() != ParseStatus.RAW);
        } else {
          check(
              key,
              ParseStatus.RAW,
              result.status()); // Flume "Invalid": body kept whole, nothing parsed
        }
      }
      case "protocol" -> compareProtocol(value.asText());
      case "raw", "raw_escaped" ->
          check(key, true, record.input().length > 0 && result.inputLength() > 0);
      case "ours_status" -> check("status", value.asText(), result.status().headerValue());
      case "ours_format" -> check("format", value.asText(), result.format().headerValue());
      case "ours_defects" -> check("defects", value.asText(), result.defectNames());
      default -> mismatches.add(key + ": no rule to compare this " + source + " key");
    }
  }

  // ------------------------------------------------------------------------------------------
  // scalar fields

  private void compareInt(String key, JsonNode expected, int actual, JsonNode expect) {
    Integer ours = actual < 0 ? null : actual;
    if (expected.isNull()) {
      check(key, null, ours);
      return;
    }
    int value = expected.asInt();
    boolean missingPri = result.hasDefect(Defect.MISSING_PRI) && ours == null;
    if (missingPri
        && record.sourceName().equals("rsyslog")
        && ((key.equals("pri") && value == 13)
            || (key.equals("facility") && value == 1)
            || (key.equals("severity") && value == 5))) {
      normalisations.add("default-pri");
      return;
    }
    if (record.sourceName().equals("flume")
        && expect.path("status").asText().equals("Invalid")
        && value == 0) {
      return; // Flume's placeholder for "none" on an invalid event
    }
    check(key, value, ours);
  }

  private void compareText(String key, JsonNode expected, String actual) {
    String value = expected.isNull() ? null : expected.asText();
    if (value != null && actual == null) {
      if (value.equals("-")
          && (record.sourceName().equals("fluentd") || key.equals("appname_rfc5424"))) {
        normalisations.add("nil-dash");
        return;
      }
      if (value.isEmpty() && record.sourceName().equals("rsyslog")) {
        return; // rsyslog prints an absent field as ""
      }
    }
    check(key, value, actual);
  }

  /** rsyslog's %syslogtag%: the raw tag word (app, [pid] and ':'), "" or "-" when there is none. */
  private void compareTag(JsonNode expected) {
    String value = expected.asText();
    String ours = "";
    if (result.format() == SyslogFormat.RFC5424 && result.app() != null) {
      ours = result.app() + (result.procid() == null ? "" : "[" + result.procid() + "]");
    } else if (result.appOffset() >= 0) {
      int end =
          result.messageOffset(); // the tag runs up to the message, less the space that separates
      // them
      if (end > result.appOffset()
          && (result.buffer()[end - 1] == ' ' || result.buffer()[end - 1] == '\t')) {
        end--;
      }
      ours =
          new String(
              result.buffer(),
              result.appOffset(),
              end - result.appOffset(),
              StandardCharsets.UTF_8);
    }
    check("tag", value.equals("-") ? "" : value, ours);
  }

  private void compareAccepted(String key, boolean accepted) {
    if (accepted) {
      check(key, ParseStatus.OK, result.status());
    } else if (result.status() == ParseStatus.OK) {
      mismatches.add(
          key
              + ": the source rejects this message, we parsed it as ok ("
              + result.format().headerValue()
              + ")");
    }
  }

  private void compareProtocol(String protocol) {
    if (protocol.startsWith("RFC5424")) {
      check("protocol", SyslogFormat.RFC5424, result.format());
      int open = protocol.indexOf('(');
      if (open > 0) {
        check(
            "version",
            Integer.parseInt(protocol.substring(open + 1, protocol.length() - 1)),
            result.version());
      }
    } else {
      check("protocol", SyslogFormat.RFC3164, result.format());
    }
  }

  // ------------------------------------------------------------------------------------------
  // message

  private byte[] messageBytes() {
    byte[] bytes = new byte[result.messageLength()];
    System.arraycopy(result.buffer(), result.messageOffset(), bytes, 0, bytes.length);
    return bytes;
  }

  private void compareMessage(JsonNode expected) {
    if (expected.isNull()) {
      check("message", "", result.message());
      return;
    }
    String value = expected.asText();
    String ours = result.message();
    switch (record.sourceName()) {
      case "go-syslog" -> {
        if (value.startsWith("\ufeff") && !ours.startsWith("\ufeff") && hasBomBeforeMessage()) {
          normalisations.add("bom");
          value = value.substring(1);
        }
      }
      case "rsyslog" -> {
        String escaped = rsyslogEscape(messageBytes());
        if (!escaped.equals(ours)) {
          normalisations.add("rsyslog-escapes");
        }
        ours = escaped;
        if (!value.equals(ours) && value.startsWith(" ") && value.substring(1).equals(ours)) {
          normalisations.add("rsyslog-space-after-tag");
          return;
        }
      }
      default -> {}
    }
    check("message", value, ours);
  }

  private boolean hasBomBeforeMessage() {
    int start = result.messageOffset();
    byte[] b = result.buffer();
    return start >= 3
        && b[start - 3] == (byte) 0xEF
        && b[start - 2] == (byte) 0xBB
        && b[start - 1] == (byte) 0xBF;
  }

  /** rsyslog's on-receive escaping as the record's test script configured it. */
  private String rsyslogEscape(byte[] message) {
    String script = record.sourcePath();
    boolean escapeControl = !script.contains("tabescape_off") && !script.contains("imtcp-NUL");
    boolean cStyle = script.contains("pmsnare-cccstyle") || script.contains("pmsnare-ccbackslash");
    boolean escape8Bit = script.contains("8bit_escape");
    StringBuilder text = new StringBuilder();
    int plainStart = 0;
    for (int i = 0; i < message.length; i++) {
      int c = message[i] & 0xff;
      boolean control = c < 0x20 || c == 0x7f;
      if ((control && escapeControl) || (c >= 0x80 && escape8Bit)) {
        text.append(new String(message, plainStart, i - plainStart, StandardCharsets.UTF_8));
        if (cStyle && c == '\t') {
          text.append("\\t");
        } else {
          text.append('#').append(String.format("%03o", c));
        }
        plainStart = i + 1;
      }
    }
    text.append(
        new String(message, plainStart, message.length - plainStart, StandardCharsets.UTF_8));
    return text.toString();
  }

  // ------------------------------------------------------------------------------------------
  // structured data

  private void compareStructuredData(JsonNode expected) {
    if (expected.isTextual()) { // fluentd: the raw text, "-" for nil
      String text = expected.asText();
      if (text.equals("-") && result.structuredDataText() == null) {
        normalisations.add("nil-dash");
        return;
      }
      check("structured_data", text, result.structuredDataText());
      return;
    }
    if (expected.isArray()) { // syslog-loose: [{"id", "params": [[name, value]]}]
      List<String> theirs = new ArrayList<>();
      for (JsonNode element : expected) {
        StringBuilder text = new StringBuilder(element.get("id").asText()).append(':');
        for (JsonNode param : element.get("params")) {
          text.append(' ').append(param.get(0).asText()).append('=').append(param.get(1).asText());
        }
        theirs.add(text.toString());
      }
      List<String> ours = new ArrayList<>();
      for (int e = 0; e < result.sdElementCount(); e++) {
        StringBuilder text = new StringBuilder(result.sdId(e)).append(':');
        for (int p = 0; p < result.sdParamCount(e); p++) {
          text.append(' ')
              .append(result.sdParamName(e, p))
              .append('=')
              .append(result.sdParamValue(e, p));
        }
        ours.add(text.toString());
      }
      check("structured_data", theirs, ours);
      return;
    }
    // go-syslog: {"id": {"name": "value"}}
    check("structured_data", toMap(expected, false), result.structuredData());
  }

  /** rsyslog mmpstrucdata's JSON, which lower-cases SD-IDs and param names by default. */
  private void compareRsyslogStructuredData(JsonNode expected) {
    try {
      JsonNode json = CorpusRecord.JSON.readTree(expected.asText());
      Map<String, Map<String, String>> ours = new LinkedHashMap<>();
      result
          .structuredData()
          .forEach(
              (id, params) -> {
                Map<String, String> lowered = new LinkedHashMap<>();
                params.forEach(
                    (name, value) -> lowered.put(name.toLowerCase(java.util.Locale.ROOT), value));
                ours.put(id.toLowerCase(java.util.Locale.ROOT), lowered);
              });
      check("structured_data", toMap(json, false), ours);
    } catch (java.io.IOException e) {
      mismatches.add("structured_data_rsyslog_json: unreadable JSON " + e.getMessage());
    }
  }

  private static Map<String, Map<String, String>> toMap(JsonNode elements, boolean lowerCase) {
    Map<String, Map<String, String>> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = elements.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> element = it.next();
      Map<String, String> params = new LinkedHashMap<>();
      element
          .getValue()
          .fields()
          .forEachRemaining(p -> params.put(p.getKey(), p.getValue().asText()));
      map.put(element.getKey(), params);
    }
    return map;
  }

  // ------------------------------------------------------------------------------------------ time

  /**
   * Our timestamp as the wall-clock time it was written in (its own offset, or the default zone's).
   */
  private LocalDateTime ourLocalTime() {
    long seconds =
        Math.floorDiv(result.timestampMillis(), 1000) + result.timestampUtcOffsetSeconds();
    int nanos = (int) Math.floorMod(result.timestampMillis(), 1000) * 1_000_000;
    return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
  }

  private boolean fromMessage(String key) {
    if (result.timestampSource() != TimestampSource.MESSAGE) {
      mismatches.add(
          key
              + ": the source read a timestamp, ours is the receive time ("
              + result.defectNames()
              + ")");
      return false;
    }
    return true;
  }

  /**
   * As the source prints it: "Mmm dd hh:mm:ss[.fff]" (local, year ignored) or an RFC 3339
   * date-time.
   */
  private void compareSourceTimestamp(String key, String text) {
    if (!text.isEmpty() && Character.isDigit(text.charAt(0))) {
      compareIsoTimestamp(key, text);
      return;
    }
    if (!fromMessage(key)) {
      return;
    }
    String[] parts = text.trim().split("\\s+");
    int month = Timestamps.monthAt(parts[0].getBytes(StandardCharsets.US_ASCII), 0, 3);
    int day = Integer.parseInt(parts[1]);
    String[] time = parts[2].split("[:.]");
    LocalDateTime ours = ourLocalTime();
    String theirs = String.format("%02d-%02d %s:%s:%s", month, day, time[0], time[1], time[2]);
    String mine =
        String.format(
            "%02d-%02d %02d:%02d:%02d",
            ours.getMonthValue(),
            ours.getDayOfMonth(),
            ours.getHour(),
            ours.getMinute(),
            ours.getSecond());
    if (time.length > 3) {
      theirs += "." + (time[3] + "00").substring(0, 3);
      mine += String.format(".%03d", ours.getNano() / 1_000_000);
    }
    check(key, theirs, mine);
  }

  /** RFC 3339 with any offset up to 23:59 (go-syslog accepts -23:59, beyond java.time's 18:00). */
  private static final Pattern ISO =
      Pattern.compile(
          "(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?)(Z|[+-]\\d{2}:\\d{2})?");

  private void compareIsoTimestamp(String key, String text) {
    Matcher matcher = ISO.matcher(text);
    if (!matcher.matches()) {
      mismatches.add(key + ": unreadable source timestamp " + text);
      return;
    }
    LocalDateTime local = LocalDateTime.parse(matcher.group(1));
    if (matcher.group(2) == null) {
      compareLocalTimestamp(key, local); // no offset: the stamp's local time
      return;
    }
    if (!fromMessage(key)) {
      return;
    }
    String zone = matcher.group(2);
    int offset =
        zone.equals("Z")
            ? 0
            : (zone.charAt(0) == '-' ? -1 : 1)
                * (Integer.parseInt(zone.substring(1, 3)) * 3600
                    + Integer.parseInt(zone.substring(4, 6)) * 60);
    long theirMillis =
        (local.toEpochSecond(ZoneOffset.UTC) - offset) * 1000 + local.getNano() / 1_000_000;
    if (local.getNano() % 1_000_000 != 0) {
      normalisations.add("millis");
    }
    check(key, theirMillis, result.timestampMillis());
  }

  private void compareLocalTimestamp(String key, LocalDateTime theirs) {
    if (!fromMessage(key)) {
      return;
    }
    if (theirs.getNano() % 1_000_000 != 0) {
      normalisations.add("millis");
    }
    check(key, theirs.withNano(theirs.getNano() / 1_000_000 * 1_000_000), ourLocalTime());
  }

  private void compareSubseconds(String digits) {
    if (!fromMessage("timestamp_subseconds")) {
      return;
    }
    int millis = Integer.parseInt((digits + "00").substring(0, 3));
    if (digits.length() > 3) {
      normalisations.add("millis");
    }
    check("timestamp_subseconds", millis, (int) Math.floorMod(result.timestampMillis(), 1000));
  }

  // ------------------------------------------------------------------------------------------
  // helpers

  private void check(String key, Object expected, Object actual) {
    boolean same =
        expected instanceof byte[] e && actual instanceof byte[] a
            ? java.util.Arrays.equals(e, a)
            : Objects.equals(expected, actual);
    if (!same) {
      mismatches.add(key + ": source " + show(expected) + ", ours " + show(actual));
    }
  }

  private static String show(Object value) {
    if (value instanceof byte[] bytes) {
      return "0x" + java.util.HexFormat.of().formatHex(bytes);
    }
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }
}
