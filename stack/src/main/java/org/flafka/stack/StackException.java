package org.flafka.stack;

/**
 * A part of the local stack (broker, HDFS, Flume agent) could not start or misbehaved. The message
 * says which part, what went wrong and where to look (usually a log file); callers such as the CLI
 * can show it as one line.
 */
public class StackException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StackException(String message) {
    super(message);
  }

  public StackException(String message, Throwable cause) {
    super(message, cause);
  }
}
