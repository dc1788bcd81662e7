package org.flafka.sweep.cm;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.flafka.cm.tsquery.CmMetric;
import org.flafka.cm.tsquery.FlumeChannelMetric;
import org.flafka.cm.tsquery.FlumeMetric;
import org.flafka.cm.tsquery.FlumeSinkMetric;
import org.flafka.cm.tsquery.FlumeSourceMetric;
import org.flafka.cm.tsquery.RoleMetric;
import org.flafka.cm.tsquery.TsExpression;
import org.flafka.cm.tsquery.TsPredicate;
import org.flafka.cm.tsquery.TsQuery;
import org.flafka.sweep.target.AgentSample;

/**
 * One agent's Flume counters and CPU read back from CM's time series. CM keeps a Flume counter only
 * as its per-second rate ({@code EventAcceptedCount} is {@code event_accepted_rate}, one point per
 * collection), so the count since the agent started is the rate integrated over the points since
 * then: each point's value times the seconds since the previous point, the first point times the
 * collection interval ({@code metricCollectionFrequencyMs}). Gauges ({@code channel_size}, {@code
 * channel_capacity}) are the newest point. The role's {@code cpu_user_rate} and {@code
 * cpu_system_rate} integrate to its CPU seconds.
 *
 * <p>Counters are keyed as Flume's JSON names them, each component by its CM entity name ({@code
 * SOURCE.<entity>}), so {@link AgentSample#sum} adds up the components of a stage as for the local
 * target.
 *
 * @param counters component → Flume attribute → value
 * @param cpuSeconds the role's CPU seconds since {@code from}
 * @param newest the time of the newest point read, or null when there was none
 */
record CounterReading(Map<String, Map<String, Long>> counters, double cpuSeconds, Instant newest) {

  /**
   * The Flume metrics a trial needs: each stage's counter, channel fill, and what failed to drain.
   */
  static final List<FlumeMetric> FLUME_METRICS =
      List.of(
          FlumeSourceMetric.EVENT_RECEIVED_RATE, FlumeSourceMetric.EVENT_ACCEPTED_RATE,
          FlumeChannelMetric.EVENT_PUT_SUCCESS_RATE, FlumeChannelMetric.EVENT_TAKE_SUCCESS_RATE,
          FlumeChannelMetric.CHANNEL_SIZE, FlumeChannelMetric.CHANNEL_CAPACITY,
          FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, FlumeSinkMetric.EVENT_DRAIN_ATTEMPT_RATE);

  private static final Map<String, CmMetric> BY_NAME =
      Stream.concat(FLUME_METRICS.stream(), Stream.of(RoleMetric.values()))
          .collect(Collectors.toUnmodifiableMap(CmMetric::metricName, Function.identity()));

  /**
   * {@code SELECT <the Flume metrics>, cpu_user_rate, cpu_system_rate WHERE roleName = "<role>"}:
   * the role's own series and those of its sources, channels and sinks (whose entities carry the
   * role's name).
   */
  static TsQuery query(String role) {
    Stream<TsExpression> flume = FLUME_METRICS.stream().map(TsExpression::of);
    Stream<TsExpression> cpu = Stream.of(RoleMetric.values()).map(TsExpression::of);
    return TsQuery.select(
        TsPredicate.eq(TsPredicate.Attribute.ROLE_NAME, role),
        Stream.concat(flume, cpu).toArray(TsExpression[]::new));
  }

  /**
   * Reads the responses to {@link #query}. {@code interval} is the collection interval to use where
   * a series does not say its own.
   */
  static CounterReading of(List<ApiTimeSeriesResponse> responses, Duration interval) {
    Map<String, Map<String, Long>> counters = new LinkedHashMap<>();
    double cpu = 0;
    Instant newest = null;
    for (ApiTimeSeriesResponse response : responses) {
      for (ApiTimeSeries series : response.timeSeries()) {
        CmMetric metric = BY_NAME.get(series.metadata().metricName());
        List<ApiTimeSeriesData> points =
            series.data().stream().filter(p -> p.value() != null).toList();
        if (metric == null || points.isEmpty()) {
          continue;
        }
        Instant last = points.get(points.size() - 1).instant();
        newest = newest == null || last.isAfter(newest) ? last : newest;
        Duration first = collectionInterval(series, interval);
        if (metric instanceof FlumeMetric flume) {
          String entity = series.metadata().attribute("entityName");
          String component =
              flume.flumeComponentPrefix()
                  + (entity != null ? entity : series.metadata().entityName());
          long value =
              flume.isRate()
                  ? Math.round(integral(points, first))
                  : Math.round(points.get(points.size() - 1).value());
          counters
              .computeIfAbsent(component, c -> new HashMap<>())
              .merge(flume.flumeAttribute(), value, Long::sum);
        } else {
          cpu += integral(points, first);
        }
      }
    }
    return new CounterReading(counters, cpu, newest);
  }

  /** The interval a series says it was collected at, else {@code fallback}. */
  static Duration collectionInterval(ApiTimeSeries series, Duration fallback) {
    Long millis = series.metadata().metricCollectionFrequencyMs();
    return millis != null && millis > 0 ? Duration.ofMillis(millis) : fallback;
  }

  /**
   * Σ value × seconds since the previous point (the first: × {@code first}); times are taken to the
   * millisecond, as CM stamps its points.
   */
  static double integral(List<ApiTimeSeriesData> points, Duration first) {
    double total = 0;
    Long previous = null;
    for (ApiTimeSeriesData point : points) {
      long at = point.instant().toEpochMilli();
      double seconds = previous == null ? first.toMillis() / 1000.0 : (at - previous) / 1000.0;
      total += point.value() * seconds;
      previous = at;
    }
    return total;
  }

  /**
   * This reading as the sample the trial runner compares: its time is that of the newest point (on
   * this JVM's {@link System#nanoTime} scale), so a rate between two samples is over the time CM's
   * points span.
   */
  AgentSample toSample() {
    long now = System.nanoTime();
    long age = newest == null ? 0 : Duration.between(newest, Instant.now()).toNanos();
    return new AgentSample(counters, cpuSeconds, now - Math.max(0, age));
  }
}
