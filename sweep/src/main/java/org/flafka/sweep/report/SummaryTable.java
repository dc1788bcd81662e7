package org.flafka.sweep.report;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.stats.Summary;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.TrialResult;

/**
 * The summary {@code flafka sweep} prints at the end: the best trials, the verdict, and where the
 * files are.
 */
public final class SummaryTable {
  /** Rows shown before "... and N more". */
  static final int ROWS = 10;

  private SummaryTable() {}

  public static void print(SweepResult result, Path directory, PrintWriter out) {
    Ranking<TrialResult> ranking = result.ranking();
    out.printf(
        Locale.ROOT,
        "flafka sweep: space %s, strategy %s: %d trial%s run, %d pruned, of %,d points%s%n%n",
        result.space().name(),
        result.strategy(),
        result.trialsRun(),
        result.trialsRun() == 1 ? "" : "s",
        result.trialsPruned(),
        result.space().gridSize(),
        result.complete() ? "" : " (INTERRUPTED)");
    List<String> header = new ArrayList<>(List.of("rank", "trial"));
    for (Dimension dimension : result.space().dimensions()) {
      header.add(dimension.name());
    }
    header.addAll(
        List.of(
            "events/s", "spread", "bottleneck", "edge CPU s/Mev", "core CPU s/Mev", "lost/dup"));
    List<List<String>> rows = new ArrayList<>();
    rows.add(header);
    List<TrialResult> shown =
        new ArrayList<>(ranking.ordered().subList(0, Math.min(ROWS, ranking.ordered().size())));
    result
        .baseline()
        .filter(b -> b.status() == TrialResult.Status.OK && !shown.contains(b))
        .ifPresent(shown::add);
    for (TrialResult trial : shown) {
      List<String> row = new ArrayList<>();
      row.add(Integer.toString(ranking.ordered().indexOf(trial) + 1));
      row.add(trial.id() + (trial.baseline() ? "*" : ""));
      for (Dimension dimension : result.space().dimensions()) {
        row.add(Columns.value(trial.settings().get(dimension.name())));
      }
      row.add(Columns.grouped(trial.endToEnd().median()));
      row.add(
          trial.endToEnd().count() <= 1
              ? "-"
              : String.format(Locale.ROOT, "%.1f%%", 100 * trial.endToEnd().relativeSpread()));
      row.add(trial.bottleneck() == null ? "" : trial.bottleneck().label());
      row.add(format(trial.summary(Measurement::edgeCpuPerMillion).median()));
      row.add(format(trial.summary(Measurement::coreCpuPerMillion).median()));
      row.add(lost(trial));
      rows.add(row);
    }
    printAligned(out, rows);
    if (ranking.ordered().size() > shown.size()) {
      out.printf(
          Locale.ROOT,
          "... and %d more measured trials in the report%n",
          ranking.ordered().size() - shown.size());
    }
    out.println("* the defaults");
    notDrained(result, out);
    long failed =
        result.trials().stream().filter(t -> t.status() == TrialResult.Status.FAILED).count();
    if (failed > 0) {
      out.printf(
          Locale.ROOT,
          "%d trial%s failed (reasons in the report)%n",
          failed,
          failed == 1 ? "" : "s");
    }
    out.println();
    if (ranking.isEmpty()) {
      out.println("no trial was measured: see the reasons in the report");
    } else {
      TrialResult best = ranking.best();
      out.printf(
          Locale.ROOT, "best: %s, %,.0f events/s into HDFS", best.id(), best.endToEnd().median());
      if (!ranking.hasWinner()) {
        out.print(
            " - a TIE with "
                + String.join(", ", ranking.tiedWithBest().stream().map(TrialResult::id).toList())
                + " (their repeats overlap)");
      }
      result
          .unrepeatedRunnerUp()
          .ifPresent(
              runnerUp ->
                  out.printf(
                      Locale.ROOT,
                      " - %s only %.1f%% behind, one repeat each: noise can order them; sweep both again with"
                          + " --repeats 3",
                      runnerUp.id(),
                      runnerUp.endToEnd().percentBehind(best.endToEnd())));
      result
          .baseline()
          .filter(b -> b.status() == TrialResult.Status.OK)
          .ifPresent(
              baseline ->
                  out.print(
                      baseline == best
                          ? "; the defaults are the best"
                          : String.format(
                              Locale.ROOT,
                              "; %.2fx the defaults (%s, %,.0f events/s; best %s, defaults %s)%s",
                              best.endToEnd().median() / baseline.endToEnd().median(),
                              baseline.id(),
                              baseline.endToEnd().median(),
                              range(best.endToEnd()),
                              range(baseline.endToEnd()),
                              best.endToEnd().unrepeatedAndClose(baseline.endToEnd())
                                  ? ", which one repeat each cannot tell apart from noise: try --repeats 3"
                                  : "")));
      out.println();
      result
          .defaultsDrift()
          .ifPresent(
              drift ->
                  out.printf(
                      Locale.ROOT,
                      "drift: the defaults' last run was %+.1f%% against their first (run first and last in"
                          + " the sweep; every trial's runs are spread over it alike)%n",
                      100 * drift));
      out.println(
          "best configuration: "
              + directory.resolve("best")
              + "/ (edge.properties, core.properties,"
              + " group_vars/edge.yml, group_vars/core.yml)");
    }
    out.println(
        "results: " + directory.resolve("results.csv") + ", " + directory.resolve("results.json"));
    out.println("report: " + directory.resolve("report.html"));
    out.flush();
  }

