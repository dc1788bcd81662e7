package org.flafka.cm.tsquery;

/**
 * Flume source metrics in CM (CM 5-7 metric reference, "Flume Source Metrics"; REFERENCE.md section 3). Counters
 * appear as per-second {@code _rate} metrics.
 */
public enum FlumeSourceMetric implements CmMetric {
    EVENT_RECEIVED_RATE("event_received_rate"),
    EVENT_ACCEPTED_RATE("event_accepted_rate"),
    APPEND_RECEIVED_RATE("append_received_rate"),
    APPEND_ACCEPTED_RATE("append_accepted_rate"),
    APPEND_BATCH_RECEIVED_RATE("append_batch_received_rate"),
    APPEND_BATCH_ACCEPTED_RATE("append_batch_accepted_rate"),
    OPEN_CONNECTIONS("open_connections");

    private final String metricName;

    FlumeSourceMetric(String metricName) {
        this.metricName = metricName;
    }

    @Override
    public String metricName() {
        return metricName;
    }

    @Override
    public Entity entity() {
        return Entity.FLUME_SOURCE;
    }

    @Override
    public Verification verification() {
        return Verification.DOCUMENTED;
    }
}
