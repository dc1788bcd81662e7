package org.flafka.sweep.search;

import java.util.List;
import java.util.Map;

/**
 * A synthetic Flume-Kafka-HDFS pipeline for testing strategies: events/s is the slowest of four
 * stages (edge Kafka sinks, the topic, core Kafka sources, HDFS sinks), each scaling sub-linearly
 * with its parallelism and losing to per-commit overhead at small batches, all sharing a CPU that
 * gets slower with every extra thread, plus a few percent of measurement noise. Kafka sources
 * beyond the partitions are idle and such points are pruned, as the sweep's lint rules prune them.
 * The shape follows the seed project's lessons (docs/design.md): batching is everything, one HDFS
 * sink is ~15k events/s, parallel sinks scale it, compression trades CPU for bytes.
 */
final class SyntheticPipeline implements Objective {
  static final List<String> NAMES =
      List.of(
          "edge_kafka_sinks",
          "edge_kafka_flume_batch_size",
          "edge_kafka_linger_ms",
          "edge_kafka_compression_type",
          "topic_partitions",
          "core_kafka_sources",
          "core_hdfs_sinks",
          "core_hdfs_batch_size");
  static final Map<String, List<Object>> VALUES =
      Map.of(
          "edge_kafka_sinks", List.of(1, 2, 4, 8),
          "edge_kafka_flume_batch_size", List.of(100, 1000, 5000),
          "edge_kafka_linger_ms", List.of(0, 10, 50),
          "edge_kafka_compression_type", List.of("none", "snappy", "lz4"),
          "topic_partitions", List.of(2, 4, 8, 16),
          "core_kafka_sources", List.of(1, 2, 4, 8),
          "core_hdfs_sinks", List.of(1, 2, 4, 8),
          "core_hdfs_batch_size", List.of(100, 1000, 10000));

  private final List<String> names;
  private final double noise;
  private final long noiseSeed;

  /**
   * A pipeline over the dimensions {@code names} (a subset of {@link #NAMES}); the others stay at
   * defaults.
   */
  SyntheticPipeline(List<String> names, double noise, long noiseSeed) {
    this.names = List.copyOf(names);
    this.noise = noise;
    this.noiseSeed = noiseSeed;
  }

  SearchSpace space(Point seed) {
    return new SearchSpace(
        names,
        names.stream().map(name -> VALUES.get(name).size()).toList(),
        names.stream().map(name -> !name.equals("edge_kafka_compression_type")).toList(),
        seed);
  }

  /**
   * The point the sweep's RuleSeed picks: every parallelism knob at its largest value (sources no
   * more than partitions), everything else at the template default.
   */
  Point ruleSeed() {
    Map<String, Object> seed =
        Map.of(
            "edge_kafka_sinks",
            8,
            "edge_kafka_flume_batch_size",
            1000,
            "edge_kafka_linger_ms",
            10,
            "edge_kafka_compression_type",
            "snappy",
            "topic_partitions",
            16,
            "core_kafka_sources",
            8,
            "core_hdfs_sinks",
            8,
            "core_hdfs_batch_size",
            10000);
    int[] coordinates = new int[names.size()];
    for (int n = 0; n < names.size(); n++) {
      coordinates[n] = VALUES.get(names.get(n)).indexOf(seed.get(names.get(n)));
    }
    return Point.of(coordinates);
  }

  @Override
  public Outcome evaluate(Point point) {
    double value = trueValue(point);
    if (Double.isNaN(value)) {
      return new Outcome.Unscored("core_kafka_sources > topic_partitions", false);
    }
    // deterministic noise: the same point always measures the same, different seeds measure
    // differently
    long hash = (point.hashCode() * 0x9E3779B97F4A7C15L) ^ noiseSeed * 0xC2B2AE3D27D4EB4FL;
    double uniform = ((hash >>> 11) & ((1L << 53) - 1)) / (double) (1L << 53);
    return new Outcome.Scored(value * (1 + noise * (2 * uniform - 1)));
  }

  /** Events/s without noise, or NaN for a pruned point. */
  double trueValue(Point point) {
    int edgeSinks = (Integer) value(point, "edge_kafka_sinks", 2);
    int edgeBatch = (Integer) value(point, "edge_kafka_flume_batch_size", 1000);
    int linger = (Integer) value(point, "edge_kafka_linger_ms", 10);
    String compression = (String) value(point, "edge_kafka_compression_type", "snappy");
    int partitions = (Integer) value(point, "topic_partitions", 4);
    int sources = (Integer) value(point, "core_kafka_sources", 2);
    int hdfsSinks = (Integer) value(point, "core_hdfs_sinks", 4);
    int hdfsBatch = (Integer) value(point, "core_hdfs_batch_size", 10000);
    if (sources > partitions) {
      return Double.NaN;
    }
    double cpuCost =
        switch (compression) {
          case "none" -> 1.0;
          case "lz4" -> 0.95;
          default -> 0.92;
        };
    double bytes =
        switch (compression) {
          case "none" -> 1.0;
          case "lz4" -> 0.35;
          default -> 0.3;
        };
    double lingerFactor = linger == 0 ? 0.85 : linger == 10 ? 1.0 : 0.96;
    double edge =
        40_000
            * Math.pow(edgeSinks, 0.8)
            * batchEfficiency(edgeBatch, 200)
            * lingerFactor
            * cpuCost;
    double topic = Math.min(partitions * 30_000, 250_000) / Math.max(bytes, 0.5);
    double coreSources = sources * 45_000 * batchEfficiency(5000, 300);
    double hdfs = 15_000 * Math.pow(hdfsSinks, 0.9) * batchEfficiency(hdfsBatch, 500);
    int threads = edgeSinks + sources + hdfsSinks;
    double contention = 1 / (1 + 0.02 * Math.max(0, threads - 6));
    return Math.min(Math.min(edge, topic), Math.min(coreSources, hdfs)) * contention;
  }

  private static double batchEfficiency(int batch, int overheadEvents) {
    return batch / (double) (batch + overheadEvents);
  }

  private Object value(Point point, String name, Object fallback) {
    int dimension = names.indexOf(name);
    return dimension < 0 ? fallback : VALUES.get(name).get(point.get(dimension));
  }
}
