package org.flafka.syslog;

import static org.flafka.syslog.Bytes.NO_MATCH;
import static org.flafka.syslog.Bytes.at;
import static org.flafka.syslog.Bytes.isDigit;
import static org.flafka.syslog.Bytes.skipSpaces;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.flafka.syslog.EventTime.StampKind;

/**
 * The lenient syslog parser: one message's bytes (framing removed) in, a {@link ParseResult} out.
 * It never throws on any input, always terminates, and never alters the input: fields are offsets
 * into the caller's array.
 *
 * <p>Immutable and thread-safe; build one per option set and share it. Give each thread its own
 * {@link ParseResult} and pass it to {@link #parse(byte[], int, int, long, ParseResult)} to parse
 * without allocating.
 *
 * <h2>How a message is read</h2>
 *
 * One cursor moves forward through the bytes; no regular expressions, no backtracking over what was
 * read.
 *
 * <ol>
 *   <li>Leading whitespace ({@code permit.leading.whitespace}), then {@code <PRI>} (or none: {@code
 *       permit.missing.pri}), then spaces ({@code permit.space.after.pri}).
 *   <li>The format is chosen once, from the bytes that follow (dispatch): a version digit and a
 *       space is RFC 5424; a four-digit year and '-' is an RFC 3339 stamp (RFC 5424 without
 *       version, or RFC 3164 with an ISO stamp); a month name is a BSD stamp (RFC 3164, Cisco
 *       ASA/IOS, Snare); a sequence number, an uptime or a '*'/'.' clock mark is Cisco IOS; {@code
 *       date=} is FortiGate; anything else has no header.
 *   <li>After a BSD stamp, the one real ambiguity of RFC 3164 (is the next word the hostname or the
 *       tag?) is settled in one place (readHostAndTag): a word that ends like a tag ({@code app:},
 *       {@code app[pid]}) or cannot be a hostname means the hostname is missing.
 * </ol>
 *
 * Any tolerated deviation is recorded as a {@link Defect}; one whose switch is off makes the
 * message RAW.
 */
public final class SyslogParser {
  private static final int MAX_HOSTNAME = 255;
  private static final int MAX_APP_NAME = 48;

  /** AIX syslogd's relay prefix before the origin's hostname. */
  private static final String RELAY_PREFIX = "Message forwarded from ";

  /**
   * The longest tag read without ':' (RFC 3164 4.1.3: "The TAG is ... not exceed 32 characters").
   */
  private static final int MAX_BARE_TAG = 32;

  private static final int MAX_PROCID = 128;
  private static final int MAX_MSGID = 32;

  /** FortiGate key=value pairs scanned for date, time, devname, logid and tz. */
  private static final int MAX_FORTIGATE_PAIRS = 40;

  private final SyslogParserOptions options;
  private final EventTime eventTime;
  private final ZoneNames zones;
  private final boolean permitMissingPri;
  private final boolean permitLeadingWhitespace;
  private final boolean permitSpaceAfterPri;
  private final boolean permitMissingTimestamp;
  private final boolean permitMissingHostname;
  private final boolean permitMissingVersion;
  private final boolean permitMalformedStructuredData;
  private final boolean permitAtSigns;
  private final boolean permitSlashes;
  private final boolean permitSquareBrackets;
  private final boolean detectTagWithoutColon;
  private final boolean detectYear;
  private final boolean detectCiscoAsa;
  private final boolean detectCiscoIos;
  private final boolean detectCiscoHostname;
  private final boolean permitVersionZero;
  private final boolean permitSpaceInIso;
  private final boolean detectRelayPrefix;
  private final boolean detectOffset;
  private final boolean detectFortigate;
  private final boolean detectMeraki;
  private final boolean detectSnare;
  private final boolean detectLastMessageRepeated;

  /** A parser with {@link SyslogParserOptions#defaults()}. */
  public SyslogParser() {
    this(SyslogParserOptions.defaults());
  }

  /** A parser with the given options. */
  public SyslogParser(SyslogParserOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.eventTime = new EventTime(options);
    this.zones = options.zoneNames();
    this.permitMissingPri = options.isEnabled(Leniency.PERMIT_MISSING_PRI);
    this.permitLeadingWhitespace = options.isEnabled(Leniency.PERMIT_LEADING_WHITESPACE);
    this.permitSpaceAfterPri = options.isEnabled(Leniency.PERMIT_SPACE_AFTER_PRI);
    this.permitMissingTimestamp = options.isEnabled(Leniency.PERMIT_MISSING_TIMESTAMP);
    this.permitMissingHostname = options.isEnabled(Leniency.PERMIT_MISSING_HOSTNAME);
    this.permitMissingVersion = options.isEnabled(Leniency.PERMIT_MISSING_VERSION);
    this.permitMalformedStructuredData =
        options.isEnabled(Leniency.PERMIT_MALFORMED_STRUCTURED_DATA);
    this.permitAtSigns = options.isEnabled(Leniency.PERMIT_AT_SIGNS_IN_HOSTNAME);
    this.permitSlashes = options.isEnabled(Leniency.PERMIT_SLASHES_IN_HOSTNAME);
    this.permitSquareBrackets = options.isEnabled(Leniency.PERMIT_SQUARE_BRACKETS_IN_HOSTNAME);
    this.detectTagWithoutColon = options.isEnabled(Leniency.DETECT_TAG_WITHOUT_COLON);
    this.detectYear = options.isEnabled(Leniency.DETECT_YEAR_IN_TIMESTAMP);
    this.detectCiscoAsa = options.isEnabled(Leniency.DETECT_CISCO_ASA);
    this.detectCiscoIos = options.isEnabled(Leniency.DETECT_CISCO_IOS);
    this.detectCiscoHostname = options.isEnabled(Leniency.DETECT_CISCO_HOSTNAME);
    this.permitVersionZero = options.isEnabled(Leniency.PERMIT_VERSION_ZERO);
    this.permitSpaceInIso = options.isEnabled(Leniency.PERMIT_SPACE_IN_ISO_TIMESTAMP);
    this.detectRelayPrefix = options.isEnabled(Leniency.DETECT_RELAY_PREFIX);
    this.detectOffset = options.isEnabled(Leniency.DETECT_TIME_ZONE_OFFSET);
    this.detectFortigate = options.isEnabled(Leniency.DETECT_FORTIGATE);
    this.detectMeraki = options.isEnabled(Leniency.DETECT_MERAKI);
    this.detectSnare = options.isEnabled(Leniency.DETECT_SNARE);
    this.detectLastMessageRepeated = options.isEnabled(Leniency.DETECT_LAST_MESSAGE_REPEATED);
  }

  /** The options this parser was built with. */
  public SyslogParserOptions options() {
    return options;
  }

  /**
   * Parses {@code buffer[offset, offset + length)} into {@code into}, which is reset first, and
   * returns it.
   *
   * @param receivedMillis the receive time, epoch ms: resolves year-less stamps, bounds plausible
   *     ones, and is the timestamp when the message has none
   * @throws IndexOutOfBoundsException only when offset and length do not lie within the array (a
   *     caller bug; no message content ever causes an exception)
   */
  public ParseResult parse(
      byte[] buffer, int offset, int length, long receivedMillis, ParseResult into) {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    into.reset(buffer, offset, length, receivedMillis);
    int end = Bytes.trimEnd(buffer, offset, offset + length);
    into.message(offset, end - offset);
    SyslogFormat format = readMessage(buffer, offset, end, into);
    if (format == null) {
      long defects = into.defects();
      into.reset(buffer, offset, length, receivedMillis);
      into.setDefects(defects);
      into.message(offset, end - offset);
    } else {
      long defects = into.defects();
      if (format == SyslogFormat.CISCO_ASA
          || format == SyslogFormat.CISCO_IOS
          || format == SyslogFormat.SNARE) {
        defects &= ~Defect.YEAR_IN_TIMESTAMP.mask();
      }
      into.setDefects(defects);
      into.format(format);
      into.status(defects == 0 ? ParseStatus.OK : ParseStatus.LENIENT);
    }
    return into;
  }

