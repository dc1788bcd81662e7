package org.flafka.sweep.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.TrialResult;

/**
 * Keeps the files of every run whose audit found events missing, duplicated or corrupted (the run's
 * agent configurations, logs and load manifest) in the results directory, so that the work
 * directory can go and the evidence of what went wrong stays. Without them such a finding can only
 * be reported, never explained.
 */
public final class AuditedAnomalies {
  /** Where in the results directory the runs' files go, one directory per run. */
  public static final String DIRECTORY = "runs-with-audit-findings";

  private AuditedAnomalies() {}

  /**
   * Moves the directory of every run with an audit finding from {@code work/trials} into {@code
   * results/runs-with-audit-findings}.
   *
   * @return one line per run: what its audit found and where its files are now
   */
  public static List<String> keep(SweepResult result, Path work, Path results) {
    List<String> lines = new ArrayList<>();
    for (TrialResult trial : result.trials()) {
      for (Measurement run : trial.runs()) {
        AuditCounts audit = run.audit();
        if (audit == null || audit.missing() + audit.duplicated() + audit.corrupted() == 0) {
          continue;
        }
        String runName = trial.runName(run.repeat());
        Path from = work.resolve("trials").resolve(runName);
        Path to = results.resolve(DIRECTORY).resolve(runName);
        String finding =
            String.format(
                Locale.ROOT,
                "run %s audited %,d missing, %,d duplicated, %,d corrupted",
                runName,
                audit.missing(),
                audit.duplicated(),
                audit.corrupted());
        if (!Files.isDirectory(from)) {
          lines.add(finding + "; the target left no files of it");
          continue;
        }
        try {
          Files.createDirectories(to.getParent());
          Files.move(from, to);
          lines.add(finding + "; its agent configurations and logs are kept in " + to);
        } catch (IOException e) {
          throw new UncheckedIOException("could not keep the files of run " + runName, e);
        }
      }
    }
    return lines;
  }
}
