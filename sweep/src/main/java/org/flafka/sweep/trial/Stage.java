package org.flafka.sweep.trial;

import java.util.Locale;
import org.flafka.render.Tier;

/**
 * A point of the pipeline where events are counted, with the Flume counter that counts them there.
 * Sinks use EventDrainSuccessCount because the Kafka sink never increments BatchCompleteCount
 * (docs/reference/dependencies.md, "Flume's metrics").
 */
public enum Stage {
  EDGE_SOURCE("edge source accepted", Tier.EDGE, "SOURCE.", "EventAcceptedCount"),
  EDGE_CHANNEL("edge channel take", Tier.EDGE, "CHANNEL.", "EventTakeSuccessCount"),
  EDGE_SINK("edge Kafka sinks drained", Tier.EDGE, "SINK.", "EventDrainSuccessCount"),
  CORE_SOURCE("core Kafka sources accepted", Tier.CORE, "SOURCE.", "EventAcceptedCount"),
  CORE_CHANNEL("core channel take", Tier.CORE, "CHANNEL.", "EventTakeSuccessCount"),
  CORE_SINK("core HDFS sinks drained", Tier.CORE, "SINK.", "EventDrainSuccessCount");

  private final String label;
  private final Tier tier;
  private final String componentPrefix;
  private final String counter;

  Stage(String label, Tier tier, String componentPrefix, String counter) {
    this.label = label;
    this.tier = tier;
    this.componentPrefix = componentPrefix;
    this.counter = counter;
  }

  public String label() {
    return label;
  }

  public Tier tier() {
    return tier;
  }

  /** Flume's metric group prefix: SOURCE., CHANNEL. or SINK. */
  public String componentPrefix() {
    return componentPrefix;
  }

  public String counter() {
    return counter;
  }

  /** A column name: edge_source_eps, core_sink_eps, ... */
  public String column() {
    return name().toLowerCase(Locale.ROOT) + "_eps";
  }
}