  /** Parses into a new result; see {@link #parse(byte[], int, int, long, ParseResult)}. */
  public ParseResult parse(byte[] buffer, int offset, int length, long receivedMillis) {
    return parse(buffer, offset, length, receivedMillis, new ParseResult());
  }

  /** Parses a whole array into a new result. */
  public ParseResult parse(byte[] message, long receivedMillis) {
    return parse(message, 0, message.length, receivedMillis, new ParseResult());
  }

  /**
   * Parses the UTF-8 encoding of {@code message} into a new result (for tests and tools, not the
   * hot path).
   */
  public ParseResult parse(String message, long receivedMillis) {
    return parse(message.getBytes(StandardCharsets.UTF_8), receivedMillis);
  }

  // ============================================================================================
  // PRI and dispatch

  /** Reads leading whitespace and PRI, then the rest; returns the format, or null for RAW. */
  private SyslogFormat readMessage(byte[] b, int pos, int end, ParseResult r) {
    if (pos < end && Bytes.isWhitespace(b[pos])) {
      r.addDefect(Defect.LEADING_WHITESPACE);
      if (!permitLeadingWhitespace) {
        return null;
      }
      while (pos < end && Bytes.isWhitespace(b[pos])) {
        pos++;
      }
    }
    if (at(b, pos, end, '<')) {
      pos = readPri(b, pos, end, r);
      if (pos == NO_MATCH) {
        r.addDefect(Defect.MALFORMED_HEADER);
        return null;
      }
      if (at(b, pos, end, ' ')) {
        r.addDefect(Defect.SPACE_AFTER_PRI);
        if (!permitSpaceAfterPri) {
          return null;
        }
        pos = skipSpaces(b, pos, end);
      }
    } else {
      r.addDefect(Defect.MISSING_PRI);
      if (!permitMissingPri) {
        return null;
      }
    }
    return dispatch(b, pos, end, r);
  }

  /** {@code <N>} with 1-3 digits and N <= 191; returns the position after '>' or NO_MATCH. */
  private static int readPri(byte[] b, int pos, int end, ParseResult r) {
    int digitsStart = pos + 1;
    int digitsEnd = Bytes.skipDigits(b, digitsStart, Math.min(end, digitsStart + 4));
    int count = digitsEnd - digitsStart;
    if (count == 0 || count > 3 || !at(b, digitsEnd, end, '>')) {
      return NO_MATCH;
    }
    int pri = Bytes.digits(b, digitsStart, end, count);
    if (pri > 191) {
      return NO_MATCH;
    }
    if (count > 1 && b[digitsStart] == '0') {
      r.addDefect(Defect.MALFORMED_HEADER);
    }
    r.pri(pri);
    return digitsEnd + 1;
  }

  /** Chooses the format from the bytes after PRI, once. */
  private SyslogFormat dispatch(byte[] b, int pos, int end, ParseResult r) {
    if (pos >= end) {
      return readHeaderless(b, pos, end, r);
    }
    byte first = b[pos];
    if (isDigit(first)) {
      int digitsEnd = Bytes.skipDigits(b, pos, end);
      int count = digitsEnd - pos;
      if (detectMeraki) {
        SyslogFormat meraki = readMeraki(b, pos, end, r);
        if (meraki != null) {
          return meraki;
        }
      }
      if (count <= 3 && first != '0' && isVersionEnd(b, digitsEnd, end, r.hasPri())) {
        return readRfc5424(b, pos, digitsEnd, end, r);
      }
      if (count <= 3 && first == '0' && isZeroVersion(b, digitsEnd, end)) {
        r.addDefect(Defect.VERSION_ZERO);
        return permitVersionZero ? readRfc5424(b, pos, digitsEnd, end, r) : null;
      }
      if (count == 4 && at(b, digitsEnd, end, '-')) {
        return readRfc3339Header(b, pos, end, r);
      }
      if (count == 4
          && detectYear
          && at(b, digitsEnd, end, ' ')
          && Timestamps.bsdStampAt(b, digitsEnd + 1, end)) {
        return readBsd(b, pos, end, r);
      }
      if (detectCiscoIos
          && digitsEnd < end
          && (b[digitsEnd] == ':' || isUptimeUnit(b[digitsEnd]))) {
        return readCiscoIos(b, pos, end, r, false);
      }
      return readHeaderless(b, pos, end, r);
    }
    if (Timestamps.bsdStampAt(b, pos, end)) {
      return readBsd(b, pos, end, r);
    }
    if ((first == '*' || first == '.')
        && detectCiscoIos
        && pos + 1 < end
        && (Timestamps.bsdStampAt(b, pos + 1, end) || isDigit(b[pos + 1]))) {
      return readCiscoIos(b, pos, end, r, false);
    }
    if (detectFortigate && Bytes.startsWith(b, pos, end, "date=")) {
      return readFortigate(b, pos, end, r);
    }
    if (first == ':' && (detectCiscoAsa || detectCiscoIos)) {
      SyslogFormat cisco = readColonStamp(b, pos, end, r);
      if (cisco != null) {
        return cisco;
      }
      if (detectCiscoIos && at(b, pos + 1, end, ' ')) {
        // "<189>: 2026 Mar  1 18:46:11 UTC: %ETHPORT-5-IF_UP" (NX-OS), "<189>: router1: *Mar  1
        // ..." (IOS origin-id without a message number): the empty message number's ':'.
        int next = skipSpaces(b, pos + 1, end);
        if (next < end && isCiscoPreamble(b, next, end, r.date)) {
          return readCiscoIos(b, next, end, r, false);
        }
      }
    }
    if (detectCiscoIos
        && (ciscoOriginHostEnd(b, pos, end, r.date) != NO_MATCH
            || xrNodeEnd(b, pos, end) != NO_MATCH)) {
      return readCiscoIos(b, pos, end, r, false);
    }
    return readHeaderless(b, pos, end, r);
  }

  // ============================================================================================
  // RFC 5424

  /**
   * Whether the digits before {@code digitsEnd} are an RFC 5424 version: followed by a space (and,
   * without a PRI to vouch for the header, by a timestamp or '-'), or by the end of a message that
   * had a PRI.
   */
  private static boolean isVersionEnd(byte[] b, int digitsEnd, int end, boolean hasPri) {
    if (digitsEnd == end) {
      return hasPri;
    }
    if (b[digitsEnd] != ' ') {
      return false;
    }
    int next = digitsEnd + 1;
    return hasPri || (next < end && (b[next] == '-' || isDigit(b[next])));
  }

  /**
   * Whether a version starting with '0' ends at digitsEnd: a space, then an RFC 3339 timestamp's
   * year and '-', or the nil '-' and a space ("&lt;13&gt;0 2026-11-21T10:00:00Z ...", "&lt;13&gt;0
   * - host ...").
   */
  private static boolean isZeroVersion(byte[] b, int digitsEnd, int end) {
    int next = digitsEnd + 1;
    if (!at(b, digitsEnd, end, ' ') || next >= end) {
      return false;
    }
    return (b[next] == '-' && at(b, next + 1, end, ' '))
        || (Bytes.skipDigits(b, next, end) == next + 4 && at(b, next + 4, end, '-'));
  }

