package org.flafka.edge.sink;

import org.apache.flume.instrumentation.SinkCounter;

/**
 * Metrics of {@link KafkaRecordSink}: Flume's standard sink counters, the two of Flume's Kafka sink
 * under the same keys (so both sinks read alike), and events dropped because Kafka refused them as
 * too large. It extends {@link SinkCounter} rather than Flume's {@code KafkaSinkCounter}, whose
 * constructor cannot take more attributes.
 */
public class KafkaRecordSinkCounter extends SinkCounter implements KafkaRecordSinkCounterMBean {

  private static final String SEND_TIME = "channel.kafka.event.send.time";
  private static final String ROLLBACK = "channel.rollback.count";
  private static final String TOO_LARGE_DROP = "sink.kafka.record.too-large.drop";

  public KafkaRecordSinkCounter(String name) {
    super(name, new String[] {SEND_TIME, ROLLBACK, TOO_LARGE_DROP});
  }

  /**
   * Milliseconds spent sending batches, acknowledgements included (Flume's KafkaEventSendTimer).
   */
  public long addToKafkaEventSendTimer(long millis) {
    return addAndGet(SEND_TIME, millis);
  }

  public long incrementRollbackCount() {
    return increment(ROLLBACK);
  }

  /** Counts an event dropped as too large for Kafka; it is also an {@code EventWriteFail}. */
  public void incrementRecordTooLargeDropCount() {
    increment(TOO_LARGE_DROP);
    incrementEventWriteFail();
  }

  @Override
  public long getKafkaEventSendTimer() {
    return get(SEND_TIME);
  }

  @Override
  public long getRollbackCount() {
    return get(ROLLBACK);
  }

  @Override
  public long getRecordTooLargeDropCount() {
    return get(TOO_LARGE_DROP);
  }
}
