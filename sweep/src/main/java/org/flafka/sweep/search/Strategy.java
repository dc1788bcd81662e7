package org.flafka.sweep.search;

/**
 * A way to search a space for the point with the highest score. Strategies are pure: they see only
 * the space and the objective, evaluate each point at most once, and evaluate one point at a time
 * (the sweep's trials cannot overlap).
 */
public interface Strategy {
  String name();

  /** Searches {@code space}; returns every evaluation made. */
  SearchResult search(SearchSpace space, Objective objective);

  /**
   * About how many points the search evaluates, for the progress bar's ETA; never more than the
   * grid.
   */
  long plannedEvaluations(SearchSpace space);
}
