package org.flafka.interceptors;

/**
 * Reads a time header ({@code timestamp}, {@code received}) written as epoch milliseconds. Only
 * plain decimal digits count: Flume's HDFS sink reads {@code timestamp} with {@code Long.valueOf},
 * so a header this accepts is one the sink can bucket, and a sign, spaces or an exponent mark the
 * value as not made by the kit.
 */
public final class EpochMillis {

  /** What {@link #parse} returns for a value that is absent or not epoch milliseconds. */
  public static final long INVALID = -1;

  private EpochMillis() {}

  /**
   * The value's epoch milliseconds: 1 to 18 decimal digits (no sign, no spaces), else {@link
   * #INVALID}.
   */
  public static long parse(String value) {
    // 18 digits cannot overflow a long; epoch ms have 13 until the year 2286.
    if (value == null || value.isEmpty() || value.length() > 18) {
      return INVALID;
    }
    long millis = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return INVALID;
      }
      millis = millis * 10 + (c - '0');
    }
    return millis;
  }
}
