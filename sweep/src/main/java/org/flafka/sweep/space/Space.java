package org.flafka.sweep.space;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep space, as read from its YAML file (see docs/tools/sweep.md): the knobs held fixed, the
 * dimensions swept, the trial timing, the strategy to search with and the two dimensions the report
 * charts against each other.
 *
 * @param source where the space came from, for messages: a path or {@code built-in:<name>}
 * @param fixed knob values every trial shares (the file's {@code set:} and {@code load:} sections)
 * @param strategy the search strategy's name, or null to leave it to the command line
 */
public record Space(
    String name,
    String source,
    String description,
    String strategy,
    Timing timing,
    Map<String, Object> fixed,
    List<Dimension> dimensions,
    List<String> chartDimensions) {

  public Space {
    fixed = Collections.unmodifiableMap(new LinkedHashMap<>(fixed));
    dimensions = List.copyOf(dimensions);
    chartDimensions = List.copyOf(chartDimensions);
  }

  /** The number of points in the full grid (pruned ones included). */
  public long gridSize() {
    long size = 1;
    for (Dimension dimension : dimensions) {
      size = Math.multiplyExact(size, dimension.values().size());
    }
    return size;
  }

  /** The settings of the point whose dimension values have these indices. */
  public Settings settingsAt(List<Integer> indices) {
    if (indices.size() != dimensions.size()) {
      throw new IllegalArgumentException(
          "point has "
              + indices.size()
              + " coordinates, space has "
              + dimensions.size()
              + " dimensions");
    }
    Map<String, Object> values = new LinkedHashMap<>(fixed);
    for (int n = 0; n < dimensions.size(); n++) {
      values.put(dimensions.get(n).name(), dimensions.get(n).values().get(indices.get(n)));
    }
    return new Settings(values);
  }

  /**
   * The defaults: every dimension at its knob's default (the template's default for a template
   * variable), the fixed settings as they are. The report compares the best trial with this one.
   */
  public Settings baseline() {
    Map<String, Object> values = new LinkedHashMap<>(fixed);
    for (Dimension dimension : dimensions) {
      values.put(dimension.name(), dimension.knob().defaultValue());
    }
    return new Settings(values);
  }

  /**
   * The indices of {@code settings}' values in each dimension, or null when one of them is not in
   * the space.
   */
  public List<Integer> indicesOf(Settings settings) {
    List<Integer> indices = new ArrayList<>();
    for (Dimension dimension : dimensions) {
      int index = dimension.values().indexOf(settings.get(dimension.name()));
      if (index < 0) {
        return null;
      }
      indices.add(index);
    }
    return indices;
  }

  /** The names of the dimensions, in order. */
  public List<String> dimensionNames() {
    return dimensions.stream().map(Dimension::name).toList();
  }

  /** This space with other timing (command-line overrides). */
  public Space withTiming(Timing newTiming) {
    return new Space(
        name, source, description, strategy, newTiming, fixed, dimensions, chartDimensions);
  }
}
