package org.flafka.syslog;

import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.flafka.syslog.Parsing.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Rfc5424Test {

  @Test
  void readsEveryHeaderField() {
    ParseResult r =
        parse(
            "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog 1234 ID47 - An event");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(SyslogFormat.RFC5424, r.format());
    assertEquals(165, r.pri());
    assertEquals(20, r.facility());
    assertEquals(5, r.severity());
    assertEquals(1, r.version());
    assertEquals(millis("2003-10-11T22:14:15.003Z"), r.timestampMillis());
    assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    assertEquals("2003-10-11T22:14:15.003Z", r.timestampText());
    assertEquals("mymachine.example.com", r.hostname());
    assertEquals("evntslog", r.app());
    assertEquals("1234", r.procid());
    assertEquals("ID47", r.msgid());
    assertNull(r.structuredDataText());
    assertEquals("An event", r.message());
  }

  @Test
  void nilValuesAreAbsentFields() {
    ParseResult r = parse("<13>1 - - - - - -");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    assertEquals(Parsing.RECEIVED, r.timestampMillis());
    assertNull(r.hostname());
    assertNull(r.app());
    assertNull(r.procid());
    assertNull(r.msgid());
    assertEquals(-1, r.hostnameOffset());
    assertEquals("", r.message());
    assertEquals(r.inputOffset() + r.inputLength(), r.messageOffset());
  }

  @Test
  void messageStartsAfterTheBom() {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    String text = "<13>1 - host app - - - " + new String(bom, StandardCharsets.UTF_8) + "héllo";
    ParseResult r = parse(text);
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("héllo", r.message());
    assertEquals(
        text.getBytes(StandardCharsets.UTF_8).length
            - "héllo".getBytes(StandardCharsets.UTF_8).length,
        r.messageOffset());
  }

  @Test
  void keepsSpacesAfterTheOneSeparator() {
    assertEquals(" two spaces", parse("<13>1 - host app - - -  two spaces").message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "2003-10-11T22:14:15Z, 2003-10-11T22:14:15.000Z, 0",
    "2003-10-11T22:14:15.1Z, 2003-10-11T22:14:15.100Z, 0",
    "2003-10-11T22:14:15.12Z, 2003-10-11T22:14:15.120Z, 0",
    "2003-10-11T22:14:15.123456Z, 2003-10-11T22:14:15.123Z, 0",
    "2003-10-11T22:14:15.123456789Z, 2003-10-11T22:14:15.123Z, 0",
    "2003-08-24T05:14:15.000003-07:00, 2003-08-24T12:14:15.000Z, -25200",
    "2003-11-11T22:04:05.003+01:30, 2003-11-11T20:34:05.003Z, 5400",
    "1969-12-03T23:58:58+00:00, 1969-12-03T23:58:58.000Z, 0",
    "2016-02-29T23:59:59.999+14:00, 2016-02-29T09:59:59.999Z, 50400",
  })
  void readsRfc3339Timestamps(String stamp, String instant, int offsetSeconds) {
    ParseResult r = parse("<13>1 " + stamp + " host app - - - m");
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(millis(instant), r.timestampMillis());
    assertEquals(offsetSeconds, r.timestampUtcOffsetSeconds());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "2003-02-29T22:14:15Z, invalid-timestamp",
    "2003-09-31T22:14:15Z, invalid-timestamp",
    "2003-09-29T24:00:00Z, invalid-timestamp",
    "2003-09-29T22:99:16Z, invalid-timestamp",
    "2003-08-24T05:14:15-24:00, invalid-timestamp",
    "2003-08-24T05:14, invalid-timestamp",
    "yesterday, invalid-timestamp",
  })
  void anImpossibleTimestampLeavesTheReceiveTime(String stamp, String defect) {
    ParseResult r = parse("<13>1 " + stamp + " host app - - - m");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals(defect, r.defectNames());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    assertEquals(stamp, r.timestampText());
    assertEquals("host", r.hostname(), "the rest of the header is still read");
    assertEquals("m", r.message());
  }

  @Test
  void toleratesLowerCaseTAndZAndTenFractionDigits() {
    ParseResult r = parse("<13>1 2003-10-11t22:14:15.0000000001z host app - - - m");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("malformed-header", r.defectNames());
    assertEquals(millis("2003-10-11T22:14:15Z"), r.timestampMillis());
  }

  @Test
  void aStampWithoutOffsetUsesTheDefaultZone() {
    ParseResult r =
        parse("<13>1 2012-04-13T11:11:11 host app - - - m", Parsing.zone("Europe/Berlin"));
    assertEquals("missing-time-zone", r.defectNames());
    assertEquals(millis("2012-04-13T09:11:11Z"), r.timestampMillis());
    assertEquals(7200, r.timestampUtcOffsetSeconds());
  }

  @Test
  void readsStructuredDataWithEscapes() {
    ParseResult r =
        parse(
            "<165>1 2003-10-11T22:14:15.003Z host app - ID47 [exampleSDID@32473 iut=\"3\""
                + " eventSource=\"Appli\\\"cation\\\\\" eventID=\"1011\\]\"][examplePriority@32473 class=\"high\"] msg");
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(2, r.sdElementCount());
    assertEquals("exampleSDID@32473", r.sdId(0));
    assertEquals(3, r.sdParamCount(0));
    assertEquals("eventSource", r.sdParamName(0, 1));
    assertEquals("Appli\"cation\\", r.sdParamValue(0, 1));
    assertEquals("1011]", r.sdParamValue(0, 2));
    assertEquals(
        "Appli\\\"cation\\\\",
        new String(
            r.buffer(),
            r.sdParamValueOffset(0, 1),
            r.sdParamValueLength(0, 1),
            StandardCharsets.UTF_8),
        "raw value keeps its escapes");
    assertEquals(Map.of("class", "high"), r.structuredData().get("examplePriority@32473"));
    assertTrue(
        r.structuredDataText().startsWith("[exampleSDID@32473 ")
            && r.structuredDataText().endsWith("]"));
    assertEquals("msg", r.message());
  }

  @Test
  void readsJuniperStructuredDataWithEscapedBrackets() {
    ParseResult r =
        parse(
            "<165>1 2007-02-15T09:17:15.719Z router1 mgd 3046 UI_DBASE_LOGOUT_EVENT"
                + " [junos@2636.1.1.1.2.18 username=\"regress\" reason=\"[a\\] b\"] User 'regress' exiting");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("UI_DBASE_LOGOUT_EVENT", r.msgid());
    assertEquals("junos@2636.1.1.1.2.18", r.sdId(0));
    assertEquals("[a] b", r.sdParamValue(0, 1));
    assertEquals("User 'regress' exiting", r.message());
  }

  @Test
  void aBackslashBeforeAnOrdinaryCharacterIsKept() {
    ParseResult r = parse("<13>1 - host app - - [id path=\"C:\\temp\\n\"] m");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals("C:\\temp\\n", r.sdParamValue(0, 0));
  }

  @Test
  void emptyElementAndEmptyValue() {
    ParseResult r = parse("<13>1 - host app - - [empty][x a=\"\"] m");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(0, r.sdParamCount(0));
    assertEquals("", r.sdParamValue(1, 0));
  }

  @Test
  void malformedElementIsSkippedWhenPermitted() {
    ParseResult r =
        parse("<13>1 2019-02-13T19:48:34+00:00 host root 8449 - [incorrect x][ok a=\"1\"] qwerty");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("malformed-structured-data", r.defectNames());
    assertEquals(1, r.sdElementCount());
    assertEquals("ok", r.sdId(0));
    assertEquals("qwerty", r.message());
  }

  @Test
  void malformedElementMakesTheMessageRawWhenNotPermitted() {
    ParseResult r =
        parse(
            "<13>1 2019-02-13T19:48:34+00:00 host root 8449 - [incorrect x] qwerty",
            with(Leniency.PERMIT_MALFORMED_STRUCTURED_DATA, false));
    assertEquals(ParseStatus.RAW, r.status());
    assertEquals("malformed-structured-data", r.defectNames());
    assertNull(r.hostname());
    assertEquals(r.inputLength(), r.messageLength());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[id a= \"1\"] m|1|m",
        "[id a=1 b=\"2\"] m|2|m",
        "[id  a=\"1\"] m|1|m",
        "[id a=\"x]y\"] m|1|m",
        "[id a=\"1\"][id b=\"2\"] m|1|m",
      })
  void toleratedStructuredDataDefects(String sd, int params, String message) {
    ParseResult r = parse("<13>1 - host app - - " + sd);
    assertEquals("malformed-structured-data", r.defectNames());
    assertEquals(params, r.sdParamCount(0));
    assertEquals(message, r.message());
  }

  @Test
  void anUnclosedElementLeavesTheRestAsMessage() {
    ParseResult r = parse("<13>1 - host app - - [id a=\"1\" never closed");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals(0, r.sdElementCount());
    assertNull(r.structuredDataText());
    assertEquals("[id a=\"1\" never closed", r.message());
  }

  @Test
  void recordsAtMostMaxSdParams() {
    StringBuilder sd = new StringBuilder("[id");
    for (int i = 0; i < ParseResult.MAX_SD_PARAMS + 10; i++) {
      sd.append(" p").append(i).append("=\"").append(i).append('"');
    }
    ParseResult r = parse("<13>1 - host app - - " + sd + "] m");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(ParseResult.MAX_SD_PARAMS, r.sdParamCount(0));
    assertEquals("m", r.message());
  }

  @Test
  void withoutVersionIsReadAsRfc5424WhenItHasItsShape() {
    ParseResult r = parse("<13>2017-02-06T13:14:15.003Z 192.168.0.1 fluentd 11 - - Hi");
    assertEquals(SyslogFormat.RFC5424, r.format());
    assertEquals("missing-version", r.defectNames());
    assertEquals("192.168.0.1", r.hostname());
    assertEquals("fluentd", r.app());
    assertEquals("11", r.procid());
    assertEquals("Hi", r.message());
    assertEquals(-1, r.version());
  }

  @Test
  void withoutVersionIsRawWhenNotPermitted() {
    ParseResult r =
        parse(
            "<13>2017-02-06T13:14:15.003Z 192.168.0.1 fluentd 11 - - Hi",
            with(Leniency.PERMIT_MISSING_VERSION, false));
    assertEquals(ParseStatus.RAW, r.status());
    assertEquals("missing-version", r.defectNames());
  }

  @Test
  void isoStampInAnRfc3164HeaderIsNotAMissingVersion() {
    ParseResult r =
        parse(
            "<14>2017-05-21T00:00:01.123Z hostname.domain Hostd: verbose hostd[81480B70] [x y]",
            with(Leniency.PERMIT_MISSING_VERSION, false));
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(SyslogFormat.RFC3164, r.format());
    assertEquals("hostname.domain", r.hostname());
    assertEquals("Hostd", r.app());
    assertEquals(millis("2017-05-21T00:00:01.123Z"), r.timestampMillis());
  }

  @Test
  void missingPriStillReadsTheHeader() {
    ParseResult r =
        parse("1 2020-05-22T14:59:09.250-03:00 OX-MX204 rpd 6589 - - bgp_listen_accept");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("missing-pri", r.defectNames());
    assertFalse(r.hasPri());
    assertEquals(-1, r.facility());
    assertEquals("OX-MX204", r.hostname());
    assertEquals("bgp_listen_accept", r.message());
  }

  @Test
  void fewerThanThreeFieldsAfterTheHostnameAreMessage() {
    ParseResult r = parse("<10>1 2012-04-13T11:11:11Z ubuntu-11.cloudera.com some msg\n");
    assertEquals("malformed-header", r.defectNames());
    assertEquals("ubuntu-11.cloudera.com", r.hostname());
    assertNull(r.app());
    assertEquals("some msg", r.message(), "the trailing LF is framing, not message");
  }

  @Test
  void missingStructuredDataStartsTheMessage() {
    ParseResult r =
        parse("<34>1 2003-11-11T22:14:15.003Z host su - ID47 last message repeated 5 times");
    assertEquals("malformed-header", r.defectNames());
    assertEquals("su", r.app());
    assertEquals("ID47", r.msgid());
    assertEquals("last message repeated 5 times", r.message());
  }

  @Test
  void aTruncatedHeaderKeepsWhatItHas() {
    ParseResult r = parse("<1>1 2003-10-11T22:14:15Z host");
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("host", r.hostname());
    assertEquals("", r.message());
    ParseResult versionOnly = parse("<1>1");
    assertEquals(SyslogFormat.RFC5424, versionOnly.format());
    assertEquals(1, versionOnly.version());
  }

  @Test
  void aControlCharacterInAHeaderFieldEndsTheHeader() {
    ParseResult r = parse("<1>1 - host\nname app - - - m");
    assertEquals("malformed-header", r.defectNames());
    assertNull(r.hostname());
    assertEquals("host\nname app - - - m", r.message());
  }

  @Test
  void longFieldsAreKeptWithADefect() {
    String app = "a".repeat(49);
    ParseResult r = parse("<1>1 - host " + app + " - - - m");
    assertEquals("malformed-header", r.defectNames());
    assertEquals(app, r.app());
  }

  @Test
  void versionsOtherThanOneAreRead() {
    ParseResult r = parse("<191>999 2018-12-31T23:59:59.999999-23:59 host app - - - m");
    assertEquals(ParseStatus.OK, r.status());
    assertEquals(999, r.version());
    assertEquals(7, r.severity());
    assertEquals(-(23 * 3600 + 59 * 60), r.timestampUtcOffsetSeconds());
  }

  @Test
  void ipv6Hostname() {
    assertEquals(
        "::FFFF:129.144.52.38",
        parse("<34>1 2003-10-11T22:14:15.003Z ::FFFF:129.144.52.38 su - ID47 - x").hostname());
  }
}
