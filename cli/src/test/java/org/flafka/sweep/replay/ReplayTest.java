package org.flafka.sweep.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flafka.cli.Flafka;
import org.flafka.render.Tier;
import org.flafka.sweep.Progress;
import org.flafka.sweep.Sweep;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.report.ReportWriter;
import org.flafka.sweep.report.ResultsJson;
import org.flafka.sweep.search.CoordinateDescent;
import org.flafka.sweep.search.GridStrategy;
import org.flafka.sweep.search.Outcome;
import org.flafka.sweep.search.Point;
import org.flafka.sweep.search.SearchResult;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.trial.Bottleneck;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A strategy replayed on a grid's recorded results: the same sweep and strategy code, nothing run.
 */
class ReplayTest {
  /**
   * Events/s per (HDFS sinks index, HDFS batch index, Kafka sources index): 2 sinks and batch 10000
   * are best.
   */
  private static final double[][][] LANDSCAPE = {
    {{5_000, 5_200}, {12_000, 12_500}, {16_000, 16_400}},
    {{9_000, 9_300}, {20_000, 21_000}, {27_000, 28_000}},
    {{7_000, 7_100}, {15_000, 15_500}, {20_000, 20_500}},
  };

  @TempDir Path dir;

  private Path spaceFile;
  private Space space;
  private SweepResult grid;

  @BeforeEach
  void recordAGrid() throws Exception {
    spaceFile = dir.resolve("proof.yml");
    Files.writeString(
        spaceFile,
        """
                timing: {warmup: 1s, measure: 2s, repeats: 1, drain: 5s}
                load: {rate: 40000, devices: 20}
                dimensions:
                  core_hdfs_sinks: [1, 2, 4]
                  core_hdfs_batch_size: [1000, 3000, 10000]
                  core_kafka_sources: [1, 2]
                """);
    space = SpaceParser.parse(spaceFile);
    List<TrialResult> trials = new ArrayList<>();
    // the grid, as a grid sweep records it: the defaults (4 sinks, 10000, 2 sources) first, then
    // every other point
    trials.add(ok(1, space.baseline(), true, LANDSCAPE[2][2][1]));
    int number = 2;
    for (int sinks = 0; sinks < 3; sinks++) {
      for (int batch = 0; batch < 3; batch++) {
        for (int sources = 0; sources < 2; sources++) {
          Settings settings = space.settingsAt(List.of(sinks, batch, sources));
          if (!settings.equals(space.baseline())) {
            trials.add(ok(number++, settings, false, LANDSCAPE[sinks][batch][sources]));
          }
        }
      }
    }
    grid =
        new SweepResult(
            space,
            "grid",
            "simulated",
            "flafka audit",
            Instant.parse("2026-11-21T08:00:00Z"),
            Instant.parse("2026-11-21T08:20:00Z"),
            trials,
            true);
    new ReportWriter(dir.resolve("grid")).finish(grid);
  }

  private static TrialResult ok(int number, Settings settings, boolean baseline, double endToEnd) {
    Map<Stage, Double> rates = new EnumMap<>(Stage.class);
    for (Stage stage : Stage.values()) {
      rates.put(stage, stage.tier() == Tier.EDGE ? 40_000.0 : endToEnd);
    }
    Measurement run =
        new Measurement(
            1,
            2.0,
            40_000,
            rates,
            0.01,
            0.9,
            Bottleneck.CORE_SINKS,
            7.5,
            45.25,
            900_000,
            900_000,
            900_000,
            true,
            5.5,
            12.0,
            new AuditCounts(900_000, 900_000, 0, 3, 0),
            "flafka audit");
    return new TrialResult(number, settings, baseline, TrialResult.Status.OK, "", List.of(run));
  }

  private ResultsJson.Recorded recorded() throws Exception {
    return ResultsJson.read(dir.resolve("grid").resolve("results.json"));
  }

