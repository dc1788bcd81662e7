package org.flafka.chaos;

/** A fault case could not be run (as opposed to a case that ran and failed its audit). */
public class ChaosException extends RuntimeException {
  public ChaosException(String message) {
    super(message);
  }

  public ChaosException(String message, Throwable cause) {
    super(message, cause);
  }
}
