package org.flafka.load;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;

/** How the generator talks to the syslog receiver. */
public enum Protocol {
  UDP("udp"),
  TCP("tcp"),
  TLS("tls");

  /** The largest UDP payload over IPv4: 65,535 - 8 (UDP header) - 20 (IP header). */
  public static final int MAX_UDP_PAYLOAD = 65_507;

  private final String flagName;

  Protocol(String flagName) {
    this.flagName = flagName;
  }

  public String flagName() {
    return flagName;
  }

  /**
   * A port on 127.0.0.1 that was free for this protocol a moment ago (UDP or a TCP listener; TLS is
   * TCP), for a receiver that must be told its port before it starts.
   */
  public int freeLoopbackPort() throws IOException {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    if (this == UDP) {
      try (DatagramSocket socket = new DatagramSocket(0, loopback)) {
        return socket.getLocalPort();
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, loopback)) {
      return socket.getLocalPort();
    }
  }

  /** The protocol called {@code name} on the command line, or null. */
  public static Protocol byFlagName(String name) {
    for (Protocol protocol : values()) {
      if (protocol.flagName.equals(name)) {
        return protocol;
      }
    }
    return null;
  }
}
