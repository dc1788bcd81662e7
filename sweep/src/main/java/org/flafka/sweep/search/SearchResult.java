package org.flafka.sweep.search;

import java.util.List;
import java.util.Optional;

/** What a search found and every evaluation it made, in order. */
public record SearchResult(List<Evaluation> evaluations) {
  public SearchResult {
    evaluations = List.copyOf(evaluations);
  }

  /** The best scored evaluation, if any point scored. */
  public Optional<Evaluation> best() {
    Evaluation best = null;
    for (Evaluation evaluation : evaluations) {
      if (evaluation.outcome() instanceof Outcome.Scored scored
          && (best == null || scored.score() > ((Outcome.Scored) best.outcome()).score())) {
        best = evaluation;
      }
    }
    return Optional.ofNullable(best);
  }

  public double bestScore() {
    return best().map(e -> ((Outcome.Scored) e.outcome()).score()).orElse(Double.NaN);
  }

  /** Evaluations that cost a trial (ran, scored or failed); pruned points are free. */
  public long trialsRun() {
    return evaluations.stream().filter(e -> e.outcome().ran()).count();
  }
}
