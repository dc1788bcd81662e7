package org.flafka.cm.tsquery;

import static org.flafka.cm.tsquery.TsExpression.across;
import static org.flafka.cm.tsquery.TsExpression.total;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.ENTITY_NAME;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.HOSTNAME;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.ROLE_TYPE;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.SERVICE_NAME;
import static org.flafka.cm.tsquery.TsPredicate.category;
import static org.flafka.cm.tsquery.TsPredicate.eq;

import org.flafka.cm.CmClient;

/**
 * The tsqueries a sweep trial reads (docs/reference/cloudera-manager.md). They are built from
 * documented names, but no query here has been run against a live CM: treat their results with that
 * in mind until one has.
 */
public final class SweepQueries {
  private SweepQueries() {}

  /**
   * Events/s into channels, out of channels, out of sinks and into sources, summed over a Flume
   * service.
   */
  public static TsQuery flumeServiceRates(String flumeService) {
    return TsQuery.select(
        eq(ENTITY_NAME, flumeService).and(category(TsPredicate.Category.SERVICE)),
        total(FlumeChannelMetric.EVENT_PUT_SUCCESS_RATE, Entity.FLUME_CHANNEL),
        total(FlumeChannelMetric.EVENT_TAKE_SUCCESS_RATE, Entity.FLUME_CHANNEL),
        total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
        total(FlumeSourceMetric.EVENT_ACCEPTED_RATE, Entity.FLUME_SOURCE));
  }

  /** Per agent role: events/s drained by its sinks and the average fill of its channels. */
  public static TsQuery flumeAgentRates(String flumeService) {
    return TsQuery.select(
        eq(ROLE_TYPE, CmClient.FLUME_AGENT_ROLE_TYPE).and(eq(SERVICE_NAME, flumeService)),
        total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
        across(FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, Entity.FLUME_CHANNEL));
  }

  /**
   * Bytes/s written to and read from one topic, summed over brokers (topic entity name {@code
   * service:topic}).
   */
  public static TsQuery kafkaTopicRates(String kafkaService, String topic) {
    return TsQuery.select(
        eq(ENTITY_NAME, kafkaService + ":" + topic).and(category(TsPredicate.Category.KAFKA_TOPIC)),
        total(KafkaMetric.BYTES_RECEIVED_RATE, Entity.KAFKA_BROKER_TOPIC),
        total(KafkaMetric.BYTES_FETCHED_RATE, Entity.KAFKA_BROKER_TOPIC));
  }

  /** Bytes/s and messages/s into a Kafka service, summed over its brokers. */
  public static TsQuery kafkaServiceRates(String kafkaService) {
    return TsQuery.select(
        eq(ENTITY_NAME, kafkaService).and(category(TsPredicate.Category.SERVICE)),
        total(KafkaMetric.BYTES_RECEIVED_RATE, Entity.KAFKA_BROKER),
        total(KafkaMetric.MESSAGES_RECEIVED_RATE, Entity.KAFKA_BROKER));
  }

  /** Bytes/s received and sent by one host over all its network interfaces. */
  public static TsQuery hostNetwork(String hostname) {
    return TsQuery.select(
        category(TsPredicate.Category.HOST).and(eq(HOSTNAME, hostname)),
        total(NetworkInterfaceMetric.BYTES_RECEIVE_RATE, Entity.NETWORK_INTERFACE),
        total(NetworkInterfaceMetric.BYTES_TRANSMIT_RATE, Entity.NETWORK_INTERFACE));
  }
}
