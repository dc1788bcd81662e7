package org.flafka.load;

import java.nio.charset.StandardCharsets;

/**
 * The (device, sequence) mark every generated message carries, so an audit can tell from the body
 * alone which device sent it and which of that device's messages it is: {@code
 * flafka:dev=000042;seq=000000012345;}, always {@value #LENGTH} bytes of ASCII (device 6 digits,
 * sequence 12 digits, zero-padded), placed at the start of the message's free text in every format,
 * junk included. Sequences count from 1 per device, with no gaps.
 *
 * <p>Fixed width keeps message sizes exact when the digits are patched into a prepared template.
 */
public final class Mark {
  public static final String PREFIX = "flafka:dev=";
  private static final String SEQ_TAG = ";seq=";
  public static final int DEVICE_DIGITS = 6;
  public static final int SEQUENCE_DIGITS = 12;

  /** Offset of the device digits inside the mark. */
  public static final int DEVICE_OFFSET = PREFIX.length();

  /** Offset of the sequence digits inside the mark. */
  public static final int SEQUENCE_OFFSET = DEVICE_OFFSET + DEVICE_DIGITS + SEQ_TAG.length();

  public static final int LENGTH = SEQUENCE_OFFSET + SEQUENCE_DIGITS + 1;

  /** The largest device number and sequence the fixed widths hold. */
  public static final int MAX_DEVICE = 999_999;

  public static final long MAX_SEQUENCE = 999_999_999_999L;

  private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);

  private final int device;
  private final long sequence;

  public Mark(int device, long sequence) {
    if (device < 0 || device > MAX_DEVICE) {
      throw new IllegalArgumentException(
          "device must be in [0, " + MAX_DEVICE + "] but was " + device);
    }
    if (sequence < 0 || sequence > MAX_SEQUENCE) {
      throw new IllegalArgumentException(
          "sequence must be in [0, " + MAX_SEQUENCE + "] but was " + sequence);
    }
    this.device = device;
    this.sequence = sequence;
  }

  public int device() {
    return device;
  }

  public long sequence() {
    return sequence;
  }

  /** The mark as text, e.g. {@code flafka:dev=000042;seq=000000012345;}. */
  @Override
  public String toString() {
    return String.format("%s%06d%s%012d;", PREFIX, device, SEQ_TAG, sequence);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Mark mark && mark.device == device && mark.sequence == sequence;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sequence * 1_000_003L + device);
  }

  /**
   * The first well-formed mark in {@code body}, or null if there is none. A body may have been cut
   * or damaged in transit: a damaged mark is skipped and the search goes on, so the caller can tell
   * "no mark" (corrupt or foreign) from a mark.
   */
  public static Mark find(byte[] body, int offset, int length) {
    int end = offset + length;
    for (int at = indexOf(body, offset, end); at >= 0; at = indexOf(body, at + 1, end)) {
      if (at + LENGTH <= end) {
        long device = digits(body, at + DEVICE_OFFSET, DEVICE_DIGITS);
        long sequence = digits(body, at + SEQUENCE_OFFSET, SEQUENCE_DIGITS);
        if (device >= 0
            && sequence >= 0
            && matches(body, at + DEVICE_OFFSET + DEVICE_DIGITS, SEQ_TAG)
            && body[at + LENGTH - 1] == ';') {
          return new Mark((int) device, sequence);
        }
      }
    }
    return null;
  }

  public static Mark find(byte[] body) {
    return find(body, 0, body.length);
  }

  /** Writes the whole mark at {@code offset}. */
  static void write(byte[] target, int offset, int device, long sequence) {
    System.arraycopy(PREFIX_BYTES, 0, target, offset, PREFIX_BYTES.length);
    writeDigits(target, offset + DEVICE_OFFSET, DEVICE_DIGITS, device);
    int tag = offset + DEVICE_OFFSET + DEVICE_DIGITS;
    for (int n = 0; n < SEQ_TAG.length(); n++) {
      target[tag + n] = (byte) SEQ_TAG.charAt(n);
    }
    writeDigits(target, offset + SEQUENCE_OFFSET, SEQUENCE_DIGITS, sequence);
    target[offset + LENGTH - 1] = ';';
  }

  /**
   * Writes {@code value} as exactly {@code width} zero-padded decimal digits (the hot path: no
   * allocation).
   */
  static void writeDigits(byte[] target, int offset, int width, long value) {
    for (int n = offset + width - 1; n >= offset; n--) {
      target[n] = (byte) ('0' + (int) (value % 10));
      value /= 10;
    }
  }

  private static int indexOf(byte[] body, int from, int end) {
    outer:
    for (int at = from; at <= end - PREFIX_BYTES.length; at++) {
      for (int n = 0; n < PREFIX_BYTES.length; n++) {
        if (body[at + n] != PREFIX_BYTES[n]) {
          continue outer;
        }
      }
      return at;
    }
    return -1;
  }

  /** The value of {@code count} decimal digits, or -1 if any byte is not one of '0'..'9'. */
  private static long digits(byte[] body, int offset, int count) {
    long value = 0;
    for (int n = offset; n < offset + count; n++) {
      if (body[n] < '0' || body[n] > '9') {
        return -1;
      }
      value = value * 10 + (body[n] - '0');
    }
    return value;
  }

  private static boolean matches(byte[] body, int offset, String text) {
    for (int n = 0; n < text.length(); n++) {
      if (body[offset + n] != text.charAt(n)) {
        return false;
      }
    }
    return true;
  }
}
