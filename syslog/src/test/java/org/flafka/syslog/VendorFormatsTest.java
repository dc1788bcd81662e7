package org.flafka.syslog;

import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.flafka.syslog.Parsing.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** FortiGate key=value and Snare TAB-separated records. */
class VendorFormatsTest {
  private static final String FORTIGATE =
      "date=2019-05-13 time=11:45:03 devname=\"FGT60D-1\" devid=\"FGT60D4614044725\""
          + " logid=\"0100040704\" type=\"event\" subtype=\"system\" level=\"notice\" vd=\"root\""
          + " eventtime=1557773103 logdesc=\"System performance statistics\" tz=\"+0200\"";

  @Test
  void fortigateWithPri() {
    ParseResult r = parse("<189>" + FORTIGATE);
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.FORTIGATE, r.format());
    assertEquals("FGT60D-1", r.hostname());
    assertEquals("0100040704", r.msgid());
    assertEquals(millis("2019-05-13T09:45:03Z"), r.timestampMillis());
    assertEquals(7200, r.timestampUtcOffsetSeconds());
    assertEquals(FORTIGATE, r.message());
  }

  @Test
  void fortigateWithoutPriOrZone() {
    ParseResult r =
        parse(
            "date=2019-05-13 time=11:45:03 devname=FGT logid=0000000013 type=traffic",
            Parsing.zone("Europe/Berlin"));
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("missing-pri", r.defectNames());
    assertEquals("FGT", r.hostname());
    assertEquals(millis("2019-05-13T09:45:03Z"), r.timestampMillis());
  }

  @Test
  void fortigateWithoutDevnameOrTime() {
    ParseResult r = parse("<189>date=2019-05-13 type=traffic");
    assertEquals(SyslogFormat.FORTIGATE, r.format());
    assertEquals("missing-timestamp,missing-hostname", r.defectNames());
    assertNull(r.hostname());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
  }

  @Test
  void fortigateDetectionOff() {
    ParseResult r = parse("<189>" + FORTIGATE, with(Leniency.DETECT_FORTIGATE, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("missing-timestamp", r.defectNames());
    assertNull(r.hostname());
    ParseResult noPri = parse(FORTIGATE, with(Leniency.DETECT_FORTIGATE, false));
    assertEquals(ParseStatus.RAW, noPri.status());
  }

  @Test
  void snareAfterAnRfc3164Header() {
    ParseResult r =
        parse(
            "<14>May 21 12:00:01 hostname.domain MSWinEventLog\t1\tSecurity\t00000000\t"
                + "Sun May 21 12:00:01.123\t4624\tMicrosoft-Windows-Security-Auditing");
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(SyslogFormat.SNARE, r.format());
    assertEquals("hostname.domain", r.hostname());
    assertEquals("MSWinEventLog", r.app());
    assertEquals(millis("2026-05-21T12:00:01Z"), r.timestampMillis());
    assertEquals(
        "1\tSecurity\t00000000\tSun May 21 12:00:01.123\t4624\tMicrosoft-Windows-Security-Auditing",
        r.message());
  }

  @Test
  void snareWithoutHeaderTakesItsDateField() {
    ParseResult r =
        parse(
            "windowsserver\tMSWinEventLog\t1\tSecurity\t1167\tFri Mar 19 15:33:30 2010\t540\t"
                + "Security\tSYSTEM\tUser\tSuccess Audit\tWINDOWSSERVER\tLogon/Logoff\t\tSuccessful Network Logon");
    assertEquals(SyslogFormat.SNARE, r.format());
    assertEquals("missing-pri", r.defectNames());
    assertEquals("windowsserver", r.hostname());
    assertEquals("MSWinEventLog", r.app());
    assertEquals(millis("2010-03-19T15:33:30Z"), r.timestampMillis());
  }

  @Test
  void snareDetectionOff() {
    ParseResult r =
        parse(
            "<14>May 21 12:00:01 host MSWinEventLog\t1\tSecurity\t0\tx",
            with(Leniency.DETECT_SNARE, false));
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertNull(r.app());
    assertEquals("MSWinEventLog\t1\tSecurity\t0\tx", r.message());
  }

  @Test
  void aTabWithoutSnareFieldsIsNotSnare() {
    ParseResult r = parse("<14>May 21 12:00:01 host app\tsomething");
    assertEquals(SyslogFormat.RFC3164, r.format());
  }
}
