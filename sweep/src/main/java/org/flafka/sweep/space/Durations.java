package org.flafka.sweep.space;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as spaces and sweep flags write them: {@code 500ms}, {@code 10s}, {@code 2m}, or a bare
 * number of seconds.
 */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

  private Durations() {}

  /**
   * Parses {@code value}; throws {@link IllegalArgumentException} saying what a duration looks
   * like.
   */
  public static Duration parse(Object value) {
    if (value instanceof Integer || value instanceof Long) {
      return Duration.ofSeconds(((Number) value).longValue());
    }
    Matcher matcher = DURATION.matcher(String.valueOf(value).trim());
    if (!(value instanceof String) || !matcher.matches()) {
      throw new IllegalArgumentException(
          "'" + value + "' is not a duration; write e.g. 500ms, 10s or 2m");
    }
    double amount = Double.parseDouble(matcher.group(1));
    String unit = matcher.group(2) == null ? "s" : matcher.group(2);
    double millis =
        amount
            * switch (unit) {
              case "ms" -> 1;
              case "m" -> 60_000;
              case "h" -> 3_600_000;
              default -> 1_000;
            };
    return Duration.ofMillis(Math.round(millis));
  }

  /**
   * {@code 90s}, {@code 1m30s}, {@code 500ms}: short and exact enough for reports and progress
   * lines.
   */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000) {
      return millis + "ms";
    }
    long seconds = Math.round(millis / 1000.0);
    if (seconds < 60) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 60) {
      return minutes + "m" + (seconds % 60 == 0 ? "" : (seconds % 60) + "s");
    }
    return (minutes / 60) + "h" + (minutes % 60 == 0 ? "" : (minutes % 60) + "m");
  }
}
