package org.flafka.sweep.space;

import java.time.Duration;

/**
 * How long each trial runs: the load starts, the warm-up passes (JIT, batches filling, consumers
 * joining), then the counters are read at the start and the end of {@code measure}. The warm-up
 * lasts at least {@code warmup} and then until the rate into HDFS stops changing, at most {@code
 * warmupMax}: a pipeline still warming when a fixed window ended was measured low, and more so the
 * earlier in a sweep it ran. Each trial runs {@code repeats} times, in rounds over all trials
 * (docs/tools/sweep.md, "Order and drift"). After the load stops, the pipeline gets up to {@code
 * drain} to deliver what it holds, so the audit can count losses.
 */
public record Timing(
    Duration warmup, Duration warmupMax, Duration measure, int repeats, Duration drain) {
  public static final Timing DEFAULT =
      new Timing(
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(15),
          1,
          Duration.ofSeconds(60));

  public Timing {
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warmup must not be negative");
    }
    if (warmupMax.compareTo(warmup) < 0) {
      throw new IllegalArgumentException(
          "warmup_max ("
              + Durations.format(warmupMax)
              + ") must be at least warmup ("
              + Durations.format(warmup)
              + ")");
    }
    if (measure.toMillis() < 1000) {
      throw new IllegalArgumentException(
          "measure must be at least 1s, so counters move between two reads");
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("repeats must be at least 1");
    }
    if (drain.isNegative()) {
      throw new IllegalArgumentException("drain must not be negative");
    }
  }

  /**
   * This timing with {@code value} as the warm-up's minimum; the maximum rises with it when it
   * would be below it.
   */
  public Timing withWarmup(Duration value) {
    return new Timing(
        value, warmupMax.compareTo(value) < 0 ? value : warmupMax, measure, repeats, drain);
  }

  public Timing withWarmupMax(Duration value) {
    return new Timing(warmup, value, measure, repeats, drain);
  }

  public Timing withMeasure(Duration value) {
    return new Timing(warmup, warmupMax, value, repeats, drain);
  }

  public Timing withRepeats(int value) {
    return new Timing(warmup, warmupMax, measure, value, drain);
  }

  public Timing withDrain(Duration value) {
    return new Timing(warmup, warmupMax, measure, repeats, value);
  }
}
