package org.flafka.sweep.trial;

/**
 * Which part limited a run. Kafka decouples the tiers, so the tier whose sinks drained less is the
 * limit; inside a tier, a full channel means its sinks could not keep up, an empty one that its
 * sources (or what feeds them) could not fill it.
 */
public enum Bottleneck {
  /**
   * The load ran at its set rate and every stage kept up: the pipeline may take more; raise the
   * rate to see.
   */
  NONE("none: kept up with the load's rate"),
  EDGE_SOURCES("edge sources (or the load)"),
  EDGE_SINKS("edge Kafka sinks"),
  CORE_SOURCES("core Kafka sources"),
  CORE_SINKS("core HDFS sinks"),
  /**
   * A core of Kafka channels drained by HDFS sinks (the template's default) has no sources: each
   * sink's thread polls its channel's consumer and writes HDFS, so its reading and its writing are
   * one stage.
   */
  CORE_CHANNEL_SINKS("core HDFS sinks with their Kafka channels");

  /**
   * Core sinks more than this much below the edge's: the core is the limit, not just lagging by
   * noise.
   */
  static final double TIER_GAP = 0.05;

  /** A channel filled beyond this fraction is backed up: its sinks are slower than its sources. */
  static final double BACKED_UP = 0.5;

  private final String label;

  Bottleneck(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /**
   * Decides from the rates at which the edge wrote to Kafka and the core wrote to HDFS, the fills
   * (0..1) of their channels, and whether the core reads Kafka through sources (else through Kafka
   * channels, whose fill says nothing about a stage behind them). An edge with Kafka channels
   * writes to Kafka as its sources put: its fill is 0.
   */
  static Bottleneck of(
      double edgeOut, double edgeFill, double coreOut, double coreFill, boolean coreHasSources) {
    if (coreOut < edgeOut * (1 - TIER_GAP)) {
      if (!coreHasSources) {
        return CORE_CHANNEL_SINKS;
      }
      return coreFill > BACKED_UP ? CORE_SINKS : CORE_SOURCES;
    }
    return edgeFill > BACKED_UP ? EDGE_SINKS : EDGE_SOURCES;
  }

  /**
   * As {@link #of(double, double, double, double, boolean)}, but when the load has a set rate
   * ({@code loadLimit}, infinite for max), the generator met it, the edge's sources took what it
   * sent ({@code edgeIn}; UDP datagrams the edge dropped fall short of it) and the core kept up,
   * nothing but the rate limited the run.
   */
  static Bottleneck of(
      double loadLimit,
      double loadRate,
      double edgeIn,
      double edgeOut,
      double edgeFill,
      double coreOut,
      double coreFill,
      boolean coreHasSources) {
    Bottleneck pipeline = of(edgeOut, edgeFill, coreOut, coreFill, coreHasSources);
    boolean loadMet =
        !Double.isInfinite(loadLimit)
            && loadRate >= loadLimit * (1 - TIER_GAP)
            && edgeIn >= loadRate * (1 - TIER_GAP);
    return pipeline == EDGE_SOURCES && loadMet ? NONE : pipeline;
  }
}
