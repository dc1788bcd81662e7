package org.flafka.cm.emulator;

import java.time.Instant;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One time-series entity as CM models it (a host, a network interface, a service, a role, a Flume
 * component, a Kafka topic, ...): its unique id ({@code attributes.entityName}), display name,
 * {@code category}, the plural CM uses to aggregate across entities of its type ({@code
 * flume_sinks}, {@code network_interfaces}; null if none), its ancestors (the entities an aggregate
 * over it may be asked for) and its series, metric name → time → value.
 */
final class TsEntity {
  /** How many points a series keeps: 24 h at one-minute samples, 4 h at ten-second ones. */
  private static final int MAX_POINTS = 1440;

  private final String id;
  private final String displayName;
  private final String crossEntityName;
  private final Map<String, String> attributes;
  private final Set<String> ancestors;
  private final Map<String, NavigableMap<Instant, Double>> series = new ConcurrentHashMap<>();

  TsEntity(
      String id,
      String displayName,
      String crossEntityName,
      Map<String, String> attributes,
      Set<String> ancestors) {
    this.id = id;
    this.displayName = displayName;
    this.crossEntityName = crossEntityName;
    this.attributes = Map.copyOf(attributes);
    this.ancestors = Set.copyOf(ancestors);
  }

  String id() {
    return id;
  }

  String displayName() {
    return displayName;
  }

  String category() {
    return attributes.get("category");
  }

  String crossEntityName() {
    return crossEntityName;
  }

  Map<String, String> attributes() {
    return attributes;
  }

  Set<String> ancestors() {
    return ancestors;
  }

  boolean has(String metric) {
    return series.containsKey(metric);
  }

  void record(String metric, Instant at, double value) {
    NavigableMap<Instant, Double> points = series.computeIfAbsent(metric, m -> new TreeMap<>());
    synchronized (points) {
      points.put(at, value);
      while (points.size() > MAX_POINTS) {
        points.pollFirstEntry();
      }
    }
  }

  /** The points of {@code metric} in {@code [from, to]}, copied. */
  NavigableMap<Instant, Double> points(String metric, Instant from, Instant to) {
    NavigableMap<Instant, Double> points = series.get(metric);
    if (points == null) {
      return new TreeMap<>();
    }
    synchronized (points) {
      return new TreeMap<>(points.subMap(from, true, to, true));
    }
  }
}
