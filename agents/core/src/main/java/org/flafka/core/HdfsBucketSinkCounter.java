package org.flafka.core;

import org.apache.flume.instrumentation.SinkCounter;

/**
 * Metrics of {@link HdfsBucketSink}: Flume's sink counters under their names, so Cloudera Manager,
 * the dashboards and the sweep read it as any HDFS sink, plus {@code RecoveredFileCount} and {@code
 * BatchRevokedCount}.
 */
public class HdfsBucketSinkCounter extends SinkCounter implements HdfsBucketSinkCounterMBean {

  private static final String RECOVERED_FILES = "sink.hdfs.recovered.files";
  private static final String BATCHES_REVOKED = "sink.batch.revoked";

  public HdfsBucketSinkCounter(String name) {
    super(name, new String[] {RECOVERED_FILES, BATCHES_REVOKED});
  }

  void incrementBatchRevokedCount() {
    increment(BATCHES_REVOKED);
  }

  @Override
  public long getBatchRevokedCount() {
    return get(BATCHES_REVOKED);
  }

  void incrementRecoveredFileCount() {
    increment(RECOVERED_FILES);
  }

  @Override
  public long getRecoveredFileCount() {
    return get(RECOVERED_FILES);
  }
}
