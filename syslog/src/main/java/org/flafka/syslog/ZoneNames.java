package org.flafka.syslog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Time-zone abbreviations devices put after a timestamp (Cisco "UTC", "CET", "gmt"), mapped to
 * fixed offsets. Abbreviations are ambiguous by nature; the built-in table ({@link #BUILT_IN})
 * picks the reading network gear most often means (CST = US Central, IST = India, BST = British
 * Summer Time), and the option {@code timezone.abbreviations} replaces or adds entries ({@link
 * #withOverrides}). Daylight-saving names are their own entries (CEST, EDT), so no rules are
 * needed. Immutable; a lookup packs the letters into a long and scans a small array, without
 * allocating.
 */
final class ZoneNames {
  /** Returned by {@link #offsetSeconds} for a name not in the table. */
  static final int UNKNOWN = Integer.MIN_VALUE;

  /** Shortest and longest abbreviation a table may hold. */
  static final int MIN_LENGTH = 2;

  static final int MAX_LENGTH = 6;

  /** The built-in table: abbreviation to offset in minutes, in documentation order. */
  static final Map<String, Integer> BUILT_IN = builtIn();

  private static Map<String, Integer> builtIn() {
    String[] names = {
      "UTC", "GMT", "UT", "WET", "WEST", "BST", "CET", "CEST", "MET", "MEST", "EET", "EEST", "MSK",
      "IST", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "AKDT", "HST", "AST",
      "ADT", "NST", "NDT", "AEST", "AEDT", "ACST", "ACDT", "AWST", "NZST", "NZDT", "JST", "KST",
      "HKT", "SGT", "WIB", "SAST"
    };
    int[] minutes = {
      0, 0, 0, 0, 60, 60, 60, 120, 60, 120, 120, 180, 180, 330, -300, -240, -360, -300, -420, -360,
      -480, -420, -540, -480, -600, -240, -180, -210, -150, 600, 660, 570, 630, 480, 720, 780, 540,
      540, 480, 480, 420, 120
    };
    Map<String, Integer> table = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      table.put(names[i], minutes[i]);
    }
    return java.util.Collections.unmodifiableMap(table);
  }

  /** The built-in table without overrides. */
  static final ZoneNames DEFAULT = new ZoneNames(BUILT_IN);

  private final long[] keys;
  private final int[] offsetsSeconds;

  private ZoneNames(Map<String, Integer> minutesByName) {
    keys = new long[minutesByName.size()];
    offsetsSeconds = new int[minutesByName.size()];
    int i = 0;
    for (Map.Entry<String, Integer> entry : minutesByName.entrySet()) {
      byte[] name = entry.getKey().getBytes(StandardCharsets.US_ASCII);
      keys[i] = key(name, 0, name.length);
      offsetsSeconds[i] = entry.getValue() * 60;
      i++;
    }
  }

  /**
   * The built-in table with {@code overrides} (upper-case abbreviation to offset in minutes)
   * replacing or adding entries; {@link #DEFAULT} when there are none.
   */
  static ZoneNames withOverrides(Map<String, Integer> overrides) {
    if (overrides.isEmpty()) {
      return DEFAULT;
    }
    Map<String, Integer> table = new LinkedHashMap<>(BUILT_IN);
    table.putAll(overrides);
    return new ZoneNames(table);
  }

  /**
   * Whether {@code name} can be a table entry: {@value #MIN_LENGTH} to {@value #MAX_LENGTH} ASCII
   * letters.
   */
  static boolean isValidName(String name) {
    if (name.length() < MIN_LENGTH || name.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The offset in seconds of the abbreviation b[pos, pos+length) (any case, letters only), or
   * {@link #UNKNOWN}.
   */
  int offsetSeconds(byte[] b, int pos, int length) {
    if (length < MIN_LENGTH || length > MAX_LENGTH) {
      return UNKNOWN;
    }
    long key = key(b, pos, length);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == key) {
        return offsetsSeconds[i];
      }
    }
    return UNKNOWN;
  }

  @Override
  public String toString() {
    return "ZoneNames" + Arrays.toString(keys);
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
