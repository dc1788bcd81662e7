package org.flafka.core;

import org.apache.flume.instrumentation.SinkCounterMBean;

/**
 * The JMX view of {@link HdfsBucketSinkCounter}: Flume's sink attributes plus the in-progress files
 * a crashed writer left, which the sink closed and published when it started, and the batches a
 * rebalance took back. Flume's JSON metrics report every attribute, named after its getter.
 */
public interface HdfsBucketSinkCounterMBean extends SinkCounterMBean {

  /** In-progress files of this sink's prefix found at start, closed and renamed since. */
  long getRecoveredFileCount();

  /**
   * Batches rolled back, writing nothing, because the consumer group gave partitions they had taken
   * events from to another reader ({@link PartitionsRevokedException}).
   */
  long getBatchRevokedCount();
}
