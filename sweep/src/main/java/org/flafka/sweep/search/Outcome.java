package org.flafka.sweep.search;

/** What evaluating one point gave: a score to maximise, or no score and why. */
public sealed interface Outcome {

  /** The point ran and scored {@code score} (for the sweep: median end-to-end events/s). */
  record Scored(double score) implements Outcome {}

  /**
   * The point has no score: pruned before it ran ({@code ran} false, free) or failed while running
   * ({@code ran} true, it cost a trial).
   */
  record Unscored(String reason, boolean ran) implements Outcome {}

  /** Whether the evaluation cost a trial. */
  default boolean ran() {
    return this instanceof Scored || ((Unscored) this).ran();
  }
}
