package org.flafka.sweep.search;

import java.util.List;

/** The strategies by name, as spaces and {@code --strategy} choose them. */
public final class Strategies {
  private Strategies() {}

  public static List<String> names() {
    return List.of(GridStrategy.NAME, CoordinateDescent.NAME);
  }

  /** The strategy called {@code name}; throws naming the valid ones. */
  public static Strategy byName(String name) {
    return switch (name) {
      case GridStrategy.NAME -> new GridStrategy();
      case CoordinateDescent.NAME -> new CoordinateDescent();
      default ->
          throw new IllegalArgumentException(
              "unknown strategy '" + name + "'; use one of " + String.join(", ", names()));
    };
  }
}
