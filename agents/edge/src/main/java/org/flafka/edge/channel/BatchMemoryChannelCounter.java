package org.flafka.edge.channel;

import org.apache.flume.instrumentation.ChannelCounter;

/**
 * Flume's channel counters, under Flume's names so Cloudera Manager, the dashboards and {@code
 * flafka bench} read {@link BatchMemoryChannel} like Flume's memory channel, with the attempt
 * counters added to once per transaction instead of once per event.
 */
public class BatchMemoryChannelCounter extends ChannelCounter {
  /** ChannelCounter's own keys for the attempt counters. */
  private static final String PUT_ATTEMPT = "channel.event.put.attempt";

  private static final String TAKE_ATTEMPT = "channel.event.take.attempt";

  public BatchMemoryChannelCounter(String name) {
    super(name);
  }

  public long addToEventPutAttemptCount(long attempts) {
    return addAndGet(PUT_ATTEMPT, attempts);
  }

  public long addToEventTakeAttemptCount(long attempts) {
    return addAndGet(TAKE_ATTEMPT, attempts);
  }
}
