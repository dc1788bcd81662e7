package org.flafka.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.flafka.sweep.audit.TrialAudit;
import org.flafka.sweep.search.GridStrategy;
import org.flafka.sweep.search.Outcome;
import org.flafka.sweep.search.SearchSpace;
import org.flafka.sweep.search.Strategy;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.trial.RuleSeed;
import org.flafka.sweep.trial.TrialResult;
import org.flafka.sweep.trial.TrialRunner;
import org.flafka.sweep.trial.Trials;

/**
 * One sweep: start the target, run the baseline (every dimension at its default), let the strategy
 * choose the trials, then run the other repeats in rounds over every measured trial, and hand the
 * results so far to {@code checkpoint} after every run, so an interrupted sweep still leaves its
 * data behind.
 *
 * <p>Why rounds: run back to back, a trial's repeats share whatever state the machine is in, and
 * the first trial (always the defaults) shares the warming stack's. In rounds, the second running
 * the trials in reverse order, every trial's runs sit at the same mean position in the sweep, so a
 * drift over the sweep (warming, cooling, a busy neighbour) weighs on every trial alike; the
 * defaults run first and last, and the difference between the two is the drift the reports show.
 * The target is not closed here: whoever made it closes it (also on Ctrl-C). A replay is the same
 * sweep over {@link Trials} that look results up instead of running them.
 */
public final class Sweep {
  /**
   * Up to this many grid points are pruned ahead, so the ETA counts only the trials that will run.
   */
  private static final long PRE_PRUNE_LIMIT = 5_000;

  private final Space space;
  private final Strategy strategy;
  private final Trials runner;
  private final Progress progress;
  private final Consumer<SweepResult> checkpoint;
  private final Map<Settings, TrialResult> decided = new HashMap<>();
  private final List<TrialResult> trials = new ArrayList<>();
  private long planned;
  private int runsStarted;
  private Instant started;

  /** A sweep that runs its trials on {@code target}. */
  public Sweep(
      Space space,
      Strategy strategy,
      Target target,
      Optional<TrialAudit> audit,
      Progress progress,
      Consumer<SweepResult> checkpoint) {
    this(
        space,
        strategy,
        new TrialRunner(target, space.timing(), audit, progress::phase),
        progress,
        checkpoint);
  }

  /** A sweep whose trials come from {@code trials} (on a target, or recorded for a replay). */
  public Sweep(
      Space space,
      Strategy strategy,
      Trials trials,
      Progress progress,
      Consumer<SweepResult> checkpoint) {
    this.space = space;
    this.strategy = strategy;
    this.progress = progress;
    this.checkpoint = checkpoint;
    this.runner = trials;
  }

  /** The search space the strategy sees, seeded by the scaling rules. */
  public static SearchSpace searchSpace(Space space) {
    return new SearchSpace(
        space.dimensionNames(),
        space.dimensions().stream().map(d -> d.values().size()).toList(),
        space.dimensions().stream().map(Sweep::ordered).toList(),
        RuleSeed.of(space));
  }

  /**
   * Whether a dimension's values are numbers in rising or falling order (batch sizes, sinks,
   * milliseconds).
   */
  static boolean ordered(Dimension dimension) {
    List<Object> values = dimension.values();
    if (values.size() < 3 || !values.stream().allMatch(value -> value instanceof Number)) {
      return false;
    }
    int direction = 0;
    for (int n = 1; n < values.size(); n++) {
      int step =
          Double.compare(
              ((Number) values.get(n)).doubleValue(), ((Number) values.get(n - 1)).doubleValue());
      if (step == 0 || (direction != 0 && step != direction)) {
        return false;
      }
      direction = step;
    }
    return true;
  }

