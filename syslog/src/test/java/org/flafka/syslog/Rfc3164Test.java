package org.flafka.syslog;

import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.flafka.syslog.Parsing.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Rfc3164Test {

  @Test
  void readsTheClassicHeader() {
    ParseResult r = parse("<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed for lonvick");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals(4, r.facility());
    assertEquals(2, r.severity());
    assertEquals(-1, r.version());
    assertEquals(millis("2026-10-11T22:14:15Z"), r.timestampMillis());
    assertEquals("Oct 11 22:14:15", r.timestampText());
    assertEquals("mymachine", r.hostname());
    assertEquals("su", r.app());
    assertEquals("123", r.procid());
    assertNull(r.msgid());
    assertEquals("'su root' failed for lonvick", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<13>Feb  5 17:32:18 host app: m|2026-02-05T17:32:18Z",
        "<13>Feb 5 17:32:18 host app: m|2026-02-05T17:32:18Z",
        "<13>Feb 05 17:32:18 host app: m|2026-02-05T17:32:18Z",
        "<13>FEB  5 17:32:18 host app: m|2026-02-05T17:32:18Z",
        "<13>feb 15 17:32:18 host app: m|2026-02-15T17:32:18Z",
        "<13>Feb 15 17:32:18.123 host app: m|2026-02-15T17:32:18.123Z",
        "<13>Feb 15 7:32:18 host app: m|2026-02-15T07:32:18Z",
      })
  void readsStampVariants(String message, String instant) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(millis(instant), r.timestampMillis());
    assertEquals("host", r.hostname());
    assertEquals("app", r.app());
    assertEquals("m", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // message | app | procid | message text
        "<13>Feb  5 17:32:18 host app: text|app||text",
        "<13>Feb  5 17:32:18 host app[42]: text|app|42|text",
        "<13>Feb  5 17:32:18 host app[42] text|app|42|text",
        "<13>Feb  5 17:32:18 host app:text|app||text",
        "<13>Feb  5 17:32:18 host root[8539]:syslog message|root|8539|syslog message",
        "<13>Feb  5 17:32:18 host sshd(pam_unix)[12750]: s|sshd(pam_unix)|12750|s",
        "<13>Feb  5 17:32:18 host postfix/smtpd[99]: s|postfix/smtpd|99|s",
        "<13>Feb  5 17:32:18 host app:  two|app||' two'",
        "<13>Feb  5 17:32:18 host app:|app||''",
        "<13>Feb  5 17:32:18 host Use the BFG!|||Use the BFG!",
        "<13>Feb  5 17:32:18 host 10.0.0.1:514 refused|||10.0.0.1:514 refused",
        "<13>Feb  5 17:32:18 host 12:00:01 late|||12:00:01 late",
      })
  void readsTagForms(String message, String app, String procid, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals("host", r.hostname());
    assertEquals(app, r.app());
    assertEquals(procid, r.procid());
    assertEquals(text, r.message());
  }

  @Test
  void aWordEndingLikeATagMeansTheHostnameIsMissing() {
    ParseResult r = parse("<133>Jan 13 16:33:35 haproxy[73411]: Proxy sticky-servers started.");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("missing-hostname", r.defectNames());
    assertNull(r.hostname());
    assertEquals("haproxy", r.app());
    assertEquals("73411", r.procid());
    assertEquals("Proxy sticky-servers started.", r.message());
  }

  @Test
  void aWordThatCannotBeAHostnameMeansTheHostnameIsMissing() {
    ParseResult r = parse("<13>Jan 13 16:33:35 #001 MSWinEventLog");
    assertEquals("missing-hostname", r.defectNames());
    assertNull(r.hostname());
    assertEquals("#001 MSWinEventLog", r.message());
  }

  @Test
  void hostnameMayBeIpv6OrNonAscii() {
    assertEquals("fe80::1", parse("<13>Jan 13 16:33:35 fe80::1 app: m").hostname());
    assertEquals("Übergröße", parse("<46>Jan 5 10:01:00 Übergröße app: m").hostname());
  }

  @Test
  void hostnameOnlyAndEmptyRest() {
    ParseResult r = parse("<14>Aug 30 23:00:05 X4711");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("X4711", r.hostname());
    assertEquals("", r.message());
    ParseResult noHost = parse("<14>Aug 30 23:00:05 ");
    assertEquals("missing-hostname", noHost.defectNames());
    assertEquals("", noHost.message());
  }

  @Test
  void tabsAndCarriageReturnsInTheMessageAreKept() {
    ParseResult r = parse("<167>Mar  6 16:57:54 host test: before HT\tafter HT\r\n");
    assertEquals("before HT\tafter HT", r.message(), "the trailing CR LF is framing residue");
  }

  @Test
  void nulBytesDoNotStopTheParser() {
    ParseResult r = parse("<167>Mar  6 16:57:54 host test: msgnum:0 \0 test message\0");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("msgnum:0 \0 test message", r.message());
  }

  @Test
  void nonUtf8BytesAreKeptAndDecodedWithReplacement() {
    byte[] bytes =
        "<13>Feb  5 17:32:18 host app: caf\u00e9 X".getBytes(StandardCharsets.ISO_8859_1);
    ParseResult r = new SyslogParser(Parsing.OPTIONS).parse(bytes, Parsing.RECEIVED);
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("caf\ufffd X", r.message());
    assertEquals(
        (byte) 0xE9, r.buffer()[r.messageOffset() + 3], "the bytes themselves are untouched");
  }

  @Test
  void isoStampWithHostnameAndNoTag() {
    ParseResult r =
        parse(
            "<10>2012-04-13T11:11:11+08:00 ubuntu-11.cloudera.com some msg\n",
            with(Leniency.DETECT_TAG_WITHOUT_COLON, false));
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals(millis("2012-04-13T03:11:11Z"), r.timestampMillis());
    assertEquals(28800, r.timestampUtcOffsetSeconds());
    assertEquals("ubuntu-11.cloudera.com", r.hostname());
    assertNull(r.app());
    assertEquals("some msg", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // message | app | text: detect.tag.without.colon (on) reads a tag-shaped first word after
        // the hostname
        "<13>Nov 21 10:00:00 host app details here|app|details here",
        "<13>Nov 21 10:00:00 host app [details] more|app|[details] more",
        "<13>Nov 21 10:00:00 host postfix/smtpd connect from x|postfix/smtpd|connect from x",
        "<13>Nov 21 10:00:00 host java.util.logging ok|java.util.logging|ok",
        "<13>Nov 21 10:00:00 host CRON (root) CMD|CRON|(root) CMD",
        "<13>Nov 21 10:00:00 host sshd_2 x|sshd_2|x",
        "<13>2026-11-21T10:00:00Z host flows src=10.0.0.1|flows|src=10.0.0.1",
        // not tag-shaped: the message starts there
        "<13>Nov 21 10:00:00 host Connection refused||Connection refused",
        "<13>Nov 21 10:00:00 host Use the BFG!||Use the BFG!",
        "<13>Nov 21 10:00:00 host - nil here||- nil here",
        "<13>Nov 21 10:00:00 host alone||alone",
        "<13>Nov 21 10:00:00 host key=value rest||key=value rest",
        "<13>Nov 21 10:00:00 host \"quoted\" rest||\"quoted\" rest",
        "<13>Nov 21 10:00:00 host a_word_that_is_longer_than_32_bytes x||a_word_that_is_longer_than_32_bytes x",
      })
  void aTagWithoutColonWhenShapedLikeOne(String message, String app, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals("host", r.hostname());
    assertEquals(app, r.app());
    assertEquals(text, r.message());
  }

  @Test
  void lastMessageRepeatedHasNoTag() {
    ParseResult withHost = parse("<13>Feb  5 17:32:18 host last message repeated 3 times");
    assertEquals(ParseStatus.OK, withHost.status());
    assertEquals("host", withHost.hostname());
    assertNull(withHost.app());
    assertEquals("last message repeated 3 times", withHost.message());
    ParseResult bare = parse("<13>last message repeated 5 times");
    assertEquals(ParseStatus.OK, bare.status());
    assertEquals(TimestampSource.RECEIVED, bare.timestampSource());
    assertEquals("last message repeated 5 times", bare.message());
  }

  @Test
  void priWithoutHeaderReadsOnlyATag() {
    ParseResult r = parse("<27>xapi: [error|xen3|15] Connection to master died.");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("missing-timestamp", r.defectNames());
    assertNull(r.hostname());
    assertEquals("xapi", r.app());
    assertEquals("[error|xen3|15] Connection to master died.", r.message());
    ParseResult text = parse("<10>Good good good data");
    assertNull(text.hostname());
    assertNull(text.app());
    assertEquals("Good good good data", text.message());
  }

  @Test
  void noPriAndNoTimestampIsRaw() {
    ParseResult r = parse("hi guys! <10> bad bad data\n");
    assertEquals(ParseStatus.RAW, r.status());
    assertEquals(SyslogFormat.UNKNOWN, r.format());
    assertEquals("missing-pri,missing-timestamp", r.defectNames());
    assertEquals("hi guys! <10> bad bad data", r.message());
    assertEquals(Parsing.RECEIVED, r.timestampMillis());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<10F> bad bad data",
        "<> bad",
        "<123123123123123> bad",
        "<192>Feb  5 17:32:18 host app: m",
        "<-1>x",
        "<",
        "<13",
        "<1x>",
      })
  void anInvalidPriIsRaw(String message) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.RAW, r.status());
    assertEquals("malformed-header", r.defectNames());
    assertEquals(-1, r.pri());
    assertEquals(message, r.message());
  }

  @Test
  void priWithLeadingZerosIsTolerated() {
    ParseResult r = parse("<013>Feb  5 17:32:18 host app: m");
    assertEquals("malformed-header", r.defectNames());
    assertEquals(13, r.pri());
    assertEquals("host", r.hostname());
  }

  @Test
  void emptyInput() {
    ParseResult r = parse("");
    assertEquals(ParseStatus.RAW, r.status());
    assertEquals("", r.message());
    ParseResult priOnly = parse("<13>");
    assertEquals(ParseStatus.LENIENT, priOnly.status());
    assertEquals(13, priOnly.pri());
    assertEquals("", priOnly.message());
  }

  @Test
  void parsesASliceOfALargerArray() {
    byte[] buffer = "XXXX<13>Feb  5 17:32:18 host app: m\nYYYY".getBytes(StandardCharsets.US_ASCII);
    ParseResult r =
        new SyslogParser(Parsing.OPTIONS).parse(buffer, 4, 32, Parsing.RECEIVED, new ParseResult());
    ResultInvariants.check(r, buffer, 4, 32, Parsing.RECEIVED);
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("host", r.hostname());
    assertEquals("m", r.message());
  }
}
