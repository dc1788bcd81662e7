package org.flafka.syslog;

/**
 * Time-zone abbreviations devices put after a timestamp (Cisco "UTC", "CET", "gmt"), mapped to fixed offsets.
 * Abbreviations are ambiguous by nature; this table picks the reading network gear most often means (CST = US
 * Central, IST = India). Daylight-saving names are their own entries (CEST, EDT), so no rules are needed.
 */
final class ZoneNames {
  /** Returned by {@link #offsetSeconds} for a name not in the table. */
  static final int UNKNOWN = Integer.MIN_VALUE;

  private static final String[] NAMES = {
      "UTC", "GMT", "UT", "WET", "WEST", "BST", "CET", "CEST", "MET", "MEST", "EET", "EEST", "MSK", "IST",
      "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "AKDT", "HST", "AEST", "AEDT", "ACST",
      "ACDT", "AWST", "NZST", "NZDT", "JST", "KST", "HKT", "SGT", "WIB"};
  private static final int[] OFFSETS_MINUTES = {
      0, 0, 0, 0, 60, 60, 60, 120, 60, 120, 120, 180, 180, 330,
      -300, -240, -360, -300, -420, -360, -480, -420, -540, -480, -600, 600, 660, 570,
      630, 480, 720, 780, 540, 540, 480, 480, 420};
  private static final long[] KEYS = new long[NAMES.length];

  static {
    for (int i = 0; i < NAMES.length; i++) {
      byte[] name = NAMES[i].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      KEYS[i] = key(name, 0, name.length);
    }
  }

  private ZoneNames() {
  }

  /** Longest abbreviation in the table. */
  static final int MAX_LENGTH = 4;

  /** The offset in seconds of the abbreviation b[pos, pos+length) (any case), or {@link #UNKNOWN}. */
  static int offsetSeconds(byte[] b, int pos, int length) {
    if (length < 2 || length > MAX_LENGTH) {
      return UNKNOWN;
    }
    long key = key(b, pos, length);
    for (int i = 0; i < KEYS.length; i++) {
      if (KEYS[i] == key) {
        return OFFSETS_MINUTES[i] * 60;
      }
    }
    return UNKNOWN;
  }

  /** Packs up to 8 letters, upper-cased, into a long; the caller guarantees letters only. */
  private static long key(byte[] b, int pos, int length) {
    long key = 0;
    for (int i = pos; i < pos + length; i++) {
      key = (key << 8) | (b[i] & 0xdf);
    }
    return key;
  }
}
