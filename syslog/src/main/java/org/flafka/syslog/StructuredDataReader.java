package org.flafka.syslog;

import static org.flafka.syslog.Bytes.NO_MATCH;
import static org.flafka.syslog.Bytes.at;
import static org.flafka.syslog.Bytes.skipSpaces;

/**
 * RFC 5424 STRUCTURED-DATA: {@code [id name="value" ...][id2 ...]}, recorded in the {@link
 * ParseResult} as offsets. Lenient where senders are sloppy (spaces around '=', unquoted values, an
 * unescaped ']' inside quotes, duplicate ids, overlong names), each such deviation recorded as
 * {@link Defect#MALFORMED_STRUCTURED_DATA}.
 */
final class StructuredDataReader {
  private static final int MAX_SD_NAME = 32;

  /** Duplicate SD-IDs are looked for among this many elements only, so the check stays cheap. */
  private static final int MAX_DUPLICATE_CHECK = 32;

  private StructuredDataReader() {}

  /**
   * Reads SD-ELEMENTs from pos (at '['). A malformed element is abandoned and skipped to its
   * closing ']' (the first unescaped ']' followed by SP, '[' or the end); if none can be found,
   * structured data ends before it and the rest is message. Every tolerated deviation records
   * {@link Defect#MALFORMED_STRUCTURED_DATA}.
   *
   * @return the position after the last element read
   */
  static int read(byte[] b, int pos, int end, ParseResult r) {
    int p = pos;
    while (p < end && b[p] == '[') {
      int next = readSdElement(b, p, end, r);
      if (next == NO_MATCH) {
        r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
        int close = findElementClose(b, p + 1, end);
        if (close == NO_MATCH) {
          break;
        }
        next = close + 1;
      }
      p = next;
    }
    if (p > pos) {
      r.structuredData(pos, p - pos);
    }
    if (hasDuplicateSdIds(b, r)) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
    }
    return p;
  }

  /**
   * One {@code [id name="value" ...]}; returns the position after ']' or NO_MATCH (element
   * abandoned).
   */
  private static int readSdElement(byte[] b, int pos, int end, ParseResult r) {
    int idStart = pos + 1;
    int p = scanSdName(b, idStart, end);
    if (p == idStart) {
      return NO_MATCH;
    }
    if (p - idStart > MAX_SD_NAME) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
    }
    r.beginSdElement(idStart, p - idStart);
    while (true) {
      if (p >= end) {
        r.abandonSdElement();
        return NO_MATCH;
      }
      if (b[p] == ']') {
        r.endSdElement();
        return p + 1;
      }
      if (b[p] != ' ') {
        r.abandonSdElement();
        return NO_MATCH;
      }
      int afterSpaces = skipSpaces(b, p, end);
      if (afterSpaces - p > 1 || at(b, afterSpaces, end, ']')) {
        r.addDefect(Defect.MALFORMED_STRUCTURED_DATA); // "[id  a=..." or "[id a=\"1\" ]"
      }
      p = afterSpaces;
      if (at(b, p, end, ']')) {
        continue;
      }
      p = readSdParam(b, p, end, r);
      if (p == NO_MATCH) {
        r.abandonSdElement();
        return NO_MATCH;
      }
    }
  }

  /**
   * {@code name="value"} (tolerating spaces around '=' and an unquoted value); returns the position
   * after.
   */
  private static int readSdParam(byte[] b, int pos, int end, ParseResult r) {
    int p = scanSdName(b, pos, end);
    int nameLength = p - pos;
    if (nameLength == 0) {
      return NO_MATCH;
    }
    if (nameLength > MAX_SD_NAME) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
    }
    if (at(b, p, end, ' ')) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
      p = skipSpaces(b, p, end);
    }
    if (!at(b, p, end, '=')) {
      return NO_MATCH;
    }
    p++;
    if (at(b, p, end, ' ')) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
      p = skipSpaces(b, p, end);
    }
    if (!at(b, p, end, '"')) {
      r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
      int valueStart = p;
      while (p < end && b[p] != ' ' && b[p] != ']') {
        p++;
      }
      r.addSdParam(pos, nameLength, valueStart, p - valueStart, false);
      return p;
    }
    int valueStart = ++p;
    boolean escaped = false;
    while (p < end) {
      byte c = b[p];
      if (c == '\\' && p + 1 < end) {
        byte next = b[p + 1];
        if (next == '"' || next == '\\' || next == ']') {
          escaped = true;
          p += 2;
          continue;
        }
      } else if (c == '"') {
        r.addSdParam(pos, nameLength, valueStart, p - valueStart, escaped);
        return p + 1;
      } else if (c == ']') {
        r.addDefect(Defect.MALFORMED_STRUCTURED_DATA);
      }
      p++;
    }
    return NO_MATCH;
  }

  /** SD-NAME: printable US-ASCII except '=', SP, ']' and '"'. */
  private static int scanSdName(byte[] b, int pos, int end) {
    while (pos < end) {
      byte c = b[pos];
      if (c <= ' ' || c >= 0x7f || c == '=' || c == ']' || c == '"') {
        break;
      }
      pos++;
    }
    return pos;
  }

  /**
   * The first ']' from pos not escaped by '\' and followed by SP, '[' or the end; NO_MATCH if none.
   */
  private static int findElementClose(byte[] b, int pos, int end) {
    for (int i = pos; i < end; i++) {
      if (b[i] == ']' && b[i - 1] != '\\' && (i + 1 == end || b[i + 1] == ' ' || b[i + 1] == '[')) {
        return i;
      }
    }
    return NO_MATCH;
  }

  private static boolean hasDuplicateSdIds(byte[] b, ParseResult r) {
    int count = Math.min(r.sdElementCount(), MAX_DUPLICATE_CHECK);
    for (int i = 1; i < count; i++) {
      for (int j = 0; j < i; j++) {
        if (java.util.Arrays.equals(
            b,
            r.sdIdOffset(i),
            r.sdIdOffset(i) + r.sdIdLength(i),
            b,
            r.sdIdOffset(j),
            r.sdIdOffset(j) + r.sdIdLength(j))) {
          return true;
        }
      }
    }
    return false;
  }
}
