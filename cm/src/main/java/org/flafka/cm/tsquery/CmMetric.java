package org.flafka.cm.tsquery;

import java.util.Set;

/**
 * A CM metric name, typed so code cannot misspell it. Implemented by one enum per entity type
 * ({@link FlumeSourceMetric}, {@link FlumeChannelMetric}, {@link FlumeSinkMetric}, {@link
 * KafkaMetric}, {@link NetworkInterfaceMetric}).
 */
public interface CmMetric {

  /** The name CM uses in tsquery, e.g. {@code event_drain_success_rate}. */
  String metricName();

  /** The entity type whose instances report it. */
  Entity entity();

  /** How sure we are that CM knows the name. */
  Verification verification();

  /**
   * Entity types across which CM offers {@code <name>_across_<entities>} and {@code total_...}
   * aggregates.
   */
  default Set<Entity> aggregatableAcross() {
    return entity().crossEntityName() == null ? Set.of() : Set.of(entity());
  }
}
