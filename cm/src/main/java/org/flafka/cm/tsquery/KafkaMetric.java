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
   * second is the partition's messages in ({@code dt0(kafka_log_end_offset)}). The Kafka CSD
   * defines {@code log_end_offset} on KAFKA_REPLICA ({@code ReplicaMetrics.java}, {@code
   * kafka_base.mdl}); the {@code kafka_} prefix is CM's rule for CSD metrics
   * (docs/reference/cloudera-manager.md), not seen written for this one: UNVERIFIED.
   */
  LOG_END_OFFSET("kafka_log_end_offset", Entity.KAFKA_REPLICA, Verification.UNVERIFIED),
  /**
   * Aggregated lag of a consumer group. The name is on CM's "Kafka Consumer Group Metrics" page,
   * but which client set-up feeds that entity is UNVERIFIED: plan on AdminClient offsets as the
   * fallback.
   */
  CONSUMER_GROUP_LAG_RATE(
      "kafka_consumer_group_lag_rate", Entity.KAFKA_CONSUMER_GROUP, Verification.UNVERIFIED);

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
