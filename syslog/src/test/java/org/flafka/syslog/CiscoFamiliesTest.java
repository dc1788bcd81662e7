package org.flafka.syslog;

import static org.flafka.syslog.Parsing.assertEventTime;
import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Cisco forms from the vendors' documentation (issue 26): IOS {@code service timestamps log
 * datetime [msec] [localtime] [show-timezone] [year]}, NX-OS {@code logging timestamp}, ASA {@code
 * logging timestamp} and {@code logging device-id}, each combination with and without a sequence
 * number, a clock mark, milliseconds, a zone and a hostname. Receive time 2026-11-21T12:00Z,
 * default zone UTC.
 */
class CiscoFamiliesTest {

  private static void check(
      String message,
      String defects,
      SyslogFormat format,
      String hostname,
      String app,
      String instant,
      String text) {
    ParseResult r = parse(message);
    assertEquals(defects == null ? "" : defects, r.defectNames());
    assertEquals(format, r.format());
    assertEquals(hostname, r.hostname(), "hostname");
    assertEquals(app, r.app(), "app");
    assertEventTime(instant, r);
    assertEquals(text, r.message());
  }

  // message | hostname | app | instant | text
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // IOS: datetime year; + msec; + show-timezone; with and without sequence number and clock
        // marks
        "<189>Mar  1 2026 18:46:11: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11Z|x",
        "<189>Mar  1 2026 18:46:11.123: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11.123Z|x",
        "<189>Mar  1 2026 18:46:11.123 UTC: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11.123Z|x",
        "<189>Mar 01 2026 18:46:11 CET: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T17:46:11Z|x",
        "<189>*Mar  1 2026 18:46:11.123 UTC: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11.123Z|x",
        "<189>.Mar  1 2026 18:46:11 PST: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-02T02:46:11Z|x",
        "<189>123: Mar  1 2026 18:46:11: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11Z|x",
        "<189>123: *Mar  1 2026 18:46:11.123 UTC: %LINK-3-UPDOWN: up||%LINK-3-UPDOWN|2026-03-01T18:46:11.123Z|up",
        "<189>000124: .Mar  1 2026 18:46:11.123 CET: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I"
            + "|2026-03-01T17:46:11.123Z|x",
        "<189>124: Dec 31 2025 23:59:59.999 UTC: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2025-12-31T23:59:59.999Z|x",
        "<189>: Mar  1 2026 18:46:11 UTC: %SYS-5-CONFIG_I: x||%SYS-5-CONFIG_I|2026-03-01T18:46:11Z|x",
        // NX-OS: year first; logging timestamp seconds | milliseconds; "<PRI>: " as NX-OS sends it
        "<189>: 2026 Mar  1 18:46:11 UTC: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T18:46:11Z|up",
        "<189>: 2026 Mar  1 18:46:11.123 UTC: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T18:46:11.123Z|up",
        "<189>2026 Mar  1 18:46:11 UTC: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T18:46:11Z|up",
        "<189>2026 Mar  1 18:46:11.123: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T18:46:11.123Z|up",
        "<189>45: 2026 Mar  1 18:46:11 CEST: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T16:46:11Z|up",
        "<189>45: *2026 Mar  1 18:46:11.5 UTC: %ETHPORT-5-IF_UP: up||%ETHPORT-5-IF_UP|2026-03-01T18:46:11.500Z|up",
        "<189>2026 Mar  1 18:46:11 nx1 %ETHPORT-5-IF_UP: up|nx1|%ETHPORT-5-IF_UP|2026-03-01T18:46:11Z|up",
        "<189>: 2026 Mar  1 18:46:11 UTC: nx1 %ETHPORT-5-IF_UP: up|nx1|%ETHPORT-5-IF_UP|2026-03-01T18:46:11Z|up",
      })
  void timestampsWithAYear(
      String message, String hostname, String app, String instant, String text) {
    check(message, null, SyslogFormat.CISCO_IOS, hostname, app, instant, text);
  }

  // message | hostname | app | instant | text
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<189>Nov 21 06:58:49 10.1.2.3 123: Mar  1 2026 18:46:11.123 UTC: %SYS-5-CONFIG_I: x|10.1.2.3"
            + "|%SYS-5-CONFIG_I|2026-03-01T18:46:11.123Z|x",
        "<189>Nov 21 06:58:49 10.1.2.3 45: 2026 Mar  1 18:46:11 UTC: %ETHPORT-5-IF_UP: up|10.1.2.3"
            + "|%ETHPORT-5-IF_UP|2026-03-01T18:46:11Z|up",
        "<189>Nov 21 06:58:49 relay1 2026 Nov 21 06:58:48 UTC: %ETHPORT-5-IF_UP: up|relay1"
            + "|%ETHPORT-5-IF_UP|2026-11-21T06:58:48Z|up",
      })
  void relayedTimestampsWithAYear(
      String message, String hostname, String app, String instant, String text) {
    check(message, null, SyslogFormat.CISCO_IOS, hostname, app, instant, text);
  }

  // message | hostname | app | instant | offset seconds
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<189>1: Nov 21 10:00:00 UTC: %SYS-5-CONFIG_I: x|2026-11-21T10:00:00Z|0",
        "<189>1: Nov 21 10:00:00 utc: %SYS-5-CONFIG_I: x|2026-11-21T10:00:00Z|0",
        "<189>1: Nov 21 10:00:00 GMT: %SYS-5-CONFIG_I: x|2026-11-21T10:00:00Z|0",
        "<189>1: Nov 21 10:00:00 CET: %SYS-5-CONFIG_I: x|2026-11-21T09:00:00Z|3600",
        "<189>1: Jul 21 10:00:00 CEST: %SYS-5-CONFIG_I: x|2026-07-21T08:00:00Z|7200",
        "<189>1: Nov 21 10:00:00 EST: %SYS-5-CONFIG_I: x|2026-11-21T15:00:00Z|-18000",
        "<189>1: Jul 21 10:00:00 EDT: %SYS-5-CONFIG_I: x|2026-07-21T14:00:00Z|-14400",
        "<189>1: Nov 21 10:00:00 PST: %SYS-5-CONFIG_I: x|2026-11-21T18:00:00Z|-28800",
        "<189>1: Jul 21 10:00:00 PDT: %SYS-5-CONFIG_I: x|2026-07-21T17:00:00Z|-25200",
        "<189>1: Nov 21 10:00:00 MST: %SYS-5-CONFIG_I: x|2026-11-21T17:00:00Z|-25200",
        "<189>1: Nov 21 10:00:00 IST: %SYS-5-CONFIG_I: x|2026-11-21T04:30:00Z|19800",
        "<189>1: Nov 21 10:00:00 CST: %SYS-5-CONFIG_I: x|2026-11-21T16:00:00Z|-21600",
        "<189>1: Nov 21 10:00:00 AEST: %SYS-5-CONFIG_I: x|2026-11-21T00:00:00Z|36000",
        "<189>1: Nov 21 10:00:00 UTC+1: %SYS-5-CONFIG_I: x|2026-11-21T09:00:00Z|3600",
        "<189>1: Nov 21 10:00:00 GMT-5: %SYS-5-CONFIG_I: x|2026-11-21T15:00:00Z|-18000",
        "<189>1: Nov 21 10:00:00 UTC+05:30: %SYS-5-CONFIG_I: x|2026-11-21T04:30:00Z|19800",
        "<189>1: Nov 21 10:00:00 UTC+0530: %SYS-5-CONFIG_I: x|2026-11-21T04:30:00Z|19800",
        "<189>1: Nov 21 10:00:00 GMT+10: %SYS-5-CONFIG_I: x|2026-11-21T00:00:00Z|36000",
        "<189>1: Nov 21 10:00:00 +07:30: %SYS-5-CONFIG_I: x|2026-11-21T02:30:00Z|27000",
        "<189>1: Nov 21 10:00:00 -0500: %SYS-5-CONFIG_I: x|2026-11-21T15:00:00Z|-18000",
        "<189>1: Nov 21 10:00:00.250 UTC-3: %SYS-5-CONFIG_I: x|2026-11-21T13:00:00.250Z|-10800",
        "<189>1: Nov 21 2026 10:00:00 UTC+1: %SYS-5-CONFIG_I: x|2026-11-21T09:00:00Z|3600",
        "<189>: 2026 Nov 21 10:00:00 GMT-5: %ETHPORT-5-IF_UP: x|2026-11-21T15:00:00Z|-18000",
        "<166>:Nov 21 10:00:00 UTC+1: %ASA-6-302013: x|2026-11-21T09:00:00Z|3600",
        "<166>Nov 21 2026 10:00:00 +01:00: %ASA-6-302013: x|2026-11-21T09:00:00Z|3600",
      })
  void zonesOnDeviceTimestamps(String message, String instant, int offsetSeconds) {
    ParseResult r = parse(message);
    assertEquals("", r.defectNames());
    assertEquals(millis(instant), r.timestampMillis(), r.timestampText());
    assertEquals(offsetSeconds, r.timestampUtcOffsetSeconds());
    assertEquals("x", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<189>1: Nov 21 10:00:00 UTC: %SYS-5-CONFIG_I: x|2026-11-21T10:00:00Z",
        "<189>1: Nov 21 10:00:00 GMT-5: %SYS-5-CONFIG_I: x|2026-11-21T15:00:00Z",
        "<189>1: Nov 21 10:00:00: %SYS-5-CONFIG_I: x|2026-11-21T09:00:00Z",
      })
  void aDeviceZoneWinsOverTheSiteZone(String message, String instant) {
    ParseResult r = parse(message, Parsing.zone("Europe/Berlin"));
    assertEquals(millis(instant), r.timestampMillis());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the table's choice for an ambiguous name, replaced by timezone.abbreviations
        "IST=+01:00|<189>1: Nov 21 10:00:00 IST: %SYS-5-CONFIG_I: x|2026-11-21T09:00:00Z",
        "IST=+02:00, CST=+08:00|<189>1: Nov 21 10:00:00 CST: %SYS-5-CONFIG_I: x|2026-11-21T02:00:00Z",
        "cst=+08:00|<189>1: Nov 21 10:00:00 CST: %SYS-5-CONFIG_I: x|2026-11-21T02:00:00Z",
        // a name the table does not have
        "SAST=+02:00|<189>1: Nov 21 10:00:00 SAST: %SYS-5-CONFIG_I: x|2026-11-21T08:00:00Z",
        "CHADT=+13:45|<189>1: Nov 21 10:00:00 CHADT: %SYS-5-CONFIG_I: x|2026-11-20T20:15:00Z",
      })
  void ambiguousAbbreviationsAreConfigurable(String table, String message, String instant) {
    SyslogParserOptions options =
        Parsing.builder().set(SyslogParserOptions.TIMEZONE_ABBREVIATIONS, table).build();
    ParseResult r = parse(message, options);
    assertEquals("", r.defectNames());
    assertEquals(millis(instant), r.timestampMillis());
  }

  // message | hostname | app | instant | text
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // logging origin-id hostname, after "<PRI>: " and after a sequence number, before or after
        // the stamp
        "<189>: router1: *Mar  1 18:46:11.123: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11.123Z|up",
        "<189>: router1: Mar  1 2026 18:46:11 UTC: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
        "<189>123: router1: 123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN"
            + "|2026-03-01T18:46:11.123Z|up",
        "<189>123: router1 123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN"
            + "|2026-03-01T18:46:11.123Z|up",
        "<189>: router1 Mar  1 18:46:11 UTC: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
        "<189>: router1 *Mar  1 18:46:11.123 CET: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN"
            + "|2026-03-01T17:46:11.123Z|up",
        "<189>123: Mar  1 18:46:11 UTC: router1 %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
        "<189>Mar  1 18:46:11: router1 %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
        "<189>*Mar  1 18:46:11.123: router1 %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|2026-03-01T18:46:11.123Z|up",
        // hostnames starting with digits, with dots and underscores, addresses
        "<189>123: 3750-core.example.com: *Mar  1 18:46:11.123: %LINK-3-UPDOWN: up|3750-core.example.com"
            + "|%LINK-3-UPDOWN|2026-03-01T18:46:11.123Z|up",
        "<189>123: 10.1.2.3: Mar  1 18:46:11: %LINK-3-UPDOWN: up|10.1.2.3|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
        "<189>: sw_access_01: Mar  1 18:46:11: %LINK-3-UPDOWN: up|sw_access_01|%LINK-3-UPDOWN"
            + "|2026-03-01T18:46:11Z|up",
        "<189>Mar  1 18:46:11 4500x.lab %LINK-3-UPDOWN: up|4500x.lab|%LINK-3-UPDOWN|2026-03-01T18:46:11Z|up",
      })
  void iosHostnamesInEveryPosition(
      String message, String hostname, String app, String instant, String text) {
    check(message, null, SyslogFormat.CISCO_IOS, hostname, app, instant, text);
  }

  // defects | message | hostname | app | instant | text
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // logging device-id hostname, an RFC 3164 header with "host:" (no PRI: as relays and files
        // write it)
        "|<166>Nov 21 10:00:00 fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "|<166>Nov 21 2026 10:00:00 fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "|<166>Nov 21 2026 10:00:00 fw-01.example.com : %ASA-6-302013: Built|fw-01.example.com|%ASA-6-302013"
            + "|2026-11-21T10:00:00Z|Built",
        "|<166>Nov 21 2026 10:00:00 UTC: fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "|<166>2026-11-21T10:00:00Z fw01 : %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "missing-pri|Nov 21 2026 10:00:00 fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "missing-pri|Nov 21 10:00:00 fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "missing-pri|Nov 21 2026 10:00:00 fw01 %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "missing-pri|Nov 21 2026 10:00:00: %ASA-6-302013: Built||%ASA-6-302013|2026-11-21T10:00:00Z|Built",
        "missing-pri|Nov 21 2026 10:00:00 192.0.2.1 : %ASA-6-302013: Built|192.0.2.1|%ASA-6-302013"
            + "|2026-11-21T10:00:00Z|Built",
        "missing-pri|%ASA-6-302013: Built||%ASA-6-302013||Built",
        // logging device-id without logging timestamp
        "|<166>fw01 : %ASA-6-302013: Built|fw01|%ASA-6-302013||Built",
        "|<166>fw-01.example.com: %ASA-6-302013: Built|fw-01.example.com|%ASA-6-302013||Built",
        "|<166>192.0.2.1 : %ASA-6-302013: Built|192.0.2.1|%ASA-6-302013||Built",
        "missing-pri|fw01 : %ASA-6-302013: Built|fw01|%ASA-6-302013||Built",
        // relayed: the relay's stamp and host, then the device id; the device id is the hostname
        "|<166>Nov 21 10:00:05 relay1 fw01: %ASA-6-302013: Built|fw01|%ASA-6-302013|2026-11-21T10:00:05Z|Built",
        "|<166>Nov 21 10:00:05 10.0.0.9 fw01.example.com: %ASA-6-302013: Built|fw01.example.com|%ASA-6-302013"
            + "|2026-11-21T10:00:05Z|Built",
      })
  void asaDeviceIdAndLinesWithoutPri(
      String defects, String message, String hostname, String app, String instant, String text) {
    check(message, defects, SyslogFormat.CISCO_ASA, hostname, app, instant, text);
  }

  // message | format | defects | hostname | app | text
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // a word and a stamp, or "<PRI>: " and a stamp, without a mnemonic after them: not Cisco
        "<13>myhost Nov 21 10:00:00 app: msg|RFC3164|missing-timestamp|||myhost Nov 21 10:00:00 app: msg",
        "<13>: Nov 21 10:00:00 hello|RFC3164|missing-timestamp|||: Nov 21 10:00:00 hello",
        "<13>: router1 Nov 21 10:00:00 hello|RFC3164|missing-timestamp|||: router1 Nov 21 10:00:00 hello",
        // "host:" before something other than a mnemonic is a tag, as ever
        "<13>Nov 21 10:00:00 host: text|RFC3164|missing-hostname||host|text",
      })
  void lookalikesWithoutAMnemonicAreNotCisco(
      String message,
      SyslogFormat format,
      String defects,
      String hostname,
      String app,
      String text) {
    ParseResult r = parse(message);
    assertEquals(format, r.format());
    assertEquals(defects, r.defectNames());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(text, r.message());
  }
}
