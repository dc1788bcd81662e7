package org.flafka.syslog;

import static org.flafka.syslog.Parsing.millis;
import static org.flafka.syslog.Parsing.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Year resolution against an injected receive time, zones, and the plausibility window. */
class TimestampTest {

  @ParameterizedTest(name = "{0} received {1}")
  @CsvSource({
    // stamp, received, expected instant
    "Dec 31 23:59:58, 2027-01-01T00:00:01Z, 2026-12-31T23:59:58Z",
    "Dec 24 10:00:00, 2027-01-02T00:00:00Z, 2026-12-24T10:00:00Z",
    "Jan  1 00:00:01, 2026-12-31T23:59:59Z, 2027-01-01T00:00:01Z",
    "Jan 20 00:00:00, 2026-12-31T00:00:00Z, 2027-01-20T00:00:00Z",
    "Mar  6 16:57:54, 2026-11-21T12:00:00Z, 2026-03-06T16:57:54Z",
    "Nov 30 00:00:00, 2026-11-21T12:00:00Z, 2026-11-30T00:00:00Z",
    "Dec 23 00:00:00, 2026-11-21T12:00:00Z, 2025-12-23T00:00:00Z",
    "Feb 29 12:00:00, 2024-03-01T00:00:00Z, 2024-02-29T12:00:00Z",
    "Feb 29 12:00:00, 2025-01-10T00:00:00Z, 2024-02-29T12:00:00Z",
    "Feb 29 12:00:00, 2028-02-10T00:00:00Z, 2028-02-29T12:00:00Z",
    "Feb 28 12:00:00, 2025-02-28T00:00:00Z, 2025-02-28T12:00:00Z",
  })
  void resolvesTheYearAgainstTheReceiveTime(String stamp, String received, String expected) {
    ParseResult r = parse("<13>" + stamp + " host app: m", Parsing.OPTIONS, millis(received));
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(millis(expected), r.timestampMillis());
  }

  @Test
  void feb29WithoutALeapYearAroundIsInvalid() {
    ParseResult r =
        parse("<13>Feb 29 12:00:00 host app: m", Parsing.OPTIONS, millis("2026-06-01T00:00:00Z"));
    assertEquals("invalid-timestamp", r.defectNames());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    assertEquals("Feb 29 12:00:00", r.timestampText());
  }

  @Test
  void feb30IsInvalidInAnyYear() {
    assertEquals("invalid-timestamp", parse("<13>Feb 30 12:00:00 host app: m").defectNames());
    assertEquals("invalid-timestamp", parse("<13>Feb  3 25:00:00 host app: m").defectNames());
  }

