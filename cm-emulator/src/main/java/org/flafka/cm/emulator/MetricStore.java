package org.flafka.cm.emulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.flafka.cm.tsquery.Entity;

/** The emulator's time-series database: entities by id, each with its sampled series. */
final class MetricStore {
  private final Map<String, TsEntity> entities = new ConcurrentHashMap<>();

  /** The entity with this id, created by {@code create} the first time. */
  TsEntity entity(String id, Supplier<TsEntity> create) {
    return entities.computeIfAbsent(id, ignored -> create.get());
  }

  /**
   * Registers an entity that has no series of its own (a service, a topic, a host) if not there
   * yet.
   */
  void declare(TsEntity entity) {
    entities.putIfAbsent(entity.id(), entity);
  }

  TsEntity get(String id) {
    return entities.get(id);
  }

  Collection<TsEntity> all() {
    return entities.values();
  }

  /**
   * The entities aggregated {@code _across_<crossEntityName>} that have {@code metric} and descend
   * from {@code parent}.
   */
  List<TsEntity> children(TsEntity parent, String crossEntityName, String metric) {
    List<TsEntity> children = new ArrayList<>();
    for (TsEntity entity : entities.values()) {
      if (crossEntityName.equals(entity.crossEntityName())
          && entity.has(metric)
          && entity.ancestors().contains(parent.id())) {
        children.add(entity);
      }
    }
    return children;
  }

  /** Every entity some entity of {@code crossEntityName} with {@code metric} descends from. */
  Set<String> parentsOf(String crossEntityName, String metric) {
    Set<String> parents = new HashSet<>();
    for (TsEntity entity : entities.values()) {
      if (crossEntityName.equals(entity.crossEntityName()) && entity.has(metric)) {
        parents.addAll(entity.ancestors());
      }
    }
    return parents;
  }

  /**
   * Whether any entity aggregates as {@code crossEntityName}: tells {@code x_across_y} from a
   * metric name.
   */
  boolean isCrossEntityName(String name) {
    for (TsEntity entity : entities.values()) {
      if (name.equals(entity.crossEntityName())) {
        return true;
      }
    }
    return KNOWN_CROSS_NAMES.contains(name);
  }

  /**
   * Cross-entity names known before anything was sampled (the ones {@code
   * org.flafka.cm.tsquery.Entity} lists).
   */
  private static final Set<String> KNOWN_CROSS_NAMES =
      Arrays.stream(Entity.values())
          .map(Entity::crossEntityName)
          .filter(Objects::nonNull)
          .collect(Collectors.toUnmodifiableSet());
}
