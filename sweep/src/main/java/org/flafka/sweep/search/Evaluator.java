package org.flafka.sweep.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates each point at most once and keeps the evaluations in order: every strategy's memory.
 */
final class Evaluator {
  private final Objective objective;
  private final Map<Point, Outcome> seen = new HashMap<>();
  private final List<Evaluation> evaluations = new ArrayList<>();

  Evaluator(Objective objective) {
    this.objective = objective;
  }

  Outcome evaluate(Point point) {
    Outcome known = seen.get(point);
    if (known != null) {
      return known;
    }
    Outcome outcome = objective.evaluate(point);
    seen.put(point, outcome);
    evaluations.add(new Evaluation(point, outcome));
    return outcome;
  }

  /** Whether {@code point} was evaluated already (evaluating it again is free). */
  boolean known(Point point) {
    return seen.containsKey(point);
  }

  /** The score {@code point} got, or null when it was not evaluated or has no score. */
  Double knownScore(Point point) {
    return seen.get(point) instanceof Outcome.Scored scored ? scored.score() : null;
  }

  /** Evaluations so far that cost a trial. */
  long trialsRun() {
    return evaluations.stream().filter(e -> e.outcome().ran()).count();
  }

  /** The score of {@code point}, or negative infinity when it has none. */
  double score(Point point) {
    return evaluate(point) instanceof Outcome.Scored scored
        ? scored.score()
        : Double.NEGATIVE_INFINITY;
  }

  SearchResult result() {
    return new SearchResult(evaluations);
  }
}