  /**
   * {@code VERSION SP TIMESTAMP SP HOSTNAME SP APP SP PROCID SP MSGID SP SD [SP MSG]}; pos at the
   * version.
   */
  private SyslogFormat readRfc5424(byte[] b, int pos, int versionEnd, int end, ParseResult r) {
    r.version(Bytes.digits(b, pos, end, versionEnd - pos));
    if (versionEnd == end) {
      r.addDefect(Defect.MALFORMED_HEADER);
      r.message(end, 0);
      return SyslogFormat.RFC5424;
    }
    int p = versionEnd + 1;
    if (at(b, p, end, '-') && (p + 1 == end || b[p + 1] == ' ')) {
      p++;
    } else {
      int stampEnd = Timestamps.scanRfc3339(b, p, end, r.date, permitSpaceInIso);
      if (stampEnd != NO_MATCH && (stampEnd == end || b[stampEnd] == ' ')) {
        eventTime.set(r, StampKind.RFC3339, p, stampEnd);
        p = stampEnd;
      } else if (stampEnd != NO_MATCH) {
        // A valid stamp with something stuck to it ("...05Z+07:00"): keep the stamp, skip the rest.
        eventTime.set(r, StampKind.RFC3339, p, stampEnd);
        r.addDefect(Defect.MALFORMED_HEADER);
        p = Bytes.findSpace(b, stampEnd, end);
      } else {
        int tokenEnd = Bytes.findSpace(b, p, end);
        r.timestampText(p, tokenEnd - p);
        r.addDefect(Defect.INVALID_TIMESTAMP);
        p = tokenEnd;
      }
    }
    p = fieldSeparator(b, p, end, r);
    if (p == NO_MATCH) {
      return SyslogFormat.RFC5424;
    }
    int hostEnd = Bytes.findSpace(b, p, end);
    if (hasControl(b, p, hostEnd)) {
      r.addDefect(Defect.MALFORMED_HEADER);
      r.message(p, end - p);
      return SyslogFormat.RFC5424;
    }
    if (!isNil(b, p, hostEnd)) {
      r.hostname(p, hostEnd - p);
      if (hostEnd - p > MAX_HOSTNAME) {
        r.addDefect(Defect.MALFORMED_HEADER);
      }
    }
    p = fieldSeparator(b, hostEnd, end, r);
    if (p == NO_MATCH) {
      return SyslogFormat.RFC5424;
    }
    return readRfc5424Fields(b, p, end, r);
  }

  /**
   * Expects the single SP between two header fields at p; returns the next field's start, or
   * NO_MATCH when the header stops there (message empty, defect recorded). Extra spaces are
   * tolerated as a defect.
   */
  private static int fieldSeparator(byte[] b, int p, int end, ParseResult r) {
    if (p >= end) {
      r.addDefect(Defect.MALFORMED_HEADER);
      r.message(end, 0);
      return NO_MATCH;
    }
    int next = p + 1;
    if (at(b, next, end, ' ')) {
      r.addDefect(Defect.MALFORMED_HEADER);
      next = skipSpaces(b, next, end);
    }
    return next;
  }

  /** APP PROCID MSGID SD [SP MSG], from APP; shared by RFC 5424 and RFC 5424 without version. */
  private SyslogFormat readRfc5424Fields(byte[] b, int p, int end, ParseResult r) {
    int appEnd = Bytes.findSpace(b, p, end);
    int procidEnd = appEnd < end ? Bytes.findSpace(b, appEnd + 1, end) : end;
    int msgidEnd = procidEnd < end ? Bytes.findSpace(b, procidEnd + 1, end) : end;
    if (appEnd == p
        || procidEnd <= appEnd + 1
        || msgidEnd <= procidEnd + 1
        || hasControl(b, p, msgidEnd)) {
      // Fewer than three fields after the hostname: keep it all as the message, as Flume does for
      // "<10>1 2012-04-13T11:11:11 host some msg".
      r.addDefect(Defect.MALFORMED_HEADER);
      r.message(p, end - p);
      return SyslogFormat.RFC5424;
    }
    headerField(b, p, appEnd, MAX_APP_NAME, r, Field.APP);
    headerField(b, appEnd + 1, procidEnd, MAX_PROCID, r, Field.PROCID);
    headerField(b, procidEnd + 1, msgidEnd, MAX_MSGID, r, Field.MSGID);
    int sd = msgidEnd + 1;
    if (sd >= end || !(b[sd] == '[' || (b[sd] == '-' && (sd + 1 == end || b[sd + 1] == ' ')))) {
      // No structured data where it must be: the message starts there.
      r.addDefect(Defect.MALFORMED_HEADER);
      int message = Math.min(sd, end);
      r.message(message, end - message);
      return SyslogFormat.RFC5424;
    }
    int afterSd;
    if (b[sd] == '-') {
      afterSd = sd + 1;
    } else {
      afterSd = StructuredDataReader.read(b, sd, end, r);
      if (r.hasDefect(Defect.MALFORMED_STRUCTURED_DATA) && !permitMalformedStructuredData) {
        return null;
      }
    }
    if (afterSd >= end) {
      r.message(end, 0);
    } else if (b[afterSd] == ' ') {
      int message = afterSd + 1;
      if (message + 3 <= end
          && b[message] == (byte) 0xEF
          && b[message + 1] == (byte) 0xBB
          && b[message + 2] == (byte) 0xBF) {
        message += 3;
      }
      r.message(message, end - message);
    } else {
      r.addDefect(Defect.MALFORMED_HEADER);
      r.message(afterSd, end - afterSd);
    }
    return SyslogFormat.RFC5424;
  }

  private enum Field {
    APP,
    PROCID,
    MSGID
  }

  private static void headerField(
      byte[] b, int start, int end, int maxLength, ParseResult r, Field field) {
    if (isNil(b, start, end)) {
      return;
    }
    if (end - start > maxLength) {
      r.addDefect(Defect.MALFORMED_HEADER);
    }
    switch (field) {
      case APP -> r.app(start, end - start);
      case PROCID -> r.procid(start, end - start);
      default -> r.msgid(start, end - start);
    }
  }

  private static boolean isNil(byte[] b, int start, int end) {
    return end - start == 1 && b[start] == '-';
  }

