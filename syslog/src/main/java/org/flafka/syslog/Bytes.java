package org.flafka.syslog;

/** Byte-level scanning helpers shared by the readers; every method stays within [pos, end). */
final class Bytes {
  /** Returned by scanners when what they look for is not at the position. */
  static final int NO_MATCH = -1;

  private Bytes() {}

  static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  static boolean isLetter(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
  }

  /** SP, HT, CR or LF. */
  static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }

  /** A C0 control character or DEL (bytes >= 0x80 are UTF-8 or legacy text, not control). */
  static boolean isControl(byte b) {
    return (b >= 0 && b < 0x20) || b == 0x7f;
  }

  /** Position of the first byte in [pos, end) that is not a digit. */
  static int skipDigits(byte[] b, int pos, int end) {
    while (pos < end && isDigit(b[pos])) {
      pos++;
    }
    return pos;
  }

  /** Position of the first byte in [pos, end) that is not a space. */
  static int skipSpaces(byte[] b, int pos, int end) {
    while (pos < end && b[pos] == ' ') {
      pos++;
    }
    return pos;
  }

  /** Position of the first space in [pos, end), or end. */
  static int findSpace(byte[] b, int pos, int end) {
    while (pos < end && b[pos] != ' ') {
      pos++;
    }
    return pos;
  }

  /** Position of the first space or TAB in [pos, end), or end. */
  static int findBlank(byte[] b, int pos, int end) {
    while (pos < end && b[pos] != ' ' && b[pos] != '\t') {
      pos++;
    }
    return pos;
  }

  /**
   * The value of {@code count} digits at pos, or -1 if any of them is not a digit or they run past
   * end.
   */
  static int digits(byte[] b, int pos, int end, int count) {
    if (pos + count > end) {
      return -1;
    }
    int value = 0;
    for (int i = pos; i < pos + count; i++) {
      byte c = b[i];
      if (!isDigit(c)) {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** Whether [pos, end) starts with the ASCII text {@code prefix} (exact case). */
  static boolean startsWith(byte[] b, int pos, int end, String prefix) {
    int length = prefix.length();
    if (end - pos < length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (b[pos + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether b[pos] exists and equals c. */
  static boolean at(byte[] b, int pos, int end, char c) {
    return pos < end && b[pos] == c;
  }

  /** End of the message proper: trailing CR, LF and NUL are framing residue, not message. */
  static int trimEnd(byte[] b, int start, int end) {
    while (end > start && (b[end - 1] == '\n' || b[end - 1] == '\r' || b[end - 1] == 0)) {
      end--;
    }
    return end;
  }
}
