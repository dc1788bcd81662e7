package org.flafka.syslog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link SyslogParser} found in one message. Mutable and reusable: pass the same instance to
 * {@link SyslogParser#parse(byte[], int, int, long, ParseResult)} for every message on a thread and
 * the hot path allocates nothing but what structured data needs the first time. Not thread-safe.
 *
 * <p>Text fields are kept as offsets into the caller's untouched input ({@link #buffer()}); an
 * absent field has offset -1 and length 0. The {@code String} accessors ({@link #hostname()},
 * {@link #app()}, …) decode UTF-8 (malformed bytes become U+FFFD) on first call and cache the
 * string until the next parse.
 *
 * <p>A result refers to the caller's array; if the caller reuses that array for the next message,
 * read the fields first.
 */
public final class ParseResult {
  /**
   * Structured-data params recorded per message; further params stay in {@link
   * #structuredDataText()}.
   */
  public static final int MAX_SD_PARAMS = 256;

  private static final int INITIAL_SD_CAPACITY = 8;

  private byte[] buffer = new byte[0];
  private int inputOffset;
  private int inputLength;
  private long receivedMillis;

  private ParseStatus status = ParseStatus.RAW;
  private SyslogFormat format = SyslogFormat.UNKNOWN;
  private long defects;

  private int pri = -1;
  private int version = -1;

  private long timestampMillis;
  private TimestampSource timestampSource = TimestampSource.RECEIVED;
  private int timestampUtcOffsetSeconds;
  private int timestampTextOffset = -1;
  private int timestampTextLength;
  private boolean timestampRejected;
  private long rejectedTimestampMillis = -1;

  private int hostnameOffset = -1;
  private int hostnameLength;
  private int appOffset = -1;
  private int appLength;
  private int procidOffset = -1;
  private int procidLength;
  private int msgidOffset = -1;
  private int msgidLength;
  private int structuredDataOffset = -1;
  private int structuredDataLength;
  private int messageOffset;
  private int messageLength;

  // Structured data: element e has id [sdIdOffset[e], +sdIdLength[e]) and params [sdFirstParam[e],
  // sdFirstParam[e+1])
  private int sdElementCount;
  private int[] sdIdOffset = new int[INITIAL_SD_CAPACITY];
  private int[] sdIdLength = new int[INITIAL_SD_CAPACITY];
  private int[] sdFirstParam = new int[INITIAL_SD_CAPACITY + 1];
  private int sdParamTotal;
  private int[] sdNameOffset = new int[INITIAL_SD_CAPACITY];
  private int[] sdNameLength = new int[INITIAL_SD_CAPACITY];
  private int[] sdValueOffset = new int[INITIAL_SD_CAPACITY];
  private int[] sdValueLength = new int[INITIAL_SD_CAPACITY];
  private boolean[] sdValueEscaped = new boolean[INITIAL_SD_CAPACITY];

  /** Scratch space for the timestamp being scanned; reused so the parser allocates nothing. */
  final DateFields date = new DateFields();

  private String hostname;
  private String app;
  private String procid;
  private String msgid;
  private String message;

  /**
   * An empty result (status {@link ParseStatus#RAW}), ready to be filled by {@link SyslogParser}.
   */
  public ParseResult() {}

  // ----------------------------------------------------------------------------------------------
  // input

  /** The caller's array the offsets refer to. */
  public byte[] buffer() {
    return buffer;
  }

  /** Where the message starts in {@link #buffer()}. */
  public int inputOffset() {
    return inputOffset;
  }

  /** The message's length in bytes. */
  public int inputLength() {
    return inputLength;
  }

  /** The receive time passed to the parser, epoch ms. */
  public long receivedMillis() {
    return receivedMillis;
  }

  // ----------------------------------------------------------------------------------------------
  // status

  /** How well the message was understood; never null. */
  public ParseStatus status() {
    return status;
  }

  /**
   * The recognised format; {@link SyslogFormat#UNKNOWN} exactly when the status is RAW. Never null.
   */
  public SyslogFormat format() {
    return format;
  }

  /** The tolerated defects as a bit set of {@link Defect#mask()}s; 0 when none. */
  public long defects() {
    return defects;
  }

  /** Whether {@code defect} was tolerated. */
  public boolean hasDefect(Defect defect) {
    return (defects & defect.mask()) != 0;
  }

  /**
   * {@link Defect#names(long)} of {@link #defects()}, e.g. {@code
   * "missing-hostname,space-after-pri"}.
   */
  public String defectNames() {
    return Defect.names(defects);
  }

  // ----------------------------------------------------------------------------------------------
  // PRI

  /** Whether the message had a usable {@code <PRI>}. */
  public boolean hasPri() {
    return pri >= 0;
  }

  /** The PRI value 0..191, or -1 when absent. */
  public int pri() {
    return pri;
  }

  /** The facility 0..23, or -1 when absent. See {@link SyslogCodes#facilityName(int)}. */
  public int facility() {
    return pri < 0 ? -1 : pri >> 3;
  }

  /** The severity 0..7, or -1 when absent. See {@link SyslogCodes#severityName(int)}. */
  public int severity() {
    return pri < 0 ? -1 : pri & 7;
  }

  /** The RFC 5424 version (1), or -1 for other formats. */
  public int version() {
    return version;
  }

  // ----------------------------------------------------------------------------------------------
  // time

  /**
   * The event time, epoch ms UTC: from the message when {@link #timestampSource()} is MESSAGE, else
   * the receive time. Sub-millisecond digits are truncated.
   */
  public long timestampMillis() {
    return timestampMillis;
  }

  /** Where {@link #timestampMillis()} came from; never null. */
  public TimestampSource timestampSource() {
    return timestampSource;
  }

  /** Whether {@link #timestampMillis()} came from the message. */
  public boolean timestampFromMessage() {
    return timestampSource == TimestampSource.MESSAGE;
  }

  /**
   * The UTC offset, in seconds, of the local time the message's stamp was written in: its own
   * offset when it carried one ({@code +02:00}, {@code Z}, {@code CET}), else the default zone's
   * offset at that instant. 0 when the timestamp is the receive time. {@code timestampMillis() /
   * 1000 + timestampUtcOffsetSeconds()} is the stamp's wall-clock time as epoch seconds, for
   * printing it as the device did.
   */
  public int timestampUtcOffsetSeconds() {
    return timestampUtcOffsetSeconds;
  }

  /**
   * Whether the message's own time was read but rejected as implausible (outside {@code
   * timestamp.max.past.ms} / {@code timestamp.max.future.ms} around the receive time; defect {@link
   * Defect#IMPLAUSIBLE_TIMESTAMP}), so that {@link #timestampMillis()} is the receive time and
   * {@link #rejectedTimestampMillis()} the rejected time.
   */
  public boolean hasRejectedTimestamp() {
    return timestampRejected;
  }

  /**
   * The message's own time, epoch ms UTC, when the parser rejected it as implausible and used the
   * receive time instead (a device clock reset to 1993, say); -1 when nothing was rejected. Use
   * {@link #hasRejectedTimestamp()} to tell "none" from a rejected time of exactly
   * 1969-12-31T23:59:59.999Z.
   */
  public long rejectedTimestampMillis() {
    return rejectedTimestampMillis;
  }

  /**
   * Position of the timestamp text in {@link #buffer()} (including a year, milliseconds or zone
   * name the parser read with it), or -1 when the message had none. Set even when the stamp was
   * unusable and the receive time used.
   */
  public int timestampTextOffset() {
    return timestampTextOffset;
  }

  /** Length of the timestamp text; 0 when absent. */
  public int timestampTextLength() {
    return timestampTextLength;
  }

  /** The timestamp text as it appears in the message, or null when it had none. */
  public String timestampText() {
    return timestampTextOffset < 0 ? null : decode(timestampTextOffset, timestampTextLength);
  }

  // ----------------------------------------------------------------------------------------------
  // header fields

  /**
   * Offset of the hostname, or -1 when the message had none (the caller then falls back to the
   * sender).
   */
  public int hostnameOffset() {
    return hostnameOffset;
  }

  /** Length of the hostname; 0 when absent. */
  public int hostnameLength() {
    return hostnameLength;
  }

  /** The hostname, or null when absent. */
  public String hostname() {
    if (hostname == null && hostnameOffset >= 0) {
      hostname = decode(hostnameOffset, hostnameLength);
    }
    return hostname;
  }

  /**
   * Offset of the app: RFC 5424 APP-NAME, the RFC 3164 tag without {@code [pid]} and {@code :}, a
   * Cisco mnemonic such as {@code %ASA-6-302013} or {@code %LINK-3-UPDOWN}; -1 when absent.
   */
  public int appOffset() {
    return appOffset;
  }

  /** Length of the app; 0 when absent. */
  public int appLength() {
    return appLength;
  }

  /** The app, or null when absent. */
  public String app() {
    if (app == null && appOffset >= 0) {
      app = decode(appOffset, appLength);
    }
    return app;
  }

  /**
   * Offset of the process id (RFC 5424 PROCID, the {@code [pid]} of an RFC 3164 tag); -1 when
   * absent.
   */
  public int procidOffset() {
    return procidOffset;
  }

  /** Length of the process id; 0 when absent. */
  public int procidLength() {
    return procidLength;
  }

  /** The process id, or null when absent. */
  public String procid() {
    if (procid == null && procidOffset >= 0) {
      procid = decode(procidOffset, procidLength);
    }
    return procid;
  }

  /**
   * Offset of the message id: RFC 5424 MSGID, the number of a Cisco ASA mnemonic ({@code 302013})
   * or the mnemonic of a Cisco IOS tag ({@code UPDOWN}); -1 when absent.
   */
  public int msgidOffset() {
    return msgidOffset;
  }

  /** Length of the message id; 0 when absent. */
  public int msgidLength() {
    return msgidLength;
  }

  /** The message id, or null when absent. */
  public String msgid() {
    if (msgid == null && msgidOffset >= 0) {
      msgid = decode(msgidOffset, msgidLength);
    }
    return msgid;
  }

  /**
   * Offset of the free-text message: after the header, the tag's {@code ": "} and (RFC 5424) the
   * structured data and the one space after it. Always within the input; equal to the input's end
   * when the message is empty.
   */
  public int messageOffset() {
    return messageOffset;
  }

  /**
   * Length of the free-text message, excluding trailing CR/LF; may be 0. The BOM, if any, is not
   * included.
   */
  public int messageLength() {
    return messageLength;
  }

  /** The free-text message, "" when empty. */
  public String message() {
    if (message == null) {
      message = decode(messageOffset, messageLength);
    }
    return message;
  }

  // ----------------------------------------------------------------------------------------------
  // structured data

  /**
   * Offset of the RFC 5424 structured data (from the first '[' to the last ']'), or -1 when nil or
   * absent.
   */
  public int structuredDataOffset() {
    return structuredDataOffset;
  }

  /** Length of the structured data text; 0 when absent. */
  public int structuredDataLength() {
    return structuredDataLength;
  }

  /** The structured data as it appears in the message, or null when absent. */
  public String structuredDataText() {
    return structuredDataOffset < 0 ? null : decode(structuredDataOffset, structuredDataLength);
  }

  /** Number of well-formed structured-data elements recorded. */
  public int sdElementCount() {
    return sdElementCount;
  }

  /** Offset of element {@code element}'s SD-ID. */
  public int sdIdOffset(int element) {
    checkElement(element);
    return sdIdOffset[element];
  }

  /** Length of element {@code element}'s SD-ID. */
  public int sdIdLength(int element) {
    checkElement(element);
    return sdIdLength[element];
  }

  /** Element {@code element}'s SD-ID, e.g. {@code exampleSDID@32473}. */
  public String sdId(int element) {
    checkElement(element);
    return decode(sdIdOffset[element], sdIdLength[element]);
  }

  /** Number of params recorded for element {@code element}. */
  public int sdParamCount(int element) {
    checkElement(element);
    return sdFirstParam[element + 1] - sdFirstParam[element];
  }

  /** Offset of param {@code param}'s name in element {@code element}. */
  public int sdParamNameOffset(int element, int param) {
    return sdNameOffset[paramIndex(element, param)];
  }

  /** Length of param {@code param}'s name in element {@code element}. */
  public int sdParamNameLength(int element, int param) {
    return sdNameLength[paramIndex(element, param)];
  }

  /** Param {@code param}'s name in element {@code element}. */
  public String sdParamName(int element, int param) {
    int index = paramIndex(element, param);
    return decode(sdNameOffset[index], sdNameLength[index]);
  }

  /** Offset of param {@code param}'s raw value (between the quotes, escapes unresolved). */
  public int sdParamValueOffset(int element, int param) {
    return sdValueOffset[paramIndex(element, param)];
  }

  /** Length of param {@code param}'s raw value (between the quotes, escapes unresolved). */
  public int sdParamValueLength(int element, int param) {
    return sdValueLength[paramIndex(element, param)];
  }

  /**
   * Param {@code param}'s value in element {@code element}, with the RFC 5424 escapes \" \\ \]
   * resolved.
   */
  public String sdParamValue(int element, int param) {
    int index = paramIndex(element, param);
    int offset = sdValueOffset[index];
    int length = sdValueLength[index];
    return sdValueEscaped[index] ? unescape(offset, length) : decode(offset, length);
  }

  /**
   * The structured data as maps, in message order: SD-ID to param name to unescaped value. A
   * repeated SD-ID or param name keeps the last value; use the indexed accessors to see every one.
   * Empty when there is none.
   */
  public Map<String, Map<String, String>> structuredData() {
    if (sdElementCount == 0) {
      return Collections.emptyMap();
    }
    Map<String, Map<String, String>> elements = new LinkedHashMap<>();
    for (int e = 0; e < sdElementCount; e++) {
      Map<String, String> params = new LinkedHashMap<>();
      for (int p = 0; p < sdParamCount(e); p++) {
        params.put(sdParamName(e, p), sdParamValue(e, p));
      }
      elements.put(sdId(e), params);
    }
    return elements;
  }

  // ----------------------------------------------------------------------------------------------
  // debugging

  @Override
  public String toString() {
    StringBuilder text =
        new StringBuilder("ParseResult{status=")
            .append(status.headerValue())
            .append(", format=")
            .append(format.headerValue());
    if (defects != 0) {
      text.append(", defects=").append(defectNames());
    }
    if (pri >= 0) {
      text.append(", facility=").append(facility()).append(", severity=").append(severity());
    }
    if (version >= 0) {
      text.append(", version=").append(version);
    }
    text.append(", timestamp=")
        .append(timestampMillis)
        .append(" (")
        .append(timestampSource.headerValue())
        .append(')');
    if (timestampRejected) {
      text.append(", rejected timestamp=").append(rejectedTimestampMillis);
    }
    appendField(text, "hostname", hostname());
    appendField(text, "app", app());
    appendField(text, "procid", procid());
    appendField(text, "msgid", msgid());
    if (sdElementCount > 0) {
      text.append(", sd=").append(structuredData());
    }
    appendField(text, "message", message());
    return text.append('}').toString();
  }

  private static void appendField(StringBuilder text, String name, String value) {
    if (value != null) {
      text.append(", ").append(name).append("=\"").append(value).append('"');
    }
  }

  // ----------------------------------------------------------------------------------------------
  // parser side

  /**
   * Clears every field for a new message; the message defaults to the whole input, the time to
   * receive time.
   */
  void reset(byte[] buffer, int offset, int length, long receivedMillis) {
    this.buffer = buffer;
    this.inputOffset = offset;
    this.inputLength = length;
    this.receivedMillis = receivedMillis;
    status = ParseStatus.RAW;
    format = SyslogFormat.UNKNOWN;
    defects = 0;
    pri = -1;
    version = -1;
    timestampMillis = receivedMillis;
    timestampSource = TimestampSource.RECEIVED;
    timestampUtcOffsetSeconds = 0;
    timestampTextOffset = -1;
    timestampTextLength = 0;
    timestampRejected = false;
    rejectedTimestampMillis = -1;
    hostnameOffset = -1;
    hostnameLength = 0;
    appOffset = -1;
    appLength = 0;
    procidOffset = -1;
    procidLength = 0;
    msgidOffset = -1;
    msgidLength = 0;
    structuredDataOffset = -1;
    structuredDataLength = 0;
    messageOffset = offset;
    messageLength = length;
    sdElementCount = 0;
    sdParamTotal = 0;
    sdFirstParam[0] = 0;
    hostname = null;
    app = null;
    procid = null;
    msgid = null;
    message = null;
  }

  void status(ParseStatus status) {
    this.status = status;
  }

  void format(SyslogFormat format) {
    this.format = format;
  }

  void addDefect(Defect defect) {
    defects |= defect.mask();
  }

  void setDefects(long defects) {
    this.defects = defects;
  }

  void pri(int pri) {
    this.pri = pri;
  }

  void version(int version) {
    this.version = version;
  }

  void timestamp(long millis, TimestampSource source, int utcOffsetSeconds) {
    this.timestampMillis = millis;
    this.timestampSource = source;
    this.timestampUtcOffsetSeconds = utcOffsetSeconds;
  }

  void rejectedTimestamp(long millis) {
    this.timestampRejected = true;
    this.rejectedTimestampMillis = millis;
  }

  void timestampText(int offset, int length) {
    this.timestampTextOffset = offset;
    this.timestampTextLength = length;
  }

  void hostname(int offset, int length) {
    hostnameOffset = offset;
    hostnameLength = length;
  }

  void app(int offset, int length) {
    appOffset = offset;
    appLength = length;
  }

  void procid(int offset, int length) {
    procidOffset = offset;
    procidLength = length;
  }

  void msgid(int offset, int length) {
    msgidOffset = offset;
    msgidLength = length;
  }

  void structuredData(int offset, int length) {
    structuredDataOffset = offset;
    structuredDataLength = length;
  }

  void message(int offset, int length) {
    messageOffset = offset;
    messageLength = length;
  }

  /** Forgets the structured-data elements and params recorded so far. */
  void clearStructuredData() {
    sdElementCount = 0;
    sdParamTotal = 0;
    sdFirstParam[0] = 0;
    structuredDataOffset = -1;
    structuredDataLength = 0;
  }

  /** Number of params recorded so far, for the parser to roll back a malformed element. */
  int sdParamTotal() {
    return sdParamTotal;
  }

  /**
   * Starts element {@link #sdElementCount()} with the given id; its params follow via {@link
   * #addSdParam}.
   */
  void beginSdElement(int idOffset, int idLength) {
    if (sdElementCount == sdIdOffset.length) {
      int capacity = sdIdOffset.length * 2;
      sdIdOffset = Arrays.copyOf(sdIdOffset, capacity);
      sdIdLength = Arrays.copyOf(sdIdLength, capacity);
      sdFirstParam = Arrays.copyOf(sdFirstParam, capacity + 1);
    }
    sdIdOffset[sdElementCount] = idOffset;
    sdIdLength[sdElementCount] = idLength;
    sdFirstParam[sdElementCount] = sdParamTotal;
  }

  /**
   * Records a param of the element begun last; false (and nothing recorded) beyond {@link
   * #MAX_SD_PARAMS}.
   */
  boolean addSdParam(
      int nameOffset, int nameLength, int valueOffset, int valueLength, boolean escaped) {
    if (sdParamTotal == MAX_SD_PARAMS) {
      return false;
    }
    if (sdParamTotal == sdNameOffset.length) {
      int capacity = sdNameOffset.length * 2;
      sdNameOffset = Arrays.copyOf(sdNameOffset, capacity);
      sdNameLength = Arrays.copyOf(sdNameLength, capacity);
      sdValueOffset = Arrays.copyOf(sdValueOffset, capacity);
      sdValueLength = Arrays.copyOf(sdValueLength, capacity);
      sdValueEscaped = Arrays.copyOf(sdValueEscaped, capacity);
    }
    sdNameOffset[sdParamTotal] = nameOffset;
    sdNameLength[sdParamTotal] = nameLength;
    sdValueOffset[sdParamTotal] = valueOffset;
    sdValueLength[sdParamTotal] = valueLength;
    sdValueEscaped[sdParamTotal] = escaped;
    sdParamTotal++;
    return true;
  }

  /** Completes the element begun last. */
  void endSdElement() {
    sdElementCount++;
    sdFirstParam[sdElementCount] = sdParamTotal;
  }

  /** Drops the element begun last and its params (it turned out malformed). */
  void abandonSdElement() {
    sdParamTotal = sdFirstParam[sdElementCount];
  }

  // ----------------------------------------------------------------------------------------------
  // helpers

  private void checkElement(int element) {
    if (element < 0 || element >= sdElementCount) {
      throw new IndexOutOfBoundsException(
          "structured-data element " + element + " of " + sdElementCount);
    }
  }

  private int paramIndex(int element, int param) {
    checkElement(element);
    int count = sdFirstParam[element + 1] - sdFirstParam[element];
    if (param < 0 || param >= count) {
      throw new IndexOutOfBoundsException(
          "param " + param + " of " + count + " in element " + element);
    }
    return sdFirstParam[element] + param;
  }

  private String decode(int offset, int length) {
    return new String(buffer, offset, length, StandardCharsets.UTF_8);
  }

  /**
   * Resolves the RFC 5424 PARAM-VALUE escapes: a backslash before '"', '\' or ']' is dropped,
   * others kept.
   */
  private String unescape(int offset, int length) {
    byte[] unescaped = new byte[length];
    int size = 0;
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      byte b = buffer[i];
      if (b == '\\' && i + 1 < end) {
        byte next = buffer[i + 1];
        if (next == '"' || next == '\\' || next == ']') {
          b = next;
          i++;
        }
      }
      unescaped[size++] = b;
    }
    return new String(unescaped, 0, size, StandardCharsets.UTF_8);
  }
}
