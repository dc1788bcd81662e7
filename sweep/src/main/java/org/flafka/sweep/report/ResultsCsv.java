package org.flafka.sweep.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;

/**
 * {@code results.csv}: one row per run of every trial (RFC 4180 quoting), every setting and every
 * measurement; a trial that never ran (pruned) or failed before its first run has one row with its
 * reason and no measurements. Rates are events per second over the measure window; CPU is process
 * CPU seconds per million events.
 */
public final class ResultsCsv {
  /** The measurement columns, after the trial columns and the settings. */
  public static final List<String> MEASUREMENTS = measurementColumns();

  private ResultsCsv() {}

  private static List<String> measurementColumns() {
    List<String> columns = new ArrayList<>(List.of("seconds", "load_sent_eps"));
    for (Stage stage : Stage.values()) {
      columns.add(stage.column());
    }
    columns.addAll(
        List.of(
            "end_to_end_eps",
            "edge_channel_fill",
            "core_channel_fill",
            "bottleneck",
            "edge_cpu_s_per_mevent",
            "core_cpu_s_per_mevent",
            "first_delivery_s",
            "warmup_s",
            "sent",
            "edge_accepted",
            "delivered",
            "counted_loss",
            "drained",
            "audit_expected",
            "audit_delivered",
            "audit_missing",
            "audit_duplicated",
            "audit_corrupted",
            "audit_note"));
    return List.copyOf(columns);
  }

  public static void write(SweepResult result, Path file) throws IOException {
    List<String> settings = Columns.settings(result);
    List<String> header =
        new ArrayList<>(List.of("trial", "repeat", "status", "baseline", "reason"));
    header.addAll(settings);
    header.addAll(MEASUREMENTS);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      row(out, header);
      for (TrialResult trial : result.trials()) {
        List<Measurement> runs =
            trial.runs().isEmpty() ? Collections.singletonList(null) : trial.runs();
        for (Measurement run : runs) {
          List<String> cells =
              new ArrayList<>(
                  List.of(
                      trial.id(),
                      run == null ? "" : Integer.toString(run.repeat()),
                      trial.status().name().toLowerCase(Locale.ROOT),
                      Boolean.toString(trial.baseline()),
                      trial.reason()));
          for (String name : settings) {
            cells.add(Columns.value(trial.settings().values().get(name)));
          }
          cells.addAll(measurements(run));
          row(out, cells);
        }
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static List<String> measurements(Measurement run) {
    List<String> cells = new ArrayList<>();
    if (run == null) {
      for (int n = 0; n < MEASUREMENTS.size(); n++) {
        cells.add("");
      }
      return cells;
    }
    cells.add(Columns.number(round(run.seconds(), 3)));
    cells.add(Columns.number(round(run.loadRate(), 1)));
    for (Stage stage : Stage.values()) {
      cells.add(Columns.number(round(run.rate(stage), 1)));
    }
    cells.add(Columns.number(round(run.endToEnd(), 1)));
    cells.add(Columns.number(round(run.edgeFill(), 4)));
    cells.add(Columns.number(round(run.coreFill(), 4)));
    cells.add(run.bottleneck().name().toLowerCase(Locale.ROOT));
    cells.add(Columns.number(round(run.edgeCpuPerMillion(), 2)));
    cells.add(Columns.number(round(run.coreCpuPerMillion(), 2)));
    cells.add(Columns.number(round(run.firstDeliverySeconds(), 2)));
    cells.add(Columns.number(round(run.warmupSeconds(), 2)));
    cells.add(Long.toString(run.sent()));
    cells.add(Long.toString(run.edgeAccepted()));
    cells.add(Long.toString(run.delivered()));
    cells.add(run.drained() ? Long.toString(run.countedLoss()) : "");
    cells.add(Boolean.toString(run.drained()));
    if (run.audit() == null) {
      cells.addAll(List.of("", "", "", "", ""));
    } else {
      cells.add(Long.toString(run.audit().expected()));
      cells.add(Long.toString(run.audit().delivered()));
      cells.add(Long.toString(run.audit().missing()));
      cells.add(Long.toString(run.audit().duplicated()));
      cells.add(Long.toString(run.audit().corrupted()));
    }
    cells.add(run.auditNote());
    return cells;
  }

  private static double round(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return value;
    }
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }

  private static void row(Writer out, List<String> cells) throws IOException {
    for (int n = 0; n < cells.size(); n++) {
      if (n > 0) {
        out.write(',');
      }
      out.write(quote(cells.get(n)));
    }
    out.write("\r\n");
  }

  static String quote(String cell) {
    if (cell.indexOf(',') < 0
        && cell.indexOf('"') < 0
        && cell.indexOf('\n') < 0
        && cell.indexOf('\r') < 0) {
      return cell;
    }
    return '"' + cell.replace("\"", "\"\"") + '"';
  }
}
