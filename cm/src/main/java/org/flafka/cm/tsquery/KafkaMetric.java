package org.flafka.cm.tsquery;

import java.util.Set;

/**
 * Kafka metrics in CM: the broker-topic meters of the Kafka CSD ({@code BrokerTopicMetrics}:
 * MessagesInPerSec, BytesInPerSec, BytesOutPerSec, ...) prefixed {@code kafka_}, as per-second
 * rates ({@code _rate}) and Kafka's own moving averages ({@code _1min_rate});
 * docs/reference/cloudera-manager.md. They aggregate across broker-topics (per topic) and across
 * brokers (per service).
 */
public enum KafkaMetric implements CmMetric {
  BYTES_RECEIVED_RATE(
      "kafka_bytes_received_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  BYTES_RECEIVED_1MIN_RATE(
      "kafka_bytes_received_1min_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  BYTES_FETCHED_RATE(
      "kafka_bytes_fetched_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  BYTES_FETCHED_1MIN_RATE(
      "kafka_bytes_fetched_1min_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  MESSAGES_RECEIVED_RATE(
      "kafka_messages_received_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  MESSAGES_RECEIVED_1MIN_RATE(
      "kafka_messages_received_1min_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  BYTES_REJECTED_RATE(
      "kafka_bytes_rejected_rate", Entity.KAFKA_BROKER_TOPIC, Verification.DOCUMENTED),
  /**
   * A partition replica's log end offset: the offset the next message gets, so its growth per
   * second is the partition's messages in ({@code dt0(kafka_log_end_offset)}). On CM's "Kafka
   * Replica Metrics" page (unit {@code message.units.offset}); the Kafka CSD defines it as {@code
   * log_end_offset} on KAFKA_REPLICA ({@code ReplicaMetrics.java}, {@code kafka_base.mdl}).
   */
  LOG_END_OFFSET("kafka_log_end_offset", Entity.KAFKA_REPLICA, Verification.DOCUMENTED),
  /**
   * "Consumer Group Lag - aggregated consumer lag of a group", CM's "Kafka Consumer Group Metrics"
   * page: a <em>rate</em>, in messages per second (with {@code _1min_rate}, {@code _5min_rate},
   * {@code _15min_rate}, {@code _avg_rate}); that page and "Kafka Consumer Metrics" list no lag
   * count. Which client set-up feeds CM's consumer-group entity is not documented.
   */
  CONSUMER_GROUP_LAG_RATE(
      "kafka_consumer_group_lag_rate", Entity.KAFKA_CONSUMER_GROUP, Verification.DOCUMENTED);

  private final String metricName;
  private final Entity entity;
  private final Verification verification;

  KafkaMetric(String metricName, Entity entity, Verification verification) {
    this.metricName = metricName;
    this.entity = entity;
    this.verification = verification;
  }

  @Override
  public String metricName() {
    return metricName;
  }

  @Override
  public Entity entity() {
    return entity;
  }

  @Override
  public Verification verification() {
    return verification;
  }

  @Override
  public Set<Entity> aggregatableAcross() {
    return entity == Entity.KAFKA_BROKER_TOPIC
        ? Set.of(Entity.KAFKA_BROKER_TOPIC, Entity.KAFKA_BROKER)
        : Set.of();
  }
}
