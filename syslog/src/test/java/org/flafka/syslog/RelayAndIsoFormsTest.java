package org.flafka.syslog;

import static org.flafka.syslog.Parsing.assertEventTime;
import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What relays and odd senders do to a line (issue 26, families 5 and 6): AIX's "Message forwarded
 * from host:", RFC 5424 with a version starting with 0, ISO 8601 stamps with a space for the 'T'
 * and no hostname after them. Receive time 2026-11-21T12:00Z, default zone UTC.
 */
class RelayAndIsoFormsTest {

  // defects | message | hostname | app | procid | instant | text
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "|<13>Nov 21 10:00:00 Message forwarded from aixhost: sshd[1234]: Accepted publickey|aixhost|sshd|1234"
            + "|2026-11-21T10:00:00Z|Accepted publickey",
        "|<13>Nov 21 10:00:00 Message forwarded from aix-1.example.com: syslogd: restart|aix-1.example.com|syslogd|"
            + "|2026-11-21T10:00:00Z|restart",
        "|<13>Nov 21 10:00:00 Message forwarded from aixhost: cron job done|aixhost|cron||2026-11-21T10:00:00Z|job done",
        "missing-pri|Nov 21 10:00:00 Message forwarded from aixhost: su: BAD SU|aixhost|su||2026-11-21T10:00:00Z|BAD SU",
        // not the prefix: "Message" is then an ordinary hostname
        "|<13>Nov 21 10:00:00 Message forwarded: x|Message|forwarded||2026-11-21T10:00:00Z|x",
      })
  void aixRelayPrefix(
      String defects,
      String message,
      String hostname,
      String app,
      String procid,
      String instant,
      String text) {
    ParseResult r = parse(message);
    assertEquals(defects == null ? "" : defects, r.defectNames());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(procid, r.procid());
    assertEquals(millis(instant), r.timestampMillis());
    assertEquals(text, r.message());
  }

  // defects | message | version | hostname | app | instant | text
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "version-zero|<13>0 2026-11-21T10:00:00Z host app 1 - - msg|0|host|app|2026-11-21T10:00:00Z|msg",
        "version-zero|<13>01 2026-11-21T10:00:00.5+01:00 host app - ID1 - msg|1|host|app|2026-11-21T09:00:00.500Z|msg",
        "version-zero|<13>0 - host app - - - msg|0|host|app||msg",
        "|<13>2 2026-11-21T10:00:00Z host app 1 - - msg|2|host|app|2026-11-21T10:00:00Z|msg",
        "|<13>9 2026-11-21T10:00:00Z host app 1 - - msg|9|host|app|2026-11-21T10:00:00Z|msg",
        "space-in-iso-timestamp|<13>1 2026-11-21 10:00:00Z host app 1 - - msg|1|host|app|2026-11-21T10:00:00Z|msg",
      })
  void rfc5424WithAnOddVersionOrStamp(
      String defects,
      String message,
      int version,
      String hostname,
      String app,
      String instant,
      String text) {
    ParseResult r = parse(message);
    assertEquals(defects == null ? "" : defects, r.defectNames());
    assertEquals(SyslogFormat.RFC5424, r.format());
    assertEquals(version, r.version());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEventTime(instant, r);
    assertEquals(text, r.message());
  }

  // defects | message | hostname | app | procid | instant | text
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "missing-hostname,space-in-iso-timestamp,missing-time-zone|<13>2026-11-21 10:00:00 app[12]: msg here|"
            + "|app|12|2026-11-21T10:00:00Z|msg here",
        "missing-hostname,space-in-iso-timestamp|<13>2026-11-21 10:00:00+01:00 app: msg here||app||2026-11-21T09:00:00Z"
            + "|msg here",
        "missing-hostname,space-in-iso-timestamp|<13>2026-11-21 10:00:00.123Z app: msg||app||2026-11-21T10:00:00.123Z"
            + "|msg",
        "space-in-iso-timestamp|<13>2026-11-21 10:00:00.123Z myhost app: msg|myhost|app||2026-11-21T10:00:00.123Z|msg",
        "missing-pri,missing-hostname,space-in-iso-timestamp|2026-11-21 10:00:00+00:00 kernel: up||kernel|"
            + "|2026-11-21T10:00:00Z|up",
        // a date and a time that is not one: no header
        "missing-timestamp|<13>2026-11-21 is the day|||||2026-11-21 is the day",
      })
  void isoStampWithASpaceAndNoHostname(
      String defects,
      String message,
      String hostname,
      String app,
      String procid,
      String instant,
      String text) {
    ParseResult r = parse(message);
    assertEquals(defects, r.defectNames());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(procid, r.procid());
    assertEventTime(instant, r);
    assertEquals(text, r.message());
  }

  // defects | message | hostname | app | instant | text
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // Cisco Meraki, from its "Syslog Event Types and Log Samples": <PRI>1, alone, relayed
        "|<134>1 1563249630.774247467 remote_DC1_appliance security_event ids_alerted signature=1:41944:2"
            + "|remote_DC1_appliance|security_event|2019-07-16T04:00:30.774Z|ids_alerted signature=1:41944:2",
        "|<134>1 1563246850.048798929 Head_office_Appliance flows allow src=10.0.0.1 dst=10.0.0.2"
            + "|Head_office_Appliance|flows|2019-07-16T03:14:10.048Z|allow src=10.0.0.1 dst=10.0.0.2",
        "missing-pri|1380664922.583851938 MX84 events type=vpn_connectivity_change connectivity='false'|MX84|events"
            + "|2013-10-01T22:02:02.583Z|type=vpn_connectivity_change connectivity='false'",
        "missing-pri|948077334.886213117 MX60 flows src=39.41.0.1 pattern: 1 all|MX60|flows|2000-01-17T02:48:54.886Z"
            + "|src=39.41.0.1 pattern: 1 all",
        "|<134>Dec  6 08:46:12 192.168.1.1 1 1386337584.254756845 MX84 events Cellular connection down|MX84|events"
            + "|2013-12-06T13:46:24.254Z|Cellular connection down",
      })
  void merakiEpochDeviceAndCategory(
      String defects, String message, String hostname, String app, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(defects == null ? "" : defects, r.defectNames());
    assertEquals(SyslogFormat.MERAKI, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(millis(instant), r.timestampMillis());
    assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    assertEquals(text, r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // numbers that are not a Meraki epoch stay what they were
        "<13>1 123456789 host app - - - m",
        "<13>Nov 21 10:00:00 host 1 1234567890 is a number",
        "<13>Nov 21 10:00:00 host 1234567890.5",
      })
  void numbersThatAreNotMerakiStayAsTheyWere(String message) {
    assertEquals(false, parse(message).format() == SyslogFormat.MERAKI);
  }
}
