package org.flafka.bench;

/** A benchmark run failed: the message names what failed and the log to read. */
public final class BenchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BenchException(String message) {
    super(message);
  }

  public BenchException(String message, Throwable cause) {
    super(message, cause);
  }
}
