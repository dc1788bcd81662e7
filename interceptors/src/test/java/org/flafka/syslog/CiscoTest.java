package org.flafka.syslog;

import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.flafka.syslog.Parsing.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CiscoTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // message | hostname | app | msgid | instant | text
      "<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built outbound TCP|" + "|%ASA-6-302013|302013|2008-03-07T19:06:53Z"
          + "|Built outbound TCP",
      "<166>Mar 07 2008 19:06:53 fw01 : %ASA-6-302013: Built|fw01|%ASA-6-302013|302013|2008-03-07T19:06:53Z|Built",
      "<167>Mar  6 16:57:54 172.20.245.8 %PIX-7-710005: UDP request|172.20.245.8|%PIX-7-710005|710005"
          + "|2026-03-06T16:57:54Z|UDP request",
      "<166>Mar  7 2008 19:06:53: %FWSM-6-302013: x||%FWSM-6-302013|302013|2008-03-07T19:06:53Z|x",
      "<166>%ASA-4-106023: Deny tcp||%ASA-4-106023|106023||Deny tcp",
      "<166>Jun 10 2024 09:00:00: %FTD-6-430003: EventPriority||%FTD-6-430003|430003|2024-06-10T09:00:00Z"
          + "|EventPriority",
  })
  void readsAsaPixFwsm(String message, String hostname, String app, String msgid, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_ASA, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(msgid, r.msgid());
    if (instant == null) {
      assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    } else {
      assertEquals(millis(instant), r.timestampMillis());
    }
    assertEquals(text, r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // message | hostname | app | msgid | instant (empty: receive time) | text
      "<189>123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: Interface Gi0/1, changed state to up|"
          + "|%LINK-3-UPDOWN|UPDOWN|2026-03-01T18:46:11.123Z|Interface Gi0/1, changed state to up",
      "<189>000123: .Mar  1 18:46:11.123 CET: %SYS-5-CONFIG_I: Configured||%SYS-5-CONFIG_I|CONFIG_I"
          + "|2026-03-01T17:46:11.123Z|Configured",
      "<189>Mar  1 18:46:11 EST: %SYS-5-CONFIG_I: Configured||%SYS-5-CONFIG_I|CONFIG_I|2026-03-01T23:46:11Z"
          + "|Configured",
      "<189>00:01:23: %SYS-5-CONFIG_I: Configured||%SYS-5-CONFIG_I|CONFIG_I||Configured",
      "<189>45: 1w2d: %LINEPROTO-5-UPDOWN: Line protocol||%LINEPROTO-5-UPDOWN|UPDOWN||Line protocol",
      "<189>2d03h: %LINEPROTO-5-UPDOWN: Line protocol||%LINEPROTO-5-UPDOWN|UPDOWN||Line protocol",
      "<189>%LINK-3-UPDOWN: Interface up||%LINK-3-UPDOWN|UPDOWN||Interface up",
      "<14>123456789: HOSTNAME: May 21 12:00:01.123 gmt: %IOSXE-6-PLATFORM: F0: cpp_cp|HOSTNAME"
          + "|%IOSXE-6-PLATFORM|PLATFORM|2026-05-21T12:00:01.123Z|F0: cpp_cp",
      "<189>router1: *Mar  1 18:46:11.123: %LINK-3-UPDOWN: up|router1|%LINK-3-UPDOWN|UPDOWN"
          + "|2026-03-01T18:46:11.123Z|up",
      "<189>46: router1: 00:01:23: %SYS-5-CONFIG_I: Configured|router1|%SYS-5-CONFIG_I|CONFIG_I||Configured",
      "<189>2019 Mar  1 18:46:11 nexus1 %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up|nexus1|%ETHPORT-5-IF_UP"
          + "|IF_UP|2019-03-01T18:46:11Z|Interface Ethernet1/1 is up",
      "<189>Mar  1 18:46:11 router1 %PKT_INFRA-LINK-3-UPDOWN : Interface Gi0/0/0/1|router1"
          + "|%PKT_INFRA-LINK-3-UPDOWN|UPDOWN|2026-03-01T18:46:11Z|Interface Gi0/0/0/1",
  })
  void readsIosNxosAndXr(String message, String hostname, String app, String msgid, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(msgid, r.msgid());
    if (instant == null) {
      assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    } else {
      assertEquals(millis(instant), r.timestampMillis());
    }
    assertEquals(text, r.message());
  }

  @Test
  void anUnknownZoneNameFallsBackToTheDefaultZone() {
    ParseResult r = parse("<189>Mar  1 18:46:11 XYZT: %SYS-5-CONFIG_I: Configured");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("unknown-time-zone", r.defectNames());
    assertEquals(millis("2026-03-01T18:46:11Z"), r.timestampMillis());
    assertEquals("%SYS-5-CONFIG_I", r.app());
  }

  @Test
  void aSequenceNumberWithoutMnemonicIsLenient() {
    ParseResult r = parse("<14>1: ");
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals("malformed-header", r.defectNames());
    assertEquals("", r.message());
  }

  @Test
  void asaDetectionOffReadsPlainRfc3164() {
    ParseResult r = parse("<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built", with(Leniency.DETECT_CISCO_ASA, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-hostname,year-in-timestamp", r.defectNames());
    assertEquals("%ASA-6-302013", r.app());
    assertNull(r.msgid());
  }

  @Test
  void iosDetectionOffReadsTheSequenceNumberAsTag() {
    ParseResult r = parse("<189>123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up",
        with(Leniency.DETECT_CISCO_IOS, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertEquals("123", r.app());
    assertEquals("*Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up", r.message());
  }
}
