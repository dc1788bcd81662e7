package org.flafka.cm.tsquery;

/** Flume channel metrics in CM ("Flume Channel Metrics", CM 5.15 and CM 7 pages; REFERENCE.md section 3). */
public enum FlumeChannelMetric implements CmMetric {
    EVENT_PUT_SUCCESS_RATE("event_put_success_rate"),
    EVENT_PUT_ATTEMPT_RATE("event_put_attempt_rate"),
    EVENT_TAKE_SUCCESS_RATE("event_take_success_rate"),
    EVENT_TAKE_ATTEMPT_RATE("event_take_attempt_rate"),
    CHANNEL_SIZE("channel_size"),
    CHANNEL_CAPACITY("channel_capacity"),
    CHANNEL_FILL_PERCENTAGE("channel_fill_percentage");

    private final String metricName;

    FlumeChannelMetric(String metricName) {
        this.metricName = metricName;
    }

    @Override
    public String metricName() {
        return metricName;
    }

    @Override
    public Entity entity() {
        return Entity.FLUME_CHANNEL;
    }

    @Override
    public Verification verification() {
        return Verification.DOCUMENTED;
    }
}
