package org.flafka.syslog;

/**
 * The calendar fields of one timestamp as scanned from the message, before they become epoch
 * millis. One instance lives in each {@link ParseResult} and is reused, so scanning a timestamp
 * allocates nothing.
 */
final class DateFields {
  /** Four-digit year, or -1 when the stamp has none (RFC 3164). */
  int year;

  int month;
  int day;
  int hour;
  int minute;
  int second;
  int millis;

  /** Whether {@link #offsetSeconds} came from the stamp (Z, +hh:mm, a zone name). */
  boolean hasOffset;

  int offsetSeconds;

  /**
   * Whether the stamp deviated from its grammar in a tolerated way (lower-case t/z, > 6 fraction
   * digits...).
   */
  boolean lenient;

  /** A word after the time that looked like a zone name but is not in {@link ZoneNames}. */
  boolean unknownZone;

  /** An RFC 3339 stamp with a space instead of 'T'. */
  boolean spaceSeparated;

  void clear() {
    year = -1;
    month = 0;
    day = 0;
    hour = 0;
    minute = 0;
    second = 0;
    millis = 0;
    hasOffset = false;
    offsetSeconds = 0;
    lenient = false;
    unknownZone = false;
    spaceSeparated = false;
  }

  /**
   * Whether the time of day is possible; the date needs the year, see {@link
   * Timestamps#isValidDate}.
   */
  boolean validTime() {
    return hour <= 23
        && minute <= 59
        && second <= 59
        && month >= 1
        && month <= 12
        && day >= 1
        && day <= 31;
  }
}
