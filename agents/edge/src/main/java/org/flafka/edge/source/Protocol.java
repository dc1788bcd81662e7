package org.flafka.edge.source;

import java.util.Locale;

/** The transport one source instance listens on; each has the port its RFC assigns. */
public enum Protocol {
  /** RFC 5426: one message per datagram. */
  UDP(514),
  /** RFC 6587: a stream framed by octet counting or by line feeds. */
  TCP(514),
  /** RFC 5425: TCP under TLS, octet-counted (we still detect line framing). */
  TLS(6514);

  private final int defaultPort;

  Protocol(int defaultPort) {
    this.defaultPort = defaultPort;
  }

  int defaultPort() {
    return defaultPort;
  }

  /** The value used in configuration and logs: udp, tcp, tls. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  boolean isStream() {
    return this != UDP;
  }

  static Protocol of(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
