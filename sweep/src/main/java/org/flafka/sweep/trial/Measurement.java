package org.flafka.sweep.trial;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.flafka.render.Tier;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.target.AgentSample;

/**
 * One run of a trial. Rates are events per second over the measure window (counter deltas between a
 * sample taken after the warm-up and one taken at the window's end), so start-up and warm-up never
 * count.
 *
 * @param seconds length of the measure window as the two samples timed it
 * @param loadRate events/s the load generator handed to the kernel during the window
 * @param rates events/s per stage; NaN where the configuration has no such component
 * @param edgeFill how full the edge's channels were at the window's end, 0..1
 * @param coreFill how full the core's channels were at the window's end, 0..1
 * @param edgeCpuPerMillion CPU seconds the edge process used per million events its sources
 *     accepted
 * @param coreCpuPerMillion CPU seconds the core process used per million events its HDFS sinks
 *     drained
 * @param sent events the load sent in the whole run
 * @param edgeAccepted events the edge's sources accepted in the whole run (after draining)
 * @param delivered events the core's HDFS sinks drained in the whole run (after draining)
 * @param drained whether the core caught up with the edge before the drain time ran out
 * @param firstDeliverySeconds how long after the load started the first event reached HDFS
 * @param warmupSeconds how long the warm-up lasted, from the first event in HDFS until the rate
 *     into HDFS stopped changing (or its limit)
 * @param audit what the audit found, or null when it did not run ({@code auditNote} says why)
 */
public record Measurement(
    int repeat,
    double seconds,
    double loadRate,
    Map<Stage, Double> rates,
    double edgeFill,
    double coreFill,
    Bottleneck bottleneck,
    double edgeCpuPerMillion,
    double coreCpuPerMillion,
    long sent,
    long edgeAccepted,
    long delivered,
    boolean drained,
    double firstDeliverySeconds,
    double warmupSeconds,
    AuditCounts audit,
    String auditNote) {

  public Measurement {
    rates = Collections.unmodifiableMap(new EnumMap<>(rates));
  }

  /** Events/s into HDFS: what the sweep maximises. */
  public double endToEnd() {
    return rate(Stage.CORE_SINK);
  }

  public double rate(Stage stage) {
    return rates.getOrDefault(stage, Double.NaN);
  }

  /**
   * Sent minus delivered, by the counters (negative when duplicates outnumber losses); only a loss
   * once the run {@link #drained}: before that, the difference is still on its way.
   */
  public long countedLoss() {
    return sent - delivered;
  }

  /** This measurement with its audit's outcome. */
  public Measurement withAudit(AuditCounts result, String note) {
    return new Measurement(
        repeat,
        seconds,
        loadRate,
        rates,
        edgeFill,
        coreFill,
        bottleneck,
        edgeCpuPerMillion,
        coreCpuPerMillion,
        sent,
        edgeAccepted,
        delivered,
        drained,
        firstDeliverySeconds,
        warmupSeconds,
        result,
        note);
  }

  /**
   * The window's rates, fills, CPU and bottleneck from samples at its start and end; {@code
   * loadLimit} is the load's set rate (infinite for max).
   */
  static Measurement ofWindow(
      int repeat,
      double loadLimit,
      AgentSample edgeStart,
      AgentSample edgeEnd,
      AgentSample coreStart,
      AgentSample coreEnd,
      long sentStart,
      long sentEnd,
      long loadNanos) {
    Map<Stage, Double> rates = new EnumMap<>(Stage.class);
    for (Stage stage : Stage.values()) {
      boolean edge = stage.tier() == Tier.EDGE;
      rates.put(stage, rate(edge ? edgeStart : coreStart, edge ? edgeEnd : coreEnd, stage));
    }
    double seconds = (coreEnd.nanoTime() - coreStart.nanoTime()) / 1e9;
    double edgeOut =
        Double.isNaN(rates.get(Stage.EDGE_SINK))
            ? rates.get(Stage.EDGE_SOURCE)
            : rates.get(Stage.EDGE_SINK);
    double edgeFill = fill(edgeEnd);
    double coreFill = fill(coreEnd);
    double loadRate = (sentEnd - sentStart) / (loadNanos / 1e9);
    return new Measurement(
        repeat,
        seconds,
        loadRate,
        rates,
        edgeFill,
        coreFill,
        Bottleneck.of(
            loadLimit,
            loadRate,
            rates.get(Stage.EDGE_SOURCE),
            edgeOut,
            edgeFill,
            rates.get(Stage.CORE_SINK),
            coreFill,
            !Double.isNaN(rates.get(Stage.CORE_SOURCE))),
        cpuPerMillion(edgeStart, edgeEnd, Stage.EDGE_SOURCE),
        cpuPerMillion(coreStart, coreEnd, Stage.CORE_SINK),
        0,
        0,
        0,
        false,
        Double.NaN,
        Double.NaN,
        null,
        "");
  }

  /** This window's measurement with the run's totals after draining. */
  Measurement withTotals(
      long sentTotal, long edgeAcceptedTotal, long deliveredTotal, boolean drainedAll) {
    return new Measurement(
        repeat,
        seconds,
        loadRate,
        rates,
        edgeFill,
        coreFill,
        bottleneck,
        edgeCpuPerMillion,
        coreCpuPerMillion,
        sentTotal,
        edgeAcceptedTotal,
        deliveredTotal,
        drainedAll,
        firstDeliverySeconds,
        warmupSeconds,
        audit,
        auditNote);
  }

  /**
   * This measurement with how long its first event took to reach HDFS and how long its warm-up
   * lasted.
   */
  Measurement withStartUp(double secondsAfterLoadStart, double warmup) {
    return new Measurement(
        repeat,
        seconds,
        loadRate,
        rates,
        edgeFill,
        coreFill,
        bottleneck,
        edgeCpuPerMillion,
        coreCpuPerMillion,
        sent,
        edgeAccepted,
        delivered,
        drained,
        secondsAfterLoadStart,
        warmup,
        audit,
        auditNote);
  }

  private static double rate(AgentSample start, AgentSample end, Stage stage) {
    Long before = start.sum(stage.componentPrefix(), stage.counter());
    Long after = end.sum(stage.componentPrefix(), stage.counter());
    if (before == null || after == null) {
      return Double.NaN;
    }
    if (stage == Stage.EDGE_CHANNEL
        && end.sum(Stage.EDGE_SINK.componentPrefix(), Stage.EDGE_SINK.counter()) == null) {
      return Double
          .NaN; // Kafka channels without sinks: nothing takes, the channel itself writes to Kafka
    }
    return (after - before) / ((end.nanoTime() - start.nanoTime()) / 1e9);
  }

  private static double fill(AgentSample sample) {
    Long size = sample.sum("CHANNEL.", "ChannelSize");
    Long capacity = sample.sum("CHANNEL.", "ChannelCapacity");
    return size == null || capacity == null || capacity == 0 ? 0 : (double) size / capacity;
  }

  private static double cpuPerMillion(AgentSample start, AgentSample end, Stage stage) {
    Long before = start.sum(stage.componentPrefix(), stage.counter());
    Long after = end.sum(stage.componentPrefix(), stage.counter());
    if (before == null || after == null || after <= before) {
      return Double.NaN;
    }
    return (end.cpuSeconds() - start.cpuSeconds()) / (after - before) * 1e6;
  }
}
