package org.flafka.core;

import org.apache.flume.instrumentation.SinkCounter;

/**
 * Metrics of {@link HdfsBucketSink}: Flume's sink counters under their names, so Cloudera Manager,
 * the dashboards and the sweep read it as any HDFS sink, plus {@code RecoveredFileCount}.
 */
public class HdfsBucketSinkCounter extends SinkCounter implements HdfsBucketSinkCounterMBean {

  private static final String RECOVERED_FILES = "sink.hdfs.recovered.files";

  public HdfsBucketSinkCounter(String name) {
    super(name, new String[] {RECOVERED_FILES});
  }

  void incrementRecoveredFileCount() {
    increment(RECOVERED_FILES);
  }

  @Override
  public long getRecoveredFileCount() {
    return get(RECOVERED_FILES);
  }
}
