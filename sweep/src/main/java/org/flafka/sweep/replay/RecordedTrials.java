package org.flafka.sweep.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.flafka.sweep.report.ResultsJson;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.trial.TrialResult;
import org.flafka.sweep.trial.Trials;

/**
 * Trials looked up in a finished sweep's results instead of run: each trial a strategy asks for
 * gets the measurements recorded for the same point of the same space (pruned and failed ones as
 * they were). Replaying a strategy on a grid's results shows, on measurements that do not change
 * from one run to the next, which trials it would have run and what it would have found: a noisy
 * machine cannot make one strategy look better than another by luck.
 */
public final class RecordedTrials implements Trials {
  private final ResultsJson.Recorded recorded;
  private final Space space;
  private final Map<List<Integer>, TrialResult> byPoint = new HashMap<>();
  private final TrialResult baseline;

  /**
   * Checks {@code recorded} was measured on {@code space} (same dimensions, values and fixed
   * settings).
   */
  public RecordedTrials(Space space, ResultsJson.Recorded recorded) {
    this.space = space;
    this.recorded = recorded;
    checkSameSpace(space, recorded);
    TrialResult recordedBaseline = null;
    for (TrialResult trial : recorded.trials()) {
      if (trial.baseline() && recordedBaseline == null) {
        recordedBaseline = trial;
      }
      List<Integer> point = pointOf(trial.settings());
      if (point != null) {
        byPoint.putIfAbsent(point, trial);
      }
    }
    this.baseline = recordedBaseline;
  }

  private static void checkSameSpace(Space space, ResultsJson.Recorded recorded) {
    List<String> names = space.dimensionNames();
    if (!names.equals(new ArrayList<>(recorded.dimensions().keySet()))) {
      throw new ReplayException(
          recorded.file()
              + " was measured on dimensions "
              + recorded.dimensions().keySet()
              + ", not on "
              + names
              + " of space "
              + space.name()
              + " ("
              + space.source()
              + "): replay it with"
              + " the space it was measured on, or leave SPACE out to use the one it names ("
              + recorded.spaceSource()
              + ")");
    }
    for (Dimension dimension : space.dimensions()) {
      List<Object> values = recorded.dimensions().get(dimension.name());
      if (!sameValues(values, dimension.values())) {
        throw new ReplayException(
            recorded.file()
                + " swept "
                + dimension.name()
                + " over "
                + values
                + ", the space over "
                + dimension.values()
                + ": a replay needs the same values");
      }
    }
    if (!recorded.fixed().keySet().equals(space.fixed().keySet())
        || space.fixed().entrySet().stream()
            .anyMatch(
                entry ->
                    !ResultsJson.sameValue(
                        recorded.fixed().get(entry.getKey()), entry.getValue()))) {
      throw new ReplayException(
          recorded.file()
              + " was measured with the fixed settings "
              + recorded.fixed()
              + ", the space has "
              + space.fixed()
              + ": a replay needs the same");
    }
  }

  private static boolean sameValues(List<Object> recorded, List<Object> values) {
    if (recorded.size() != values.size()) {
      return false;
    }
    for (int n = 0; n < values.size(); n++) {
      if (!ResultsJson.sameValue(recorded.get(n), values.get(n))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The indices of the settings' dimension values, or null when a value is not one of the space's.
   */
  private List<Integer> pointOf(Settings settings) {
    List<Integer> point = new ArrayList<>();
    for (Dimension dimension : space.dimensions()) {
      Object value = settings.get(dimension.name());
      int index = -1;
      for (int n = 0; n < dimension.values().size() && index < 0; n++) {
        if (ResultsJson.sameValue(value, dimension.values().get(n))) {
          index = n;
        }
      }
      if (index < 0) {
        return null;
      }
      point.add(index);
    }
    return point;
  }

  /**
   * How many trials of the recorded sweep ran (measured or failed): what the replayed strategy is
   * compared with.
   */
  public long recordedTrialsRun() {
    return recorded.trials().stream().filter(t -> t.status() != TrialResult.Status.PRUNED).count();
  }

  /** The recorded sweep's best trial, as its own report named it. */
  public Optional<TrialResult> recordedBest() {
    Ranking<TrialResult> ranking =
        Ranking.of(
            recorded.trials().stream().filter(t -> t.status() == TrialResult.Status.OK).toList(),
            TrialResult::endToEnd);
    return ranking.isEmpty() ? Optional.empty() : Optional.of(ranking.best());
  }

  /** The strategy the recorded sweep ran. */
  public String recordedStrategy() {
    return recorded.strategy();
  }

  @Override
  public String description() {
    return "replay of "
        + recorded.file()
        + " ("
        + recorded.strategy()
        + " sweep; recorded measurements,"
        + " nothing ran)";
  }

  @Override
  public Optional<String> auditName() {
    return Optional.ofNullable(recorded.audit());
  }

  @Override
  public void start(Consumer<String> status) {
    status.accept(
        "replaying on the " + recorded.trials().size() + " trials recorded in " + recorded.file());
  }

  @Override
  public Optional<String> pruneReason(Settings settings) {
    List<Integer> point = pointOf(settings);
    TrialResult trial = point == null ? null : byPoint.get(point);
    return trial != null && trial.status() == TrialResult.Status.PRUNED
        ? Optional.of(trial.reason())
        : Optional.empty();
  }

  @Override
  public TrialResult run(int number, Settings settings, boolean isBaseline) {
    List<Integer> point = pointOf(settings);
    TrialResult trial =
        isBaseline && baseline != null ? baseline : point == null ? null : byPoint.get(point);
    if (trial == null) {
      throw new ReplayException(
          recorded.file()
              + " has no trial with "
              + describe(settings)
              + ", which the"
              + " strategy asks for: replay on the results of a grid sweep over the same space (every point)");
    }
    String origin = "replayed " + trial.id();
    return new TrialResult(
        number,
        settings,
        isBaseline,
        trial.status(),
        trial.reason().isEmpty() ? origin : trial.reason() + " (" + origin + ")",
        trial.runs());
  }

  @Override
  public void abort() {
    // nothing runs
  }

  private String describe(Settings settings) {
    StringJoiner joiner = new StringJoiner(" ");
    for (Dimension dimension : space.dimensions()) {
      joiner.add(dimension.name() + "=" + Objects.toString(settings.get(dimension.name())));
    }
    return joiner.toString();
  }
}
