package org.flafka.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How big generated messages are, in bytes of message (framing not counted): one size ({@code
 * 200}), a uniform range ({@code 100-400}), or weighted sizes ({@code 200:90,4096:9,1m:1}: 90% 200
 * bytes, 9% 4 KiB, 1% 1 MiB). Sizes take an optional {@code k} (KiB) or {@code m} (MiB) suffix.
 */
public final class SizeSpec {
  /**
   * The largest message we generate: far above what syslog receivers accept, small enough to hold
   * in memory.
   */
  public static final int MAX_SIZE = 16 * 1024 * 1024;

  private final int[] sizes;
  private final long[] cumulativeWeights;
  private final boolean range;
  private final String text;

  private SizeSpec(String text, int[] sizes, long[] cumulativeWeights, boolean range) {
    this.text = text;
    this.sizes = sizes;
    this.cumulativeWeights = cumulativeWeights;
    this.range = range;
  }

  /** One size for every message. */
  public static SizeSpec fixed(int size) {
    return new SizeSpec(String.valueOf(size), new int[] {size}, new long[] {1}, false);
  }

  /**
   * Parses {@code --size} (one size or a range {@code MIN-MAX}); {@code flag} names the option in
   * errors.
   */
  public static SizeSpec parseSize(String flag, String text) {
    String trimmed = text.trim();
    int dash = trimmed.indexOf('-', 1);
    if (dash < 0) {
      return new SizeSpec(trimmed, new int[] {parseBytes(flag, trimmed)}, new long[] {1}, false);
    }
    int min = parseBytes(flag, trimmed.substring(0, dash));
    int max = parseBytes(flag, trimmed.substring(dash + 1));
    if (min > max) {
      throw new IllegalArgumentException(
          flag + " " + text + ": the range must be MIN-MAX with MIN <= MAX");
    }
    return new SizeSpec(trimmed, new int[] {min, max}, new long[] {1}, true);
  }

  /** Parses {@code --sizes SIZE:WEIGHT,...}; {@code flag} names the option in errors. */
  public static SizeSpec parseWeighted(String flag, String text) {
    List<Integer> sizes = new ArrayList<>();
    List<Long> cumulative = new ArrayList<>();
    long total = 0;
    for (String item : text.split(",", -1)) {
      String[] parts = item.trim().split(":", -1);
      if (parts.length != 2) {
        throw new IllegalArgumentException(
            flag
                + " "
                + text
                + ": '"
                + item.trim()
                + "' is not SIZE:WEIGHT (e.g. 200:90,4096:9,1m:1)");
      }
      int size = parseBytes(flag, parts[0]);
      long weight;
      try {
        weight = Long.parseLong(parts[1].trim());
      } catch (NumberFormatException e) {
        weight = -1;
      }
      if (weight < 0) {
        throw new IllegalArgumentException(
            flag + " " + text + ": weight '" + parts[1].trim() + "' must be a whole number >= 0");
      }
      if (weight > 0) {
        total += weight;
        sizes.add(size);
        cumulative.add(total);
      }
    }
    if (total == 0) {
      throw new IllegalArgumentException(
          flag + " " + text + ": at least one weight must be above 0");
    }
    return new SizeSpec(
        text.trim(),
        sizes.stream().mapToInt(Integer::intValue).toArray(),
        cumulative.stream().mapToLong(Long::longValue).toArray(),
        false);
  }

  public int min() {
    int min = Integer.MAX_VALUE;
    for (int size : sizes) {
      min = Math.min(min, size);
    }
    return min;
  }

  public int max() {
    int max = 0;
    for (int size : sizes) {
      max = Math.max(max, size);
    }
    return max;
  }

  /** One size drawn from the distribution. */
  public int sample(SplittableRandom random) {
    if (range) {
      return sizes[0] + random.nextInt(sizes[1] - sizes[0] + 1);
    }
    if (sizes.length == 1) {
      return sizes[0];
    }
    long pick = random.nextLong(cumulativeWeights[cumulativeWeights.length - 1]);
    for (int n = 0; ; n++) {
      if (pick < cumulativeWeights[n]) {
        return sizes[n];
      }
    }
  }

  @Override
  public String toString() {
    return text;
  }

  private static int parseBytes(String flag, String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    long multiplier = 1;
    if (value.endsWith("k")) {
      multiplier = 1024;
    } else if (value.endsWith("m")) {
      multiplier = 1024 * 1024;
    }
    if (multiplier > 1) {
      value = value.substring(0, value.length() - 1);
    }
    long bytes;
    try {
      bytes = Long.parseLong(value) * multiplier;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          flag + ": '" + text.trim() + "' is not a size in bytes (e.g. 200, 4k, 1m)");
    }
    if (bytes < 1 || bytes > MAX_SIZE) {
      throw new IllegalArgumentException(
          flag + ": size '" + text.trim() + "' must be between 1 and " + MAX_SIZE + " bytes (16m)");
    }
    return (int) bytes;
  }
}