  /**
   * Missing and duplicated events by the audit, else sent minus delivered by the counters once
   * drained, else that nobody can tell yet.
   */
  private static String lost(TrialResult trial) {
    if (trial.runs().stream().allMatch(run -> run.audit() != null)) {
      return trial.runs().stream().mapToLong(run -> run.audit().missing()).sum()
          + "/"
          + trial.runs().stream().mapToLong(run -> run.audit().duplicated()).sum()
          + " (audit)";
    }
    if (trial.runs().stream().allMatch(Measurement::drained)) {
      return trial.runs().stream().mapToLong(Measurement::countedLoss).sum() + " (counted)";
    }
    return "? (not drained)";
  }

  /**
   * Says which measured trials were not audited because their backlog did not drain, how much was
   * still on its way, and how to audit every trial: the reader should not have to guess what "?"
   * hides.
   */
  private static void notDrained(SweepResult result, PrintWriter out) {
    List<String> backlogs = new ArrayList<>();
    for (TrialResult trial : result.trials()) {
      if (trial.status() == TrialResult.Status.OK
          && trial.runs().stream().anyMatch(run -> !run.drained())) {
        backlogs.add(
            String.format(
                Locale.ROOT,
                "%s %,d",
                trial.id(),
                trial.runs().stream()
                    .filter(run -> !run.drained())
                    .mapToLong(run -> run.edgeAccepted() - run.delivered())
                    .sum()));
      }
    }
    if (!backlogs.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "? not drained, so not audited: events still in Kafka or the core's channels when"
              + " the drain gave up (%s): these cores drain more slowly than the load sent, and the"
              + " backlog would outlast the drain time (%s). To audit every trial, set load.rate below"
              + " the slowest trial's events/s, or raise timing.drain.%n",
          String.join(", ", backlogs),
          Durations.format(result.space().timing().drain()));
    }
  }

  private static String format(double value) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static void printAligned(PrintWriter out, List<List<String>> rows) {
    int[] widths = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int n = 0; n < row.size(); n++) {
        widths[n] = Math.max(widths[n], row.get(n).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int n = 0; n < row.size(); n++) {
        line.append(String.format("%-" + widths[n] + "s", row.get(n)));
        if (n < row.size() - 1) {
          line.append("  ");
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** "95,000-101,000 over 2 runs", or "1 run" when there is no spread. */
  static String range(Summary summary) {
    return summary.count() <= 1
        ? summary.count() + " run"
        : String.format(
            Locale.ROOT, "%,.0f-%,.0f over %d runs", summary.min(), summary.max(), summary.count());
  }
}
