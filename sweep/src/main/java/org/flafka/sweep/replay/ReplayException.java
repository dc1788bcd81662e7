package org.flafka.sweep.replay;

/**
 * A replay that cannot go on: recorded on another space, or without a trial the strategy asks for.
 */
public final class ReplayException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ReplayException(String message) {
    super(message);
  }
}