  @ParameterizedTest(name = "{0} in {1}")
  @CsvSource({
    "Jan 15 12:00:00, Europe/Berlin, 2026-01-15T11:00:00Z, 3600",
    "Jul 15 12:00:00, Europe/Berlin, 2026-07-15T10:00:00Z, 7200",
    // spring forward: 02:30 does not exist; read with the offset before the gap, as ZonedDateTime
    // does
    "Mar 29 02:30:00, Europe/Berlin, 2026-03-29T01:30:00Z, 3600",
    // fall back: 02:30 happens twice; the earlier (summer) offset is used
    "Oct 25 02:30:00, Europe/Berlin, 2026-10-25T00:30:00Z, 7200",
    "Jul 15 12:00:00, America/New_York, 2026-07-15T16:00:00Z, -14400",
    "Jul 15 12:00:00, +05:30, 2026-07-15T06:30:00Z, 19800",
    "Jul 15 12:00:00, UTC, 2026-07-15T12:00:00Z, 0",
  })
  void appliesTheDefaultZoneToZonelessStamps(
      String stamp, String zone, String expected, int offset) {
    ParseResult r = parse("<13>" + stamp + " host app: m", Parsing.zone(zone));
    assertEquals(millis(expected), r.timestampMillis());
    assertEquals(offset, r.timestampUtcOffsetSeconds());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "UTC, 0",
    "GMT, 0",
    "gmt, 0",
    "CET, 3600",
    "CEST, 7200",
    "EST, -18000",
    "EDT, -14400",
    "PST, -28800",
    "IST, 19800",
    "JST, 32400",
    "AEST, 36000",
  })
  void zoneNamesAfterTheTimeOverrideTheDefaultZone(String name, int offset) {
    ParseResult r =
        parse("<189>Jul 15 12:00:00 " + name + ": %SYS-5-CONFIG_I: x", Parsing.zone("Asia/Tokyo"));
    assertEquals(ParseStatus.OK, r.status(), r.defectNames());
    assertEquals(offset, r.timestampUtcOffsetSeconds());
    assertEquals(millis("2026-07-15T12:00:00Z") - offset * 1000L, r.timestampMillis());
  }

  @Test
  void theStampsOwnOffsetBeatsTheDefaultZone() {
    ParseResult r =
        parse("<13>1 2026-07-15T12:00:00+02:00 host app - - - m", Parsing.zone("America/New_York"));
    assertEquals(millis("2026-07-15T10:00:00Z"), r.timestampMillis());
  }

  @Test
  void theDefaultPlausibilityWindowRejectsAClockResetTo1993() {
    ParseResult r =
        parse("<13>1 1993-03-01T00:00:00Z host app - - - m", SyslogParserOptions.defaults());
    assertEquals(ParseStatus.LENIENT, r.status());
    assertEquals("implausible-timestamp", r.defectNames());
    assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    assertEquals(Parsing.RECEIVED, r.timestampMillis());
    assertEquals("1993-03-01T00:00:00Z", r.timestampText());
    assertTrue(r.hasRejectedTimestamp());
    assertEquals(millis("1993-03-01T00:00:00Z"), r.rejectedTimestampMillis());
  }

  @Test
  void aRejectedYearlessStampKeepsTheYearItWasResolvedTo() {
    SyslogParserOptions options = SyslogParserOptions.builder().maxPastMillis(3_600_000).build();
    ParseResult r = parse("<13>Nov 21 10:00:00 host app: m", options);
    assertEquals("implausible-timestamp", r.defectNames());
    assertEquals(Parsing.RECEIVED, r.timestampMillis());
    assertEquals(millis("2026-11-21T10:00:00Z"), r.rejectedTimestampMillis());
  }

  @Test
  void nothingRejectedWhenTheTimeIsPlausibleOrInvalidOrAbsent() {
    for (String message :
        new String[] {
          "<13>1 2026-11-21T11:00:00Z host app - - - m",
          "<13>1 2026-02-30T11:00:00Z host app - - - m",
          "<13>host app: m"
        }) {
      ParseResult r = parse(message, SyslogParserOptions.defaults());
      assertFalse(r.hasRejectedTimestamp(), message);
      assertEquals(-1, r.rejectedTimestampMillis(), message);
    }
  }

  @Test
  void aReusedResultForgetsTheRejectedTime() {
    SyslogParser parser = new SyslogParser();
    ParseResult r = new ParseResult();
    byte[] implausible =
        "<13>1 1993-03-01T00:00:00Z host app - - - m".getBytes(StandardCharsets.UTF_8);
    parser.parse(implausible, 0, implausible.length, Parsing.RECEIVED, r);
    assertTrue(r.hasRejectedTimestamp());
    byte[] plausible =
        "<13>1 2026-11-21T11:00:00Z host app - - - m".getBytes(StandardCharsets.UTF_8);
    parser.parse(plausible, 0, plausible.length, Parsing.RECEIVED, r);
    assertFalse(r.hasRejectedTimestamp());
    assertEquals(-1, r.rejectedTimestampMillis());
  }

  @ParameterizedTest(name = "{0} with past {1} ms, future {2} ms")
  @CsvSource({
    "2026-11-21T11:00:00Z, 3600000, 0, true",
    "2026-11-21T10:59:59Z, 3600000, 0, false",
    "2026-11-21T13:00:00Z, 0, 3600000, true",
    "2026-11-21T13:00:01Z, 0, 3600000, false",
    "1970-01-01T00:00:00Z, 0, 0, true",
    "2099-01-01T00:00:00Z, 0, 0, true",
  })
  void plausibilityWindow(String stamp, long past, long future, boolean fromMessage) {
    SyslogParserOptions options =
        SyslogParserOptions.builder().maxPastMillis(past).maxFutureMillis(future).build();
    ParseResult r = parse("<13>1 " + stamp + " host app - - - m", options);
    assertEquals(
        fromMessage ? TimestampSource.MESSAGE : TimestampSource.RECEIVED, r.timestampSource());
    assertEquals(fromMessage ? millis(stamp) : Parsing.RECEIVED, r.timestampMillis());
  }
}
