package org.flafka.cm.tsquery;

/**
 * Flume source metrics in CM (CM 5-7 metric reference, "Flume Source Metrics";
 * docs/reference/cloudera-manager.md). Counters appear as per-second {@code _rate} metrics.
 */
public enum FlumeSourceMetric implements FlumeMetric {
  EVENT_RECEIVED_RATE("event_received_rate", "EventReceivedCount", true),
  EVENT_ACCEPTED_RATE("event_accepted_rate", "EventAcceptedCount", true),
  APPEND_RECEIVED_RATE("append_received_rate", "AppendReceivedCount", true),
  APPEND_ACCEPTED_RATE("append_accepted_rate", "AppendAcceptedCount", true),
  APPEND_BATCH_RECEIVED_RATE("append_batch_received_rate", "AppendBatchReceivedCount", true),
  APPEND_BATCH_ACCEPTED_RATE("append_batch_accepted_rate", "AppendBatchAcceptedCount", true),
  OPEN_CONNECTIONS("open_connections", "OpenConnectionCount", false);

  private final Definition definition;

  FlumeSourceMetric(String metricName, String flumeAttribute, boolean rate) {
    this.definition = new Definition(metricName, flumeAttribute, rate);
  }

  @Override
  public Definition definition() {
    return definition;
  }

  @Override
  public Entity entity() {
    return Entity.FLUME_SOURCE;
  }
}
