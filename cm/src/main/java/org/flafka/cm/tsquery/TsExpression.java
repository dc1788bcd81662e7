package org.flafka.cm.tsquery;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * A metric expression in a tsquery {@code SELECT}: a metric, an aggregate across an entity type,
 * optionally wrapped in {@code last(...)} and named with {@code AS}. Built only from {@link
 * CmMetric} constants, so names cannot be misspelled; {@link #verification()} says how sure we are
 * that CM knows the resulting name.
 */
public final class TsExpression {
  private static final Pattern ALIAS = Pattern.compile("[a-z_][a-z0-9_]*");

  /**
   * Full names whose status differs from their parts' (docs/reference/cloudera-manager.md): the
   * receive total is in a recorded v48 response; the transmit total is in public code querying CM
   * (DataDog's Cloudera integration lists it among the cluster metrics it reads).
   */
  private static final Map<String, Verification> KNOWN_NAMES =
      Map.of(
          "total_bytes_receive_rate_across_network_interfaces", Verification.LIVE,
          "total_bytes_transmit_rate_across_network_interfaces", Verification.DOCUMENTED);

  private final String text;
  private final String metricName;
  private final Verification verification;

  private TsExpression(String text, String metricName, Verification verification) {
    this.text = text;
    this.metricName = metricName;
    this.verification = verification;
  }

  /** The metric of each entity, e.g. {@code event_drain_success_rate}. */
  public static TsExpression of(CmMetric metric) {
    return named(metric.metricName(), metric.verification());
  }

  /**
   * Statistics across the entities of a type ({@code <metric>_across_<entities>}): each point's
   * value is their average, with min/max in {@code aggregateStatistics}.
   */
  public static TsExpression across(CmMetric metric, Entity entities) {
    return named(
        metric.metricName() + "_across_" + crossName(metric, entities), metric.verification());
  }

  /**
   * The sum across the entities of a type ({@code total_<metric>_across_<entities>}): what
   * throughput needs.
   */
  public static TsExpression total(CmMetric metric, Entity entities) {
    return named(
        "total_" + metric.metricName() + "_across_" + crossName(metric, entities),
        metric.verification());
  }

  private static String crossName(CmMetric metric, Entity entities) {
    if (!metric.aggregatableAcross().contains(entities)) {
      throw new IllegalArgumentException(
          metric.metricName()
              + " cannot be aggregated across "
              + entities
              + "; it can be across "
              + metric.aggregatableAcross());
    }
    return entities.crossEntityName();
  }

  private static TsExpression named(String name, Verification fromParts) {
    return new TsExpression(name, name, KNOWN_NAMES.getOrDefault(name, fromParts));
  }

  /** {@code last(<this>)}: only the latest point of the window. */
  public TsExpression last() {
    return new TsExpression("last(" + text + ")", metricName, verification);
  }

  /**
   * {@code dt0(<this>)}: the per-second change between consecutive points, dropping negative
   * changes (a counter reset); makes a rate of a gauge that only grows, such as a log end offset.
   */
  public TsExpression dt0() {
    return new TsExpression("dt0(" + text + ")", metricName, verification);
  }

  /** {@code <this> AS <alias>}: CM reports the alias in {@code metadata.alias}. */
  public TsExpression as(String alias) {
    if (!ALIAS.matcher(alias).matches()) {
      throw new IllegalArgumentException(
          "tsquery alias '" + alias + "' must match " + ALIAS.pattern());
    }
    return new TsExpression(text + " AS " + alias, metricName, verification);
  }

  /** The metric name inside, e.g. {@code total_event_drain_success_rate_across_flume_sinks}. */
  public String metricName() {
    return metricName;
  }

  public Verification verification() {
    return verification;
  }

  @Override
  public String toString() {
    return text;
  }
}
