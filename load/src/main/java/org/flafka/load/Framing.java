package org.flafka.load;

/**
 * How messages are delimited on a stream (RFC 6587): a line feed after each message, or octet
 * counting ({@code LEN SP MSG}, where LEN is the message's size in decimal). Datagrams need none:
 * one message per datagram.
 */
public enum Framing {
  /** UDP: the datagram is the frame. */
  NONE("none"),
  /** {@code MSG LF}. The messages we generate never contain a line feed. */
  NEWLINE("newline"),
  /** {@code LEN SP MSG}. */
  OCTET_COUNTING("octet-counting");

  private final String flagName;

  Framing(String flagName) {
    this.flagName = flagName;
  }

  public String flagName() {
    return flagName;
  }

  /** The framing called {@code name} on the command line, or null. */
  public static Framing byFlagName(String name) {
    for (Framing framing : values()) {
      if (framing.flagName.equals(name)) {
        return framing;
      }
    }
    return null;
  }

  /** The bytes framing adds to a message of {@code size} bytes. */
  public int overhead(int size) {
    switch (this) {
      case NEWLINE:
        return 1;
      case OCTET_COUNTING:
        return digits(size) + 1;
      default:
        return 0;
    }
  }

  /**
   * Writes what goes before a message of {@code size} bytes at {@code offset}; returns the offset
   * after it.
   */
  int writeHeader(byte[] target, int offset, int size) {
    if (this != OCTET_COUNTING) {
      return offset;
    }
    int digits = digits(size);
    Mark.writeDigits(target, offset, digits, size);
    target[offset + digits] = ' ';
    return offset + digits + 1;
  }

  /** Writes what goes after a message at {@code offset}; returns the offset after it. */
  int writeTrailer(byte[] target, int offset) {
    if (this != NEWLINE) {
      return offset;
    }
    target[offset] = '\n';
    return offset + 1;
  }

  private static int digits(int value) {
    int digits = 1;
    for (int rest = value / 10; rest > 0; rest /= 10) {
      digits++;
    }
    return digits;
  }
}
