package org.flafka.core;

import org.apache.flume.instrumentation.kafka.KafkaSourceCounter;

/**
 * Metrics of {@link KafkaRecordSource}: Flume's Kafka source counters under their names (so
 * Cloudera Manager, the dashboards and the sweep read either source alike), published with the
 * failure counters Flume's MBean leaves out ({@link KafkaRecordSourceCounterMBean}).
 */
public class KafkaRecordSourceCounter extends KafkaSourceCounter
    implements KafkaRecordSourceCounterMBean {

  public KafkaRecordSourceCounter(String name) {
    super(name);
  }
}
