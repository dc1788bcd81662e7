package org.flafka.interceptors;

import java.nio.charset.StandardCharsets;
import org.flafka.config.ConfigDef;

/**
 * Turns a device's claimed host name (or its sender address) into the value of the {@code host}
 * header, which the core agent uses as an HDFS directory name ({@code host=<value>}). Whatever a
 * device sends, the result is a single, visible path component:
 *
 * <ul>
 *   <li>only [a-z0-9._-] (or [A-Za-z0-9._-] without lower-casing): every other character, including
 *       '/', ':' (Hadoop's Path reads it as a URI scheme), spaces, control characters and
 *       non-ASCII, becomes '_';
 *   <li>never starts with '.' or '_': Hadoop's input formats, Hive and Spark skip such names as
 *       hidden files, so the first character becomes '-' (this also rules out "." and "..");
 *   <li>at most {@code maxLength} characters (a longer name is cut, not dropped).
 * </ul>
 *
 * Lower-casing is the default because DNS names are case-insensitive while HDFS paths are not:
 * "Router7" and "router7" are one device and belong in one directory.
 */
public final class HostNames {

  /** The host when neither the message nor the source names the sender. */
  public static final String UNKNOWN_HOST = "unknown";

  /**
   * Default longest host header: long enough for any real FQDN, short enough for a tidy directory
   * name.
   */
  public static final int DEFAULT_MAX_LENGTH = 128;

  private HostNames() {}

  /**
   * The {@code host} header: the message's hostname, else the sender's address ({@code peer}), else
   * {@value #UNKNOWN_HOST}, sanitised. Public so that tools ({@code flafka parse}) show exactly
   * what the interceptor sets.
   */
  public static String hostHeader(String hostname, String peer, boolean lowerCase, int maxLength) {
    String host = sanitize(hostname, lowerCase, maxLength);
    if (host == null) {
      host = sanitize(peer, lowerCase, maxLength);
    }
    return host != null ? host : UNKNOWN_HOST;
  }

  /**
   * {@link #sanitize(String, boolean, int)} of the UTF-8 text in {@code b[offset, offset +
   * length)}, made in one pass over the bytes without decoding them first (the common case: an
   * ASCII name); null when length is 0.
   */
  static String sanitize(byte[] b, int offset, int length, boolean lowerCase, int maxLength) {
    if (length == 0) {
      return null;
    }
    boolean clean = length <= maxLength && b[offset] != '.' && b[offset] != '_';
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      byte c = b[i];
      if (c < 0) {
        // Non-ASCII: one '_' per character, so decode first.
        return sanitize(
            new String(b, offset, length, StandardCharsets.UTF_8), lowerCase, maxLength);
      }
      clean &= safe(c, lowerCase) == c;
    }
    if (clean) {
      return new String(b, offset, length, StandardCharsets.ISO_8859_1);
    }
    byte[] safe = new byte[Math.min(length, maxLength)];
    for (int i = 0; i < safe.length; i++) {
      safe[i] = safe(b[offset + i], lowerCase);
    }
    if (safe[0] == '.' || safe[0] == '_') {
      safe[0] = '-';
    }
    return new String(safe, StandardCharsets.ISO_8859_1);
  }

  /** The path-safe form of one ASCII character. */
  private static byte safe(byte c, boolean lowerCase) {
    if (lowerCase && c >= 'A' && c <= 'Z') {
      return (byte) (c + ('a' - 'A'));
    }
    return isPathSafe((char) c) ? c : (byte) '_';
  }

  /**
   * True for the characters a sanitised host name may contain: those the configuration's path-safe
   * rule allows.
   */
  static boolean isPathSafe(char c) {
    return ConfigDef.isPathSafe(c);
  }

  /**
   * The path-safe form of {@code name}, or {@code null} when it is null or empty. Returns {@code
   * name} itself, without allocating, when it is already safe (the common case).
   */
  static String sanitize(String name, boolean lowerCase, int maxLength) {
    if (name == null || name.isEmpty()) {
      return null;
    }
    if (isClean(name, lowerCase, maxLength)) {
      return name;
    }
    int length = Math.min(name.length(), maxLength);
    char[] safe = new char[length];
    for (int i = 0; i < length; i++) {
      char c = name.charAt(i);
      if (lowerCase && c >= 'A' && c <= 'Z') {
        c = (char) (c + ('a' - 'A'));
      } else if (!isPathSafe(c)) {
        c = '_';
      }
      safe[i] = c;
    }
    if (safe[0] == '.' || safe[0] == '_') {
      safe[0] = '-';
    }
    return new String(safe);
  }

  private static boolean isClean(String name, boolean lowerCase, int maxLength) {
    if (name.length() > maxLength || name.charAt(0) == '.' || name.charAt(0) == '_') {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!isPathSafe(c) || (lowerCase && c >= 'A' && c <= 'Z')) {
        return false;
      }
    }
    return true;
  }
}
