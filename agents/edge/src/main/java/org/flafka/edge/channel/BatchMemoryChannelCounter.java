package org.flafka.edge.channel;

import org.apache.flume.instrumentation.ChannelCounter;

/**
 * Flume's channel counters, under Flume's names so Cloudera Manager, the dashboards and {@code
 * flafka bench} read {@link BatchMemoryChannel} like Flume's memory channel, with the attempt
 * counters added to once per transaction instead of once per event; and the disk buffer's ({@link
 * BatchMemoryChannelCounterMBean}), all 0 without one.
 */
public class BatchMemoryChannelCounter extends ChannelCounter
    implements BatchMemoryChannelCounterMBean {
  /** ChannelCounter's own keys for the attempt counters. */
  private static final String PUT_ATTEMPT = "channel.event.put.attempt";

  private static final String TAKE_ATTEMPT = "channel.event.take.attempt";

  private static final String BUFFERED_EVENTS = "channel.buffer.event.count";
  private static final String BUFFERED_BYTES = "channel.buffer.bytes";
  private static final String SPILLED = "channel.buffer.spill.count";
  private static final String READ_BACK = "channel.buffer.read.count";
  private static final String DISK_ERRORS = "channel.buffer.disk.error.count";
  private static final String CORRUPT = "channel.buffer.corrupt.count";

  /** Written-at time of the oldest batch on disk not yet read back; 0: none. */
  private volatile long oldestBufferedMillis;

  public BatchMemoryChannelCounter(String name) {
    super(
        name,
        new String[] {BUFFERED_EVENTS, BUFFERED_BYTES, SPILLED, READ_BACK, DISK_ERRORS, CORRUPT});
  }

  public long addToEventPutAttemptCount(long attempts) {
    return addAndGet(PUT_ATTEMPT, attempts);
  }

  public long addToEventTakeAttemptCount(long attempts) {
    return addAndGet(TAKE_ATTEMPT, attempts);
  }

  void setBuffered(long events, long bytes, long oldestMillis) {
    set(BUFFERED_EVENTS, events);
    set(BUFFERED_BYTES, bytes);
    oldestBufferedMillis = oldestMillis;
  }

  void addToSpillCount(long events) {
    addAndGet(SPILLED, events);
  }

  void addToReadCount(long events) {
    addAndGet(READ_BACK, events);
  }

  void incrementDiskErrorCount() {
    increment(DISK_ERRORS);
  }

  void addToCorruptCount(long events) {
    addAndGet(CORRUPT, events);
  }

  /**
   * The events the channel holds, in memory and in its disk buffer: Cloudera Manager charts this
   * ({@code channel_size}) and none of the buffer's own counters, so a backlog shows there.
   */
  @Override
  public long getChannelSize() {
    return super.getChannelSize() + get(BUFFERED_EVENTS);
  }

  /** How full the memory is, as Flume's: at most 100 whatever waits on disk. */
  @Override
  public double getChannelFillPercentage() {
    long capacity = getChannelCapacity();
    return capacity == 0 ? Double.MAX_VALUE : super.getChannelSize() * 100.0 / capacity;
  }

  @Override
  public long getBufferedEventCount() {
    return get(BUFFERED_EVENTS);
  }

  @Override
  public long getBufferedBytes() {
    return get(BUFFERED_BYTES);
  }

  @Override
  public long getBufferOldestAgeMillis() {
    long oldest = oldestBufferedMillis;
    return oldest == 0 ? 0 : Math.max(0, System.currentTimeMillis() - oldest);
  }

  @Override
  public long getBufferSpillCount() {
    return get(SPILLED);
  }

  @Override
  public long getBufferReadCount() {
    return get(READ_BACK);
  }

  @Override
  public long getBufferDiskErrorCount() {
    return get(DISK_ERRORS);
  }

  @Override
  public long getBufferCorruptCount() {
    return get(CORRUPT);
  }
}
