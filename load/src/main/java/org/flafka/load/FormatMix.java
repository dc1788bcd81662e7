package org.flafka.load;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;

/**
 * Relative weights of the message formats, from {@code --mix
 * rfc5424=4,rfc3164=3,asa=1,ios=1,junk=1}.
 */
public final class FormatMix {
  public static final String DEFAULT = "rfc5424=4,rfc3164=3,asa=1,ios=1,junk=1";

  private final Map<MessageFormat, Integer> weights;
  private final MessageFormat[] formats;
  private final long[] cumulative;

  private FormatMix(Map<MessageFormat, Integer> weights) {
    this.weights = weights;
    this.formats = weights.keySet().toArray(new MessageFormat[0]);
    this.cumulative = new long[formats.length];
    long total = 0;
    for (int n = 0; n < formats.length; n++) {
      total += weights.get(formats[n]);
      cumulative[n] = total;
    }
  }

  /**
   * Parses {@code NAME=WEIGHT,...}; a name alone means weight 1. {@code flag} names the option in
   * errors.
   */
  public static FormatMix parse(String flag, String text) {
    Map<MessageFormat, Integer> weights = new EnumMap<>(MessageFormat.class);
    for (String item : text.split(",", -1)) {
      String[] parts = item.trim().split("=", -1);
      MessageFormat format = MessageFormat.byFlagName(parts[0].trim());
      if (format == null) {
        throw new IllegalArgumentException(
            flag + ": unknown format '" + parts[0].trim() + "'; use " + names());
      }
      if (weights.containsKey(format)) {
        throw new IllegalArgumentException(
            flag + ": format '" + format.flagName() + "' given twice");
      }
      int weight = 1;
      if (parts.length == 2) {
        try {
          weight = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
          weight = -1;
        }
      }
      if (parts.length > 2 || weight < 0) {
        throw new IllegalArgumentException(
            flag
                + ": '"
                + item.trim()
                + "' is not NAME=WEIGHT with a whole-number weight >= 0 (e.g. rfc5424=4)");
      }
      if (weight > 0) {
        weights.put(format, weight);
      } else {
        weights.remove(format);
      }
    }
    if (weights.isEmpty()) {
      throw new IllegalArgumentException(flag + ": at least one format needs a weight above 0");
    }
    return new FormatMix(weights);
  }

  /** The formats with a weight above 0, in declaration order. */
  public MessageFormat[] formats() {
    return formats.clone();
  }

  /** One format drawn by weight. */
  public MessageFormat sample(SplittableRandom random) {
    long pick = random.nextLong(cumulative[cumulative.length - 1]);
    for (int n = 0; ; n++) {
      if (pick < cumulative[n]) {
        return formats[n];
      }
    }
  }

  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner(",");
    weights.forEach((format, weight) -> joiner.add(format.flagName() + "=" + weight));
    return joiner.toString();
  }

  private static String names() {
    StringJoiner joiner = new StringJoiner(", ");
    for (MessageFormat format : MessageFormat.values()) {
      joiner.add(format.flagName());
    }
    return joiner.toString();
  }
}
