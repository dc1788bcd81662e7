package org.flafka.load;

/**
 * A connection to the receiver could not be opened (refused, unreachable, not trusted); the message
 * is one line.
 */
public final class ConnectFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  ConnectFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
