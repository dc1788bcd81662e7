package org.flafka.sweep;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.trial.TrialResult;

/**
 * Progress on stderr. On a terminal, one line redrawn in place: a bar, runs done of planned (a run
 * is one repeat of one trial), the current run's phase, the ETA. Elsewhere (a log, CI), plain
 * lines: one per finished run, none per phase, no control characters. The ETA is the mean time of
 * the runs so far times the runs still planned; before the first run it comes from the timing.
 */
public final class ConsoleProgress implements Progress {
  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final Duration firstTrialGuess;
  private final long started;
  private long ranNanos;
  private long trialStart;
  private boolean trialRunning;
  private int number;
  private long planned;
  private String description = "";

  /** Trials that ran (pruned ones are free, and not in the plan). */
  private int finished;

  private boolean lineOpen;

  /** {@code firstTrialGuess} is how long one run should take, for the ETA before any has run. */
  public ConsoleProgress(
      PrintWriter err, boolean terminal, LongSupplier nanoTime, Duration firstTrialGuess) {
    this.err = err;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    this.firstTrialGuess = firstTrialGuess;
    this.started = nanoTime.getAsLong();
  }

  @Override
  public synchronized void status(String line) {
    clearLine();
    err.println("flafka sweep: " + line);
    err.flush();
  }

  @Override
  public synchronized void trialStarted(int number, long planned, String description) {
    this.number = number;
    this.planned = Math.max(planned, finished + 1);
    this.description = description;
    trialStart = nanoTime.getAsLong();
    trialRunning = true;
    draw("starting");
  }

  @Override
  public synchronized void phase(String phase) {
    draw(phase);
  }

  @Override
  public synchronized void trialFinished(TrialResult result) {
    trialRunning = false;
    if (result.status() != TrialResult.Status.PRUNED) {
      finished++;
      ranNanos += nanoTime.getAsLong() - trialStart;
    }
    clearLine();
    String outcome =
        switch (result.status()) {
          case OK ->
              String.format(Locale.ROOT, "%,.0f events/s into HDFS", result.endToEnd().median());
          case PRUNED -> "pruned: " + result.reason();
          case FAILED -> "failed: " + result.reason();
        };
    err.println(
        String.format(
            Locale.ROOT,
            "flafka sweep: %s [%s] %s%s",
            result.id(),
            description,
            outcome,
            result.status() == TrialResult.Status.PRUNED ? "" : "  (" + eta() + ")"));
    err.flush();
  }

  @Override
  public synchronized void finished() {
    clearLine();
    err.println(
        "flafka sweep: done in "
            + Durations.format(Duration.ofNanos(nanoTime.getAsLong() - started)));
    err.flush();
  }

  private void draw(String phase) {
    if (!terminal) {
      return;
    }
    int filled = planned == 0 ? 0 : (int) Math.min(BAR_WIDTH, BAR_WIDTH * finished / planned);
    String line =
        String.format(
            Locale.ROOT,
            "[%s%s] run %d of ~%d %s: %s, %s",
            "#".repeat(filled),
            ".".repeat(BAR_WIDTH - filled),
            number,
            planned,
            shorten(description),
            phase,
            eta());
    err.print("\r" + line + "\u001b[K");
    err.flush();
    lineOpen = true;
  }

  /**
   * "ETA 3m20s" for the trials still planned, less the time the running one has had (at most one
   * trial's).
   */
  String eta() {
    double perTrial = finished == 0 ? firstTrialGuess.toNanos() : (double) ranNanos / finished;
    double remaining = Math.max(0, planned - finished) * perTrial;
    if (trialRunning && finished < planned) {
      remaining = Math.max(0, remaining - Math.min(perTrial, nanoTime.getAsLong() - trialStart));
    }
    return "ETA " + Durations.format(Duration.ofNanos((long) remaining));
  }

  private void clearLine() {
    if (terminal && lineOpen) {
      err.print("\r\u001b[K");
      lineOpen = false;
    }
  }

  private static String shorten(String text) {
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }
}
