package org.flafka.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.trial.TrialResult;
import org.junit.jupiter.api.Test;

class ConsoleProgressTest {
  private final AtomicLong now = new AtomicLong();
  private final StringWriter text = new StringWriter();

  private ConsoleProgress progress(boolean terminal) {
    return new ConsoleProgress(new PrintWriter(text), terminal, now::get, Duration.ofSeconds(40));
  }

  private static TrialResult failed(int number) {
    return new TrialResult(
        number, new Settings(Map.of()), false, TrialResult.Status.FAILED, "boom", List.of());
  }

  @Test
  void plainOutputHasOneLinePerTrialAndNoControlCharacters() {
    ConsoleProgress progress = progress(false);
    progress.status("starting");
    progress.trialStarted(1, 3, "core_hdfs_sinks=1");
    progress.phase("warm-up");
    progress.phase("measuring");
    now.addAndGet(Duration.ofSeconds(30).toNanos());
    progress.trialFinished(failed(1));
    progress.finished();
    assertEquals(
        "flafka sweep: starting\n"
            + "flafka sweep: t001 [core_hdfs_sinks=1] failed: boom  (ETA 1m)\n"
            + "flafka sweep: done in 30s\n",
        text.toString());
  }

  @Test
  void aTerminalGetsABarRedrawnInPlaceWithAnEta() {
    ConsoleProgress progress = progress(true);
    progress.trialStarted(1, 4, "core_hdfs_sinks=1");
    now.addAndGet(Duration.ofSeconds(20).toNanos());
    progress.phase("measuring");
    String drawn = text.toString();
    assertTrue(
        drawn.startsWith(
            "\r[........................] run 1 of ~4 core_hdfs_sinks=1: starting, ETA 2m40s"),
        drawn);
    // four trials of the 40 s guess, the current one 20 s along
    assertTrue(
        drawn.endsWith(
            "\r[........................] run 1 of ~4 core_hdfs_sinks=1: measuring, ETA 2m20s"
                + "\u001b[K"),
        drawn);
    now.addAndGet(Duration.ofSeconds(10).toNanos());
    progress.trialFinished(failed(1));
    progress.trialStarted(2, 4, "core_hdfs_sinks=2");
    assertTrue(
        text.toString()
            .endsWith(
                "\r[######..................] run 2 of ~4 core_hdfs_sinks=2: starting,"
                    + " ETA 1m30s\u001b[K"),
        text.toString());
    assertTrue(
        text.toString()
            .contains(
                "\r\u001b[Kflafka sweep: t001 [core_hdfs_sinks=1] failed: boom  (ETA 1m30s)\n"),
        "the bar is cleared before the trial's line: " + text);
  }
}
