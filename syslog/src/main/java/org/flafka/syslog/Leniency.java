package org.flafka.syslog;

/**
 * The named leniency switches, in the style of rsyslog's {@code permit.*} / {@code detect.*} parser
 * parameters. Each has an option key (for {@link SyslogParserOptions#from(java.util.Map)}), a
 * default and a doc.
 *
 * <p>A {@code permit.*} switch allows one deviation from the format; when it is off, a message that
 * needs it is {@link ParseStatus#RAW} (or read the strict way, where the doc says so). When a
 * permitted deviation is used, the result is {@link ParseStatus#LENIENT} and the matching {@link
 * Defect} is recorded. A {@code detect.*} switch turns on recognition of a vendor format; when it
 * is off, such messages are read as plain RFC 3164.
 */
public enum Leniency {
  PERMIT_MISSING_PRI(
      "permit.missing.pri",
      true,
      "Accept a message that does not start with <PRI>: the header is parsed as usual, facility and severity are"
          + " absent. Off: such a message is raw."),
  PERMIT_LEADING_WHITESPACE(
      "permit.leading.whitespace",
      true,
      "Accept spaces, TABs, CR and LF before the message proper (left over from sloppy framing); they are skipped."
          + " Off: such a message is raw."),
  PERMIT_SPACE_AFTER_PRI(
      "permit.space.after.pri",
      true,
      "Accept spaces between <PRI> and the header (\"<13> Feb  5 ...\"). Off: such a message is raw."),
  PERMIT_MISSING_TIMESTAMP(
      "permit.missing.timestamp",
      true,
      "Accept an RFC 3164 message without a timestamp (\"<13>host app: msg\"); the timestamp is the receive time."
          + " Off: such a message is raw."),
  PERMIT_MISSING_HOSTNAME(
      "permit.missing.hostname",
      true,
      "Accept an RFC 3164 header without a hostname: the word after the timestamp ends like a tag ('app:',"
          + " 'app[pid]') or holds a character a hostname cannot (see the permit.*.in.hostname switches); it is"
          + " then read as the tag or the message. Off: such a message is raw."),
  PERMIT_MISSING_VERSION(
      "permit.missing.version",
      true,
      "Accept an RFC 5424 message without its version digit (\"<13>2019-02-13T19:48:34Z host app 1 - - msg\"),"
          + " recognised when an RFC 3339 timestamp follows <PRI> and the fields after the hostname have the RFC 5424"
          + " shape (three words, then '-' or '['). Off: such a message is raw. (An RFC 3339 timestamp in an"
          + " RFC 3164 header, as rsyslog forwards, is not this defect and is always accepted.)"),
  PERMIT_VERSION_ZERO(
      "permit.version.zero",
      true,
      "Accept an RFC 5424 header whose version starts with 0 (\"<13>0 2026-11-21T10:00:00Z host app - - - m\","
          + " \"<13>01 ...\") when an RFC 3339 timestamp or '-' follows; the version is read as written (other"
          + " versions, 2 to 999, are always read). Off: such a message has no header (missing-timestamp)."),
  PERMIT_SPACE_IN_ISO_TIMESTAMP(
      "permit.space.in.iso.timestamp",
      true,
      "Accept a space instead of 'T' between date and time in an ISO 8601 / RFC 3339 timestamp"
          + " (\"<13>2026-11-21 10:00:00 app[12]: m\", \"<13>1 2026-11-21 10:00:00Z host app - - - m\"); an RFC 3164"
          + " header with such a stamp may lack the hostname (permit.missing.hostname). Off: such a message has no"
          + " header (missing-timestamp) or, in RFC 5424, an invalid timestamp."),
  PERMIT_MALFORMED_STRUCTURED_DATA(
      "permit.malformed.structured.data",
      true,
      "Accept RFC 5424 structured data that breaks the grammar (unquoted values, missing '=', stray characters):"
          + " a malformed element is skipped up to its closing ']', well-formed elements are kept. Off: such a"
          + " message is raw."),
  PERMIT_AT_SIGNS_IN_HOSTNAME(
      "permit.at.signs.in.hostname",
      false,
      "Accept '@' in an RFC 3164 hostname (as rsyslog's permit.AtSignsInHostname). Off: a word containing '@' is"
          + " not a hostname."),
  PERMIT_SLASHES_IN_HOSTNAME(
      "permit.slashes.in.hostname",
      false,
      "Accept '/' in an RFC 3164 hostname (as rsyslog's permit.slashesInHostname). Off: a word containing '/' is"
          + " not a hostname."),
  PERMIT_SQUARE_BRACKETS_IN_HOSTNAME(
      "permit.square.brackets.in.hostname",
      false,
      "Accept '[' and ']' in an RFC 3164 hostname, e.g. \"[192.0.2.1]\" (as rsyslog's"
          + " permit.squareBracketsInHostname). Off: a word containing brackets is not a hostname."),
  DETECT_TAG_WITHOUT_COLON(
      "detect.tag.without.colon",
      true,
      "Take the first word after an RFC 3164 hostname as the tag even when it does not end like one"
          + " (\"host app message\"), as rsyslog, syslog-ng, syslog-loose and fluentd read it, when it is shaped"
          + " like a tag: at most 32 bytes (RFC 3164's TAG limit) of letters, digits, '_', '-', '.', '/' or"
          + " non-ASCII letters, followed by a space and more text. A word with other characters (quotes, '=', ','),"
          + " a longer word, a lone word, '-', or a capitalised word that starts a sentence (\"Connection refused\":"
          + " an upper-case letter, then only lower-case ones) stays the message. Off: a word is the tag only if it ends with ':' or"
          + " '[pid]', else the message starts there (as go-syslog reads it)."),
  DETECT_YEAR_IN_TIMESTAMP(
      "detect.year.in.timestamp",
      true,
      "Recognise a year inside an RFC 3164 timestamp, before or after the time (\"Mar  7 2008 19:06:53\","
          + " \"Mar  7 19:06:53 2008\"), as Cisco and others send. Off: the year is read as the hostname."),
  DETECT_CISCO_ASA(
      "detect.cisco.asa",
      true,
      "Recognise Cisco ASA, PIX, FWSM and FTD messages by their %ASA-6-302013: style mnemonic: format cisco-asa,"
          + " the mnemonic is the app, its message number the msgid; a missing hostname and a year in the stamp"
          + " are normal for them. Off: read as plain RFC 3164."),
  DETECT_CISCO_IOS(
      "detect.cisco.ios",
      true,
      "Recognise Cisco IOS/NX-OS/IOS-XR messages: sequence numbers (\"000123:\"), '*'/'.' clock-sync marks,"
          + " uptimes instead of timestamps, millisecond stamps, zone names, %FAC-SEV-MNEMONIC tags. Off: read as"
          + " plain RFC 3164 (and raw where RFC 3164 cannot read them)."),
  DETECT_CISCO_HOSTNAME(
      "detect.cisco.hostname",
      true,
      "Read the hostname wherever Cisco devices put it (logging origin-id, logging device-id): before the stamp"
          + " with or without ':' (\"<189>: router1: *Mar  1 ...\", \"<189>: router1 Mar  1 ...\", also after a"
          + " message number and before a second one), after the stamp (\"...: Mar  1 18:46:11 UTC: router1"
          + " %LINK-3-UPDOWN\"), the ASA's \"fw01: %ASA-...\" in an RFC 3164 header, without a timestamp"
          + " (\"<166>fw01 : %ASA-...\") or after a relay's header (it then replaces the relay's host), names that"
          + " start with a digit or hold dots and underscores. Off: only a name starting with a letter and ending in ': ' before the"
          + " stamp is read; the other forms leave the hostname missing."),
  DETECT_TIME_ZONE_OFFSET(
      "detect.time.zone.offset",
      true,
      "Read a numeric zone after a device's BSD-style time: UTC or GMT with an offset (\"UTC+1\", \"GMT-5\","
          + " \"UTC+05:30\", \"UTC+0530\") or a bare offset with minutes (\"+07:30\", \"-0500\"); it wins over"
          + " timezone.default. Off: only zone names (timezone.abbreviations) are read, and a numeric zone leaves"
          + " the stamp in the default zone (or the header unread)."),
  DETECT_RELAY_PREFIX(
      "detect.relay.prefix",
      true,
      "Recognise AIX syslogd's relay prefix after the timestamp, \"Message forwarded from HOST: \": HOST is the"
          + " hostname and the tag follows (as syslog-ng and rsyslog's pmaixforwardedfrom read it). Off: \"Message\""
          + " is read as the hostname."),
  DETECT_MERAKI(
      "detect.meraki",
      true,
      "Recognise Cisco Meraki messages: an epoch time with a fraction (\"1563249630.774247467\"), then the device"
          + " name and the category, after \"<PRI>1 \", alone, or after a relay's RFC 3164 header (\"Dec  6 08:46:12"
          + " 192.168.1.1 1 1386337584.254756845 MX84 events ...\"). Format meraki: the epoch is the timestamp (UTC),"
          + " the device name the hostname, the category (events, flows, urls, ...) the app. Off: read as RFC 5424"
          + " with an invalid timestamp, or as text."),
  DETECT_FORTIGATE(
      "detect.fortigate",
      true,
      "Recognise Fortinet FortiGate key=value messages without a syslog header (date=... time=... devname=...):"
          + " format fortigate, devname is the hostname, date+time the timestamp. Off: such a message is raw."),
  DETECT_SNARE(
      "detect.snare",
      true,
      "Recognise Snare records (MSWinEventLog and kin): a word, TAB, a 1-2 digit criticality, TAB, ... either"
          + " after an RFC 3164 header or alone (then the word before them is the hostname and their date field"
          + " the timestamp). Format snare, the word is the app, the message starts after its TAB. Off: read as"
          + " plain RFC 3164."),
  DETECT_LAST_MESSAGE_REPEATED(
      "detect.last.message.repeated",
      true,
      "Recognise syslogd's exact line \"last message repeated N times\" (also straight after <PRI>, without"
          + " timestamp): no tag, the whole text is the message, nothing is missing. Off: it is an ordinary"
          + " message (without a timestamp it is lenient with missing-timestamp).");

  private final String key;
  private final boolean defaultValue;
  private final String doc;

  Leniency(String key, boolean defaultValue, String doc) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.doc = doc;
  }

  /** The option key, e.g. {@code permit.missing.pri}. */
  public String key() {
    return key;
  }

  /** Whether the switch is on when not configured. */
  public boolean defaultValue() {
    return defaultValue;
  }

  /** What the switch does, on and off. */
  public String doc() {
    return doc;
  }
}
