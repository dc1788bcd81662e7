package org.flafka.syslog;

import static org.flafka.syslog.Parsing.assertEventTime;
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
  @CsvSource(
      delimiter = '|',
      value = {
        // message | hostname | app | msgid | instant | text
        "<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built outbound TCP|"
            + "|%ASA-6-302013|302013|2008-03-07T19:06:53Z"
            + "|Built outbound TCP",
        "<166>Mar 07 2008 19:06:53 fw01 : %ASA-6-302013: Built|fw01|%ASA-6-302013|302013|2008-03-07T19:06:53Z|Built",
        "<167>Mar  6 16:57:54 172.20.245.8 %PIX-7-710005: UDP request|172.20.245.8|%PIX-7-710005|710005"
            + "|2026-03-06T16:57:54Z|UDP request",
        "<166>Mar  7 2008 19:06:53: %FWSM-6-302013: x||%FWSM-6-302013|302013|2008-03-07T19:06:53Z|x",
        "<166>%ASA-4-106023: Deny tcp||%ASA-4-106023|106023||Deny tcp",
        "<166>Jun 10 2024 09:00:00: %FTD-6-430003: EventPriority||%FTD-6-430003|430003|2024-06-10T09:00:00Z"
            + "|EventPriority",
      })
  void readsAsaPixFwsm(
      String message, String hostname, String app, String msgid, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_ASA, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(msgid, r.msgid());
    assertEventTime(instant, r);
    assertEquals(text, r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
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
  void readsIosNxosAndXr(
      String message, String hostname, String app, String msgid, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(msgid, r.msgid());
    assertEventTime(instant, r);
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
    ParseResult r =
        parse(
            "<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built",
            with(Leniency.DETECT_CISCO_ASA, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-hostname,year-in-timestamp", r.defectNames());
    assertEquals("%ASA-6-302013", r.app());
    assertNull(r.msgid());
  }

  @Test
  void iosDetectionOffReadsTheSequenceNumberAsTag() {
    ParseResult r =
        parse(
            "<189>123: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up",
            with(Leniency.DETECT_CISCO_IOS, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertEquals("123", r.app());
    assertEquals("*Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: up", r.message());
  }

  // ---------------------------------------------------------------- forms the benchmark corpus
  // found unread

  @Test
  void asaLoggingTimestampWithAColonAfterPri() {
    ParseResult r =
        parse("<166>:Nov 21 06:58:49 UTC: %ASA-6-302013: Built outbound TCP connection");
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_ASA, r.format());
    assertEquals(millis("2026-11-21T06:58:49Z"), r.timestampMillis());
    assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    assertEquals("Nov 21 06:58:49 UTC", r.timestampText());
    assertNull(r.hostname());
    assertEquals("%ASA-6-302013", r.app());
    assertEquals("302013", r.msgid());
    assertEquals("Built outbound TCP connection", r.message());
  }

  @Test
  void theZoneAfterAColonStampIsApplied() {
    ParseResult r = parse("<166>:Nov 21 06:58:49 CET: %ASA-6-302013: Built");
    assertEquals(millis("2026-11-21T05:58:49Z"), r.timestampMillis());
    assertEquals(3600, r.timestampUtcOffsetSeconds());
  }

  @Test
  void aColonStampWithoutMnemonicStaysRfc3164() {
    ParseResult r = parse("<13>:Nov 21 06:58:49 UTC: hello");
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
  }

  @Test
  void asaDetectionOffLeavesTheColonStampUnread() {
    ParseResult r =
        parse(
            "<166>:Nov 21 06:58:49 UTC: %ASA-6-302013: Built",
            with(Leniency.DETECT_CISCO_ASA, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    assertNull(r.app());
    assertEquals(":Nov 21 06:58:49 UTC: %ASA-6-302013: Built", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // message | hostname | app | procid | instant (empty: receive time) | text
        // the device's own stamp (milliseconds, zone) is the event time, the relay's host the
        // hostname
        "<189>Nov 21 06:58:49 10.1.2.3 12345: Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: list 101 denied|10.1.2.3"
            + "|%SEC-6-IPACCESSLOGP||2026-11-21T05:58:49.123Z|list 101 denied",
        // a clock never set ('*'): the relay's stamp stands
        "<189>Nov 21 06:58:49 10.1.2.3 12345: *Mar  1 00:12:28.587: %LINK-3-UPDOWN: up|10.1.2.3|%LINK-3-UPDOWN"
            + "||2026-11-21T06:58:49Z|up",
        // an uptime: the relay's stamp stands
        "<189>Nov 21 06:58:49 10.1.2.3 45: 1w2d: %LINEPROTO-5-UPDOWN: Line protocol|10.1.2.3|%LINEPROTO-5-UPDOWN"
            + "||2026-11-21T06:58:49Z|Line protocol",
        // the device's origin-id hostname replaces the relay's address
        "<189>Nov 21 06:58:49 10.1.2.3 46: router1: Nov 21 06:58:40.5 UTC: %SYS-5-CONFIG_I: Configured|router1"
            + "|%SYS-5-CONFIG_I||2026-11-21T06:58:40.500Z|Configured",
        // no message number: a second stamp followed by a mnemonic
        "<189>Nov 21 06:58:49 relay1 Nov 21 06:58:48 UTC: %SYS-5-CONFIG_I: Configured|relay1|%SYS-5-CONFIG_I"
            + "||2026-11-21T06:58:48Z|Configured",
        // rsyslog's forwarding format (RFC 3339 stamp) in front
        "<189>2026-11-21T06:58:49+00:00 relay1 7: *Nov 21 06:58:48.001: %SYS-5-CONFIG_I: x|relay1|%SYS-5-CONFIG_I"
            + "||2026-11-21T06:58:49Z|x",
        // IOS-XR relayed: node and process read, the mnemonic is the app, the pid the procid
        "<189>Nov 21 06:58:49 10.1.2.3 2075: RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: "
            + "%PKT_INFRA-LINK-3-UPDOWN : Interface Gi0/0/0/1, changed state to Down|10.1.2.3"
            + "|%PKT_INFRA-LINK-3-UPDOWN|227|2026-11-21T06:58:49.123Z|Interface Gi0/0/0/1, changed state to Down",
      })
  void iosRelayedThroughABsdSyslogd(
      String message, String hostname, String app, String procid, String instant, String text) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals(app, r.app());
    assertEquals(procid, r.procid());
    assertEquals(millis(instant), r.timestampMillis());
    assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    assertEquals(text, r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // an all-digit tag followed by ordinary text is still a tag
        "<13>Nov 21 06:58:49 host1 12345: 3 packets dropped|12345|3 packets dropped",
        "<13>Nov 21 06:58:49 host1 12345: Nov is a month|12345|Nov is a month",
        // a second stamp without a mnemonic: plain text
        "<13>Nov 21 06:58:49 relay1 Nov 21 06:58:48 host2 app: m||Nov 21 06:58:48 host2 app: m",
      })
  void numberTagsAndSecondStampsWithoutCiscoStayRfc3164(String message, String app, String text) {
    ParseResult r = parse(message);
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals(app, r.app());
    assertEquals(text, r.message());
    assertEquals(millis("2026-11-21T06:58:49Z"), r.timestampMillis());
  }

  @Test
  void anImplausibleDeviceStampLeavesTheRelaysStamp() {
    SyslogParserOptions window = SyslogParserOptions.builder().maxPastMillis(3_600_000).build();
    ParseResult r =
        parse(
            "<189>Nov 21 11:58:49 10.1.2.3 12345: Mar  1 00:12:28.587 UTC: %SYS-5-CONFIG_I: x",
            window);
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals("implausible-timestamp", r.defectNames());
    assertEquals(millis("2026-11-21T11:58:49Z"), r.timestampMillis());
    assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    assertEquals(millis("2026-03-01T00:12:28.587Z"), r.rejectedTimestampMillis());
  }

  @Test
  void iosDetectionOffReadsARelayedMessageNumberAsTag() {
    ParseResult r =
        parse(
            "<189>Nov 21 06:58:49 10.1.2.3 12345: Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: x",
            with(Leniency.DETECT_CISCO_IOS, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("10.1.2.3", r.hostname());
    assertEquals("12345", r.app());
    assertEquals(millis("2026-11-21T06:58:49Z"), r.timestampMillis());
    assertEquals("Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: x", r.message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<189>RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : Interface Gi0/0/0/1|",
        "<187>2075: LC/0/1/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : Interface Gi0/0/0/1|",
        "<189>Nov 21 06:58:49 xr1 RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : "
            + "Interface Gi0/0/0/1|xr1",
      })
  void iosXrNodeProcessAndMnemonic(String message, String hostname) {
    ParseResult r = parse(message);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals(hostname, r.hostname());
    assertEquals("%PKT_INFRA-LINK-3-UPDOWN", r.app());
    assertEquals("227", r.procid());
    assertEquals("UPDOWN", r.msgid());
    assertEquals(millis("2026-11-21T06:58:49.123Z"), r.timestampMillis());
    assertEquals("Interface Gi0/0/0/1", r.message());
  }

  @Test
  void iosXrProcessWithoutMnemonicIsTheApp() {
    ParseResult r =
        parse("<189>RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: no mnemonic here");
    assertEquals(SyslogFormat.CISCO_IOS, r.format());
    assertEquals("malformed-header", r.defectNames());
    assertEquals("ifmgr", r.app());
    assertEquals("227", r.procid());
    assertEquals(millis("2026-11-21T06:58:49.123Z"), r.timestampMillis());
    assertEquals("no mnemonic here", r.message());
  }

  @Test
  void iosDetectionOffReadsTheXrNodeAsTag() {
    ParseResult r =
        parse(
            "<189>RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : x",
            with(Leniency.DETECT_CISCO_IOS, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertEquals("RP/0/RSP0/CPU0", r.app());
    assertNull(r.procid());
  }
}