  private static boolean hasControl(byte[] b, int start, int end) {
    for (int i = start; i < end; i++) {
      if (Bytes.isControl(b[i])) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code <PRI>} then an RFC 3339 stamp: RFC 5424 without its version when the fields after the
   * hostname have the RFC 5424 shape, else an RFC 3164 header with an ISO stamp (rsyslog's
   * forwarding format).
   */
  private SyslogFormat readRfc3339Header(byte[] b, int pos, int end, ParseResult r) {
    int stampEnd = Timestamps.scanRfc3339(b, pos, end, r.date, permitSpaceInIso);
    if (stampEnd == NO_MATCH || (stampEnd < end && b[stampEnd] != ' ')) {
      return readHeaderless(b, pos, end, r);
    }
    int hostStart = skipSpaces(b, stampEnd, end);
    int hostEnd = Bytes.findSpace(b, hostStart, end);
    if (hostEnd < end && hasRfc5424Shape(b, hostEnd + 1, end)) {
      r.addDefect(Defect.MISSING_VERSION);
      if (!permitMissingVersion) {
        return null;
      }
      eventTime.set(r, StampKind.RFC3339, pos, stampEnd);
      if (!isNil(b, hostStart, hostEnd) && !hasControl(b, hostStart, hostEnd)) {
        r.hostname(hostStart, hostEnd - hostStart);
      }
      return readRfc5424Fields(b, hostEnd + 1, end, r);
    }
    eventTime.set(r, StampKind.RFC3339, pos, stampEnd);
    return readHostAndTag(b, hostStart, end, r);
  }

  /**
   * Three words (the first not ending in ':', which would make it an RFC 3164 tag), then '-' or
   * '['.
   */
  private static boolean hasRfc5424Shape(byte[] b, int p, int end) {
    int appEnd = Bytes.findSpace(b, p, end);
    if (appEnd == p || appEnd >= end || b[appEnd - 1] == ':') {
      return false;
    }
    int procidEnd = Bytes.findSpace(b, appEnd + 1, end);
    if (procidEnd == appEnd + 1 || procidEnd >= end) {
      return false;
    }
    int msgidEnd = Bytes.findSpace(b, procidEnd + 1, end);
    int sd = msgidEnd + 1;
    return msgidEnd > procidEnd + 1
        && sd < end
        && (b[sd] == '[' || (b[sd] == '-' && (sd + 1 == end || b[sd + 1] == ' ')));
  }

  // ============================================================================================
  // RFC 3164 family

  /** A BSD stamp at pos, then hostname and tag. */
  private SyslogFormat readBsd(byte[] b, int pos, int end, ParseResult r) {
    int stampEnd = Timestamps.scanBsd(b, pos, end, r.date, detectYear, zones, detectOffset);
    if (stampEnd == NO_MATCH) {
      return readHeaderless(b, pos, end, r);
    }
    if (detectCiscoIos) {
      stampEnd = skipUnknownZone(b, stampEnd, end, r.date);
    }
    eventTime.set(r, StampKind.BSD, pos, stampEnd);
    int p = stampEnd;
    if (at(b, p, end, ':')) {
      p++; // "Mar  7 19:06:53: host" as Cisco devices end their stamps
    }
    return readHostAndTag(b, skipSpaces(b, p, end), end, r);
  }

  /**
   * After the stamp: settles hostname versus tag. The next word is the tag (hostname missing) when
   * it ends like one ({@code app:}, {@code app[pid]}) or is a Cisco mnemonic; it is not a hostname
   * when it holds a character a hostname cannot (as rsyslog decides); otherwise it is the hostname
   * and the tag may follow.
   */
  private SyslogFormat readHostAndTag(byte[] b, int p, int end, ParseResult r) {
    if (p >= end) {
      r.addDefect(Defect.MISSING_HOSTNAME);
      r.message(end, 0);
      return permitMissingHostname ? SyslogFormat.RFC3164 : null;
    }
    if (detectLastMessageRepeated && isLastMessageRepeated(b, p, end)) {
      r.message(p, end - p);
      return SyslogFormat.RFC3164;
    }
    if (b[p] == '%') {
      SyslogFormat cisco = readMnemonic(b, p, end, r);
      if (cisco != null) {
        return cisco;
      }
    }
    if (detectRelayPrefix && Bytes.startsWith(b, p, end, RELAY_PREFIX)) {
      int hostStart = p + RELAY_PREFIX.length();
      int hostEnd = Bytes.findBlank(b, hostStart, end);
      if (hostEnd - hostStart > 1
          && b[hostEnd - 1] == ':'
          && hostnameDefects(b, hostStart, hostEnd - 1) == 0) {
        // AIX syslogd relaying: "Message forwarded from aixhost: sshd[1234]: ..."
        r.hostname(hostStart, hostEnd - 1 - hostStart);
        return readTagPosition(b, skipSpaces(b, hostEnd, end), end, r);
      }
    }
    int wordEnd = Bytes.findBlank(b, p, end);
    if (isAsaDeviceId(b, p, wordEnd, end)) {
      // logging device-id hostname on an ASA writes "host:" ("Nov 21 10:00:00 fw01: %ASA-6-302013:
      // ..."): a word ending in ':' right before a mnemonic is the hostname, not a tag.
      SyslogFormat cisco = readMnemonic(b, wordEnd + 1, end, r);
      if (cisco != null) {
        r.hostname(p, wordEnd - 1 - p);
        return cisco;
      }
    }
    if (isTagLike(b, p, wordEnd)) {
      r.addDefect(Defect.MISSING_HOSTNAME);
      return permitMissingHostname ? readTag(b, p, end, r) : null;
    }
    long hostnameDefects = hostnameDefects(b, p, wordEnd);
    if (hostnameDefects < 0) {
      r.addDefect(Defect.MISSING_HOSTNAME);
      return permitMissingHostname ? readTag(b, p, end, r) : null;
    }
    r.setDefects(r.defects() | hostnameDefects);
    r.hostname(p, wordEnd - p);
    if (wordEnd >= end) {
      r.message(end, 0);
      return SyslogFormat.RFC3164;
    }
    int q = skipSpaces(b, wordEnd + 1, end);
    if (at(b, q, end, ':') && at(b, q + 1, end, ' ') && at(b, q + 2, end, '%')) {
      q += 2; // Cisco ASA with a device id: "fw01 : %ASA-6-302013: ..."
    }
    return readTagPosition(b, q, end, r);
  }

  /**
   * Whether b[p, wordEnd) is "host:" followed by one space and a Cisco mnemonic whose detection is
   * on: the hostname a device id adds before the mnemonic.
   */
  private boolean isAsaDeviceId(byte[] b, int p, int wordEnd, int end) {
    if (!detectCiscoHostname
        || wordEnd - p < 2
        || b[wordEnd - 1] != ':'
        || !at(b, wordEnd, end, ' ')
        || !at(b, wordEnd + 1, end, '%')
        || hostnameDefects(b, p, wordEnd - 1) != 0) {
      return false;
    }
    for (int i = p; i < wordEnd - 1; i++) {
      if (b[i] == ':') {
        return false; // an IPv6 address or a "tag:" with more colons: not this form
      }
    }
    return isAsaFacility(b, wordEnd + 2, end) ? detectCiscoAsa : detectCiscoIos;
  }

  /**
   * An ASA (or IOS) device id without a timestamp ({@code logging device-id} with {@code no logging
   * timestamp}): {@code fw01 : %ASA-6-302013: ...} or {@code fw01: %ASA-...}. The name is the
   * hostname; a missing timestamp is normal there, as for a bare mnemonic. Returns null, having
   * changed nothing, when no mnemonic follows.
   */
  private SyslogFormat readDeviceIdWithoutTimestamp(byte[] b, int p, int end, ParseResult r) {
    if (!detectCiscoHostname) {
      return null;
    }
    int wordEnd = Bytes.findBlank(b, p, end);
    int nameEnd = wordEnd > p && b[wordEnd - 1] == ':' ? wordEnd - 1 : wordEnd;
    int q =
        nameEnd == wordEnd && at(b, wordEnd, end, ' ') && at(b, wordEnd + 1, end, ':')
            ? wordEnd + 2
            : wordEnd;
    if (nameEnd == p
        || q == wordEnd && nameEnd == wordEnd
        || !at(b, q, end, ' ')
        || !at(b, q + 1, end, '%')
        || hostnameDefects(b, p, nameEnd) != 0) {
      return null;
    }
    for (int i = p; i < nameEnd; i++) {
      if (b[i] == ':') {
        return null;
      }
    }
    SyslogFormat cisco = readMnemonic(b, q + 1, end, r);
    if (cisco != null) {
      r.hostname(p, nameEnd - p);
    }
    return cisco;
  }

  /**
   * Where a tag may start: a repeat notice, a Cisco mnemonic, a Snare record, or an ordinary tag.
   */
  private SyslogFormat readTagPosition(byte[] b, int p, int end, ParseResult r) {
    if (p >= end) {
      r.message(end, 0);
      return SyslogFormat.RFC3164;
    }
    if (detectLastMessageRepeated && isLastMessageRepeated(b, p, end)) {
      r.message(p, end - p);
      return SyslogFormat.RFC3164;
    }
    if (b[p] == '%') {
      SyslogFormat cisco = readMnemonic(b, p, end, r);
      if (cisco != null) {
        return cisco;
      }
    }
    if (detectSnare) {
      int appEnd = snareAppEnd(b, p, end);
      if (appEnd != NO_MATCH) {
        r.app(p, appEnd - p);
        r.message(appEnd + 1, end - appEnd - 1);
        return SyslogFormat.SNARE;
      }
    }
    if (detectMeraki && isDigit(b[p])) {
      SyslogFormat meraki =
          readMeraki(b, p, end, r); // relayed: the device's name and time replace the relay's
      if (meraki != null) {
        return meraki;
      }
    }
    int wordEnd = Bytes.findBlank(b, p, end);
    if (isAsaDeviceId(b, p, wordEnd, end)) {
      // A relay's stamp and host, then the device's "fw01: %ASA-...": the device id is the more
      // specific name.
      SyslogFormat cisco = readMnemonic(b, wordEnd + 1, end, r);
      if (cisco != null) {
        r.hostname(p, wordEnd - 1 - p);
        return cisco;
      }
    }
    if (detectCiscoIos && isRelayedCiscoPreamble(b, p, end, r.date)) {
      // A Cisco IOS message relayed by a BSD syslogd, which put its own stamp and the sender in
      // front:
      // "<189>Nov 21 06:58:49 10.1.2.3 12345: Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: ...".
      return readCiscoIos(b, p, end, r, true);
    }
    if (detectTagWithoutColon) {
      if (tagEnd(b, p, wordEnd) == NO_MATCH && isBareTag(b, p, wordEnd, end)) {
        setTag(b, p, wordEnd, r);
        r.message(wordEnd + 1, end - wordEnd - 1);
        return SyslogFormat.RFC3164;
      }
    }
    return readTag(b, p, end, r);
  }

  /**
   * Whether the word b[p, wordEnd), right after a hostname, is a tag without ':' ("host app
   * message", as rsyslog, syslog-ng, syslog-loose and fluentd read it): at most {@value
   * #MAX_BARE_TAG} bytes (RFC 3164's TAG limit) of letters, digits, '_', '-', '.', '/' and
   * non-ASCII letters, then a space and more text. A word holding other characters (quotes, '=',
   * ',', '#', '('), standing alone, the nil '-', or capitalised like the first word of a sentence
   * ("Connection refused", "Use the BFG!": an upper-case letter, then only lower-case ones) is the
   * message.
   */
  private static boolean isBareTag(byte[] b, int p, int wordEnd, int end) {
    if (wordEnd == p
        || wordEnd - p > MAX_BARE_TAG
        || !at(b, wordEnd, end, ' ')
        || wordEnd + 1 >= end) {
      return false;
    }
    if (wordEnd - p == 1 && b[p] == '-') {
      return false; // the nil value, not a name
    }
    boolean capitalised = b[p] >= 'A' && b[p] <= 'Z' && wordEnd - p > 1;
    for (int i = p; i < wordEnd; i++) {
      byte c = b[i];
      if (!(Bytes.isLetter(c)
          || isDigit(c)
          || c == '_'
          || c == '-'
          || c == '.'
          || c == '/'
          || c < 0)) {
        return false;
      }
      capitalised &= i == p || (c >= 'a' && c <= 'z');
    }
    return !capitalised;
  }

  /**
   * A tag at p, then one space: the word up to its first ':' ({@code app:}, {@code app[pid]:}, also
   * {@code app:text} as rsyslog and syslog-loose split it), or a word ending in {@code [pid]}; else
   * there is no tag and the message starts at p (after a hostname, readTagPosition also takes a
   * bare word: detect.tag.without.colon).
   */
  private SyslogFormat readTag(byte[] b, int p, int end, ParseResult r) {
    int wordEnd = Bytes.findBlank(b, p, end);
    int tagEnd = tagEnd(b, p, wordEnd);
    if (tagEnd == NO_MATCH) {
      r.message(p, end - p);
    } else {
      setTag(b, p, tagEnd, r);
      int message = at(b, tagEnd, end, ' ') ? tagEnd + 1 : tagEnd;
      r.message(message, end - message);
    }
    return SyslogFormat.RFC3164;
  }

  /**
   * End (after the ':') of a tag in the word b[start, end): its first ':', unless that ':' is
   * followed by another ':' or a digit (an IPv6 address, a time, a port: "05/21/2017:00:00:00",
   * "10.0.0.1:514"); or the word's end when it ends in "[pid]".
   */
  private static int tagEnd(byte[] b, int start, int end) {
    for (int i = start + 1; i < end; i++) {
      if (b[i] == ':') {
        return i + 1 < end && (b[i + 1] == ':' || isDigit(b[i + 1])) ? NO_MATCH : i + 1;
      }
    }
    return isTagLike(b, start, end) ? end : NO_MATCH;
  }

  /**
   * Ends with ':' (and is more than the colon), or ends with "[...]" after at least one character.
   */
  private static boolean isTagLike(byte[] b, int start, int end) {
    if (end - start < 2) {
      return false;
    }
    if (b[end - 1] == ':') {
      return true;
    }
    return b[end - 1] == ']' && lastIndexOf(b, (byte) '[', start + 1, end - 1) >= 0;
  }

  /** Splits {@code app[pid]:} into app and procid. */
  private static void setTag(byte[] b, int start, int end, ParseResult r) {
    int core = b[end - 1] == ':' ? end - 1 : end;
    if (core > start && b[core - 1] == ']') {
      int bracket = lastIndexOf(b, (byte) '[', start, core - 1);
      if (bracket >= 0) {
        if (bracket > start) {
          r.app(start, bracket - start);
        }
        if (core - 1 > bracket + 1) {
          r.procid(bracket + 1, core - 1 - bracket - 1);
        }
        return;
      }
    }
    if (core > start) {
      r.app(start, core - start);
    }
  }

  private static int lastIndexOf(byte[] b, byte c, int start, int end) {
    for (int i = end - 1; i >= start; i--) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The defects a hostname made of b[start, end) would carry (at signs, slashes, brackets), or -1
   * when it cannot be a hostname: a character outside letters, digits, '.', '-', '_', ':' (IPv6)
   * and non-ASCII bytes (IDN), or an '@', '/', '[' or ']' whose switch is off.
   */
  private long hostnameDefects(byte[] b, int start, int end) {
    if (end - start > MAX_HOSTNAME) {
      return -1;
    }
    long defects = 0;
    for (int i = start; i < end; i++) {
      byte c = b[i];
      if (Bytes.isLetter(c)
          || isDigit(c)
          || c == '.'
          || c == '-'
          || c == '_'
          || c == ':'
          || c < 0) {
        continue;
      }
      if (c == '@' && permitAtSigns) {
        defects |= Defect.AT_SIGN_IN_HOSTNAME.mask();
      } else if (c == '/' && permitSlashes) {
        defects |= Defect.SLASH_IN_HOSTNAME.mask();
      } else if ((c == '[' || c == ']') && permitSquareBrackets) {
        defects |= Defect.SQUARE_BRACKET_IN_HOSTNAME.mask();
      } else {
        return -1;
      }
    }
    return defects;
  }

  /** "last message repeated N times", exactly, to the end. */
  private static boolean isLastMessageRepeated(byte[] b, int p, int end) {
    final String prefix = "last message repeated ";
    if (!Bytes.startsWith(b, p, end, prefix)) {
      return false;
    }
    int digitsStart = p + prefix.length();
    int digitsEnd = Bytes.skipDigits(b, digitsStart, end);
    return digitsEnd > digitsStart
        && end - digitsEnd == 6
        && Bytes.startsWith(b, digitsEnd, end, " times");
  }

  /** No timestamp where the header should start. */
  private SyslogFormat readHeaderless(byte[] b, int pos, int end, ParseResult r) {
    if (pos < end) {
      if (detectLastMessageRepeated && isLastMessageRepeated(b, pos, end)) {
        r.message(pos, end - pos);
        return SyslogFormat.RFC3164;
      }
      if (b[pos] == '%') {
        SyslogFormat cisco = readMnemonic(b, pos, end, r);
        if (cisco != null) {
          return cisco;
        }
      }
      SyslogFormat deviceId = readDeviceIdWithoutTimestamp(b, pos, end, r);
      if (deviceId != null) {
        return deviceId;
      }
      if (detectSnare) {
        SyslogFormat snare = readSnareWithoutHeader(b, pos, end, r);
        if (snare != null) {
          return snare;
        }
      }
    }
    r.addDefect(Defect.MISSING_TIMESTAMP);
    if (!r.hasPri() || !permitMissingTimestamp) {
      return null;
    }
    // Without a timestamp to anchor it, a first word is not trusted as a hostname; only a tag is
    // read.
    return readTag(b, pos, end, r);
  }

  // ============================================================================================
  // Cisco

  /**
   * A Cisco mnemonic at p ({@code %ASA-6-302013:}, {@code %LINK-3-UPDOWN:}, IOS-XR's {@code
   * %PKT_INFRA-LINK-3-UPDOWN :}): app = the mnemonic, msgid = what follows its severity digit.
   * Returns null, having changed nothing, when there is no mnemonic at p or its format's detection
   * is off.
   */
  private SyslogFormat readMnemonic(byte[] b, int p, int end, ParseResult r) {
    int e = p + 1;
    while (e < end && (Bytes.isLetter(b[e]) || isDigit(b[e]) || b[e] == '_' || b[e] == '-')) {
      e++;
    }
    int severityDash = -1;
    for (int i = e - 3; i > p + 1; i--) {
      if (b[i] == '-' && isDigit(b[i + 1]) && b[i + 2] == '-') {
        severityDash = i;
        break;
      }
    }
    if (severityDash < 0 || severityDash + 3 >= e) {
      return null;
    }
    int after;
    if (e == end) {
      after = e;
    } else if (b[e] == ':') {
      after = e + 1;
    } else if (b[e] == ' ' && at(b, e + 1, end, ':')) {
      after = e + 2;
    } else {
      return null;
    }
    boolean asa = isAsaFacility(b, p + 1, end);
    if (asa ? !detectCiscoAsa : !detectCiscoIos) {
      return null;
    }
    r.app(p, e - p);
    r.msgid(severityDash + 3, e - severityDash - 3);
    int message = at(b, after, end, ' ') ? after + 1 : after;
    r.message(message, end - message);
    return asa ? SyslogFormat.CISCO_ASA : SyslogFormat.CISCO_IOS;
  }

  /** ASA, PIX, FWSM or FTD followed by '-'. */
  private static boolean isAsaFacility(byte[] b, int p, int end) {
    return Bytes.startsWith(b, p, end, "ASA-")
        || Bytes.startsWith(b, p, end, "PIX-")
        || Bytes.startsWith(b, p, end, "FWSM-")
        || Bytes.startsWith(b, p, end, "FTD-");
  }

  private static boolean isUptimeUnit(byte c) {
    return c == 'y' || c == 'w' || c == 'd' || c == 'h';
  }

  /**
   * Cisco IOS / NX-OS / IOS-XR preamble: {@code [seq: ][origin-host: ][xr-node:][*|.](stamp
   * [zone]|uptime)[:] [xr-process[pid]: ]%MNEMONIC:}. pos is at a digit, '*', '.', an origin
   * hostname or an IOS-XR node. {@code relayed}: a relay's stamp and hostname were read before pos;
   * the device's own stamp replaces the relay's (it is the event's time, to the millisecond and
   * with its zone) unless the device marks its clock as never set ('*'), and an origin hostname
   * replaces the relay's.
   */
  private SyslogFormat readCiscoIos(byte[] b, int pos, int end, ParseResult r, boolean relayed) {
    int p = pos;
    if (isDigit(b[p])) {
      int digitsEnd = Bytes.skipDigits(b, p, end);
      if (at(b, digitsEnd, end, ':') && (digitsEnd + 1 == end || b[digitsEnd + 1] == ' ')) {
        p = skipSpaces(b, digitsEnd + 1, end);
      }
    }
    int hostEnd = ciscoOriginHostEnd(b, p, end, r.date);
    if (hostEnd != NO_MATCH) {
      r.hostname(p, hostEnd - p);
      p = skipSpaces(b, at(b, hostEnd, end, ':') ? hostEnd + 1 : hostEnd, end);
      int digitsEnd = Bytes.skipDigits(b, p, end);
      if (detectCiscoHostname
          && digitsEnd > p
          && at(b, digitsEnd, end, ':')
          && at(b, digitsEnd + 1, end, ' ')) {
        p =
            skipSpaces(
                b, digitsEnd + 1, end); // the message number again: "123: router1: 123: *Mar ..."
      }
    }
    int nodeEnd = xrNodeEnd(b, p, end);
    if (nodeEnd != NO_MATCH) {
      p = nodeEnd + 1; // IOS-XR's node ("RP/0/RSP0/CPU0:") names a card, not the host: not a field
    }
    boolean clockNeverSet = at(b, p, end, '*');
    if (p < end && (b[p] == '*' || b[p] == '.')) {
      p++; // clock not (or no longer) synchronised: the stamp is still the device's best knowledge
    }
    int stampEnd =
        p < end ? Timestamps.scanBsd(b, p, end, r.date, detectYear, zones, detectOffset) : NO_MATCH;
    if (stampEnd != NO_MATCH) {
      stampEnd = skipUnknownZone(b, stampEnd, end, r.date);
      if (!(relayed && clockNeverSet)) {
        eventTime.set(r, StampKind.BSD, p, stampEnd);
      }
      p = stampEnd;
    } else if (p < end && isDigit(b[p])) {
      int uptimeEnd = uptimeEnd(b, p, end);
      if (uptimeEnd != NO_MATCH) {
        p = uptimeEnd; // uptime instead of a date: the receive time stands
      }
    }
    if (at(b, p, end, ':')) {
      p++;
    }
    p = skipSpaces(b, p, end);
    if (detectCiscoHostname && hostEnd == NO_MATCH && p < end && b[p] != '%') {
      // The hostname after the stamp: "...: Mar  1 18:46:11 UTC: router1 %LINK-3-UPDOWN: up".
      int wordEnd = Bytes.findBlank(b, p, end);
      if (at(b, wordEnd, end, ' ')
          && at(b, wordEnd + 1, end, '%')
          && !isTagLike(b, p, wordEnd)
          && hostnameDefects(b, p, wordEnd) == 0) {
        r.hostname(p, wordEnd - p);
        p = wordEnd + 1;
      }
    }
    int mnemonic = p;
    if (nodeEnd != NO_MATCH && p < end && b[p] != '%') {
      // IOS-XR names the process before the mnemonic ("ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : "):
      // its pid is the procid; the mnemonic, below, is the app as in every Cisco message.
      int tagEnd = tagEnd(b, p, Bytes.findBlank(b, p, end));
      if (tagEnd != NO_MATCH
          && at(b, tagEnd, end, ' ')
          && at(b, skipSpaces(b, tagEnd, end), end, '%')) {
        setTag(b, p, tagEnd, r);
        mnemonic = skipSpaces(b, tagEnd, end);
      }
    }
    if (at(b, mnemonic, end, '%')) {
      SyslogFormat cisco = readMnemonic(b, mnemonic, end, r);
      if (cisco != null) {
        return cisco;
      }
    }
    r.addDefect(Defect.MALFORMED_HEADER);
    readTag(b, p, end, r);
    return SyslogFormat.CISCO_IOS;
  }

  /**
   * End of an origin hostname at p ({@code logging origin-id hostname}): a word of letters, digits,
   * '.', '-' and '_' that is neither all digits (a message number, a year) nor an uptime, followed
   * by ": " and a clock mark, a stamp, an uptime, a message number or a mnemonic ("router1: *Mar 1
   * ..."); or followed by a space and a stamp, possibly after a clock mark or a message number
   * ("router1 *Mar 1 ...", "router1 123: Mar 1 ..."). Returns the position of the ':' or space
   * after the word, else NO_MATCH.
   */
  private int ciscoOriginHostEnd(byte[] b, int p, int end, DateFields f) {
    if (p >= end || !(Bytes.isLetter(b[p]) || isDigit(b[p])) || Timestamps.bsdStampAt(b, p, end)) {
      return NO_MATCH;
    }
    int q = p;
    boolean allDigits = true;
    boolean dotted = false;
    while (q < end
        && (Bytes.isLetter(b[q]) || isDigit(b[q]) || b[q] == '.' || b[q] == '-' || b[q] == '_')) {
      allDigits &= isDigit(b[q]);
      dotted |= b[q] == '.';
      q++;
    }
    if (allDigits
        || q - p > MAX_HOSTNAME
        || (isDigit(b[p]) && !dotted && uptimeEnd(b, p, end) != NO_MATCH)
        || (!detectCiscoHostname && !Bytes.isLetter(b[p]))) {
      return NO_MATCH;
    }
    if (at(b, q, end, ':') && at(b, q + 1, end, ' ')) {
      int next = skipSpaces(b, q + 1, end);
      boolean preambleFollows =
          next < end
              && (b[next] == '*'
                  || b[next] == '.'
                  || b[next] == '%'
                  || isDigit(b[next])
                  || Timestamps.bsdStampAt(b, next, end));
      return preambleFollows ? q : NO_MATCH;
    }
    if (!at(b, q, end, ' ') || !detectCiscoIos || !detectCiscoHostname) {
      return NO_MATCH;
    }
    int next = skipSpaces(b, q, end);
    int digitsEnd = Bytes.skipDigits(b, next, end);
    if (digitsEnd > next && at(b, digitsEnd, end, ':') && at(b, digitsEnd + 1, end, ' ')) {
      next = skipSpaces(b, digitsEnd + 1, end);
    }
    if (next < end && (b[next] == '*' || b[next] == '.')) {
      next++;
    }
    return mnemonicAfterStamp(b, stampEnd(b, next, end, f), end) ? q : NO_MATCH;
  }

  /**
   * Whether a mnemonic ("%LINK-...") follows the stamp ending at stampEnd, after an optional ':'
   * and spaces, and possibly after a hostname ("...: nx1 %ETHPORT-...").
   */
  private static boolean mnemonicAfterStamp(byte[] b, int stampEnd, int end) {
    if (stampEnd == NO_MATCH) {
      return false;
    }
    int p = skipSpaces(b, at(b, stampEnd, end, ':') ? stampEnd + 1 : stampEnd, end);
    if (!at(b, p, end, '%')) {
      int wordEnd = Bytes.findBlank(b, p, end);
      p = at(b, wordEnd, end, ' ') ? wordEnd + 1 : end;
    }
    return at(b, p, end, '%') && p + 1 < end && Bytes.isLetter(b[p + 1]);
  }

  /**
   * End (the ':') of an IOS-XR node id at p ({@code RP/0/RSP0/CPU0:}, {@code LC/0/1/CPU0:}:
   * letters, digits and at least one '/') when a BSD stamp follows the ':' directly; else NO_MATCH.
   */
  private static int xrNodeEnd(byte[] b, int p, int end) {
    if (p >= end || !Bytes.isLetter(b[p])) {
      return NO_MATCH;
    }
    int q = p;
    boolean slash = false;
    while (q < end && (Bytes.isLetter(b[q]) || isDigit(b[q]) || b[q] == '/')) {
      slash |= b[q] == '/';
      q++;
    }
    return slash && at(b, q, end, ':') && Timestamps.bsdStampAt(b, q + 1, end) ? q : NO_MATCH;
  }

  /**
   * Whether a Cisco IOS preamble starts at p, where an RFC 3164 tag would (after a relay's stamp
   * and hostname): a message number followed by a clock mark, a stamp, an uptime, an IOS-XR node,
   * an origin hostname or a mnemonic; a clock mark followed by a stamp; an IOS-XR node; or a stamp
   * followed by a mnemonic. A bare number followed by ordinary text stays an RFC 3164 tag. Uses f
   * as scratch.
   */
  private boolean isRelayedCiscoPreamble(byte[] b, int p, int end, DateFields f) {
    byte c = b[p];
    if (isDigit(c)
        && !(detectYear && Bytes.skipDigits(b, p, end) == p + 4 && at(b, p + 4, end, ' '))) {
      int digitsEnd = Bytes.skipDigits(b, p, end);
      if (!at(b, digitsEnd, end, ':') || !at(b, digitsEnd + 1, end, ' ')) {
        return false;
      }
      int next = skipSpaces(b, digitsEnd + 1, end);
      if (next >= end) {
        return false;
      }
      byte n = b[next];
      return ((n == '*' || n == '.') && isBsdStamp(b, next + 1, end, f))
          || (n == '%' && next + 1 < end && Bytes.isLetter(b[next + 1]))
          || isBsdStamp(b, next, end, f)
          || (isDigit(n) && uptimeEnd(b, next, end) != NO_MATCH)
          || xrNodeEnd(b, next, end) != NO_MATCH
          || ciscoOriginHostEnd(b, next, end, f) != NO_MATCH;
    }
    if (c == '*' || c == '.') {
      return isBsdStamp(b, p + 1, end, f);
    }
    if (xrNodeEnd(b, p, end) != NO_MATCH) {
      return true;
    }
    int stampEnd = stampEnd(b, p, end, f);
    if (stampEnd == NO_MATCH) {
      return false;
    }
    if (at(b, stampEnd, end, ':')) {
      stampEnd++;
    }
    return at(b, stampEnd, end, ' ') && at(b, skipSpaces(b, stampEnd, end), end, '%');
  }

  /**
   * A whole BSD stamp at p (not just a month name; with a year first when
   * detect.year.in.timestamp); f is scratch.
   */
  private boolean isBsdStamp(byte[] b, int p, int end, DateFields f) {
    return stampEnd(b, p, end, f) != NO_MATCH;
  }

  /**
   * The end of a whole BSD stamp at p, its zone included (a known one, or an unknown word before ":
   * %"), or NO_MATCH; a year first ("2026 Mar 1 ...", NX-OS) counts when detect.year.in.timestamp
   * is on. f is scratch.
   */
  private int stampEnd(byte[] b, int p, int end, DateFields f) {
    boolean yearFirst =
        detectYear
            && p + 5 < end
            && isDigit(b[p])
            && b[p + 4] == ' '
            && Timestamps.bsdStampAt(b, p + 5, end);
    if (!yearFirst && !Timestamps.bsdStampAt(b, p, end)) {
      return NO_MATCH;
    }
    int stampEnd = Timestamps.scanBsd(b, p, end, f, detectYear, zones, detectOffset);
    return stampEnd == NO_MATCH ? NO_MATCH : skipUnknownZone(b, stampEnd, end, f);
  }

  /**
   * Whether a Cisco IOS / NX-OS preamble starts at p, after "&lt;PRI&gt;: ": a stamp (with a clock
   * mark or a year first) followed by a mnemonic, an origin hostname or an IOS-XR node. f is
   * scratch.
   */
  private boolean isCiscoPreamble(byte[] b, int p, int end, DateFields f) {
    int stamp = b[p] == '*' || b[p] == '.' ? p + 1 : p;
    return mnemonicAfterStamp(b, stampEnd(b, stamp, end, f), end)
        || ciscoOriginHostEnd(b, p, end, f) != NO_MATCH
        || xrNodeEnd(b, p, end) != NO_MATCH;
  }

  /**
   * Cisco ASA with {@code logging timestamp} in its EMBLEM-like form, a ':' right after PRI: {@code
   * <166>:Nov 21 06:58:49 UTC: %ASA-6-302013: ...}. Returns null, having changed nothing but
   * scratch, when no stamp and mnemonic follow the ':' (or their format's detection is off).
   */
  private SyslogFormat readColonStamp(byte[] b, int pos, int end, ParseResult r) {
    int stampStart = pos + 1;
    int stampEnd =
        Timestamps.bsdStampAt(b, stampStart, end)
            ? Timestamps.scanBsd(b, stampStart, end, r.date, detectYear, zones, detectOffset)
            : NO_MATCH;
    if (stampEnd == NO_MATCH) {
      return null;
    }
    stampEnd = skipUnknownZone(b, stampEnd, end, r.date);
    int p = at(b, stampEnd, end, ':') ? stampEnd + 1 : stampEnd;
    p = skipSpaces(b, p, end);
    SyslogFormat cisco = at(b, p, end, '%') ? readMnemonic(b, p, end, r) : null;
    if (cisco != null) {
      eventTime.set(r, StampKind.BSD, stampStart, stampEnd);
    }
    return cisco;
  }

  /**
   * A zone-like word the table does not know, right before the stamp's ':' ("... 18:46:11 XST: %").
   */
  private static int skipUnknownZone(byte[] b, int p, int end, DateFields f) {
    if (f.hasOffset || !at(b, p, end, ' ')) {
      return p;
    }
    int q = p + 1;
    while (q < end && Bytes.isLetter(b[q]) && q - p <= 6) {
      q++;
    }
    if (q > p + 1 && at(b, q, end, ':') && at(b, q + 1, end, ' ') && at(b, q + 2, end, '%')) {
      f.unknownZone = true;
      return q;
    }
    return p;
  }

  /**
   * An uptime such as {@code 00:01:23:}, {@code 1w2d:}, {@code 2d03h:}; returns the position of its
   * final ':'.
   */
  private static int uptimeEnd(byte[] b, int p, int end) {
    int q = p;
    while (q < end
        && (isDigit(b[q]) || b[q] == ':' || b[q] == '.' || isUptimeUnit(b[q]) || b[q] == 'm')) {
      q++;
    }
    if (q - p < 2 || b[q - 1] != ':' || (q < end && b[q] != ' ')) {
      return NO_MATCH;
    }
    return q - 1;
  }

  // ============================================================================================
  // Meraki

  /**
   * Cisco Meraki {@code [1 ]EPOCH.NANOS DEVICE CATEGORY text} at p (the "1 " is the version Meraki
   * puts in front): the epoch is the timestamp, the device name the hostname (replacing a relay's),
   * the category the app, the rest the message. Returns null, having changed nothing but the
   * scratch date, when there is no epoch with a fraction and a device name after it.
   */
  private SyslogFormat readMeraki(byte[] b, int p, int end, ParseResult r) {
    int stampStart = b[p] == '1' && at(b, p + 1, end, ' ') ? p + 2 : p;
    int stampEnd = Timestamps.scanEpoch(b, stampStart, end, r.date);
    if (stampEnd == NO_MATCH) {
      return null;
    }
    int hostStart = skipSpaces(b, stampEnd, end);
    int hostEnd = Bytes.findBlank(b, hostStart, end);
    if (hostEnd == hostStart || hostnameDefects(b, hostStart, hostEnd) != 0) {
      return null;
    }
    eventTime.set(r, StampKind.FIELDS, stampStart, stampEnd);
    r.hostname(hostStart, hostEnd - hostStart);
    int appStart = skipSpaces(b, hostEnd, end);
    int appEnd = Bytes.findBlank(b, appStart, end);
    if (appEnd > appStart) {
      r.app(appStart, appEnd - appStart);
    }
    int message = skipSpaces(b, appEnd, end);
    r.message(message, end - message);
    return SyslogFormat.MERAKI;
  }

  // ============================================================================================
  // Snare, FortiGate

  /**
   * A Snare record name at p: a word, TAB, a 1-2 digit criticality, TAB. Returns the first TAB's
   * position.
   */
  private static int snareAppEnd(byte[] b, int p, int end) {
    int wordEnd = Bytes.findBlank(b, p, end);
    if (wordEnd == p || !at(b, wordEnd, end, '\t')) {
      return NO_MATCH;
    }
    int digitsEnd = Bytes.skipDigits(b, wordEnd + 1, end);
    int count = digitsEnd - wordEnd - 1;
    return count >= 1 && count <= 2 && at(b, digitsEnd, end, '\t') ? wordEnd : NO_MATCH;
  }

  /**
   * Snare without a syslog header: {@code host TAB MSWinEventLog TAB criticality TAB log TAB
   * counter TAB Www Mmm dd hh:mm:ss yyyy TAB ...}; the date field is the timestamp.
   */
  private SyslogFormat readSnareWithoutHeader(byte[] b, int pos, int end, ParseResult r) {
    int hostEnd = Bytes.findBlank(b, pos, end);
    if (hostEnd == pos || !at(b, hostEnd, end, '\t')) {
      return null;
    }
    int appEnd = snareAppEnd(b, hostEnd + 1, end);
    if (appEnd == NO_MATCH) {
      return null;
    }
    if (hostnameDefects(b, pos, hostEnd) == 0) {
      r.hostname(pos, hostEnd - pos);
    }
    r.app(hostEnd + 1, appEnd - hostEnd - 1);
    r.message(appEnd + 1, end - appEnd - 1);
    int field = appEnd + 1;
    for (int skipped = 0; skipped < 3 && field < end; skipped++) {
      while (field < end && b[field] != '\t') {
        field++;
      }
      field++;
    }
    int stampStart = field + 4; // past the weekday, "Fri "
    int stampEnd =
        stampStart < end && Bytes.isLetter(b[field]) && b[field + 3] == ' '
            ? Timestamps.scanBsd(b, stampStart, end, r.date, true, zones, detectOffset)
            : NO_MATCH;
    if (stampEnd != NO_MATCH && r.date.year >= 0) {
      eventTime.set(r, StampKind.BSD, field, stampEnd);
    } else {
      r.addDefect(Defect.MISSING_TIMESTAMP);
    }
    return SyslogFormat.SNARE;
  }

  /**
   * FortiGate {@code date=2019-05-13 time=11:45:03 devname="FGT60D" ... logid="0100040704" ...
   * tz="+0200"}: the first pairs give the timestamp, hostname (devname) and msgid (logid); the
   * whole text is the message.
   */
  private SyslogFormat readFortigate(byte[] b, int pos, int end, ParseResult r) {
    int dateStart = -1;
    int timeStart = -1;
    int timeEnd = -1;
    int tzStart = -1;
    int tzEnd = -1;
    int p = pos;
    for (int pairs = 0; pairs < MAX_FORTIGATE_PAIRS && p < end; pairs++) {
      int keyStart = p;
      while (p < end && b[p] != '=' && b[p] != ' ') {
        p++;
      }
      if (!at(b, p, end, '=')) {
        break;
      }
      int keyEnd = p++;
      int valueStart;
      int valueEnd;
      if (at(b, p, end, '"')) {
        valueStart = p + 1;
        valueEnd = valueStart;
        while (valueEnd < end && b[valueEnd] != '"') {
          valueEnd++;
        }
        p = Math.min(valueEnd + 1, end);
      } else {
        valueStart = p;
        valueEnd = Bytes.findSpace(b, p, end);
        p = valueEnd;
      }
      int keyLength = keyEnd - keyStart;
      if (keyLength == 4 && Bytes.startsWith(b, keyStart, keyEnd, "date")) {
        dateStart = valueStart;
      } else if (keyLength == 4 && Bytes.startsWith(b, keyStart, keyEnd, "time")) {
        timeStart = valueStart;
        timeEnd = valueEnd;
      } else if (keyLength == 7
          && Bytes.startsWith(b, keyStart, keyEnd, "devname")
          && valueEnd > valueStart) {
        r.hostname(valueStart, valueEnd - valueStart);
      } else if (keyLength == 5
          && Bytes.startsWith(b, keyStart, keyEnd, "logid")
          && valueEnd > valueStart) {
        r.msgid(valueStart, valueEnd - valueStart);
      } else if (keyLength == 2 && Bytes.startsWith(b, keyStart, keyEnd, "tz")) {
        tzStart = valueStart;
        tzEnd = valueEnd;
      }
      p = skipSpaces(b, p, end);
    }
    r.message(pos, end - pos);
    if (r.hostnameOffset() < 0) {
      r.addDefect(Defect.MISSING_HOSTNAME);
    }
    if (dateStart < 0 || timeStart < 0) {
      r.addDefect(Defect.MISSING_TIMESTAMP);
    } else {
      fortigateTimestamp(b, dateStart, timeStart, timeEnd, tzStart, tzEnd, end, r);
    }
    return SyslogFormat.FORTIGATE;
  }

  private void fortigateTimestamp(
      byte[] b, int date, int time, int timeEnd, int tz, int tzEnd, int end, ParseResult r) {
    DateFields f = r.date;
    f.clear();
    f.year = Bytes.digits(b, date, end, 4);
    f.month = Bytes.digits(b, date + 5, end, 2);
    f.day = Bytes.digits(b, date + 8, end, 2);
    f.hour = Bytes.digits(b, time, end, 2);
    f.minute = Bytes.digits(b, time + 3, end, 2);
    f.second = Bytes.digits(b, time + 6, end, 2);
    if (f.year < 0 || f.month < 0 || f.day < 0 || f.hour < 0 || f.minute < 0 || f.second < 0) {
      f.month = 0; // marks it invalid
    }
    if (tz >= 0 && tzEnd - tz == 5 && (b[tz] == '+' || b[tz] == '-')) {
      int hours = Bytes.digits(b, tz + 1, end, 2);
      int minutes = Bytes.digits(b, tz + 3, end, 2);
      if (hours >= 0 && minutes >= 0) {
        f.hasOffset = true;
        f.offsetSeconds = (b[tz] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
      }
    }
    eventTime.set(r, StampKind.FIELDS, date, Math.max(date, timeEnd));
  }
}
