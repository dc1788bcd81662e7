package org.flafka.sweep.trial;

/**
 * Whether a counter's rate has stopped changing: over the last measure-window's worth of readings,
 * the rate in its first half and in its second half agree within {@link #TOLERANCE} of the larger.
 * A pipeline still warming (JIT, page cache, HDFS pipelines, batches filling) delivers faster half
 * after half; a drift too slow to show between two halves is too small to move a measurement of
 * that length by more than the tolerance. A rate of 0 is never steady: nothing flows yet.
 */
final class SteadyRate {
  /** How far the two halves' rates may differ, as a fraction of the larger, and still be steady. */
  static final double TOLERANCE = 0.10;

  /** Readings per measure window: a quarter apart, two quarters to each half. */
  static final int READINGS_PER_WINDOW = 4;

  private final long[] nanos = new long[READINGS_PER_WINDOW + 1];
  private final long[] counts = new long[READINGS_PER_WINDOW + 1];
  private int readings;

  /** Adds a reading of the counter, {@code count}, at {@code nanoTime}. */
  void add(long nanoTime, long count) {
    int last = nanos.length - 1;
    System.arraycopy(nanos, 1, nanos, 0, last);
    System.arraycopy(counts, 1, counts, 0, last);
    nanos[last] = nanoTime;
    counts[last] = count;
    readings++;
  }

  boolean steady() {
    if (readings < nanos.length) {
      return false;
    }
    int middle = READINGS_PER_WINDOW / 2;
    double earlier = rate(0, middle);
    double later = rate(middle, READINGS_PER_WINDOW);
    double larger = Math.max(earlier, later);
    return larger > 0 && Math.abs(later - earlier) <= TOLERANCE * larger;
  }

  private double rate(int from, int to) {
    long elapsed = nanos[to] - nanos[from];
    return elapsed <= 0 ? 0 : (counts[to] - counts[from]) / (elapsed / 1e9);
  }
}
