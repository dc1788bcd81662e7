package org.flafka.sweep.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flafka.sweep.SweepResult;

/**
 * Writes a sweep's files into its results directory: {@code results.csv} and {@code results.json}
 * after every trial (so an interrupted sweep keeps what it measured), then {@code report.html} and
 * {@code best/} at the end.
 */
public final class ReportWriter {
  private final Path directory;

  public ReportWriter(Path directory) {
    this.directory = directory;
  }

  public Path directory() {
    return directory;
  }

  /** The data files, rewritten whole. */
  public void checkpoint(SweepResult result) {
    try {
      Files.createDirectories(directory);
      ResultsCsv.write(result, directory.resolve("results.csv"));
      ResultsJson.write(result, directory.resolve("results.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the results into " + directory + ": " + e.getMessage(), e);
    }
  }

  /** Every file: data, report and (when a trial was measured) the best configuration. */
  public void finish(SweepResult result) {
    checkpoint(result);
    try {
      HtmlReport.write(result, directory.resolve("report.html"));
      if (result.best().isPresent()) {
        BestConfig.write(result, result.best().get(), directory.resolve("best"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the report into " + directory + ": " + e.getMessage(), e);
    }
  }
}
