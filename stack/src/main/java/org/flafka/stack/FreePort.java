package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A loopback port that was free a moment ago. Only for servers that must be told their port before
 * they start and cannot report a port they bound themselves (the KRaft controller, Flume's metrics
 * server): another process may take the port before the server binds it, so every caller retries
 * with a new port when the bind fails.
 */
final class FreePort {
  private FreePort() {}

  static int allocate() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
    }
  }

  /**
   * True when {@code failure} or one of its causes says a socket could not bind because the port is
   * taken.
   */
  static boolean isBindConflict(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException
          || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
        return true;
      }
    }
    return false;
  }
}
