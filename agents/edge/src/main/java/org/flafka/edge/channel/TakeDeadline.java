package org.flafka.edge.channel;

import org.flafka.edge.sink.KafkaRecordSink;

/**
 * A channel transaction whose takes can stop waiting for an event at a given time rather than at the channel's
 * keep-alive: how {@link KafkaRecordSink} keeps its {@code batchDurationMillis} within a channel whose keep-alive
 * is longer ({@link BatchMemoryChannel}'s). Flume's {@code Channel.take()} has no timeout of its own.
 */
public interface TakeDeadline {

  /** From now on in this transaction, a take waits for an event no later than {@code nanoTime} (System.nanoTime). */
  void takeNoLaterThan(long nanoTime);
}
