package org.flafka.syslog;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * The default zone's UTC offset for a local date-time, without java.time on the hot path. A
 * fixed-offset zone answers with a constant. A region zone keeps, per year, the few local times at
 * which its offset changes (built from {@link ZoneRules} the first time a stamp of that year is
 * seen); a lookup is then a comparison or two. Years outside {@value #FIRST_YEAR}..{@value
 * #LAST_YEAR} ask {@link ZoneRules} directly.
 *
 * <p>In a gap (spring forward) or an overlap (fall back) the offset before the transition is used,
 * as {@code ZonedDateTime.of} does for a gap and by default for an overlap.
 *
 * <p>Thread-safe: a year's table is immutable and published through final fields; threads that race
 * to build the same year build equal tables.
 */
final class ZoneResolver {
  static final int FIRST_YEAR = 1900;
  static final int LAST_YEAR = 2199;
  private static final long DAY_SECONDS = 86_400;

  /**
   * Offsets within one local year: {@code initialOffset} until {@code thresholds[0]}, then {@code
   * offsets[i]} from {@code thresholds[i]} (local epoch seconds) on.
   */
  private record YearTable(int initialOffset, long[] thresholds, int[] offsets) {
    int offset(long local) {
      int offset = initialOffset;
      for (int i = 0; i < thresholds.length && local >= thresholds[i]; i++) {
        offset = offsets[i];
      }
      return offset;
    }
  }

  private final ZoneRules rules;
  private final boolean fixed;
  private final int fixedOffsetSeconds;
  private final YearTable[] years = new YearTable[LAST_YEAR - FIRST_YEAR + 1];

  ZoneResolver(ZoneId zone) {
    this.rules = zone.getRules();
    this.fixed = rules.isFixedOffset();
    this.fixedOffsetSeconds = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
  }

  /**
   * The offset in seconds for the local date-time {@code localEpochSeconds} (seconds since
   * 1970-01-01T00:00 as if local were UTC), which lies in {@code year}.
   */
  int offsetSeconds(int year, long localEpochSeconds) {
    if (fixed) {
      return fixedOffsetSeconds;
    }
    if (year < FIRST_YEAR || year > LAST_YEAR) {
      return offsetFromRules(localEpochSeconds);
    }
    YearTable table = years[year - FIRST_YEAR];
    if (table == null) {
      table = buildYear(year);
      years[year - FIRST_YEAR] = table;
    }
    return table.offset(localEpochSeconds);
  }

  private YearTable buildYear(int year) {
    // Two days either side of the year covers every offset (+-18 h) a local time in the year can
    // have.
    long from = Timestamps.daysFromCivil(year, 1, 1) * DAY_SECONDS - 2 * DAY_SECONDS;
    long to = Timestamps.daysFromCivil(year + 1, 1, 1) * DAY_SECONDS + 2 * DAY_SECONDS;
    Instant start = Instant.ofEpochSecond(from);
    int initialOffset = rules.getOffset(start).getTotalSeconds();
    long[] thresholds = new long[0];
    int[] offsets = new int[0];
    for (ZoneOffsetTransition t = rules.nextTransition(start);
        t != null && t.toEpochSecond() < to;
        t = rules.nextTransition(t.getInstant())) {
      int before = t.getOffsetBefore().getTotalSeconds();
      int after = t.getOffsetAfter().getTotalSeconds();
      thresholds = java.util.Arrays.copyOf(thresholds, thresholds.length + 1);
      offsets = java.util.Arrays.copyOf(offsets, offsets.length + 1);
      // Local times before the end of the gap or overlap keep the earlier offset.
      thresholds[thresholds.length - 1] = t.toEpochSecond() + Math.max(before, after);
      offsets[offsets.length - 1] = after;
    }
    return new YearTable(initialOffset, thresholds, offsets);
  }

  private int offsetFromRules(long localEpochSeconds) {
    LocalDateTime local = LocalDateTime.ofEpochSecond(localEpochSeconds, 0, ZoneOffset.UTC);
    ZoneOffsetTransition transition = rules.getTransition(local);
    return transition != null
        ? transition.getOffsetBefore().getTotalSeconds()
        : rules.getOffset(local).getTotalSeconds();
  }
}
