package org.flafka.cm.tsquery;

/**
 * A CM time-series entity type whose metrics the kit reads, with the name CM uses for aggregates
 * across it ({@code <metric>_across_<crossEntityName>}, docs/reference/cloudera-manager.md).
 */
public enum Entity {
  FLUME_SOURCE("flume_sources"),
  FLUME_CHANNEL("flume_channels"),
  FLUME_SINK("flume_sinks"),
  /**
   * A role (a Flume AGENT, a KAFKA_BROKER): its process metrics such as {@code cpu_user_rate}.
   * Aggregates across roles are named per role type ({@code _across_kafka_brokers}), so none is
   * offered here.
   */
  ROLE(null),
  /**
   * The {@code KAFKA_BROKER} role ({@code kafka_base.mdl}: nameForCrossEntityAggregateMetrics
   * {@code kafka_brokers}).
   */
  KAFKA_BROKER("kafka_brokers"),
  /**
   * {@code KAFKA_BROKER_TOPIC}, parents KAFKA_TOPIC and the broker ({@code kafka_broker_topics}).
   */
  KAFKA_BROKER_TOPIC("kafka_broker_topics"),
  /**
   * {@code KAFKA_REPLICA}: one partition's replica on one broker ({@code kafka_base.mdl}: entity
   * name {@code [roleName, kafkaTopicName, kafkaPartitionId]}, parents KAFKA_BROKER_TOPIC and the
   * broker).
   */
  KAFKA_REPLICA("kafka_replicas"),
  /**
   * Kafka consumer group: CM's "Kafka Consumer Metrics" page aggregates across it as {@code
   * _across_kafka_consumer_groups}.
   */
  KAFKA_CONSUMER_GROUP("kafka_consumer_groups"),
  NETWORK_INTERFACE("network_interfaces");

  private final String crossEntityName;

  Entity(String crossEntityName) {
    this.crossEntityName = crossEntityName;
  }

  /** The plural used in {@code _across_...}, or null if unknown. */
  public String crossEntityName() {
    return crossEntityName;
  }
}
