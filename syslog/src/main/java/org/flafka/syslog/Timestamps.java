package org.flafka.syslog;

import static org.flafka.syslog.Bytes.NO_MATCH;
import static org.flafka.syslog.Bytes.digits;
import static org.flafka.syslog.Bytes.isDigit;
import static org.flafka.syslog.Bytes.isLetter;

/**
 * Timestamp scanners and calendar arithmetic without java.time: the hot path turns digits into
 * epoch millis with integer arithmetic only. Scanners fill a {@link DateFields} and return the
 * position after the stamp, or {@link Bytes#NO_MATCH} when there is no stamp of that shape at the
 * position (the caller then reads the bytes as something else; nothing is consumed).
 */
final class Timestamps {
  static final long MILLIS_PER_DAY = 86_400_000L;

  private Timestamps() {}

  // ------------------------------------------------------------------------------------------
  // calendar

  /** Days from 1970-01-01 to the given proleptic Gregorian date (H. Hinnant's days_from_civil). */
  static long daysFromCivil(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400);
    long yearOfEra = y - era * 400;
    long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097 + dayOfEra - 719_468;
  }

  /** The proleptic Gregorian year containing the given epoch millis (UTC). */
  static int yearOf(long epochMillis) {
    long days = Math.floorDiv(epochMillis, MILLIS_PER_DAY) + 719_468;
    long era = Math.floorDiv(days, 146_097);
    long dayOfEra = days - era * 146_097;
    long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    long monthIndex = (5 * dayOfYear + 2) / 153;
    long year = yearOfEra + era * 400;
    return (int) (monthIndex >= 10 ? year + 1 : year);
  }

  /**
   * Fills the UTC calendar fields of {@code epochSeconds} (H. Hinnant's civil_from_days) and marks
   * the offset as given (0): for epoch stamps, which carry no zone ambiguity.
   */
  static void fieldsFromEpoch(long epochSeconds, DateFields f) {
    long days = Math.floorDiv(epochSeconds, 86_400L);
    long secondOfDay = epochSeconds - days * 86_400L;
    long z = days + 719_468;
    long era = Math.floorDiv(z, 146_097);
    long dayOfEra = z - era * 146_097;
    long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    long monthIndex = (5 * dayOfYear + 2) / 153;
    f.day = (int) (dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    f.month = (int) (monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    f.year = (int) (yearOfEra + era * 400 + (f.month <= 2 ? 1 : 0));
    f.hour = (int) (secondOfDay / 3600);
    f.minute = (int) (secondOfDay / 60 % 60);
    f.second = (int) (secondOfDay % 60);
    f.hasOffset = true;
    f.offsetSeconds = 0;
  }

  /**
   * Scans an epoch time with a fraction at pos, as Cisco Meraki writes it: 9 or 10 digits, '.', 1
   * to 9 digits, then a space. Fills f (UTC, milliseconds kept) and returns the position of the
   * space, or NO_MATCH.
   */
  static int scanEpoch(byte[] b, int pos, int end, DateFields f) {
    int secondsEnd = Bytes.skipDigits(b, pos, Math.min(end, pos + 11));
    int count = secondsEnd - pos;
    if (count < 9 || count > 10 || !Bytes.at(b, secondsEnd, end, '.')) {
      return NO_MATCH;
    }
    int fractionEnd = Bytes.skipDigits(b, secondsEnd + 1, Math.min(end, secondsEnd + 11));
    int fractionDigits = fractionEnd - secondsEnd - 1;
    if (fractionDigits < 1 || fractionDigits > 9 || !Bytes.at(b, fractionEnd, end, ' ')) {
      return NO_MATCH;
    }
    long seconds = 0;
    for (int i = pos; i < secondsEnd; i++) {
      seconds = seconds * 10 + (b[i] - '0');
    }
    int millis = 0;
    for (int i = 0; i < 3; i++) {
      millis = millis * 10 + (i < fractionDigits ? b[secondsEnd + 1 + i] - '0' : 0);
    }
    f.clear();
    fieldsFromEpoch(seconds, f);
    f.millis = millis;
    return fractionEnd;
  }

  static boolean isLeapYear(int year) {
    return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  static int daysInMonth(int year, int month) {
    switch (month) {
      case 2:
        return isLeapYear(year) ? 29 : 28;
      case 4:
      case 6:
      case 9:
      case 11:
        return 30;
      default:
        return 31;
    }
  }

  static boolean isValidDate(int year, int month, int day) {
    return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
  }

  /**
   * Seconds since the epoch of the local date-time in {@code fields} for the given year, as if it
   * were UTC.
   */
  static long localEpochSeconds(DateFields fields, int year) {
    return daysFromCivil(year, fields.month, fields.day) * 86_400L
        + fields.hour * 3600L
        + fields.minute * 60L
        + fields.second;
  }

  // ------------------------------------------------------------------------------------------
  // month names

  /** The month 1..12 whose English abbreviation (any case) is at b[pos, pos+3), else 0. */
  static int monthAt(byte[] b, int pos, int end) {
    if (pos + 3 > end) {
      return 0;
    }
    int key = ((b[pos] | 0x20) << 16) | ((b[pos + 1] | 0x20) << 8) | (b[pos + 2] | 0x20);
    switch (key) {
      case ('j' << 16) | ('a' << 8) | 'n':
        return 1;
      case ('f' << 16) | ('e' << 8) | 'b':
        return 2;
      case ('m' << 16) | ('a' << 8) | 'r':
        return 3;
      case ('a' << 16) | ('p' << 8) | 'r':
        return 4;
      case ('m' << 16) | ('a' << 8) | 'y':
        return 5;
      case ('j' << 16) | ('u' << 8) | 'n':
        return 6;
      case ('j' << 16) | ('u' << 8) | 'l':
        return 7;
      case ('a' << 16) | ('u' << 8) | 'g':
        return 8;
      case ('s' << 16) | ('e' << 8) | 'p':
        return 9;
      case ('o' << 16) | ('c' << 8) | 't':
        return 10;
      case ('n' << 16) | ('o' << 8) | 'v':
        return 11;
      case ('d' << 16) | ('e' << 8) | 'c':
        return 12;
      default:
        return 0;
    }
  }

  /** Whether a month abbreviation followed by a space is at pos (the start of a BSD stamp). */
  static boolean bsdStampAt(byte[] b, int pos, int end) {
    return monthAt(b, pos, end) != 0 && pos + 3 < end && b[pos + 3] == ' ';
  }

  // ------------------------------------------------------------------------------------------ RFC
  // 3339

  /**
   * Scans an RFC 3339 / RFC 5424 timestamp {@code YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|+hh:mm|-hh:mm)} at
   * pos. Tolerated with {@link DateFields#lenient}: lower-case t/z, more than 6 fraction digits (up
   * to 9 count, the rest are skipped), +hhmm without colon; with {@code allowSpace}, a space for
   * the 'T' (marked in {@link DateFields#spaceSeparated}). A missing offset leaves {@link
   * DateFields#hasOffset} false. Values out of range (month 13, minute 99) still return the end
   * position; the caller checks validity.
   *
   * @return the position after the stamp, or NO_MATCH if the bytes are not shaped like one
   */
  static int scanRfc3339(byte[] b, int pos, int end, DateFields f, boolean allowSpace) {
    f.clear();
    int year = digits(b, pos, end, 4);
    if (year < 0 || !Bytes.at(b, pos + 4, end, '-')) {
      return NO_MATCH;
    }
    int month = digits(b, pos + 5, end, 2);
    if (month < 0 || !Bytes.at(b, pos + 7, end, '-')) {
      return NO_MATCH;
    }
    int day = digits(b, pos + 8, end, 2);
    if (day < 0 || pos + 10 >= end) {
      return NO_MATCH;
    }
    byte t = b[pos + 10];
    if (t == 't') {
      f.lenient = true;
    } else if (t == ' ' && allowSpace) {
      f.spaceSeparated =
          true; // "2026-11-21 10:00:00": the hour, ':' and the rest must follow, checked below
    } else if (t != 'T') {
      return NO_MATCH;
    }
    int hour = digits(b, pos + 11, end, 2);
    int minute = hour < 0 || !Bytes.at(b, pos + 13, end, ':') ? -1 : digits(b, pos + 14, end, 2);
    int second = minute < 0 || !Bytes.at(b, pos + 16, end, ':') ? -1 : digits(b, pos + 17, end, 2);
    if (second < 0) {
      return NO_MATCH;
    }
    f.year = year;
    f.month = month;
    f.day = day;
    f.hour = hour;
    f.minute = minute;
    f.second = second;
    int p = pos + 19;
    if (Bytes.at(b, p, end, '.')) {
      int fractionStart = ++p;
      int millis = 0;
      while (p < end && isDigit(b[p])) {
        if (p - fractionStart < 3) {
          millis = millis * 10 + (b[p] - '0');
        }
        p++;
      }
      int fractionDigits = p - fractionStart;
      if (fractionDigits == 0) {
        return NO_MATCH;
      }
      for (int i = fractionDigits; i < 3; i++) {
        millis *= 10;
      }
      if (fractionDigits > 9) {
        f.lenient = true;
      }
      f.millis = millis;
    }
    if (p >= end) {
      return p;
    }
    byte zone = b[p];
    if (zone == 'Z' || zone == 'z') {
      f.hasOffset = true;
      f.lenient |= zone == 'z';
      return p + 1;
    }
    if (zone == '+' || zone == '-') {
      int offsetHours = digits(b, p + 1, end, 2);
      if (offsetHours < 0) {
        return NO_MATCH;
      }
      int offsetMinutes;
      int after;
      if (Bytes.at(b, p + 3, end, ':')) {
        offsetMinutes = digits(b, p + 4, end, 2);
        after = p + 6;
      } else {
        offsetMinutes = digits(b, p + 3, end, 2);
        after = p + 5;
        f.lenient = true;
      }
      if (offsetMinutes < 0) {
        return NO_MATCH;
      }
      if (offsetHours > 23 || offsetMinutes > 59) {
        f.month = 0;
      }
      f.hasOffset = true;
      int seconds = offsetHours * 3600 + offsetMinutes * 60;
      f.offsetSeconds = zone == '-' ? -seconds : seconds;
      return after;
    }
    return p;
  }

  // ------------------------------------------------------------------------------------------ BSD

  /**
   * Scans a BSD-style stamp at pos: {@code Mmm dd hh:mm:ss} with one or more spaces after the month
   * and the day, any-case month, an optional {@code .fff} fraction (up to 9 digits), and, when
   * {@code detectYear}, a year before the month ({@code 2019 Mar 1}, NX-OS), between day and time
   * ({@code Mar 7 2008 19:06:53}, Cisco ASA) or after the time ({@code Mar 7 19:06:53 2008}). A
   * zone after the time ({@link #scanZone}) is consumed and sets the offset. Trailing ':' and
   * spaces are left to the caller.
   *
   * @return the position after the stamp, or NO_MATCH
   */
  static int scanBsd(
      byte[] b,
      int pos,
      int end,
      DateFields f,
      boolean detectYear,
      ZoneNames zones,
      boolean detectOffset) {
    f.clear();
    int p = pos;
    if (detectYear
        && p + 4 < end
        && isDigit(b[p])
        && b[p + 4] == ' '
        && bsdStampAt(b, p + 5, end)) {
      int year = digits(b, p, end, 4);
      if (year >= 0) {
        f.year = year;
        p += 5;
      }
    }
    int month = monthAt(b, p, end);
    if (month == 0 || !Bytes.at(b, p + 3, end, ' ')) {
      return NO_MATCH;
    }
    p = Bytes.skipSpaces(b, p + 3, end);
    int dayEnd = Bytes.skipDigits(b, p, end);
    if (dayEnd == p || dayEnd - p > 2 || !Bytes.at(b, dayEnd, end, ' ')) {
      return NO_MATCH;
    }
    int day = digits(b, p, end, dayEnd - p);
    p = Bytes.skipSpaces(b, dayEnd, end);
    if (detectYear && f.year < 0 && p + 5 < end && b[p + 4] == ' ' && isDigit(b[p + 5])) {
      int year = digits(b, p, end, 4);
      if (year >= 0) {
        f.year = year;
        p = Bytes.skipSpaces(b, p + 5, end);
      }
    }
    int hourEnd = Bytes.skipDigits(b, p, end);
    if (hourEnd == p || hourEnd - p > 2 || !Bytes.at(b, hourEnd, end, ':')) {
      return NO_MATCH;
    }
    int hour = digits(b, p, end, hourEnd - p);
    int minute = digits(b, hourEnd + 1, end, 2);
    int second =
        minute < 0 || !Bytes.at(b, hourEnd + 3, end, ':') ? -1 : digits(b, hourEnd + 4, end, 2);
    if (second < 0) {
      return NO_MATCH;
    }
    f.month = month;
    f.day = day;
    f.hour = hour;
    f.minute = minute;
    f.second = second;
    p = hourEnd + 6;
    if (Bytes.at(b, p, end, '.') && p + 1 < end && isDigit(b[p + 1])) {
      int fractionStart = ++p;
      int millis = 0;
      while (p < end && isDigit(b[p]) && p - fractionStart < 9) {
        if (p - fractionStart < 3) {
          millis = millis * 10 + (b[p] - '0');
        }
        p++;
      }
      for (int i = p - fractionStart; i < 3; i++) {
        millis *= 10;
      }
      f.millis = millis;
    }
    if (detectYear
        && f.year < 0
        && p + 5 <= end
        && b[p] == ' '
        && (b[p + 1] == '1' || b[p + 1] == '2')
        && (p + 5 == end || b[p + 5] == ' ' || b[p + 5] == ':' || b[p + 5] == '\t')) {
      int year = digits(b, p + 1, end, 4);
      if (year >= 0) {
        f.year = year;
        p += 5;
      }
    }
    return scanZone(b, p, end, f, zones, detectOffset);
  }

  /**
   * A zone after a device's time at p (which is at the space before it), as Cisco {@code
   * show-timezone} and its kin write it: a name from the table ({@code UTC}, {@code CEST}, any
   * case), a UTC/GMT name with a numeric offset ({@code UTC+1}, {@code GMT-5}, {@code UTC+05:30},
   * {@code UTC+0530}), or a bare offset ({@code +07:30}, {@code -0500}). It must end the message or
   * be followed by ' ' or ':'. Sets the offset and returns the position after the zone; returns p,
   * having set nothing, when no zone is there. Numeric forms only when {@code detectOffset}
   * (detect.time.zone.offset).
   */
  static int scanZone(
      byte[] b, int p, int end, DateFields f, ZoneNames zones, boolean detectOffset) {
    if (!Bytes.at(b, p, end, ' ')) {
      return p;
    }
    int nameStart = p + 1;
    int nameEnd = nameStart;
    while (nameEnd < end && isLetter(b[nameEnd]) && nameEnd - nameStart <= ZoneNames.MAX_LENGTH) {
      nameEnd++;
    }
    int offset = 0;
    if (nameEnd > nameStart) {
      offset = zones.offsetSeconds(b, nameStart, nameEnd - nameStart);
      if (offset == ZoneNames.UNKNOWN) {
        return p;
      }
    }
    int q = nameEnd;
    if (detectOffset
        && q < end
        && (b[q] == '+' || b[q] == '-')
        && (nameEnd == nameStart || offset == 0)) {
      int numericEnd = scanNumericOffset(b, q, end, f, nameEnd == nameStart);
      if (numericEnd == NO_MATCH) {
        return p;
      }
      offset = f.offsetSeconds;
      q = numericEnd;
    } else if (nameEnd == nameStart) {
      return p;
    }
    if (q < end && b[q] != ' ' && b[q] != ':') {
      return p;
    }
    f.hasOffset = true;
    f.offsetSeconds = offset;
    return q;
  }

  /**
   * {@code +h}, {@code +hh}, {@code +hh:mm} or {@code +hhmm} (or '-') at p; {@code bare}: no zone
   * name before it, so the minutes are required ({@code +07:30}, {@code -0500}) lest "+1" in text
   * be read as a zone. Leaves the offset in {@code f.offsetSeconds} (hours up to 14) and returns
   * the position after it, or NO_MATCH.
   */
  private static int scanNumericOffset(byte[] b, int p, int end, DateFields f, boolean bare) {
    int digitsEnd = Bytes.skipDigits(b, p + 1, Math.min(end, p + 5));
    int count = digitsEnd - p - 1;
    int hours;
    int minutes = 0;
    int after = digitsEnd;
    if (count == 4) {
      hours = digits(b, p + 1, end, 2);
      minutes = digits(b, p + 3, end, 2);
    } else if (count == 2
        && Bytes.at(b, digitsEnd, end, ':')
        && Bytes.skipDigits(b, digitsEnd + 1, Math.min(end, digitsEnd + 4)) == digitsEnd + 3) {
      hours = digits(b, p + 1, end, 2);
      minutes = digits(b, digitsEnd + 1, end, 2);
      after = digitsEnd + 3;
    } else if ((count == 1 || count == 2) && !bare) {
      hours = digits(b, p + 1, end, count);
    } else {
      return NO_MATCH;
    }
    if (hours > 14 || minutes > 59) {
      return NO_MATCH;
    }
    int seconds = hours * 3600 + minutes * 60;
    f.offsetSeconds = b[p] == '-' ? -seconds : seconds;
    return after;
  }
}
