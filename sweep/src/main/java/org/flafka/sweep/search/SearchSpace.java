package org.flafka.sweep.search;

import java.util.ArrayList;
import java.util.List;

/**
 * What a strategy searches: dimension names and how many values each has, whether each dimension's
 * values are ordered (numbers rising or falling, along which throughput can be expected to rise to
 * a peak and fall beyond it), plus a starting point (for the sweep, the point the scaling rules
 * suggest; see org.flafka.sweep.trial.RuleSeed).
 */
public record SearchSpace(
    List<String> names, List<Integer> sizes, List<Boolean> ordered, Point seed) {
  public SearchSpace {
    names = List.copyOf(names);
    sizes = List.copyOf(sizes);
    ordered = List.copyOf(ordered);
    if (names.size() != sizes.size() || names.size() != ordered.size() || names.isEmpty()) {
      throw new IllegalArgumentException(
          "a search space needs one size per dimension, at least one dimension");
    }
    if (sizes.stream().anyMatch(size -> size < 1)) {
      throw new IllegalArgumentException("every dimension needs at least one value: " + sizes);
    }
    if (seed != null && !contains(sizes, seed)) {
      throw new IllegalArgumentException("seed " + seed + " is outside the space " + sizes);
    }
  }

  /** A space whose dimensions are all unordered (every value of a line is worth trying). */
  public SearchSpace(List<String> names, List<Integer> sizes, Point seed) {
    this(names, sizes, names.stream().map(name -> false).toList(), seed);
  }

  public int dimensions() {
    return sizes.size();
  }

  public int size(int dimension) {
    return sizes.get(dimension);
  }

  public boolean ordered(int dimension) {
    return ordered.get(dimension);
  }

  /** Points in the full grid. */
  public long gridSize() {
    long product = 1;
    for (int size : sizes) {
      product = Math.multiplyExact(product, size);
    }
    return product;
  }

  /**
   * Every point, first dimension slowest (the order a nested loop over the space file visits them).
   */
  public List<Point> allPoints() {
    List<Point> points = new ArrayList<>();
    int[] index = new int[sizes.size()];
    while (true) {
      points.add(Point.of(index.clone()));
      int dimension = sizes.size() - 1;
      while (dimension >= 0 && ++index[dimension] == sizes.get(dimension)) {
        index[dimension] = 0;
        dimension--;
      }
      if (dimension < 0) {
        return points;
      }
    }
  }

  /** The seed, or the middle value of every dimension when there is none. */
  public Point start() {
    if (seed != null) {
      return seed;
    }
    int[] middle = new int[sizes.size()];
    for (int n = 0; n < middle.length; n++) {
      middle[n] = (sizes.get(n) - 1) / 2;
    }
    return Point.of(middle);
  }

  private static boolean contains(List<Integer> sizes, Point point) {
    if (point.coordinates().size() != sizes.size()) {
      return false;
    }
    for (int n = 0; n < sizes.size(); n++) {
      if (point.get(n) < 0 || point.get(n) >= sizes.get(n)) {
        return false;
      }
    }
    return true;
  }
}
