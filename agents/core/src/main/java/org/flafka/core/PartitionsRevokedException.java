package org.flafka.core;

import org.apache.flume.ChannelException;

/**
 * Thrown by a {@link KafkaRecordChannel} take when the consumer group took partitions away from the
 * channel in the middle of a transaction that had taken events from them: their next owner reads
 * those events again from the last commit, so the sink must write none of this transaction's
 * events, roll it back, and go on. {@link HdfsBucketSink} does so, cutting the files the batch
 * wrote to back to their last committed batch: a rebalance then writes nothing twice. A sink that
 * cannot take back what it wrote (Flume's HDFS sink) rolls back as for any channel failure, and the
 * revoked partitions' events it wrote are written again by their next owner (duplicates).
 */
public final class PartitionsRevokedException extends ChannelException {
  private static final long serialVersionUID = 1L;

  PartitionsRevokedException(String message) {
    super(message);
  }
}