  @Test
  void resultsReadBackAsTheyWereWritten() throws Exception {
    ResultsJson.Recorded recorded = recorded();
    assertEquals(spaceFile.toString(), recorded.spaceSource());
    assertEquals(
        List.of("core_hdfs_sinks", "core_hdfs_batch_size", "core_kafka_sources"),
        List.copyOf(recorded.dimensions().keySet()));
    assertEquals(List.of(1000L, 3000L, 10000L), recorded.dimensions().get("core_hdfs_batch_size"));
    assertEquals("grid", recorded.strategy());
    assertEquals(18, recorded.trials().size());
    TrialResult first = recorded.trials().get(0);
    TrialResult written = grid.trials().get(0);
    assertTrue(first.baseline());
    assertEquals(written.settings().values().toString(), first.settings().values().toString());
    Measurement read = first.runs().get(0);
    Measurement wrote = written.runs().get(0);
    assertEquals(wrote.rates(), read.rates());
    assertEquals(
        List.of(
            wrote.seconds(),
            wrote.loadRate(),
            wrote.edgeFill(),
            wrote.coreFill(),
            wrote.edgeCpuPerMillion(),
            wrote.coreCpuPerMillion(),
            wrote.firstDeliverySeconds(),
            wrote.warmupSeconds()),
        List.of(
            read.seconds(),
            read.loadRate(),
            read.edgeFill(),
            read.coreFill(),
            read.edgeCpuPerMillion(),
            read.coreCpuPerMillion(),
            read.firstDeliverySeconds(),
            read.warmupSeconds()));
    assertEquals(
        List.of(wrote.sent(), wrote.edgeAccepted(), wrote.delivered()),
        List.of(read.sent(), read.edgeAccepted(), read.delivered()));
    assertEquals(wrote.bottleneck(), read.bottleneck());
    assertEquals(wrote.audit(), read.audit());
    assertEquals(wrote.auditNote(), read.auditNote());
    assertTrue(read.drained());
  }

  @Test
  void aGridReplayedOnItsOwnResultsRunsTheSameTrialsAndFindsTheSameBest() throws Exception {
    RecordedTrials trials = new RecordedTrials(space, recorded());
    SweepResult replayed =
        new Sweep(space, new GridStrategy(), trials, Progress.NONE, r -> {}).run();
    assertEquals(18, replayed.trialsRun());
    assertEquals(grid.best().orElseThrow().settings(), replayed.best().orElseThrow().settings());
    Replay comparison = Replay.of(replayed, trials);
    assertEquals(1.0, comparison.ratio());
    assertFalse(comparison.earnsItsKeep(), "all the trials is not a third of them");
  }

  @Test
  void descentReplayedTakesTheDecisionsTheStrategyTakesOnTheSameScores() throws Exception {
    RecordedTrials trials = new RecordedTrials(space, recorded());
    SweepResult replayed =
        new Sweep(space, new CoordinateDescent(), trials, Progress.NONE, r -> {}).run();

    // The strategy on its own, scored from the landscape directly: the replay must ask for the same
    // points.
    Map<Point, Double> scores = new HashMap<>();
    for (int sinks = 0; sinks < 3; sinks++) {
      for (int batch = 0; batch < 3; batch++) {
        for (int sources = 0; sources < 2; sources++) {
          scores.put(Point.of(sinks, batch, sources), LANDSCAPE[sinks][batch][sources]);
        }
      }
    }
    SearchResult direct =
        new CoordinateDescent()
            .search(Sweep.searchSpace(space), point -> new Outcome.Scored(scores.get(point)));
    List<Settings> expected = new ArrayList<>(List.of(space.baseline()));
    direct.evaluations().stream()
        .map(e -> space.settingsAt(e.point().coordinates()))
        .filter(settings -> !expected.contains(settings))
        .forEach(expected::add);
    assertEquals(
        expected,
        replayed.trials().stream().map(TrialResult::settings).toList(),
        "the defaults first, then the descent's points in its order");

    Replay comparison = Replay.of(replayed, trials);
    assertEquals(
        1.0, comparison.ratio(), "seed 4 sinks, then the sinks line finds 2, the rest stays");
    assertEquals(6, comparison.trialsRun());
    assertTrue(comparison.earnsItsKeep());
    assertTrue(
        replayed.trials().get(1).reason().startsWith("replayed t0"),
        replayed.trials().get(1).reason());
    assertTrue(
        comparison
            .describe()
            .startsWith(
                "replay: descent ran 6 of the 18 trials the grid sweep ran (33%)" + " and found t"),
        comparison.describe());
    assertTrue(
        comparison
            .describe()
            .endsWith(
                ", 100.0% of the recorded best t013 [core_hdfs_sinks=2"
                    + " core_hdfs_batch_size=10000 core_kafka_sources=2] at 28,000 events/s: within 5% in at most a"
                    + " third of the trials"),
        comparison.describe());
  }

