package org.flafka.sweep.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.stats.Summary;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;

/**
 * {@code report.html}: one self-contained page (inline SVG, no scripts): the verdict, events/s per
 * trial, events/s across two dimensions, per-stage rates with each trial's bottleneck, the defaults
 * against the best, and a table of every trial.
 */
public final class HtmlReport {
  static final String UNIT = "events/s";
  private static final String BEST_COLOR = "#59a14f";
  private static final String BASELINE_COLOR = "#f28e2b";
  private static final String OTHER_COLOR = "#4e79a7";

  private HtmlReport() {}

  public static void write(SweepResult result, Path file) throws IOException {
    Files.writeString(file, html(result), StandardCharsets.UTF_8);
  }

  static String html(SweepResult result) {
    StringBuilder html = new StringBuilder();
    html.append(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>flafka sweep: ")
        .append(e(result.space().name()))
        .append("</title>\n<style>")
        .append(
            "body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;"
                + "font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
                + "th{background:#f4f4f4}td.l,th.l{text-align:left}tr.best{background:#e7f5e4}"
                + "tr.baseline{background:#fdf0e2}tr.pruned{color:#888}tr.failed{color:#a00}"
                + ".chart{overflow-x:auto;margin:1em 0}dt{font-weight:bold}</style></head><body>\n");
    html.append("<h1>flafka sweep: ").append(e(result.space().name())).append("</h1>\n");
    header(html, result);
    verdict(html, result);
    html.append(
            "<h2 id=\"per-trial\">Events/s into HDFS per trial</h2>\n<p>Median of the repeats; the whisker spans"
                + " the slowest to the fastest repeat. <span style=\"color:"
                + BEST_COLOR
                + "\">&#9632;</span> best,"
                + " <span style=\"color:"
                + BASELINE_COLOR
                + "\">&#9632;</span> defaults.</p>\n<div class=\"chart\">")
        .append(perTrialChart(result))
        .append("</div>\n");
    List<String> chartDimensions = chartDimensions(result);
    html.append("<h2 id=\"two-dimensions\">Events/s across ")
        .append(e(String.join(" and ", chartDimensions)))
        .append(
            "</h2>\n<p>Each cell: the best median of the trials with those two values (other dimensions"
                + " as they were in those trials).</p>\n<div class=\"chart\">")
        .append(twoDimensionChart(result, chartDimensions))
        .append("</div>\n");
    html.append(
            "<h2 id=\"stages\">Per-stage rates</h2>\n<p>Events/s at each counted point of the pipeline (medians)."
                + " Kafka decouples the tiers, so the edge may run ahead of the core; in red, the part that limited"
                + " the trial (a tier slower than the other; in it, a full channel means its sinks, an empty one its"
                + " sources).</p>\n<div class=\"chart\">")
        .append(stagesChart(result, ranAndMeasured(result)))
        .append("</div>\n");
    comparison(html, result);
    table(html, result);
    html.append(
        "<h2>Files</h2>\n<ul><li><a href=\"results.csv\">results.csv</a>, <a href=\"results.json\">"
            + "results.json</a>: every trial, setting and measurement</li><li><a href=\"best/edge.properties\">"
            + "best/edge.properties</a>, <a href=\"best/core.properties\">best/core.properties</a>: the best"
            + " configuration</li><li><a href=\"best/group_vars/edge.yml\">best/group_vars/edge.yml</a>,"
            + " <a href=\"best/group_vars/core.yml\">best/group_vars/core.yml</a>: its template variables for"
            + " Ansible group_vars or flafka render --vars</li></ul>\n</body></html>\n");
    return html.toString();
  }

  private static void header(StringBuilder html, SweepResult result) {
    html.append("<dl>");
    item(
        html,
        "Space",
        result.space().source()
            + (result.space().description().isEmpty() ? "" : ": " + result.space().description()));
    item(html, "Target", result.target());
    item(
        html,
        "Strategy",
        result.strategy()
            + String.format(
                Locale.ROOT,
                ": %d trials run, %d pruned, of %,d" + " points in the grid",
                result.trialsRun(),
                result.trialsPruned(),
                result.space().gridSize()));
    item(
        html,
        "Timing",
        Durations.format(result.space().timing().warmup())
            + " warm-up, "
            + Durations.format(result.space().timing().measure())
            + " measured, "
            + result.space().timing().repeats()
            + " repeat"
            + (result.space().timing().repeats() == 1 ? "" : "s")
            + ", up to "
            + Durations.format(result.space().timing().drain())
            + " to drain");
    item(
        html,
        "Audit",
        result.audit() == null
            ? "not run (delivery is counted" + " from the agents' counters)"
            : result.audit());
    item(
        html,
        "Run",
        result.started()
            + " to "
            + result.finished()
            + (result.complete() ? "" : " (INTERRUPTED: partial results)"));
    html.append("</dl>\n");
  }

  private static void verdict(StringBuilder html, SweepResult result) {
    html.append("<h2 id=\"verdict\">Verdict</h2>\n<p>");
    Ranking<TrialResult> ranking = result.ranking();
    if (ranking.isEmpty()) {
      html.append("No trial was measured: see the reasons in the table.</p>\n");
      return;
    }
    TrialResult best = ranking.best();
    html.append(
        String.format(
            Locale.ROOT,
            "Best: <b>%s</b>, %,.0f events/s into HDFS (%s). ",
            best.id(),
            best.endToEnd().median(),
            spread(best.endToEnd())));
    if (!ranking.hasWinner()) {
      html.append("<b>A tie</b> with ")
          .append(
              e(String.join(", ", ranking.tiedWithBest().stream().map(TrialResult::id).toList())))
          .append(
              ": their repeats overlap the best's, so the difference is"
                  + " within the noise. Pick among them by CPU, or sweep them again with more repeats. ");
    }
    result
        .unrepeatedRunnerUp()
        .ifPresent(
            runnerUp ->
                html.append(
                    String.format(
                        Locale.ROOT,
                        "The next, <b>%s</b>, is only %.1f%% behind, one repeat each: noise can order two single"
                            + " measurements that close. Sweep both again with repeats: 3. ",
                        runnerUp.id(),
                        runnerUp.endToEnd().percentBehind(best.endToEnd()))));
    result
        .baseline()
        .filter(b -> b.status() == TrialResult.Status.OK)
        .ifPresent(
            baseline ->
                html.append(
                    baseline == best
                        ? "The defaults are the best."
                        : String.format(
                            Locale.ROOT,
                            "The defaults (%s) gave %,.0f events/s (%s): the best is %.2fx that%s",
                            baseline.id(),
                            baseline.endToEnd().median(),
                            spread(baseline.endToEnd()),
                            best.endToEnd().median() / baseline.endToEnd().median(),
                            best.endToEnd().unrepeatedAndClose(baseline.endToEnd())
                                ? ", which one repeat each cannot tell apart from noise: sweep again with repeats: 3."
                                : ".")));
    result
        .defaultsDrift()
        .ifPresent(
            drift ->
                html.append(
                    String.format(
                        Locale.ROOT,
                        " The defaults ran first and last: their last run was %+.1f%% against their first,"
                            + " the drift of the machine and the stack over the sweep, which weighs on every"
                            + " trial alike (the repeats ran in rounds, the second in reverse order).",
                        100 * drift)));
    html.append("</p>\n<p>Best settings: <code>")
        .append(e(describe(result, best)))
        .append("</code></p>\n");
  }

  private static String perTrialChart(SweepResult result) {
    TrialResult best = result.best().orElse(null);
    List<Svg.Bar> bars = new ArrayList<>();
    for (TrialResult trial : ranAndMeasured(result)) {
      Summary summary = trial.endToEnd();
      String color = trial == best ? BEST_COLOR : trial.baseline() ? BASELINE_COLOR : OTHER_COLOR;
      bars.add(
          new Svg.Bar(
              trial.id(),
              summary.median(),
              summary.min(),
              summary.max(),
              color,
              trial.id()
                  + " "
                  + describe(result, trial)
                  + ": "
                  + Columns.grouped(summary.median())
                  + " "
                  + UNIT
                  + " ("
                  + spread(summary)
                  + ")"));
    }
    return Svg.bars(bars, UNIT);
  }

  /**
   * The dimensions the report charts against each other: the space's choice, else the two whose
   * values moved the result most (the largest gap between their values' best trials).
   */
  static List<String> chartDimensions(SweepResult result) {
    if (!result.space().chartDimensions().isEmpty()) {
      return result.space().chartDimensions();
    }
    List<Dimension> dimensions = new ArrayList<>(result.space().dimensions());
    dimensions.sort(Comparator.comparingDouble((Dimension d) -> -effect(result, d)));
    return dimensions.stream().limit(2).map(Dimension::name).toList();
  }

  private static double effect(SweepResult result, Dimension dimension) {
    double high = Double.NEGATIVE_INFINITY;
    double low = Double.POSITIVE_INFINITY;
    for (Object value : dimension.values()) {
      double best = bestWith(result, dimension.name(), value, null, null);
      if (!Double.isNaN(best)) {
        high = Math.max(high, best);
        low = Math.min(low, best);
      }
    }
    return high > low ? high - low : 0;
  }

  private static double bestWith(
      SweepResult result, String name, Object value, String otherName, Object otherValue) {
    double best = Double.NaN;
    for (TrialResult trial : ranAndMeasured(result)) {
      if (Objects.equals(trial.settings().get(name), value)
          && (otherName == null || Objects.equals(trial.settings().get(otherName), otherValue))) {
        double median = trial.endToEnd().median();
        best = Double.isNaN(best) ? median : Math.max(best, median);
      }
    }
    return best;
  }

  private static String twoDimensionChart(SweepResult result, List<String> names) {
    Dimension rows = dimension(result, names.get(0));
    Dimension columns = names.size() > 1 ? dimension(result, names.get(1)) : null;
    List<String> rowLabels = rows.values().stream().map(Columns::value).toList();
    List<String> columnLabels =
        columns == null
            ? List.of("(one dimension)")
            : columns.values().stream().map(Columns::value).toList();
    double[][] cells = new double[rowLabels.size()][columnLabels.size()];
    for (int r = 0; r < rowLabels.size(); r++) {
      for (int c = 0; c < columnLabels.size(); c++) {
        cells[r][c] =
            columns == null
                ? bestWith(result, rows.name(), rows.values().get(r), null, null)
                : bestWith(
                    result,
                    rows.name(),
                    rows.values().get(r),
                    columns.name(),
                    columns.values().get(c));
      }
    }
    return Svg.heatmap(
        rows.name(), rowLabels, columns == null ? "" : columns.name(), columnLabels, cells, UNIT);
  }

  private static Dimension dimension(SweepResult result, String name) {
    return result.space().dimensions().stream()
        .filter(d -> d.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static String stagesChart(SweepResult result, List<TrialResult> trials) {
    List<String> series = new ArrayList<>(List.of("load sent"));
    for (Stage stage : Stage.values()) {
      series.add(stage.label());
    }
    double[][] values = new double[trials.size()][series.size()];
    List<String> groups = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (int n = 0; n < trials.size(); n++) {
      TrialResult trial = trials.get(n);
      groups.add(trial.id() + (trial.baseline() ? " (defaults)" : ""));
      notes.add(trial.bottleneck() == null ? "" : trial.bottleneck().label());
      values[n][0] = trial.summary(Measurement::loadRate).median();
      int s = 1;
      for (Stage stage : Stage.values()) {
        values[n][s++] = trial.stage(stage).median();
      }
    }
    return Svg.groupedBars(groups, notes, series, values, UNIT);
  }

  private static void comparison(StringBuilder html, SweepResult result) {
    html.append("<h2 id=\"default-vs-best\">Defaults against the best</h2>\n");
    TrialResult best = result.best().orElse(null);
    TrialResult baseline = result.baseline().orElse(null);
    if (best == null || baseline == null || baseline.status() != TrialResult.Status.OK) {
      html.append("<p>No comparison: ")
          .append(
              baseline == null
                  ? "the defaults did not run"
                  : baseline.status() != TrialResult.Status.OK
                      ? "the defaults ("
                          + baseline.id()
                          + ") were "
                          + baseline.status().name().toLowerCase(Locale.ROOT)
                          + ": "
                          + e(baseline.reason())
                      : "no trial was measured")
          .append(".</p>\n");
      return;
    }
    html.append(
        String.format(
            Locale.ROOT,
            "<p>%s (defaults) %,.0f events/s; %s (best) %,.0f events/s: %.2fx.</p>\n",
            baseline.id(),
            baseline.endToEnd().median(),
            best.id(),
            best.endToEnd().median(),
            best.endToEnd().median() / baseline.endToEnd().median()));
    html.append("<div class=\"chart\">")
        .append(stagesChart(result, baseline == best ? List.of(best) : List.of(baseline, best)))
        .append("</div>\n");
    html.append(
        "<table><tr><th class=\"l\">setting</th><th class=\"l\">defaults</th><th class=\"l\">best</th></tr>");
    for (Dimension dimension : result.space().dimensions()) {
      Object before = baseline.settings().get(dimension.name());
      Object after = best.settings().get(dimension.name());
      html.append("<tr")
          .append(Objects.equals(before, after) ? "" : " class=\"best\"")
          .append("><td class=\"l\">")
          .append(e(dimension.name()))
          .append("</td><td class=\"l\">")
          .append(e(Columns.value(before)))
          .append("</td><td class=\"l\">")
          .append(e(Columns.value(after)))
          .append("</td></tr>");
    }
    html.append("</table>\n");
  }

  private static void table(StringBuilder html, SweepResult result) {
    html.append(
        "<h2 id=\"trials\">Trials</h2>\n<table><tr><th class=\"l\">trial</th><th class=\"l\">status</th>");
    for (Dimension dimension : result.space().dimensions()) {
      html.append("<th class=\"l\">").append(e(dimension.name())).append("</th>");
    }
    html.append("<th>events/s into HDFS</th><th>spread</th>");
    for (Stage stage : Stage.values()) {
      html.append("<th>").append(e(stage.label())).append("</th>");
    }
    html.append(
        "<th class=\"l\">bottleneck</th><th>edge CPU s/M events</th><th>core CPU s/M events</th>"
            + "<th>sent</th><th>delivered</th><th>counted loss</th><th>audit missing</th><th>audit duplicated</th>"
            + "<th class=\"l\">reason</th></tr>\n");
    TrialResult best = result.best().orElse(null);
    for (TrialResult trial : result.trials()) {
      String rowClass =
          trial == best
              ? "best"
              : trial.baseline() ? "baseline" : trial.status().name().toLowerCase(Locale.ROOT);
      html.append("<tr class=\"")
          .append(rowClass)
          .append("\"><td class=\"l\">")
          .append(trial.id())
          .append(trial.baseline() ? " (defaults)" : "")
          .append("</td><td class=\"l\">")
          .append(trial.status().name().toLowerCase(Locale.ROOT))
          .append("</td>");
      for (Dimension dimension : result.space().dimensions()) {
        html.append("<td class=\"l\">")
            .append(e(Columns.value(trial.settings().get(dimension.name()))))
            .append("</td>");
      }
      html.append(cell(trial.endToEnd().median()))
          .append("<td>")
          .append(trial.endToEnd().isEmpty() ? "" : e(spread(trial.endToEnd())))
          .append("</td>");
      for (Stage stage : Stage.values()) {
        html.append(cell(trial.stage(stage).median()));
      }
      html.append("<td class=\"l\">")
          .append(trial.bottleneck() == null ? "" : e(trial.bottleneck().label()))
          .append("</td>");
      html.append(cell(trial.summary(Measurement::edgeCpuPerMillion).median(), "%.1f"));
      html.append(cell(trial.summary(Measurement::coreCpuPerMillion).median(), "%.1f"));
      html.append(cell(sum(trial, Measurement::sent)))
          .append(cell(sum(trial, Measurement::delivered)))
          .append(
              cell(
                  trial.runs().stream().allMatch(Measurement::drained)
                      ? sum(trial, Measurement::countedLoss)
                      : Double.NaN));
      html.append(cell(auditSum(trial, true))).append(cell(auditSum(trial, false)));
      html.append("<td class=\"l\">").append(e(reasonOrNote(trial))).append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  private static String reasonOrNote(TrialResult trial) {
    if (!trial.reason().isEmpty()) {
      return trial.reason();
    }
    List<String> notes = new ArrayList<>();
    for (Measurement run : trial.runs()) {
      if (!run.auditNote().isEmpty() && run.audit() == null) {
        notes.add("repeat " + run.repeat() + ": audit " + run.auditNote());
      }
    }
    return String.join("; ", notes);
  }

  private static double sum(TrialResult trial, ToLongFunction<Measurement> metric) {
    return trial.runs().isEmpty() ? Double.NaN : trial.runs().stream().mapToLong(metric).sum();
  }

  private static double auditSum(TrialResult trial, boolean missing) {
    if (trial.runs().isEmpty() || trial.runs().stream().anyMatch(run -> run.audit() == null)) {
      return Double.NaN;
    }
    return trial.runs().stream()
        .mapToLong(run -> missing ? run.audit().missing() : run.audit().duplicated())
        .sum();
  }

  private static String cell(double value) {
    return "<td>" + Columns.grouped(value) + "</td>";
  }

  private static String cell(double value, String format) {
    return "<td>"
        + (Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value))
        + "</td>";
  }

  /** "±3.1% over 3 repeats", or "1 repeat: no spread". */
  static String spread(Summary summary) {
    if (summary.count() <= 1) {
      return summary.count() + " repeat: no spread";
    }
    return String.format(
        Locale.ROOT,
        "%,.0f to %,.0f over %d repeats, spread %.1f%%",
        summary.min(),
        summary.max(),
        summary.count(),
        100 * summary.relativeSpread());
  }

  static String describe(SweepResult result, TrialResult trial) {
    List<String> parts = new ArrayList<>();
    for (Dimension dimension : result.space().dimensions()) {
      parts.add(dimension.name() + "=" + Columns.value(trial.settings().get(dimension.name())));
    }
    return String.join(" ", parts);
  }

  private static List<TrialResult> ranAndMeasured(SweepResult result) {
    return result.trials().stream().filter(t -> t.status() == TrialResult.Status.OK).toList();
  }

  private static void item(StringBuilder html, String term, String text) {
    html.append("<dt>").append(e(term)).append("</dt><dd>").append(e(text)).append("</dd>");
  }

  private static String e(String text) {
    return Svg.escape(text);
  }
}
