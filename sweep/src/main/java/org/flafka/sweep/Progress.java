package org.flafka.sweep;

import org.flafka.sweep.trial.TrialResult;

/** What a sweep reports while it runs; {@link ConsoleProgress} draws it on stderr. */
public interface Progress {
  /** A line about the sweep as a whole: stack starting, strategy chosen, ... */
  void status(String line);

  /**
   * A run starts: the {@code number}th of about {@code planned} in all (the strategy's estimate of
   * its trials times the repeats), of the trial {@code description} names.
   */
  void trialStarted(int number, long planned, String description);

  /** What the current trial is doing: "starting agents", "warm-up", "measuring", "draining", ... */
  void phase(String phase);

  void trialFinished(TrialResult result);

  /** The sweep ended; the progress line, if any, is finished off. */
  void finished();

  /** Reports nothing (tests). */
  Progress NONE =
      new Progress() {
        @Override
        public void status(String line) {}

        @Override
        public void trialStarted(int number, long planned, String description) {}

        @Override
        public void phase(String phase) {}

        @Override
        public void trialFinished(TrialResult result) {}

        @Override
        public void finished() {}
      };
}
