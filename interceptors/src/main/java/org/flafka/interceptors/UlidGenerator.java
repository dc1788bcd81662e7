package org.flafka.interceptors;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Random;

/**
 * Generates ULIDs (https://github.com/ulid/spec): 128 bits, a 48-bit Unix time in milliseconds
 * followed by 80 random bits, written as 26 characters of Crockford's base32 (0-9, A-Z without I,
 * L, O, U). The text sorts like the number, so ids sort by time.
 *
 * <p>Monotonic: within one millisecond, each id is the previous one plus one, so ids from one
 * generator are strictly increasing and never repeat; the random part is drawn afresh when the
 * millisecond changes. Two decisions the spec leaves open, taken so that an interceptor never has
 * to fail an event:
 *
 * <ul>
 *   <li>When the clock steps backwards (NTP), the generator keeps the last time it used and keeps
 *       counting, so ids stay increasing; their time part lags the clock until it catches up.
 *   <li>When the 80-bit counter would overflow within a millisecond (2^80 ids, or a random start
 *       near the top), the generator moves its time on by one millisecond instead of failing.
 * </ul>
 *
 * Thread-safe: one lock guards the (time, random) state; encoding happens outside it.
 */
public final class UlidGenerator {

  /** Length of a ULID's text. */
  public static final int LENGTH = 26;

  /** Crockford's base32 alphabet, in value order. */
  private static final byte[] ALPHABET =
      "0123456789ABCDEFGHJKMNPQRSTVWXYZ".getBytes(StandardCharsets.US_ASCII);

  /** Largest time a ULID can hold (year 10889). */
  private static final long MAX_TIME = (1L << 48) - 1;

  private static final long RANDOM_HIGH_MASK = 0xFFFFL;

  private final Clock clock;
  private final Random random;

  // The last id issued: its time and its 80 random bits as a 16-bit high part and a 64-bit low
  // part.
  private long lastTime = -1;
  private long randomHigh;
  private long randomLow;

  /**
   * A generator on the system clock with a {@link SecureRandom}, so ids from many agents do not
   * collide.
   */
  public UlidGenerator() {
    this(Clock.systemUTC(), new SecureRandom());
  }

  /** A generator on the given clock and source of randomness (tests fix both). */
  public UlidGenerator(Clock clock, Random random) {
    this.clock = clock;
    this.random = random;
  }

  /** The next id: greater than every id this generator issued before. */
  public String next() {
    long time;
    long high;
    long low;
    synchronized (this) {
      long now = Math.min(Math.max(clock.millis(), 0L), MAX_TIME);
      if (now > lastTime) {
        lastTime = now;
        randomHigh = random.nextInt() & RANDOM_HIGH_MASK;
        randomLow = random.nextLong();
      } else {
        randomLow++;
        if (randomLow == 0) {
          randomHigh = (randomHigh + 1) & RANDOM_HIGH_MASK;
          if (randomHigh == 0) {
            // All 80 bits were ones: move to the next millisecond and start its sequence afresh.
            lastTime = Math.min(lastTime + 1, MAX_TIME);
            randomHigh = random.nextInt() & RANDOM_HIGH_MASK;
            randomLow = random.nextLong();
          }
        }
      }
      time = lastTime;
      high = randomHigh;
      low = randomLow;
    }
    return encode(time, high, low);
  }

  /**
   * Writes the 128 bits (time:48, high:16, low:64) as 26 base32 digits. 26 digits hold 130 bits, so
   * the first digit carries only the top 3 bits and is at most '7'.
   */
  static String encode(long time, long high, long low) {
    long upper = (time << 16) | high; // bits 127..64
    byte[] text = new byte[LENGTH]; // ASCII: one byte per character, as the String stores it
    for (int i = 0; i < LENGTH; i++) {
      int shift = 125 - 5 * i; // position of this digit's lowest bit in the 130-bit number
      long digit;
      if (shift >= 64) {
        digit = upper >>> (shift - 64);
      } else if (shift > 59) {
        digit = (low >>> shift) | (upper << (64 - shift));
      } else {
        digit = low >>> shift;
      }
      text[i] = ALPHABET[(int) (digit & 31)];
    }
    return new String(text, StandardCharsets.ISO_8859_1);
  }

  /**
   * The time (epoch milliseconds) in a ULID's first 10 digits; accepts upper- and lower-case
   * digits.
   *
   * @throws IllegalArgumentException when {@code ulid} is not 26 base32 digits starting with 0-7
   */
  public static long timestampOf(String ulid) {
    if (ulid.length() != LENGTH) {
      throw new IllegalArgumentException(
          "not a ULID (expected " + LENGTH + " characters): " + ulid);
    }
    long time = 0;
    for (int i = 0; i < LENGTH; i++) {
      int value = digitValue(ulid.charAt(i));
      if (value < 0 || (i == 0 && value > 7)) {
        throw new IllegalArgumentException("not a ULID (bad character at " + i + "): " + ulid);
      }
      if (i < 10) {
        time = (time << 5) | value;
      }
    }
    return time;
  }

  private static int digitValue(char c) {
    char upper = Character.toUpperCase(c);
    for (int v = 0; v < ALPHABET.length; v++) {
      if (ALPHABET[v] == upper) {
        return v;
      }
    }
    return -1;
  }
}
