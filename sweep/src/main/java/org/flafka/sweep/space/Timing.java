package org.flafka.sweep.space;

import java.time.Duration;

/**
 * How long each trial runs: the load starts, {@code warmup} passes (JIT, batches filling, consumers
 * joining), then the counters are read at the start and the end of {@code measure}; the whole trial
 * runs {@code repeats} times. After the load stops, the pipeline gets up to {@code drain} to
 * deliver what it holds, so the audit can count losses.
 */
public record Timing(Duration warmup, Duration measure, int repeats, Duration drain) {
  public static final Timing DEFAULT =
      new Timing(Duration.ofSeconds(10), Duration.ofSeconds(15), 1, Duration.ofSeconds(60));

  public Timing {
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warmup must not be negative");
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

  public Timing withWarmup(Duration value) {
    return new Timing(value, measure, repeats, drain);
  }

  public Timing withMeasure(Duration value) {
    return new Timing(warmup, value, repeats, drain);
  }

  public Timing withRepeats(int value) {
    return new Timing(warmup, measure, value, drain);
  }

  public Timing withDrain(Duration value) {
    return new Timing(warmup, measure, repeats, value);
  }
}
