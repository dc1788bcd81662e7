package org.flafka.cm.tsquery;

/**
 * Flume sink metrics in CM ("Flume Sink Metrics"; docs/reference/cloudera-manager.md). Flume's
 * Kafka sink never counts complete batches, so {@link #BATCH_COMPLETE_RATE} stays 0 for it: use
 * {@link #EVENT_DRAIN_SUCCESS_RATE} for throughput.
 */
public enum FlumeSinkMetric implements FlumeMetric {
  EVENT_DRAIN_SUCCESS_RATE("event_drain_success_rate", "EventDrainSuccessCount", true),
  EVENT_DRAIN_ATTEMPT_RATE("event_drain_attempt_rate", "EventDrainAttemptCount", true),
  BATCH_COMPLETE_RATE("batch_complete_rate", "BatchCompleteCount", true),
  BATCH_EMPTY_RATE("batch_empty_rate", "BatchEmptyCount", true),
  BATCH_UNDERFLOW_RATE("batch_underflow_rate", "BatchUnderflowCount", true),
  CONNECTION_CREATED_RATE("connection_created_rate", "ConnectionCreatedCount", true),
  CONNECTION_CLOSED_RATE("connection_closed_rate", "ConnectionClosedCount", true),
  CONNECTION_FAILED_RATE("connection_failed_rate", "ConnectionFailedCount", true);

  private final Definition definition;

  FlumeSinkMetric(String metricName, String flumeAttribute, boolean rate) {
    this.definition = new Definition(metricName, flumeAttribute, rate);
  }

  @Override
  public Definition definition() {
    return definition;
  }

  @Override
  public Entity entity() {
    return Entity.FLUME_SINK;
  }
}
