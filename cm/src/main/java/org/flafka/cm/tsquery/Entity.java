package org.flafka.cm.tsquery;

/**
 * A CM time-series entity type whose metrics the kit reads, with the name CM uses for aggregates across it
 * ({@code <metric>_across_<crossEntityName>}, REFERENCE.md section 2).
 */
public enum Entity {
    FLUME_SOURCE("flume_sources"),
    FLUME_CHANNEL("flume_channels"),
    FLUME_SINK("flume_sinks"),
    /** The {@code KAFKA_BROKER} role ({@code kafka_base.mdl}: nameForCrossEntityAggregateMetrics {@code kafka_brokers}). */
    KAFKA_BROKER("kafka_brokers"),
    /** {@code KAFKA_BROKER_TOPIC}, parents KAFKA_TOPIC and the broker ({@code kafka_broker_topics}). */
    KAFKA_BROKER_TOPIC("kafka_broker_topics"),
    /** Kafka consumer group; CM's aggregate name for it is not known, so it cannot be aggregated here. */
    KAFKA_CONSUMER_GROUP(null),
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
