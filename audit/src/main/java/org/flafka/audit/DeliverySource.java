package org.flafka.audit;

/**
 * Where delivered events are read from: a Kafka topic, an HDFS path, or anything else that yields
 * bodies.
 */
public interface DeliverySource {

  /** What is read, for reports, e.g. {@code kafka 127.0.0.1:9092 topic syslog}. */
  String describe();

  /**
   * Reads every delivered event body into {@code tally}, and what could not be read as warnings.
   *
   * @throws AuditException if the source cannot be read at all (unreachable, missing), with a
   *     one-line message
   */
  void readInto(Tally tally) throws AuditException;
}
