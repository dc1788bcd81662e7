package org.flafka.edge.channel;

import org.apache.flume.instrumentation.kafka.KafkaChannelCounter;

/**
 * Flume's Kafka channel counters, under Flume's names so Cloudera Manager, the dashboards and
 * {@code flafka bench} read {@link KafkaRecordChannel} like Flume's Kafka channel, with the put
 * attempts added once per transaction instead of once per event.
 */
public class KafkaRecordChannelCounter extends KafkaChannelCounter {
  /** ChannelCounter's own key for the put attempts. */
  private static final String PUT_ATTEMPT = "channel.event.put.attempt";

  public KafkaRecordChannelCounter(String name) {
    super(name);
  }

  public long addToEventPutAttemptCount(long attempts) {
    return addAndGet(PUT_ATTEMPT, attempts);
  }
}
