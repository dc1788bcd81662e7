package org.flafka.cm.tsquery;

/**
 * Flume sink metrics in CM ("Flume Sink Metrics"; REFERENCE.md section 3). Flume's Kafka sink never counts complete
 * batches, so {@link #BATCH_COMPLETE_RATE} stays 0 for it: use {@link #EVENT_DRAIN_SUCCESS_RATE} for throughput.
 */
public enum FlumeSinkMetric implements CmMetric {
    EVENT_DRAIN_SUCCESS_RATE("event_drain_success_rate"),
    EVENT_DRAIN_ATTEMPT_RATE("event_drain_attempt_rate"),
    BATCH_COMPLETE_RATE("batch_complete_rate"),
    BATCH_EMPTY_RATE("batch_empty_rate"),
    BATCH_UNDERFLOW_RATE("batch_underflow_rate"),
    CONNECTION_CREATED_RATE("connection_created_rate"),
    CONNECTION_CLOSED_RATE("connection_closed_rate"),
    CONNECTION_FAILED_RATE("connection_failed_rate");

    private final String metricName;

    FlumeSinkMetric(String metricName) {
        this.metricName = metricName;
    }

    @Override
    public String metricName() {
        return metricName;
    }

    @Override
    public Entity entity() {
        return Entity.FLUME_SINK;
    }

    @Override
    public Verification verification() {
        return Verification.DOCUMENTED;
    }
}
