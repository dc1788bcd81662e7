package org.flafka.syslog;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * The default zone's UTC offset for a local date-time, without java.time on the hot path. A fixed-offset zone
 * answers with a constant. A region zone remembers the span of local time around the last answer in which the
 * offset cannot change (between two transitions, minus their gaps and overlaps); only a stamp outside that span
 * (in practice: twice a year, and at New Year for last year's stamps) asks {@link ZoneRules}.
 *
 * <p>Thread-safe: the span is an immutable object published through a volatile field; racing threads at worst
 * compute the same span twice.
 */
final class ZoneResolver {
  /** A span [startLocal, endLocal) of local epoch seconds in which the offset is offsetSeconds. */
  private record Span(long startLocal, long endLocal, int offsetSeconds) {
  }

  private final ZoneRules rules;
  private final boolean fixed;
  private final int fixedOffsetSeconds;
  private volatile Span span = new Span(0, 0, 0);

  ZoneResolver(ZoneId zone) {
    this.rules = zone.getRules();
    this.fixed = rules.isFixedOffset();
    this.fixedOffsetSeconds = fixed ? rules.getOffset(java.time.Instant.EPOCH).getTotalSeconds() : 0;
  }

  /**
   * The offset in seconds for the local date-time {@code localEpochSeconds} (seconds since 1970-01-01T00:00 as
   * if local were UTC). In a gap (spring forward) or overlap (fall back) the offset before the transition is
   * used, which is what {@code ZonedDateTime.of} does for a gap and its default for an overlap.
   */
  int offsetSeconds(long localEpochSeconds) {
    if (fixed) {
      return fixedOffsetSeconds;
    }
    Span current = span;
    if (localEpochSeconds >= current.startLocal && localEpochSeconds < current.endLocal) {
      return current.offsetSeconds;
    }
    return lookUp(localEpochSeconds);
  }

  private int lookUp(long localEpochSeconds) {
    LocalDateTime local = LocalDateTime.ofEpochSecond(localEpochSeconds, 0, ZoneOffset.UTC);
    ZoneOffsetTransition transition = rules.getTransition(local);
    if (transition != null) {
      return transition.getOffsetBefore().getTotalSeconds();
    }
    ZoneOffset offset = rules.getOffset(local);
    java.time.Instant instant = local.toInstant(offset);
    ZoneOffsetTransition previous = rules.previousTransition(instant.plusSeconds(1));
    ZoneOffsetTransition next = rules.nextTransition(instant);
    long start = previous == null ? Long.MIN_VALUE
        : previous.toEpochSecond() + Math.max(previous.getOffsetBefore().getTotalSeconds(),
            previous.getOffsetAfter().getTotalSeconds());
    long end = next == null ? Long.MAX_VALUE
        : next.toEpochSecond() + Math.min(next.getOffsetBefore().getTotalSeconds(),
            next.getOffsetAfter().getTotalSeconds());
    span = new Span(start, end, offset.getTotalSeconds());
    return offset.getTotalSeconds();
  }
}
