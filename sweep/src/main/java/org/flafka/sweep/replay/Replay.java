package org.flafka.sweep.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.report.ResultsJson;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.trial.TrialResult;

/**
 * A replayed strategy against the sweep it replayed: how many trials each ran and how close the
 * strategy's best comes to the recorded best. The claim a smarter strategy has to earn: within
 * {@value #CLOSE_ENOUGH_PERCENT}% of the grid's best in at most a third of its trials.
 */
public record Replay(
    String strategy,
    long trialsRun,
    String recordedStrategy,
    long recordedTrialsRun,
    Optional<TrialResult> best,
    Optional<TrialResult> recordedBest,
    Space space) {
  static final int CLOSE_ENOUGH_PERCENT = 5;

  /**
   * The space a results file was measured on, read again from where it names (a built-in or a
   * file).
   */
  public static Space recordedSpace(ResultsJson.Recorded recorded) {
    String source = recorded.spaceSource();
    if (source.startsWith(SpaceParser.BUILT_IN_SOURCE_PREFIX)) {
      return SpaceParser.builtIn(source.substring(SpaceParser.BUILT_IN_SOURCE_PREFIX.length()));
    }
    if (!Files.isRegularFile(Path.of(source))) {
      throw new ReplayException(
          recorded.file()
              + " was measured on the space file "
              + source
              + ", which is"
              + " not there: give that space as SPACE");
    }
    return SpaceParser.parse(Path.of(source));
  }

  /** Compares the replay's result with the recorded sweep's. */
  public static Replay of(SweepResult replayed, RecordedTrials recorded) {
    return new Replay(
        replayed.strategy(),
        replayed.trialsRun(),
        recorded.recordedStrategy(),
        recorded.recordedTrialsRun(),
        replayed.best(),
        recorded.recordedBest(),
        replayed.space());
  }

  /**
   * The replay's best median as a fraction of the recorded best's, or NaN when either measured
   * nothing.
   */
  public double ratio() {
    if (best.isEmpty() || recordedBest.isEmpty()) {
      return Double.NaN;
    }
    return best.get().endToEnd().median() / recordedBest.get().endToEnd().median();
  }

  /**
   * Whether the strategy found within 5% of the recorded best in at most a third of the recorded
   * trials.
   */
  public boolean earnsItsKeep() {
    return ratio() >= 1 - CLOSE_ENOUGH_PERCENT / 100.0 && 3 * trialsRun <= recordedTrialsRun;
  }

  /** The line the replay prints under its summary. */
  public String describe() {
    if (best.isEmpty() || recordedBest.isEmpty()) {
      return "replay: no measured trial to compare";
    }
    return String.format(
        Locale.ROOT,
        "replay: %s ran %d of the %d trials the %s sweep ran (%.0f%%) and found %s"
            + " [%s] at %s events/s, %.1f%% of the recorded best %s [%s] at %s events/s: %s",
        strategy,
        trialsRun,
        recordedTrialsRun,
        recordedStrategy,
        100.0 * trialsRun / recordedTrialsRun,
        best.get().id(),
        settings(best.get()),
        grouped(best.get().endToEnd().median()),
        100 * ratio(),
        recordedBest.get().id(),
        settings(recordedBest.get()),
        grouped(recordedBest.get().endToEnd().median()),
        earnsItsKeep()
            ? "within " + CLOSE_ENOUGH_PERCENT + "% in at most a third of the trials"
            : ratio() < 1 - CLOSE_ENOUGH_PERCENT / 100.0
                ? "NOT within " + CLOSE_ENOUGH_PERCENT + "%"
                : "within " + CLOSE_ENOUGH_PERCENT + "%, but in MORE than a third of the trials");
  }

  private String settings(TrialResult trial) {
    StringJoiner joiner = new StringJoiner(" ");
    for (Dimension dimension : space.dimensions()) {
      joiner.add(dimension.name() + "=" + trial.settings().get(dimension.name()));
    }
    return joiner.toString();
  }

  private static String grouped(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }
}
