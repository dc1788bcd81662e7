package org.flafka.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.flafka.sweep.search.CoordinateDescent;
import org.flafka.sweep.search.GridStrategy;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.trial.Bottleneck;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.TrialResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's orchestration on a simulated target: real load generator, no processes. */
class SweepTest {
  private static final String TIMING =
      "timing: {warmup: 0s, measure: 1s, repeats: 1, drain: 10s}\n"
          + "load: {rate: 8000, connections: 1, devices: 10}\n";

  @TempDir Path dir;

  private Space space(String dimensions) {
    return SpaceParser.parse("space.yml", "test", TIMING + "dimensions:\n" + dimensions);
  }

  @Test
  void runsTheDefaultsFirstThenTheGridAndCheckpointsEveryTrial() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    List<SweepResult> checkpoints = new ArrayList<>();
    Sweep sweep =
        new Sweep(
            space("  core_hdfs_sinks: [1, 2]\n"),
            new GridStrategy(),
            target,
            Optional.empty(),
            Progress.NONE,
            checkpoints::add);
    SweepResult result = sweep.run();

    assertEquals(
        List.of("t001", "t002", "t003"), result.trials().stream().map(TrialResult::id).toList());
    TrialResult baseline = result.trials().get(0);
    assertTrue(baseline.baseline());
    assertEquals(4L, baseline.settings().get("core_hdfs_sinks"), "the template's default");
    assertEquals(
        List.of(1L, 2L),
        result.trials().subList(1, 3).stream()
            .map(t -> t.settings().get("core_hdfs_sinks"))
            .toList());
    assertTrue(result.trials().stream().allMatch(t -> t.status() == TrialResult.Status.OK));
    assertTrue(result.complete());
    assertEquals(3, checkpoints.size());
    assertEquals(List.of(1, 2, 3), checkpoints.stream().map(c -> c.trials().size()).toList());
    assertFalse(target.closed, "whoever made the target closes it");

    // 4 sinks keep up with the 8000 events/s load; 2 sinks deliver 6000, 1 sink 3000, backed up in
    // its channel
    assertEquals(8000, baseline.endToEnd().median(), 1600);
    assertEquals(3000, result.trials().get(1).endToEnd().median(), 600);
    assertEquals(6000, result.trials().get(2).endToEnd().median(), 1200);
    assertEquals(Bottleneck.CORE_SINKS, result.trials().get(1).bottleneck());
    assertEquals(
        Bottleneck.NONE,
        baseline.bottleneck(),
        "4 sinks kept up with the set rate: " + baseline.runs());
    assertEquals("t001", result.best().orElseThrow().id());

