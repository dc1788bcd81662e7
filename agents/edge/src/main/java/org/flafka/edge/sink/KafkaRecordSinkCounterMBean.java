package org.flafka.edge.sink;

import org.apache.flume.instrumentation.kafka.KafkaSinkCounterMBean;

/**
 * The JMX view of {@link KafkaRecordSinkCounter}: Flume's Kafka sink attributes plus the failure
 * counters Flume 1.11's {@code KafkaSinkCounterMBean} leaves out (its counter keeps {@code
 * EventWriteFail} and {@code ChannelReadFail}, but its MBean interface does not declare them, so
 * neither JMX nor the JSON metrics show them), and the too-large drops. Flume's JSON metrics report
 * every attribute, named after its getter.
 */
public interface KafkaRecordSinkCounterMBean extends KafkaSinkCounterMBean {
  long getEventWriteFail();

  long getChannelReadFail();

  long getRecordTooLargeDropCount();
}
