package org.flafka.sweep;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.trial.TrialResult;

/**
 * A sweep so far or at its end: the space, how it was searched, and every trial in the order it was
 * decided (pruned ones included, with their reasons).
 *
 * @param strategy the strategy's name
 * @param target the target's description
 * @param audit the audit's name, or null when trials were not audited
 * @param complete false while running, or when the sweep was interrupted
 */
public record SweepResult(
    Space space,
    String strategy,
    String target,
    String audit,
    Instant started,
    Instant finished,
    List<TrialResult> trials,
    boolean complete) {
  public SweepResult {
    trials = List.copyOf(trials);
  }

  /** Trials that ran and were measured, best first, with the tie verdict. */
  public Ranking<TrialResult> ranking() {
    return Ranking.of(
        trials.stream().filter(t -> t.status() == TrialResult.Status.OK).toList(),
        TrialResult::endToEnd);
  }

  public Optional<TrialResult> best() {
    Ranking<TrialResult> ranking = ranking();
    return ranking.isEmpty() ? Optional.empty() : Optional.of(ranking.best());
  }

  /**
   * The runner-up, when it and the best are single measurements close enough for noise to have
   * ordered them ({@link org.flafka.sweep.stats.Summary#unrepeatedAndClose}): with no spread to
   * call a tie by, the reports say so instead of naming a clear winner. Not the defaults, whose
   * comparison with the best the reports make anyway.
   */
  public Optional<TrialResult> unrepeatedRunnerUp() {
    List<TrialResult> ordered = ranking().ordered();
    return ordered.size() > 1
            && !ordered.get(1).baseline()
            && ordered.get(0).endToEnd().unrepeatedAndClose(ordered.get(1).endToEnd())
        ? Optional.of(ordered.get(1))
        : Optional.empty();
  }

  public Optional<TrialResult> baseline() {
    return trials.stream().filter(TrialResult::baseline).findFirst();
  }

  /**
   * How much the defaults' rate into HDFS changed from their first run to their last, as a fraction
   * of the first (0.05: 5% faster at the end); empty without two measured runs. The defaults run
   * first in a sweep and, in the reversed second round, last: what changed between the two is the
   * machine and the stack over the sweep, not the configuration.
   */
  public OptionalDouble defaultsDrift() {
    return baseline()
        .filter(b -> b.status() == TrialResult.Status.OK && b.runs().size() >= 2)
        .map(
            b -> {
              double first = b.runs().get(0).endToEnd();
              double last = b.runs().get(b.runs().size() - 1).endToEnd();
              return first > 0 ? OptionalDouble.of(last / first - 1) : OptionalDouble.empty();
            })
        .orElse(OptionalDouble.empty());
  }

  /** Trials that cost time: ran, measured or failed. */
  public long trialsRun() {
    return trials.stream().filter(t -> t.status() != TrialResult.Status.PRUNED).count();
  }

  public long trialsPruned() {
    return trials.stream().filter(t -> t.status() == TrialResult.Status.PRUNED).count();
  }
}