  public SweepResult run() throws InterruptedException {
    started = Instant.now();
    SearchSpace searchSpace = searchSpace(space);
    long plannedTrials = plannedTrials(searchSpace);
    int rounds = runner.repeatsInRounds() ? space.timing().repeats() : 1;
    planned = plannedTrials * rounds;
    progress.status(
        String.format(
            "space %s (%s): %d dimension%s, %,d points; strategy %s plans ~%d trial%s of"
                + " %s warm-up + %s measured x %d",
            space.name(),
            space.source(),
            space.dimensions().size(),
            space.dimensions().size() == 1 ? "" : "s",
            space.gridSize(),
            strategy.name(),
            plannedTrials,
            plannedTrials == 1 ? "" : "s",
            Durations.format(space.timing().warmup()),
            Durations.format(space.timing().measure()),
            space.timing().repeats()));
    runner.start(progress::status);
    runner.warmUpStack(space.baseline(), progress::status);
    evaluate(space.baseline(), true);
    try {
      strategy.search(
          searchSpace,
          point -> {
            try {
              return outcome(evaluate(space.settingsAt(point.coordinates()), false));
            } catch (InterruptedException e) {
              throw new Interrupted(e);
            }
          });
    } catch (Interrupted e) {
      throw (InterruptedException) e.getCause();
    }
    for (int round = 2; round <= rounds; round++) {
      repeatRound(round, rounds);
    }
    progress.finished();
    return result(true);
  }

  /** Stops the running load at once; the caller then closes the target (Ctrl-C). */
  public void abort() {
    runner.abort();
  }

  /** The results so far. */
  public synchronized SweepResult result(boolean complete) {
    return new SweepResult(
        space,
        strategy.name(),
        runner.description(),
        runner.auditName().orElse(null),
        started,
        Instant.now(),
        trials,
        complete);
  }

  private long plannedTrials(SearchSpace searchSpace) {
    long baseline = space.indicesOf(space.baseline()) == null ? 1 : 0;
    if (strategy instanceof GridStrategy && space.gridSize() <= PRE_PRUNE_LIMIT) {
      long runnable =
          searchSpace.allPoints().stream()
              .filter(point -> runner.pruneReason(space.settingsAt(point.coordinates())).isEmpty())
              .count();
      return baseline + runnable;
    }
    return baseline + strategy.plannedEvaluations(searchSpace);
  }

  private TrialResult evaluate(Settings settings, boolean baseline) throws InterruptedException {
    TrialResult known = decided.get(settings);
    if (known != null) {
      return known;
    }
    int number = trials.size() + 1;
    String description = describe(settings);
    progress.trialStarted(++runsStarted, planned, (baseline ? "defaults: " : "") + description);
    TrialResult result = runner.run(number, settings, baseline);
    synchronized (this) {
      trials.add(result);
    }
    decided.put(settings, result);
    progress.trialFinished(result);
    checkpoint.accept(result(false));
    return result;
  }

  /**
   * Round {@code round}: one more run of every trial that has measured so far, in the order they
   * first ran (odd rounds) or the reverse (even rounds).
   */
  private void repeatRound(int round, int rounds) throws InterruptedException {
    List<Integer> order = new ArrayList<>();
    for (int index = 0; index < trials.size(); index++) {
      if (trials.get(index).status() == TrialResult.Status.OK) {
        order.add(index);
      }
    }
    boolean reversed = round % 2 == 0;
    if (reversed) {
      Collections.reverse(order);
    }
    progress.status(
        String.format(
            Locale.ROOT,
            "round %d of %d: %d trial%s again, %s",
            round,
            rounds,
            order.size(),
            order.size() == 1 ? "" : "s",
            reversed ? "last first" : "in the first round's order"));
    for (int index : order) {
      TrialResult trial = trials.get(index);
      progress.trialStarted(
          ++runsStarted,
          planned,
          "round "
              + round
              + ": "
              + (trial.baseline() ? "defaults: " : "")
              + describe(trial.settings()));
      TrialResult again = runner.repeat(trial, round);
      synchronized (this) {
        trials.set(index, again);
      }
      decided.put(trial.settings(), again);
      progress.trialFinished(again);
      checkpoint.accept(result(false));
    }
  }

  private static Outcome outcome(TrialResult result) {
    return switch (result.status()) {
      case OK -> new Outcome.Scored(result.endToEnd().median());
      case PRUNED -> new Outcome.Unscored(result.reason(), false);
      case FAILED -> new Outcome.Unscored(result.reason(), true);
    };
  }

  /** {@code edge_kafka_sinks=2 core_hdfs_sinks=4}: the trial's dimension values. */
  private String describe(Settings settings) {
    StringJoiner joiner = new StringJoiner(" ");
    for (Dimension dimension : space.dimensions()) {
      joiner.add(dimension.name() + "=" + settings.get(dimension.name()));
    }
    return joiner.toString();
  }

  /** Carries an interrupt through a strategy, which cannot throw checked exceptions. */
  static final class Interrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Interrupted(InterruptedException cause) {
      super(cause);
    }
  }
}
