package org.flafka.edge.sink;

import org.apache.flume.instrumentation.kafka.KafkaSinkCounterMBean;

/**
 * The JMX view of {@link KafkaRecordSinkCounter}: Flume's Kafka sink attributes plus the failure
 * counters Flume 1.11's {@code KafkaSinkCounterMBean} leaves out (its counter keeps {@code
 * EventWriteFail} and {@code ChannelReadFail}, but its MBean interface does not declare them, so
 * neither JMX nor the JSON metrics show them), and the too-large drops. Flume's JSON metrics report
 * every attribute, named after its getter.
 */
public interface KafkaRecordSinkCounterMBean extends KafkaSinkCounterMBean {
  long getEventWriteFail();

  long getChannelReadFail();

  long getRecordTooLargeDropCount();

  /**
   * How long the oldest record the sink sent and Kafka has not acknowledged has waited, in ms; 0
   * when none waits. Grows while Kafka is unreachable: the producer retries a batch until {@code
   * delivery.timeout.ms} before it fails (and the sink's {@code EventWriteFail} moves).
   */
  long getKafkaUnacknowledgedMillis();

  /**
   * Connections of the sink's producer that closed, failed attempts to connect included, since the
   * producer started (Kafka's {@code connection-close-total}): climbs while a broker is down.
   */
  long getKafkaConnectionCloseCount();

  /** Record batches the producer sent again (Kafka's {@code record-retry-total}). */
  long getKafkaRecordRetryCount();

  /**
   * Producers the sink made to replace one it closed: after a batch the broker refused for the
   * credentials, or one not acknowledged within {@code ackTimeoutMillis}. Climbs slowly (the pause
   * between producers grows to a cap) while a password stays wrong.
   */
  long getKafkaProducerReplacementCount();
}
