package org.flafka.syslog;

import static org.flafka.syslog.Parsing.parse;
import static org.flafka.syslog.Parsing.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every leniency switch, on and off, on a message that needs it (as rsyslog tests each parameter
 * both ways).
 */
class LeniencySwitchTest {

  private record Row(
      Leniency leniency, String message, Consumer<ParseResult> on, Consumer<ParseResult> off) {}

  private static Consumer<ParseResult> raw(String defects) {
    return r -> {
      assertEquals(ParseStatus.RAW, r.status());
      assertEquals(defects, r.defectNames());
      assertEquals(r.inputLength(), r.messageLength() + trailingFraming(r));
    };
  }

  private static int trailingFraming(ParseResult r) {
    return r.inputLength() - r.messageLength() - (r.messageOffset() - r.inputOffset());
  }

  private static Consumer<ParseResult> lenient(String defects, Consumer<ParseResult> fields) {
    return r -> {
      assertEquals(ParseStatus.LENIENT, r.status());
      assertEquals(defects, r.defectNames());
      fields.accept(r);
    };
  }

  private static Consumer<ParseResult> ok(SyslogFormat format, Consumer<ParseResult> fields) {
    return r -> {
      assertEquals(ParseStatus.OK, r.status(), r.defectNames());
      assertEquals(format, r.format());
      fields.accept(r);
    };
  }

