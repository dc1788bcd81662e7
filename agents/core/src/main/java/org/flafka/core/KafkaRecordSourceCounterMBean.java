package org.flafka.core;

import org.apache.flume.instrumentation.kafka.KafkaSourceCounterMBean;

/**
 * The JMX view of {@link KafkaRecordSourceCounter}: Flume's Kafka source attributes plus the
 * failure counters Flume 1.11's {@code KafkaSourceCounterMBean} leaves out (its counter keeps them,
 * but its MBean interface does not declare them, so neither JMX nor the JSON metrics show a full
 * channel or a failed read). Flume's JSON metrics report every attribute, named after its getter.
 */
public interface KafkaRecordSourceCounterMBean extends KafkaSourceCounterMBean {
  long getEventReadFail();

  long getChannelWriteFail();

  long getGenericProcessingFail();
}
