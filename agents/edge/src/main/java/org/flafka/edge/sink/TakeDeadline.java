package org.flafka.edge.sink;

/**
 * A channel transaction whose takes can stop waiting for an event at a given time rather than at
 * the channel's keep-alive: how {@link KafkaRecordSink} keeps its {@code batchDurationMillis}
 * within a channel whose keep-alive is longer ({@link
 * org.flafka.edge.channel.BatchMemoryChannel}'s). Flume's {@code Channel.take()} has no timeout of
 * its own. The sink's package defines it and channels implement it, so channel depends on sink and
 * never back.
 */
public interface TakeDeadline {

  /**
   * From now on in this transaction, a take waits for an event no later than {@code nanoTime}
   * (System.nanoTime).
   */
  void takeNoLaterThan(long nanoTime);
}
