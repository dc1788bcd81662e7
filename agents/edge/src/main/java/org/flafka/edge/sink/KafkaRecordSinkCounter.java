package org.flafka.edge.sink;

import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.apache.flume.instrumentation.SinkCounter;

/**
 * Metrics of {@link KafkaRecordSink}: Flume's standard sink counters, the two of Flume's Kafka sink
 * under the same keys (so both sinks read alike), and events dropped because Kafka refused them as
 * too large, and what shows a Kafka that does not answer while the producer is still retrying
 * (nothing fails until {@code delivery.timeout.ms}, 120 s by default): the age of the records
 * waiting for an acknowledgement and the producer's failed connections. It extends {@link
 * SinkCounter} rather than Flume's {@code KafkaSinkCounter}, whose constructor cannot take more
 * attributes.
 */
public class KafkaRecordSinkCounter extends SinkCounter implements KafkaRecordSinkCounterMBean {

  private static final String SEND_TIME = "channel.kafka.event.send.time";
  private static final String ROLLBACK = "channel.rollback.count";
  private static final String TOO_LARGE_DROP = "sink.kafka.record.too-large.drop";
  private static final String PRODUCER_REPLACEMENT = "sink.kafka.producer.replacement";

  /** System.nanoTime of the first send of the batch Kafka has not yet acknowledged; 0: none. */
  private volatile long unacknowledgedSinceNanos;

  /** Reads a total of the sink's current producer; 0 without one. */
  private volatile ToLongFunction<String> producerTotals = name -> 0;

  public KafkaRecordSinkCounter(String name) {
    super(name, new String[] {SEND_TIME, ROLLBACK, TOO_LARGE_DROP, PRODUCER_REPLACEMENT});
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

  /** Counts a producer made to replace one the sink closed. */
  void incrementProducerReplacementCount() {
    increment(PRODUCER_REPLACEMENT);
  }

  /** The sink sent a batch's first record at {@code nanoTime}; it waits for Kafka from now. */
  void awaitingKafkaSince(long nanoTime) {
    unacknowledgedSinceNanos = nanoTime == 0 ? 1 : nanoTime;
  }

  /** The batch was acknowledged, failed or rolled back. */
  void notAwaitingKafka() {
    unacknowledgedSinceNanos = 0;
  }

  void readProducerTotalsFrom(ToLongFunction<String> totals) {
    producerTotals = totals;
  }

  /**
   * Flume's count of failed connections, plus the producer's closed ones (failed attempts to
   * connect included): Cloudera Manager charts this ({@code connection_failed_rate}) and none of
   * the sink's own counters, so a Kafka that cannot be reached shows there.
   */
  @Override
  public long getConnectionFailedCount() {
    return super.getConnectionFailedCount() + getKafkaConnectionCloseCount();
  }

  @Override
  public long getKafkaUnacknowledgedMillis() {
    long since = unacknowledgedSinceNanos;
    return since == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(Math.max(0, System.nanoTime() - since));
  }

  @Override
  public long getKafkaConnectionCloseCount() {
    return producerTotals.applyAsLong("connection-close-total");
  }

  @Override
  public long getKafkaRecordRetryCount() {
    return producerTotals.applyAsLong("record-retry-total");
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

  @Override
  public long getKafkaProducerReplacementCount() {
    return get(PRODUCER_REPLACEMENT);
  }
}
