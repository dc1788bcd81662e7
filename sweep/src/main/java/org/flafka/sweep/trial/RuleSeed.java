package org.flafka.sweep.trial;

import java.util.List;
import java.util.Set;
import org.flafka.sweep.search.Point;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Knobs;
import org.flafka.sweep.space.Space;

/**
 * Where coordinate descent starts, from the scaling rules: every parallelism knob (edge Kafka
 * sinks, topic partitions, core Kafka sources, HDFS sinks) at its largest value, with Kafka sources
 * no more than the partitions, so no stage starts starved and each stage's knobs show what they are
 * worth; the descent then trims the parallelism that only costs CPU. Every other knob starts at its
 * default (the template's), or the value nearest to it.
 */
public final class RuleSeed {
  static final Set<String> PARALLELISM =
      Set.of("edge_kafka_sinks", Knobs.TOPIC_PARTITIONS, "core_hdfs_sinks");
  static final String SOURCES = "core_kafka_sources";

  private RuleSeed() {}

  public static Point of(Space space) {
    List<Dimension> dimensions = space.dimensions();
    int[] seed = new int[dimensions.size()];
    for (int n = 0; n < dimensions.size(); n++) {
      Dimension dimension = dimensions.get(n);
      seed[n] =
          PARALLELISM.contains(dimension.name())
              ? largest(dimension.values())
              : nearest(dimension.values(), dimension.knob().defaultValue());
    }
    int partitionsDimension = space.dimensionNames().indexOf(Knobs.TOPIC_PARTITIONS);
    long partitions =
        partitionsDimension >= 0
            ? ((Number) dimensions.get(partitionsDimension).values().get(seed[partitionsDimension]))
                .longValue()
            : ((Number) space.baseline().get(Knobs.TOPIC_PARTITIONS)).longValue();
    int sourcesDimension = space.dimensionNames().indexOf(SOURCES);
    if (sourcesDimension >= 0) {
      seed[sourcesDimension] = largestAtMost(dimensions.get(sourcesDimension).values(), partitions);
    }
    return Point.of(seed);
  }

  private static int largest(List<Object> values) {
    int best = 0;
    for (int n = 1; n < values.size(); n++) {
      if (number(values.get(n)) > number(values.get(best))) {
        best = n;
      }
    }
    return best;
  }

  private static int largestAtMost(List<Object> values, long limit) {
    int best = -1;
    for (int n = 0; n < values.size(); n++) {
      double value = number(values.get(n));
      if (value <= limit && (best < 0 || value > number(values.get(best)))) {
        best = n;
      }
    }
    return best >= 0 ? best : smallest(values);
  }

  private static int smallest(List<Object> values) {
    int best = 0;
    for (int n = 1; n < values.size(); n++) {
      if (number(values.get(n)) < number(values.get(best))) {
        best = n;
      }
    }
    return best;
  }

  /**
   * The index of {@code target} in {@code values}, else of the value nearest to it on a log scale,
   * else 0.
   */
  private static int nearest(List<Object> values, Object target) {
    int exact = values.indexOf(target);
    if (exact >= 0 || !(target instanceof Number number) || number.doubleValue() <= 0) {
      return Math.max(exact, 0);
    }
    int best = 0;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int n = 0; n < values.size(); n++) {
      if (values.get(n) instanceof Number candidate && candidate.doubleValue() > 0) {
        double distance = Math.abs(Math.log(candidate.doubleValue() / number.doubleValue()));
        if (distance < bestDistance) {
          best = n;
          bestDistance = distance;
        }
      }
    }
    return best;
  }

  private static double number(Object value) {
    return value instanceof Number number ? number.doubleValue() : 0;
  }
}
