package org.flafka.syslog;

/**
 * Turns a scanned timestamp ({@link ParseResult#date}) into the event time: epoch millis by integer
 * arithmetic, the year of a year-less stamp from the receive time, the default zone's offset from
 * {@link ZoneResolver}, and the plausibility window. Immutable and thread-safe, one per parser.
 */
final class EventTime {
  /**
   * How a stamp was written, which decides what is a defect: a year in a BSD stamp, no offset in
   * RFC 3339.
   */
  enum StampKind {
    RFC3339,
    BSD,
    FIELDS
  }

  /**
   * A year-less stamp may lie this far after the receive time (a fast clock) before it is taken as
   * last year's.
   */
  private static final long YEAR_FUTURE_SLACK_MILLIS = 31 * Timestamps.MILLIS_PER_DAY;

  private final ZoneResolver zone;
  private final long maxPastMillis;
  private final long maxFutureMillis;

  EventTime(SyslogParserOptions options) {
    this.zone = new ZoneResolver(options.defaultZone());
    this.maxPastMillis = options.maxPastMillis();
    this.maxFutureMillis = options.maxFutureMillis();
  }

  /**
   * Turns the scanned {@link ParseResult#date} into the result's timestamp: validates it, resolves
   * a missing year against the receive time, applies the stamp's own offset or the default zone,
   * and checks plausibility. Any failure leaves the receive time in place and records why.
   */
  void set(ParseResult r, StampKind kind, int textStart, int textEnd) {
    DateFields f = r.date;
    r.timestampText(textStart, textEnd - textStart);
    if (f.lenient) {
      r.addDefect(Defect.MALFORMED_HEADER);
    }
    if (f.unknownZone) {
      r.addDefect(Defect.UNKNOWN_TIME_ZONE);
    }
    if (f.spaceSeparated) {
      r.addDefect(Defect.SPACE_IN_ISO_TIMESTAMP);
    }
    if (kind == StampKind.RFC3339 && !f.hasOffset) {
      r.addDefect(Defect.MISSING_TIME_ZONE);
    }
    if (!f.validTime()) {
      r.addDefect(Defect.INVALID_TIMESTAMP);
      return;
    }
    long received = r.receivedMillis();
    long millis;
    int offset;
    if (f.year >= 0) {
      if (kind == StampKind.BSD) {
        r.addDefect(Defect.YEAR_IN_TIMESTAMP);
      }
      if (!Timestamps.isValidDate(f.year, f.month, f.day)) {
        r.addDefect(Defect.INVALID_TIMESTAMP);
        return;
      }
      long local = Timestamps.localEpochSeconds(f, f.year);
      offset = f.hasOffset ? f.offsetSeconds : zone.offsetSeconds(f.year, local);
      millis = (local - offset) * 1000 + f.millis;
    } else {
      // No year: the latest year that puts the stamp no more than a month after the receive time. A
      // December stamp received on 1 January is last year's; a 1 January stamp from a clock a
      // little fast, received on 31 December, is next year's; Feb 29 only exists in leap years.
      long latest = received + YEAR_FUTURE_SLACK_MILLIS;
      int receivedYear = Timestamps.yearOf(received);
      boolean found = false;
      millis = 0;
      offset = 0;
      for (int year = receivedYear + 1; year >= receivedYear - 1 && !found; year--) {
        if ((year > receivedYear && f.month > 2) || !Timestamps.isValidDate(year, f.month, f.day)) {
          continue; // only a January/February stamp can be within a month after a receive time in
          // the year before
        }
        long local = Timestamps.localEpochSeconds(f, year);
        offset = f.hasOffset ? f.offsetSeconds : zone.offsetSeconds(year, local);
        millis = (local - offset) * 1000 + f.millis;
        found = millis <= latest;
      }
      if (!found) {
        r.addDefect(Defect.INVALID_TIMESTAMP); // Feb 29 with no leap year around the receive time
        return;
      }
    }
    if ((maxPastMillis > 0 && millis < received - maxPastMillis)
        || (maxFutureMillis > 0 && millis > received + maxFutureMillis)) {
      r.addDefect(Defect.IMPLAUSIBLE_TIMESTAMP);
      r.rejectedTimestamp(millis);
      return;
    }
    r.timestamp(millis, TimestampSource.MESSAGE, offset);
  }
}
