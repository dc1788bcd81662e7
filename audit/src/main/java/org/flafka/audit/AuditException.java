package org.flafka.audit;

/**
 * The audit could not run: the manifest is missing or not one {@code flafka load} wrote, the Kafka
 * cluster or HDFS cannot be reached, the topic or path does not exist. The message is one line,
 * "what is wrong: how to fix it".
 */
public class AuditException extends Exception {
  private static final long serialVersionUID = 1L;

  public AuditException(String message) {
    super(message);
  }

  public AuditException(String message, Throwable cause) {
    super(message, cause);
  }
}
