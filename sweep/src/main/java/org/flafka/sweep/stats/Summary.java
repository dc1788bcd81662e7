package org.flafka.sweep.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The repeats of one measurement: median, and the spread as the range min..max (with three repeats
 * or fewer, the only honest spread). One repeat has no spread: it cannot show noise, so it never
 * makes a tie.
 */
public record Summary(int count, double median, double min, double max) {

  public static Summary of(List<Double> values) {
    double[] sorted =
        values.stream()
            .mapToDouble(Double::doubleValue)
            .filter(v -> !Double.isNaN(v))
            .sorted()
            .toArray();
    if (sorted.length == 0) {
      return new Summary(0, Double.NaN, Double.NaN, Double.NaN);
    }
    return new Summary(sorted.length, median(sorted), sorted[0], sorted[sorted.length - 1]);
  }

  private static double median(double[] sorted) {
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** max - min. */
  public double spread() {
    return max - min;
  }

  /**
   * The spread as a fraction of the median (0.05 = the repeats lie within 5% of each other's
   * median).
   */
  public double relativeSpread() {
    return median == 0 ? 0 : spread() / median;
  }

  /**
   * Whether this result and {@code other} cannot be told apart: their ranges overlap, so the spread
   * of the repeats is as large as the difference between the two.
   */
  public boolean tiesWith(Summary other) {
    if (isEmpty() || other.isEmpty()) {
      return false;
    }
    return min <= other.max && other.min <= max;
  }

  /** How far this median is below {@code leader}'s, in percent of the leader's. */
  public double percentBehind(Summary leader) {
    return 100 * (1 - median / leader.median);
  }

  /**
   * Whether this and {@code other} are single measurements less than {@value #UNREPEATED_MARGIN}
   * apart: no spread says whether that is noise, so reports suggest repeats instead of calling a
   * winner.
   */
  public boolean unrepeatedAndClose(Summary other) {
    return count == 1
        && other.count == 1
        && Math.abs(median - other.median) < UNREPEATED_MARGIN * Math.max(median, other.median);
  }

  /**
   * Repeats of one point spread a median 16-18% (fastest minus slowest over the median, three
   * repeats) in grids 5 and 6 on the project's 2-core machine (docs/benchmarks.md): two single
   * measurements closer than this may have been ordered by noise alone.
   */
  public static final double UNREPEATED_MARGIN = 0.15;

  @Override
  public String toString() {
    return count == 0 ? "n/a" : Arrays.toString(new double[] {min, median, max});
  }
}
