package org.flafka.cm.tsquery;

/**
 * Flume channel metrics in CM ("Flume Channel Metrics", CM 5.15 and CM 7 pages;
 * docs/reference/cloudera-manager.md).
 */
public enum FlumeChannelMetric implements FlumeMetric {
  EVENT_PUT_SUCCESS_RATE("event_put_success_rate", "EventPutSuccessCount", true),
  EVENT_PUT_ATTEMPT_RATE("event_put_attempt_rate", "EventPutAttemptCount", true),
  EVENT_TAKE_SUCCESS_RATE("event_take_success_rate", "EventTakeSuccessCount", true),
  EVENT_TAKE_ATTEMPT_RATE("event_take_attempt_rate", "EventTakeAttemptCount", true),
  CHANNEL_SIZE("channel_size", "ChannelSize", false),
  CHANNEL_CAPACITY("channel_capacity", "ChannelCapacity", false),
  CHANNEL_FILL_PERCENTAGE("channel_fill_percentage", "ChannelFillPercentage", false);

  private final Definition definition;

  FlumeChannelMetric(String metricName, String flumeAttribute, boolean rate) {
    this.definition = new Definition(metricName, flumeAttribute, rate);
  }

  @Override
  public Definition definition() {
    return definition;
  }

  @Override
  public Entity entity() {
    return Entity.FLUME_CHANNEL;
  }
}