  @Test
  void aPointTheRecordHasNotIsOneClearError() throws Exception {
    ResultsJson.Recorded full = recorded();
    ResultsJson.Recorded partial =
        new ResultsJson.Recorded(
            full.file(),
            full.spaceName(),
            full.spaceSource(),
            full.dimensions(),
            full.fixed(),
            "descent",
            full.audit(),
            full.trials().subList(0, 3));
    ReplayException e =
        assertThrows(
            ReplayException.class,
            () ->
                new Sweep(
                        space,
                        new GridStrategy(),
                        new RecordedTrials(space, partial),
                        Progress.NONE,
                        r -> {})
                    .run());
    assertEquals(
        full.file()
            + " has no trial with core_hdfs_sinks=1 core_hdfs_batch_size=3000"
            + " core_kafka_sources=1, which the strategy asks for: replay on the results of a grid sweep over the"
            + " same space (every point)",
        e.getMessage());
  }

  @Test
  void resultsOfAnotherSpaceAreRefused() throws Exception {
    Space other =
        SpaceParser.parse(
            "other.yml",
            "other",
            """
                load: {rate: 40000, devices: 20}
                dimensions:
                  core_hdfs_sinks: [1, 2]
                  core_hdfs_batch_size: [1000, 3000, 10000]
                  core_kafka_sources: [1, 2]
                """);
    ReplayException e =
        assertThrows(ReplayException.class, () -> new RecordedTrials(other, recorded()));
    assertTrue(
        e.getMessage()
            .endsWith(
                "swept core_hdfs_sinks over [1, 2, 4], the space over [1, 2]: a replay"
                    + " needs the same values"),
        e.getMessage());
  }

  @Test
  void theCommandReplaysOnTheSpaceTheResultsNameAndPrintsTheComparison() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Flafka.execute(
            new PrintWriter(out),
            new PrintWriter(err),
            "sweep",
            "--replay",
            dir.resolve("grid").toString(),
            "--strategy",
            "descent",
            "--out",
            dir.resolve("replays").toString());
    assertEquals(0, code, err.toString());
    assertTrue(
        out.toString()
            .contains(
                "flafka sweep: space proof, strategy descent: 6 trials run, 0 pruned, of"
                    + " 18 points"),
        out.toString());
    assertTrue(out.toString().contains("replay: descent ran 6 of the 18 trials"), out.toString());
    assertTrue(
        err.toString()
            .contains(
                "replaying on the 18 trials recorded in "
                    + dir.resolve("grid").resolve("results.json")),
        err.toString());

    StringWriter badErr = new StringWriter();
    int bad =
        Flafka.execute(
            new PrintWriter(new StringWriter()),
            new PrintWriter(badErr),
            "sweep",
            "--replay",
            spaceFile.toString());
    assertEquals(2, bad);
    assertTrue(
        badErr.toString().startsWith("flafka: --replay: " + spaceFile + " is not valid JSON"),
        badErr.toString());
    assertEquals(1, badErr.toString().strip().lines().count(), badErr.toString());
  }
}
