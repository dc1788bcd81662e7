package org.flafka.sweep.target;

/**
 * The target cannot be used: its parts did not start, a port is taken, the cluster does not answer.
 * The sweep stops, stops what it started, and exits 3 with this one-line message.
 */
public class TargetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TargetException(String message) {
    super(message);
  }

  public TargetException(String message, Throwable cause) {
    super(message, cause);
  }
}
