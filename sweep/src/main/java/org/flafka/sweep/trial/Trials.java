package org.flafka.sweep.trial;

import java.util.Optional;
import java.util.function.Consumer;
import org.flafka.sweep.space.Settings;

/**
 * Where a sweep's trial results come from: measured on a target ({@link TrialRunner}), or looked up
 * in a finished sweep's results ({@code org.flafka.sweep.replay.RecordedTrials}), so a strategy can
 * be replayed on measurements already made. The sweep and its strategy cannot tell the two apart.
 */
public interface Trials {
  /** For the report: what the trials ran on. */
  String description();

  /** The audit's name, or empty when trials are not audited. */
  Optional<String> auditName();

  /** Gets ready (starts the local stack); {@code status} takes progress lines. */
  void start(Consumer<String> status);

  /**
   * Before the first trial, warms up whatever starts cold (the local stack) with these settings;
   * not recorded. {@code status} takes progress lines.
   */
  default void warmUpStack(Settings settings, Consumer<String> status)
      throws InterruptedException {}

  /** Why the trial with these settings cannot run, or empty. Free: nothing runs. */
  Optional<String> pruneReason(Settings settings);

  /**
   * Trial {@code number} with these settings: pruned, measured (its first repeat, or every repeat
   * already recorded) or failed.
   */
  TrialResult run(int number, Settings settings, boolean baseline) throws InterruptedException;

  /**
   * {@code trial} with repeat {@code repeat} added; a sweep takes its repeats in rounds over every
   * trial ({@link org.flafka.sweep.Sweep}). Recorded trials already hold every repeat, so by
   * default the trial comes back as it is.
   */
  default TrialResult repeat(TrialResult trial, int repeat) throws InterruptedException {
    return trial;
  }

  /** Whether {@link #run} measures only the first repeat, leaving the others to {@link #repeat}. */
  default boolean repeatsInRounds() {
    return false;
  }

  /** Stops a running trial at once (Ctrl-C). */
  void abort();
}
