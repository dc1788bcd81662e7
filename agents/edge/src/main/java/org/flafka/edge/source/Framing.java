package org.flafka.edge.source;

import java.util.Locale;

/** How a TCP or TLS byte stream is cut into messages (RFC 6587 section 3.4). */
enum Framing {
  /**
   * Decide per connection from its first frame: a digit followed by digits and a space is octet
   * counting, anything else (normally {@code <}, the start of a PRI) is line framing.
   */
  AUTO("auto"),
  /** {@code MSG-LEN SP SYSLOG-MSG}, RFC 6587 3.4.1 and RFC 5425 4.3. */
  OCTET_COUNTING("octet-counting"),
  /** Messages terminated by LF (CRLF accepted), RFC 6587 3.4.2 "non-transparent framing". */
  NEWLINE("newline");

  private final String id;

  Framing(String id) {
    this.id = id;
  }

  String id() {
    return id;
  }

  static Framing of(String id) {
    String wanted = id.toLowerCase(Locale.ROOT);
    for (Framing framing : values()) {
      if (framing.id.equals(wanted)) {
        return framing;
      }
    }
    throw new IllegalArgumentException("unknown framing " + id);
  }
}