    Measurement run = result.trials().get(1).runs().get(0);
    assertTrue(run.drained(), "a 3000 events/s core drains its backlog within 10 s");
    assertEquals(0, run.countedLoss());
    assertEquals(run.sent(), run.delivered());
    assertEquals("not run: no audit given", run.auditNote());
    assertEquals(
        List.of(
            "start",
            "prepare t001-r1 partitions=4",
            "startAgents t001-r1 coreRate=12000",
            "stopAgents",
            "prepare t002-r1 partitions=4",
            "startAgents t002-r1 coreRate=3000",
            "stopAgents",
            "prepare t003-r1 partitions=4",
            "startAgents t003-r1 coreRate=6000",
            "stopAgents"),
        target.calls);
  }

  @Test
  void aColdTargetIsWarmedUpOnceWithTheDefaultsAndNothingOfItIsRecorded() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    target.cold = true;
    List<String> status = new ArrayList<>();
    Progress progress =
        new Progress() {
          @Override
          public void status(String line) {
            status.add(line);
          }

          @Override
          public void trialStarted(int number, long planned, String description) {}

          @Override
          public void phase(String phase) {}

          @Override
          public void trialFinished(TrialResult result) {}

          @Override
          public void finished() {}
        };
    SweepResult result =
        new Sweep(
                space("  core_hdfs_sinks: [4, 2]\n"),
                new GridStrategy(),
                target,
                Optional.empty(),
                progress,
                r -> {})
            .run();
    assertEquals(
        List.of(
            "start",
            "prepare warm-up partitions=4",
            "startAgents warm-up coreRate=12000",
            "killAgents",
            "prepare t001-r1 partitions=4",
            "startAgents t001-r1 coreRate=12000",
            "stopAgents",
            "prepare t002-r1 partitions=4",
            "startAgents t002-r1 coreRate=6000",
            "stopAgents"),
        target.calls);
    assertEquals(List.of("t001", "t002"), result.trials().stream().map(TrialResult::id).toList());
    assertTrue(
        status.contains("warming up the stack: one unrecorded run of the defaults"),
        status.toString());
  }

  @Test
  void theDefaultsAreNotRunTwiceWhenTheyArePartOfTheSpace() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    SweepResult result =
        new Sweep(
                space("  core_hdfs_sinks: [4, 2]\n"),
                new GridStrategy(),
                target,
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();
    assertEquals(2, result.trials().size());
    assertTrue(result.trials().get(0).baseline());
    assertEquals(4L, result.trials().get(0).settings().get("core_hdfs_sinks"));
  }

  @Test
  void aTrialThatFailsIsRecordedAndTheSweepGoesOn() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    SweepResult result =
        new Sweep(
                space("  core_hdfs_batch_size: [" + SimulatedTarget.BROKEN_BATCH + ", 10000]\n"),
                new GridStrategy(),
                target,
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();
    assertEquals(
        List.of(TrialResult.Status.OK, TrialResult.Status.FAILED),
        result.trials().stream().map(TrialResult::status).toList());
    assertEquals(
        "repeat 1: Flume agent core dropped a component at start-up: sink hdfs0",
        result.trials().get(1).reason());
    assertEquals(2, result.trialsRun());
  }

  @Test
  void prunedTrialsAreRecordedWithTheirReasonAndCostNothing() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    SweepResult result =
        new Sweep(
                space("  topic_partitions: [1, 4]\n  core_kafka_sources: [2]\n"),
                new GridStrategy(),
                target,
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();
    // the defaults (4 partitions, 2 sources) are the second point
    assertEquals(
        List.of(TrialResult.Status.OK, TrialResult.Status.PRUNED),
        result.trials().stream().map(TrialResult::status).toList());
    assertTrue(
        result.trials().get(1).reason().contains("[kafka-sources-vs-partitions]"),
        result.trials().get(1).reason());
    assertEquals(1, result.trialsPruned());
    assertEquals(1, target.calls.stream().filter(c -> c.startsWith("startAgents")).count());
  }

  @Test
  void aDeadStackEndsTheSweep() {
    SimulatedTarget target = new SimulatedTarget(dir);
    target.breakTheStack();
    Sweep sweep =
        new Sweep(
            space("  core_hdfs_batch_size: [" + SimulatedTarget.BROKEN_BATCH + "]\n"),
            new GridStrategy(),
            target,
            Optional.empty(),
            Progress.NONE,
            r -> {});
    // the defaults run; the broken trial fails, the health check then finds the stack dead
    TargetException e = assertThrows(TargetException.class, sweep::run);
    assertEquals("the simulated broker has died", e.getMessage());
    assertEquals(1, sweep.result(false).trials().size());
  }

  @Test
  void descentRunsFewerTrialsThanTheGrid() throws Exception {
    String dimensions =
        "  core_hdfs_sinks: [1, 2, 4]\n  core_hdfs_batch_size: [1000, 10000]\n"
            + "  edge_kafka_sinks: [1, 2]\n";
    SweepResult descent =
        new Sweep(
                space(dimensions),
                new CoordinateDescent(),
                new SimulatedTarget(dir),
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();
    assertTrue(descent.trialsRun() < 12, "descent ran " + descent.trialsRun() + " of 12 points");
    assertEquals("descent", descent.strategy());
    assertTrue(descent.best().orElseThrow().endToEnd().median() > 6000);
  }

  @Test
  void repeatsRunInRoundsTheSecondInReverseSoTheDefaultsRunFirstAndLast() throws Exception {
    SimulatedTarget target = new SimulatedTarget(dir);
    List<SweepResult> checkpoints = new ArrayList<>();
    SweepResult result =
        new Sweep(
                SpaceParser.parse(
                    "space.yml",
                    "test",
                    TIMING.replace("repeats: 1", "repeats: 2")
                        + "dimensions:\n  core_hdfs_sinks: [1, 2]\n"),
                new GridStrategy(),
                target,
                Optional.empty(),
                Progress.NONE,
                checkpoints::add)
            .run();

    assertEquals(
        List.of("t001-r1", "t002-r1", "t003-r1", "t003-r2", "t002-r2", "t001-r2"),
        target.calls.stream()
            .filter(c -> c.startsWith("prepare "))
            .map(c -> c.split(" ")[1])
            .toList());
    assertTrue(
        result.trials().stream().allMatch(t -> t.runs().size() == 2), result.trials().toString());
    assertEquals(
        List.of(1, 2), result.trials().get(0).runs().stream().map(Measurement::repeat).toList());
    assertEquals(6, checkpoints.size(), "a checkpoint after every run");
    assertTrue(result.defaultsDrift().isPresent());
    assertEquals(0, result.defaultsDrift().getAsDouble(), 0.2, "a simulated core does not drift");
  }

  /**
   * A stack that delivers a quarter of its rate at first and warms over 5 s: with a warm-up that
   * waits for the rate into HDFS to stop changing, the defaults, which run first, measure what they
   * deliver warm, twice what half their sinks deliver; with a fixed warm-up of 0 s, the same sweep
   * measures their first run on the cold stack, and the drift between their first and last run
   * shows it.
   */
  @Test
  void aStackThatStartsSlowDoesNotMakeTheDefaultsLoseWhenTheWarmUpWaitsForASteadyRate()
      throws Exception {
    String dimensions = "dimensions:\n  core_hdfs_sinks: [2]\n";
    String timing = "timing: {warmup: 0s, warmup_max: 20s, measure: 1s, repeats: 2, drain: 0s}\n";
    // above what either point delivers (4 sinks: 12000/s, 2 sinks: 6000/s), so both run flat out
    String load = "load: {rate: 16000, connections: 1, devices: 10}\n";
    SimulatedTarget warming = new SimulatedTarget(dir.resolve("steady"));
    warming.rampUp = java.time.Duration.ofSeconds(5);
    SweepResult steady =
        new Sweep(
                SpaceParser.parse("space.yml", "test", timing + load + dimensions),
                new GridStrategy(),
                warming,
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();

    TrialResult defaults = steady.trials().get(0);
    assertTrue(defaults.baseline());
    assertEquals("t001", steady.best().orElseThrow().id());
    for (Measurement run : defaults.runs()) {
      assertEquals(12000, run.endToEnd(), 1500, "run " + run.repeat() + " of the defaults");
    }
    assertTrue(
        defaults.runs().get(0).warmupSeconds() >= 2.5,
        "the first warm-up waited for the ramp: " + defaults.runs().get(0).warmupSeconds());
    assertEquals(
        2.0,
        defaults.endToEnd().median() / steady.trials().get(1).endToEnd().median(),
        0.3,
        "the verdict's ratio is the warm one");

    SimulatedTarget fixedWarmUp = new SimulatedTarget(dir.resolve("fixed"));
    fixedWarmUp.rampUp = java.time.Duration.ofSeconds(5);
    SweepResult fixed =
        new Sweep(
                SpaceParser.parse(
                    "space.yml",
                    "test",
                    timing.replace("warmup_max: 20s", "warmup_max: 0s") + load + dimensions),
                new GridStrategy(),
                fixedWarmUp,
                Optional.empty(),
                Progress.NONE,
                r -> {})
            .run();
    assertTrue(
        fixed.defaultsDrift().orElseThrow() > 0.2,
        "measured on the cold stack, the defaults' first run is low: "
            + fixed.trials().get(0).runs());
  }
}
