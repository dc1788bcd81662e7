package org.flafka.cm;

import java.time.Instant;
import java.util.Objects;

/**
 * One {@code /timeseries} request: a tsquery, a UTC window and the rollup wanted. {@code to ==
 * null} means "now" on the server; {@code from == null} means the server default (5 minutes before
 * {@code to}).
 *
 * @param mustUseDesiredRollup without it the server may answer with another rollup than {@code
 *     desiredRollup}; a short steady-state window wants {@code RAW} and {@code true}
 */
public record TimeSeriesQuery(
    String query, Instant from, Instant to, Rollup desiredRollup, boolean mustUseDesiredRollup) {

  /** The rollup levels the API accepts for {@code desiredRollup}. */
  public enum Rollup {
    RAW,
    TEN_MINUTELY,
    HOURLY,
    SIX_HOURLY,
    DAILY,
    WEEKLY
  }

  public TimeSeriesQuery {
    Objects.requireNonNull(query, "query");
    if (query.isBlank()) {
      throw new IllegalArgumentException("a tsquery must not be blank");
    }
    Objects.requireNonNull(desiredRollup, "desiredRollup");
    if (from != null && to != null && from.isAfter(to)) {
      throw new IllegalArgumentException(
          "time-series window starts (" + from + ") after it ends (" + to + ")");
    }
  }

  /** Raw points between {@code from} and {@code to}, exactly as collected (no rollup). */
  public static TimeSeriesQuery raw(String query, Instant from, Instant to) {
    return new TimeSeriesQuery(query, from, to, Rollup.RAW, true);
  }
}