  private static final List<Row> ROWS =
      List.of(
          new Row(
              Leniency.PERMIT_MISSING_PRI,
              "Feb 18 16:01:59 serverX app: MARK",
              lenient("missing-pri", r -> assertEquals("serverX", r.hostname())),
              raw("missing-pri")),
          new Row(
              Leniency.PERMIT_LEADING_WHITESPACE,
              "\n   <13>Feb 18 16:01:59 host app: m",
              lenient("leading-whitespace", r -> assertEquals("host", r.hostname())),
              raw("leading-whitespace")),
          new Row(
              Leniency.PERMIT_SPACE_AFTER_PRI,
              "<167> Mar  7 19:06:53 example tag: testmessage",
              lenient("space-after-pri", r -> assertEquals("example", r.hostname())),
              raw("space-after-pri")),
          new Row(
              Leniency.PERMIT_MISSING_TIMESTAMP,
              "<27>xapi: Connection to master died",
              lenient("missing-timestamp", r -> assertEquals("xapi", r.app())),
              raw("missing-timestamp")),
          new Row(
              Leniency.PERMIT_MISSING_HOSTNAME,
              "<133>Jan 13 16:33:35 haproxy[73411]: Proxy started.",
              lenient("missing-hostname", r -> assertEquals("haproxy", r.app())),
              raw("missing-hostname")),
          new Row(
              Leniency.PERMIT_MISSING_VERSION,
              "<13>2017-02-06T13:14:15.003Z 192.168.0.1 fluentd 11 - - Hi",
              lenient("missing-version", r -> assertEquals("fluentd", r.app())),
              raw("missing-version")),
          new Row(
              Leniency.PERMIT_VERSION_ZERO,
              "<13>0 2026-11-21T10:00:00Z host app 1 - - msg",
              lenient(
                  "version-zero",
                  r -> {
                    assertEquals(SyslogFormat.RFC5424, r.format());
                    assertEquals("app", r.app());
                  }),
              raw("version-zero")),
          new Row(
              Leniency.PERMIT_SPACE_IN_ISO_TIMESTAMP,
              "<13>2026-11-21 10:00:00Z myhost app: msg",
              lenient(
                  "space-in-iso-timestamp",
                  r -> {
                    assertEquals("myhost", r.hostname());
                    assertEquals(Parsing.millis("2026-11-21T10:00:00Z"), r.timestampMillis());
                  }),
              lenient("missing-timestamp", r -> assertNull(r.hostname()))),
          new Row(
              Leniency.PERMIT_MALFORMED_STRUCTURED_DATA,
              "<13>1 - host app - - [incorrect x] qwerty",
              lenient("malformed-structured-data", r -> assertEquals("qwerty", r.message())),
              raw("malformed-structured-data")),
          new Row(
              Leniency.PERMIT_AT_SIGNS_IN_HOSTNAME,
              "<129>Mar 10 01:00:00 Hostn@me2 tag: msgnum:2",
              lenient("at-sign-in-hostname", r -> assertEquals("Hostn@me2", r.hostname())),
              lenient(
                  "missing-hostname",
                  r -> {
                    assertNull(r.hostname());
                    assertEquals("Hostn@me2 tag: msgnum:2", r.message());
                  })),
          new Row(
              Leniency.PERMIT_SLASHES_IN_HOSTNAME,
              "<167>Mar  6 16:57:54 hostname1/hostname2 test: msgnum:0",
              lenient("slash-in-hostname", r -> assertEquals("hostname1/hostname2", r.hostname())),
              lenient("missing-hostname", r -> assertNull(r.hostname()))),
          new Row(
              Leniency.PERMIT_SQUARE_BRACKETS_IN_HOSTNAME,
              "<13>Mar 10 01:00:00 [192.0.2.1] app: m",
              lenient("square-bracket-in-hostname", r -> assertEquals("[192.0.2.1]", r.hostname())),
              lenient("missing-hostname", r -> assertNull(r.hostname()))),
          new Row(
              Leniency.DETECT_TAG_WITHOUT_COLON,
              "<13>Mar 10 01:00:00 host app message text",
              ok(
                  SyslogFormat.RFC3164,
                  r -> {
                    assertEquals("app", r.app());
                    assertEquals("message text", r.message());
                  }),
              ok(
                  SyslogFormat.RFC3164,
                  r -> {
                    assertNull(r.app());
                    assertEquals("app message text", r.message());
                  })),
          new Row(
              Leniency.DETECT_YEAR_IN_TIMESTAMP,
              "<13>Mar  7 19:06:53 2008 host app: m",
              lenient(
                  "year-in-timestamp",
                  r -> {
                    assertEquals("host", r.hostname());
                    assertEquals(Parsing.millis("2008-03-07T19:06:53Z"), r.timestampMillis());
                  }),
              ok(
                  SyslogFormat.RFC3164,
                  r -> {
                    assertEquals("2008", r.hostname());
                    assertEquals(Parsing.millis("2026-03-07T19:06:53Z"), r.timestampMillis());
                  })),
          new Row(
              Leniency.DETECT_CISCO_ASA,
              "<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built",
              ok(SyslogFormat.CISCO_ASA, r -> assertEquals("302013", r.msgid())),
              lenient("missing-hostname,year-in-timestamp", r -> assertNull(r.msgid()))),
          new Row(
              Leniency.DETECT_CISCO_IOS,
              "<189>123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up",
              ok(SyslogFormat.CISCO_IOS, r -> assertEquals("UPDOWN", r.msgid())),
              lenient("missing-timestamp", r -> assertEquals("123", r.app()))),
          new Row(
              Leniency.DETECT_CISCO_HOSTNAME,
              "<166>Nov 21 10:00:00 fw01: %ASA-6-302013: Built",
              ok(SyslogFormat.CISCO_ASA, r -> assertEquals("fw01", r.hostname())),
              lenient(
                  "missing-hostname",
                  r -> {
                    assertNull(r.hostname());
                    assertEquals("fw01", r.app());
                  })),
          new Row(
              Leniency.DETECT_CISCO_HOSTNAME,
              "<189>: router1 *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up",
              ok(SyslogFormat.CISCO_IOS, r -> assertEquals("router1", r.hostname())),
              lenient("missing-timestamp", r -> assertNull(r.hostname()))),
          new Row(
              Leniency.DETECT_TIME_ZONE_OFFSET,
              "<189>1: Nov 21 10:00:00 UTC+1: %SYS-5-CONFIG_I: x",
              ok(
                  SyslogFormat.CISCO_IOS,
                  r -> assertEquals(Parsing.millis("2026-11-21T09:00:00Z"), r.timestampMillis())),
              lenient(
                  "malformed-header",
                  r -> {
                    assertEquals(Parsing.millis("2026-11-21T10:00:00Z"), r.timestampMillis());
                    assertNull(r.msgid());
                  })),
          new Row(
              Leniency.DETECT_RELAY_PREFIX,
              "<13>Nov 21 10:00:00 Message forwarded from aixhost: sshd[1]: x",
              ok(
                  SyslogFormat.RFC3164,
                  r -> {
                    assertEquals("aixhost", r.hostname());
                    assertEquals("sshd", r.app());
                  }),
              ok(
                  SyslogFormat.RFC3164,
                  r -> {
                    assertEquals("Message", r.hostname());
                    assertEquals("forwarded", r.app());
                  })),
          new Row(
              Leniency.DETECT_MERAKI,
              "<134>1 1563249630.774247467 MX84 events type=dhcp_lease",
              ok(
                  SyslogFormat.MERAKI,
                  r -> {
                    assertEquals("MX84", r.hostname());
                    assertEquals("events", r.app());
                  }),
              lenient(
                  "malformed-header,invalid-timestamp",
                  r -> assertEquals(SyslogFormat.RFC5424, r.format()))),
          new Row(
              Leniency.DETECT_FORTIGATE,
              "<189>date=2019-05-13 time=11:45:03 devname=FGT logid=13 tz=\"+0000\"",
              ok(SyslogFormat.FORTIGATE, r -> assertEquals("FGT", r.hostname())),
              lenient("missing-timestamp", r -> assertNull(r.hostname()))),
          new Row(
              Leniency.DETECT_SNARE,
              "<14>May 21 12:00:01 host MSWinEventLog\t1\tSecurity\t0\tSun May 21 12:00:01",
              ok(SyslogFormat.SNARE, r -> assertEquals("MSWinEventLog", r.app())),
              ok(SyslogFormat.RFC3164, r -> assertNull(r.app()))),
          new Row(
              Leniency.DETECT_LAST_MESSAGE_REPEATED,
              "<13>last message repeated 5 times",
              ok(
                  SyslogFormat.RFC3164,
                  r -> assertEquals("last message repeated 5 times", r.message())),
              lenient(
                  "missing-timestamp",
                  r -> assertEquals("last message repeated 5 times", r.message()))));

  @TestFactory
  Stream<DynamicTest> eachSwitchOnAndOff() {
    return ROWS.stream()
        .flatMap(
            row ->
                Stream.of(
                    DynamicTest.dynamicTest(
                        row.leniency().key() + "=true",
                        () -> row.on().accept(parse(row.message(), with(row.leniency(), true)))),
                    DynamicTest.dynamicTest(
                        row.leniency().key() + "=false",
                        () ->
                            row.off().accept(parse(row.message(), with(row.leniency(), false))))));
  }

  @Test
  void everySwitchHasARow() {
    Set<Leniency> covered = EnumSet.noneOf(Leniency.class);
    ROWS.forEach(row -> covered.add(row.leniency()));
    assertEquals(EnumSet.allOf(Leniency.class), covered, "add a row for each new switch");
  }
}
