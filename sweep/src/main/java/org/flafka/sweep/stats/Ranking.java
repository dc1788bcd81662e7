package org.flafka.sweep.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Results ordered by median, best first, with the verdict on the best: a winner, or a tie with
 * every result whose repeats overlap the best's (the spread swamps the difference, so the sweep
 * does not pretend to know).
 *
 * @param ordered every result that has a median, best first
 * @param tiedWithBest the results after the first that tie with it; empty when the first is a clear
 *     winner
 */
public record Ranking<T>(List<T> ordered, List<T> tiedWithBest) {

  public static <T> Ranking<T> of(List<T> results, Function<T, Summary> summary) {
    List<T> ordered =
        new ArrayList<>(results.stream().filter(r -> !summary.apply(r).isEmpty()).toList());
    ordered.sort(Comparator.comparingDouble((T r) -> summary.apply(r).median()).reversed());
    List<T> tied = new ArrayList<>();
    if (!ordered.isEmpty()) {
      Summary best = summary.apply(ordered.get(0));
      for (T other : ordered.subList(1, ordered.size())) {
        if (best.tiesWith(summary.apply(other))) {
          tied.add(other);
        }
      }
    }
    return new Ranking<>(List.copyOf(ordered), List.copyOf(tied));
  }

  public boolean hasWinner() {
    return !ordered.isEmpty() && tiedWithBest.isEmpty();
  }

  public boolean isEmpty() {
    return ordered.isEmpty();
  }

  public T best() {
    return ordered.get(0);
  }
}
