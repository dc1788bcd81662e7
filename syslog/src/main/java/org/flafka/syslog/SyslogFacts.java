package org.flafka.syslog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts about a syslog message, by name, and the one place where a parse becomes their values:
 * the edge's syslog interceptor sets its headers through the static methods here, and {@link
 * #derive} gives the facts the edge did not carry back from the body, so the two cannot disagree.
 *
 * <p>What the body cannot give back is carried ({@link #CARRIED}): the event time and its flags,
 * the host (made path-safe at the edge), the receive time, the sender, the site, the event id. The
 * rest ({@link #DERIVED}) comes from parsing the body again with the same leniency switches and
 * zone abbreviations the edge used. The default zone and the plausibility window need not match:
 * they only decide the event time and whether it was rejected, both of which are carried; {@link
 * #derive} parses without the window and reads the rejection from {@link #TIMESTAMP_REJECTED}.
 *
 * <p>For a consumer that reads the edge's Kafka records with the plain Kafka client (JDK only, no
 * Flume):
 *
 * <pre>{@code
 * SyslogFacts facts = new SyslogFacts(SyslogParserOptions.defaults());
 * Map<String, String> carried = new HashMap<>();
 * for (Header header : record.headers()) {
 *   carried.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
 * }
 * Map<String, String> all = facts.derive(record.value(), carried);
 * all.get(SyslogFacts.APP); // "sshd"
 * }</pre>
 *
 * Thread-safe: each thread parses into its own reusable result.
 */
public final class SyslogFacts {

  /**
   * Event time, epoch ms UTC: the message's own, else the receive time (see {@link
   * #TIMESTAMP_SOURCE}).
   */
  public static final String TIMESTAMP = "timestamp";

  /**
   * Where {@link #TIMESTAMP} came from: message, received (edge) or core (repaired by the core).
   */
  public static final String TIMESTAMP_SOURCE = "timestamp_source";

  /**
   * A time found implausible and replaced in {@link #TIMESTAMP}, as it was; only on such events.
   */
  public static final String TIMESTAMP_REJECTED = "timestamp_rejected";

  /**
   * The device's hostname from the message, else the sender's address, made safe for a path
   * component.
   */
  public static final String HOST = "host";

  /** Syslog facility number, when the message has one. */
  public static final String FACILITY = "facility";

  /** Syslog severity number, when the message has one. */
  public static final String SEVERITY = "severity";

  /** Application name (RFC 5424 APP-NAME, or the RFC 3164 tag), when the message has one. */
  public static final String APP = "app";

  /** Process id, when the message has one. */
  public static final String PROCID = "procid";

  /** RFC 5424 MSGID, when the message has one. */
  public static final String MSGID = "msgid";

  /** The message's format as the parser recognised it: rfc5424, rfc3164, cisco-asa, …, unknown. */
  public static final String FORMAT = "format";

  /** How well the message parsed: ok, lenient or raw (kept whole, nothing extracted). */
  public static final String PARSE = "parse";

  /** Receive time at the edge, epoch ms. */
  public static final String RECEIVED = "received";

  /** The sender's address. */
  public static final String PEER = "peer";

  /** The configured name of the edge's site. */
  public static final String SITE = "site";

  /** A unique, sortable event id (a ULID), for de-duplication and loss audits. */
  public static final String ID = "id";

  /** Every fact, in the contract's order. */
  public static final List<String> ALL =
      List.of(
          TIMESTAMP,
          TIMESTAMP_SOURCE,
          TIMESTAMP_REJECTED,
          HOST,
          FACILITY,
          SEVERITY,
          APP,
          PROCID,
          MSGID,
          FORMAT,
          PARSE,
          RECEIVED,
          PEER,
          SITE,
          ID);

  /**
   * What the body cannot give back, in the contract's order. {@link #TIMESTAMP_SOURCE} is carried
   * only when it is not {@link #COMMON_TIMESTAMP_SOURCE}, {@link #TIMESTAMP_REJECTED} only when
   * set.
   */
  public static final List<String> CARRIED =
      List.of(TIMESTAMP, TIMESTAMP_SOURCE, TIMESTAMP_REJECTED, HOST, RECEIVED, PEER, SITE, ID);

  /** What {@link #derive} gives back from the body when it is not carried. */
  public static final List<String> DERIVED =
      List.of(TIMESTAMP_SOURCE, FACILITY, SEVERITY, APP, PROCID, MSGID, FORMAT, PARSE);

  /**
   * The common {@link #TIMESTAMP_SOURCE}, the message's own time: not worth carrying, since the
   * body gives it back.
   */
  public static final String COMMON_TIMESTAMP_SOURCE = TimestampSource.MESSAGE.headerValue();

  /** Facility and severity values as strings, so they cost no allocation per event. */
  private static final String[] CODES = new String[24];

  static {
    for (int i = 0; i < CODES.length; i++) {
      CODES[i] = Integer.toString(i);
    }
  }

  private final SyslogParser parser;
  private final ThreadLocal<ParseResult> results = ThreadLocal.withInitial(ParseResult::new);

  /**
   * @param options the parser's options at the edge; only the leniency switches and zone
   *     abbreviations must match it (see the class comment)
   */
  public SyslogFacts(SyslogParserOptions options) {
    this.parser = new SyslogParser(options.toBuilder().maxPastMillis(0).maxFutureMillis(0).build());
  }

  /** The options {@link #derive} parses with: the given ones, without the plausibility window. */
  public SyslogParserOptions options() {
    return parser.options();
  }

  /**
   * Every fact of a message: a new map with the {@code carried} ones and, for each of {@link
   * #DERIVED} not among them, the one the body gives back.
   */
  public Map<String, String> derive(byte[] body, Map<String, String> carried) {
    Map<String, String> facts = new HashMap<>(carried);
    deriveInto(body, facts);
    return facts;
  }

  /**
   * Adds to {@code facts} (the carried ones) each of {@link #DERIVED} it lacks, from {@code body}.
   * The receive time the parse needs (for the year of a year-less stamp) is {@link #RECEIVED}, else
   * {@link #TIMESTAMP}.
   */
  public void deriveInto(byte[] body, Map<String, String> facts) {
    if (facts.containsKey(FORMAT)
        && facts.containsKey(PARSE)
        && facts.containsKey(TIMESTAMP_SOURCE)) {
      return; // the full set was carried: nothing to parse for
    }
    long received = millis(facts.get(RECEIVED));
    if (received == Long.MIN_VALUE) {
      received = millis(facts.get(TIMESTAMP));
    }
    if (received == Long.MIN_VALUE) {
      received = System.currentTimeMillis();
    }
    ParseResult result = results.get();
    boolean rejected = facts.get(TIMESTAMP_REJECTED) != null;
    try {
      parser.parse(body, 0, body.length, received, result);
    } catch (RuntimeException e) {
      // As at the edge: the parser promises never to throw; if it does, the message counts as raw.
      facts.putIfAbsent(FORMAT, SyslogFormat.UNKNOWN.headerValue());
      facts.putIfAbsent(PARSE, ParseStatus.RAW.headerValue());
      facts.putIfAbsent(TIMESTAMP_SOURCE, TimestampSource.RECEIVED.headerValue());
      return;
    }
    putIfAbsent(facts, FACILITY, facility(result));
    putIfAbsent(facts, SEVERITY, severity(result));
    putIfAbsent(facts, APP, app(result));
    putIfAbsent(facts, PROCID, procid(result));
    putIfAbsent(facts, MSGID, msgid(result));
    facts.putIfAbsent(FORMAT, format(result));
    // Parsed without the window, the body cannot tell an implausible time; the carried rejection
    // does, and the edge counted it a defect (lenient) and took the receive time.
    if (rejected) {
      facts.putIfAbsent(
          PARSE,
          result.status() == ParseStatus.OK ? ParseStatus.LENIENT.headerValue() : parse(result));
      facts.putIfAbsent(TIMESTAMP_SOURCE, TimestampSource.RECEIVED.headerValue());
    } else {
      facts.putIfAbsent(PARSE, parse(result));
      facts.putIfAbsent(TIMESTAMP_SOURCE, timestampSource(result));
    }
  }

  private static void putIfAbsent(Map<String, String> facts, String name, String value) {
    if (value != null) {
      facts.putIfAbsent(name, value);
    }
  }

  /** Epoch ms from decimal digits, or Long.MIN_VALUE when {@code text} is not that. */
  private static long millis(String text) {
    if (text == null || text.isEmpty() || text.length() > 18) {
      return Long.MIN_VALUE;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return Long.MIN_VALUE;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** {@link #FACILITY} of a parse, or null when the message has no PRI. */
  public static String facility(ParseResult result) {
    return result.hasPri() ? CODES[result.facility()] : null;
  }

  /** {@link #SEVERITY} of a parse, or null when the message has no PRI. */
  public static String severity(ParseResult result) {
    return result.hasPri() ? CODES[result.severity()] : null;
  }

  /** {@link #APP} of a parse, or null when the message has none. */
  public static String app(ParseResult result) {
    return result.appOffset() >= 0 ? result.app() : null;
  }

  /** {@link #PROCID} of a parse, or null when the message has none. */
  public static String procid(ParseResult result) {
    return result.procidOffset() >= 0 ? result.procid() : null;
  }

  /** {@link #MSGID} of a parse, or null when the message has none. */
  public static String msgid(ParseResult result) {
    return result.msgidOffset() >= 0 ? result.msgid() : null;
  }

  /** {@link #FORMAT} of a parse. */
  public static String format(ParseResult result) {
    return result.format().headerValue();
  }

  /** {@link #PARSE} of a parse. */
  public static String parse(ParseResult result) {
    return result.status().headerValue();
  }

  /** {@link #TIMESTAMP_SOURCE} of a parse. */
  public static String timestampSource(ParseResult result) {
    return result.timestampSource().headerValue();
  }

  /** {@link #TIMESTAMP_REJECTED} of a parse, or null when its time was not rejected. */
  public static String timestampRejected(ParseResult result) {
    return result.hasRejectedTimestamp() ? Long.toString(result.rejectedTimestampMillis()) : null;
  }
}
