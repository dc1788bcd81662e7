package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Test helpers: parse a string with a fixed receive time, and build options with one switch
 * changed. Format tests use {@link #OPTIONS}, the defaults without the plausibility window, so
 * historic example stamps are read as they are; {@code TimestampTest} covers the window.
 */
final class Parsing {
  static final SyslogParserOptions OPTIONS = builder().build();

  /** The receive time used unless a test injects its own: Saturday 21 November 2026, noon UTC. */
  static final long RECEIVED = Instant.parse("2026-11-21T12:00:00Z").toEpochMilli();

  private Parsing() {}

  static ParseResult parse(String message) {
    return parse(message, OPTIONS, RECEIVED);
  }

  static ParseResult parse(String message, SyslogParserOptions options) {
    return parse(message, options, RECEIVED);
  }

  static ParseResult parse(String message, SyslogParserOptions options, long received) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    ParseResult result =
        new SyslogParser(options).parse(bytes, 0, bytes.length, received, new ParseResult());
    ResultInvariants.check(result, bytes, 0, bytes.length, received);
    return result;
  }

  /** The defaults without the plausibility window. */
  static SyslogParserOptions.Builder builder() {
    return SyslogParserOptions.builder().maxPastMillis(0).maxFutureMillis(0);
  }

  static SyslogParserOptions with(Leniency leniency, boolean on) {
    return builder().set(leniency, on).build();
  }

  static SyslogParserOptions zone(String zone) {
    return builder().set(SyslogParserOptions.TIMEZONE_DEFAULT, zone).build();
  }

  static long millis(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  /**
   * The event time a table row expects: {@code instant} read from the message, or the receive time
   * when {@code instant} is null (the empty cell of a CSV row).
   */
  static void assertEventTime(String instant, ParseResult r) {
    if (instant == null) {
      assertEquals(TimestampSource.RECEIVED, r.timestampSource());
    } else {
      assertEquals(millis(instant), r.timestampMillis(), () -> "timestamp " + r.timestampText());
      assertEquals(TimestampSource.MESSAGE, r.timestampSource());
    }
  }
}
