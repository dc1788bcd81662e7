package org.flafka.edge.channel;

import org.apache.flume.instrumentation.ChannelCounterMBean;

/**
 * The JMX view of {@link BatchMemoryChannelCounter}: Flume's channel attributes, and the disk
 * buffer's. Flume's JSON metrics report every attribute, named after its getter.
 */
public interface BatchMemoryChannelCounterMBean extends ChannelCounterMBean {
  /** Events on disk not yet read back: the backlog. */
  long getBufferedEventCount();

  /** Bytes of the disk buffer's files, batches read back but not yet sent included. */
  long getBufferedBytes();

  /** How long ago the oldest batch not yet read back was written to disk; 0 when none is. */
  long getBufferOldestAgeMillis();

  /** Events written to disk since the start. */
  long getBufferSpillCount();

  /** Events read back from disk since the start. */
  long getBufferReadCount();

  /**
   * Failed writes to or reads of the disk buffer (a full or read-only file system, a deleted
   * directory); the commit then waits for memory room instead.
   */
  long getBufferDiskErrorCount();

  /**
   * Records found cut short or damaged: at a start, a batch whose write the agent did not live to
   * finish (one per torn file end; its commit never returned); while running, the events of a
   * record that changed on disk after it was written, which are given up.
   */
  long getBufferCorruptCount();
}
