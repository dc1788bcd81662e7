package org.flafka.stack;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The few ASN.1 DER encodings an X.509 certificate needs (ITU-T X.690), for {@link
 * CertificateAuthority}: each method returns one whole element, tag, length and content.
 */
final class Der {
  private static final DateTimeFormatter UTC_TIME =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

  private Der() {}

  static byte[] sequence(byte[]... elements) {
    return element(0x30, concat(elements));
  }

  static byte[] set(byte[]... elements) {
    return element(0x31, concat(elements));
  }

  static byte[] integer(BigInteger value) {
    return element(0x02, value.toByteArray());
  }

  static byte[] bool(boolean value) {
    return element(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
  }

  static byte[] octetString(byte[] content) {
    return element(0x04, content);
  }

  /** A BIT STRING of whole bytes. */
  static byte[] bitString(byte[] content) {
    return bitString(content, 0);
  }

  /** A BIT STRING whose last {@code unusedBits} bits are not part of it. */
  static byte[] bitString(byte[] content, int unusedBits) {
    byte[] withCount = new byte[content.length + 1];
    withCount[0] = (byte) unusedBits;
    System.arraycopy(content, 0, withCount, 1, content.length);
    return element(0x03, withCount);
  }

  static byte[] utf8String(String text) {
    return element(0x0c, text.getBytes(StandardCharsets.UTF_8));
  }

  /** UTCTime, which X.509 requires for dates before 2050. */
  static byte[] utcTime(Instant instant) {
    return element(0x17, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
  }

  /** An OBJECT IDENTIFIER from its dotted form, e.g. {@code 2.5.4.3}. */
  static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      base128(out, Long.parseLong(arcs[i]));
    }
    return element(0x06, out.toByteArray());
  }

  /** A context-specific constructed element {@code [number]}, e.g. an EXPLICIT tag. */
  static byte[] explicit(int number, byte[] element) {
    return element(0xa0 | number, element);
  }

  /** A context-specific primitive element {@code [number]}: an IMPLICIT tag on a primitive. */
  static byte[] implicit(int number, byte[] content) {
    return element(0x80 | number, content);
  }

  static byte[] element(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static void base128(ByteArrayOutputStream out, long value) {
    int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
    for (int i = groups - 1; i >= 0; i--) {
      int group = (int) ((value >>> (7 * i)) & 0x7f);
      out.write(i > 0 ? group | 0x80 : group);
    }
  }

  private static byte[] concat(byte[]... elements) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] element : elements) {
      out.writeBytes(element);
    }
    return out.toByteArray();
  }
}
