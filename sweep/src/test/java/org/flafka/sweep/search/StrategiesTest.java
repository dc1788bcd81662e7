package org.flafka.sweep.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class StrategiesTest {

  @Test
  void gridEvaluatesEveryPointOnceInFileOrder() {
    SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(2, 3), null);
    List<Point> seen = new ArrayList<>();
    SearchResult result =
        new GridStrategy()
            .search(
                space,
                point -> {
                  seen.add(point);
                  return new Outcome.Scored(point.get(0) * 10 + point.get(1));
                });
    assertEquals(
        List.of(
            Point.of(0, 0),
            Point.of(0, 1),
            Point.of(0, 2),
            Point.of(1, 0),
            Point.of(1, 1),
            Point.of(1, 2)),
        seen);
    assertEquals(Point.of(1, 2), result.best().orElseThrow().point());
    assertEquals(6, result.trialsRun());
    assertEquals(6, new GridStrategy().plannedEvaluations(space));
  }

  @Test
  void prunedPointsCostNoTrialAndNeverWin() {
    SearchSpace space = new SearchSpace(List.of("a"), List.of(3), null);
    SearchResult result =
        new GridStrategy()
            .search(
                space,
                point ->
                    point.get(0) == 2
                        ? new Outcome.Unscored("pruned", false)
                        : new Outcome.Scored(point.get(0)));
    assertEquals(2, result.trialsRun());
    assertEquals(Point.of(1), result.best().orElseThrow().point());
  }

  @Test
  void failedTrialsCostATrial() {
    SearchSpace space = new SearchSpace(List.of("a"), List.of(2), null);
    SearchResult result =
        new GridStrategy().search(space, point -> new Outcome.Unscored("agent died", true));
    assertEquals(2, result.trialsRun());
    assertTrue(result.best().isEmpty());
  }

  @Test
  void descentNeverEvaluatesAPointTwice() {
    SyntheticPipeline pipeline = new SyntheticPipeline(SyntheticPipeline.NAMES, 0.02, 7);
    Set<Point> seen = new HashSet<>();
    new CoordinateDescent()
        .search(
            pipeline.space(pipeline.ruleSeed()),
            point -> {
              assertTrue(seen.add(point), "evaluated twice: " + point);
              return pipeline.evaluate(point);
            });
  }

  @Test
  void descentLeavesAnUnscoredSeedForTheBestPointOnItsLines() {
    // the seed is pruned; every other point scores its first coordinate
    SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(3, 3), Point.of(0, 0));
    SearchResult result =
        new CoordinateDescent()
            .search(
                space,
                point ->
                    point.equals(Point.of(0, 0))
                        ? new Outcome.Unscored("pruned", false)
                        : new Outcome.Scored(1 + point.get(0) + point.get(1)));
    assertEquals(Point.of(2, 2), result.best().orElseThrow().point());
  }

  @Test
  void descentStopsWhenAPassMovesNowhere() {
    SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(3, 3), Point.of(1, 1));
    SearchResult result = new CoordinateDescent().search(space, point -> new Outcome.Scored(5));
    // seed plus two more values on each of the two lines, and nothing after the pass that did not
    // move
    assertEquals(5, result.trialsRun());
  }

  @Test
  void anOrderedLineIsWalkedTowardsItsPeakAndNoFurther() {
    // one ordered dimension of five values, peak at index 3, seed at index 1
    double[] scores = {10, 20, 30, 40, 35};
    SearchSpace space = new SearchSpace(List.of("batch"), List.of(5), List.of(true), Point.of(1));
    List<Point> seen = new ArrayList<>();
    SearchResult result =
        new CoordinateDescent()
            .search(
                space,
                point -> {
                  seen.add(point);
                  return new Outcome.Scored(scores[point.get(0)]);
                });
    assertEquals(
        List.of(Point.of(1), Point.of(2), Point.of(3), Point.of(4)),
        seen,
        "up while it gets better, one step past the peak, and never down: the far side of a rise cannot win");
    assertEquals(Point.of(3), result.best().orElseThrow().point());
  }

  @Test
  void aDiagonalProbeFindsTheCombinationNoSingleMoveReaches() {
    // two interacting knobs a and b: each alone is worse than the seed, both together are best; c,
    // d and e only hurt (five dimensions, so a third of the grid leaves room for a probe after the
    // first pass)
    SearchSpace space =
        new SearchSpace(
            List.of("a", "b", "c", "d", "e"), List.of(2, 2, 2, 2, 2), Point.of(0, 0, 0, 0, 0));
    SearchResult result =
        new CoordinateDescent()
            .search(
                space,
                point ->
                    new Outcome.Scored(
                        (point.get(0) + point.get(1) == 1
                                ? 80.0
                                : point.get(0) + point.get(1) == 2 ? 130 : 100)
                            - 40 * point.get(2)
                            - 30 * point.get(3)
                            - 20 * point.get(4)));
    assertEquals(Point.of(1, 1, 0, 0, 0), result.best().orElseThrow().point());
    assertEquals(
        List.of(
            Point.of(0, 0, 0, 0, 0),
            Point.of(1, 0, 0, 0, 0),
            Point.of(0, 1, 0, 0, 0),
            Point.of(0, 0, 1, 0, 0),
            Point.of(0, 0, 0, 1, 0),
            Point.of(0, 0, 0, 0, 1),
            Point.of(1, 1, 0, 0, 0)),
        result.evaluations().stream().map(Evaluation::point).toList().subList(0, 7),
        "a pass that moves nowhere, then the pair whose runner-ups scored best (a and b, 80 + 80)"
            + " (then a pass from there)");
  }

  @Test
  void descentStaysWithinItsBudget() {
    SearchSpace space =
        new SearchSpace(
            List.of("a", "b", "c"),
            List.of(3, 3, 2),
            List.of(true, true, false),
            Point.of(2, 2, 1));
    assertEquals(6, CoordinateDescent.budget(space), "a third of 18");
    // a landscape that keeps rewarding moves: every point scores its distance from the seed
    SearchResult result =
        new CoordinateDescent()
            .search(
                space,
                point ->
                    new Outcome.Scored(
                        1
                            + (2 - point.get(0))
                            + (2 - point.get(1))
                            + (1 - point.get(2))
                            + 0.1 * point.get(0) * point.get(1)));
    assertEquals(6, result.trialsRun());
    assertEquals(
        5,
        CoordinateDescent.budget(new SearchSpace(List.of("a", "b"), List.of(3, 3), null)),
        "one full pass (1 + 2 + 2) when that is more than a third");
    assertEquals(
        5,
        CoordinateDescent.budget(
            new SearchSpace(List.of("a", "b", "c", "d"), List.of(2, 2, 2, 2), null)),
        "a third of 16 rounded down: 6 trials would be more than a third");
  }

  /**
   * The landscapes the core space measured on this project's 2-core machine (docs/benchmarks.md,
   * results in docs/sweep-runs/): medians of events/s into HDFS by HDFS sinks 1|2|4, HDFS batch
   * 1000|3000|10000 and Kafka source batch 1000|5000, seeded at the defaults 4 / 10000 / 5000. Grid
   * 1 (one repeat, Flume's HDFS sink): the best, 2 / 3000 / 1000, beats the runner-ups of its lines
   * only in combination. Grid 3 (three repeats): the best combines two of the three steps that
   * gained from the seed, not all three. Grid 5 (three repeats, the core's own plugins, load above
   * every point): every step from the seed gains and the best combines them; the descent without
   * its screening walked along the sinks first and stopped at 86%. Descent must reach the best
   * within a third of the grid, and mostly still when every measurement is off by up to 5% either
   * way.
   */
  static Stream<Arguments> measuredCoreGrids() {
    return Stream.of(
        Arguments.of(
            "grid 1",
            new double[][][] {
              {{15_156, 12_862}, {19_751, 11_881}, {15_971, 10_749}},
              {{27_176, 21_528}, {37_950, 30_229}, {25_866, 35_850}},
              {{17_333, 22_828}, {21_385, 30_475}, {32_897, 19_770}}
            },
            Point.of(1, 1, 0),
            182),
        Arguments.of(
            "grid 3",
            new double[][][] {
              {{11_334, 9_568}, {11_958, 14_019}, {14_946, 15_960}},
              {{18_751, 24_928}, {21_829, 27_818}, {30_920, 23_922}},
              {{15_144, 16_045}, {17_617, 12_844}, {18_874, 9_963}}
            },
            Point.of(1, 2, 0),
            199),
        Arguments.of(
            "grid 5",
            new double[][][] {
              {{27_593, 27_323}, {52_175, 57_527}, {80_516, 93_428}},
              {{68_259, 61_002}, {109_195, 91_039}, {84_546, 80_674}},
              {{71_591, 68_872}, {74_532, 107_603}, {92_862, 63_605}}
            },
            Point.of(1, 1, 0),
            200));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("measuredCoreGrids")
  void descentFindsTheBestOfAMeasuredCoreGridInAThird(
      String grid, double[][][] measured, Point gridBest, int noisyWithinFivePercent) {
    SearchSpace space =
        new SearchSpace(
            List.of("core_hdfs_sinks", "core_hdfs_batch_size", "core_source_batch_size"),
            List.of(3, 3, 2),
            List.of(true, true, false),
            Point.of(2, 2, 1));
    SearchResult exact =
        new CoordinateDescent()
            .search(
                space,
                point -> new Outcome.Scored(measured[point.get(0)][point.get(1)][point.get(2)]));
    assertEquals(gridBest, exact.best().orElseThrow().point());
    assertEquals(6, exact.trialsRun());

    double best = measured[gridBest.get(0)][gridBest.get(1)][gridBest.get(2)];
    Random noise = new Random(42);
    int withinFivePercent = 0;
    for (int draw = 0; draw < 200; draw++) {
      Map<Point, Double> noisy = new HashMap<>();
      for (Point point : space.allPoints()) {
        noisy.put(
            point,
            measured[point.get(0)][point.get(1)][point.get(2)]
                * (1 + 0.05 * (2 * noise.nextDouble() - 1)));
      }
      SearchResult result =
          new CoordinateDescent().search(space, point -> new Outcome.Scored(noisy.get(point)));
      Point found = result.best().orElseThrow().point();
      assertTrue(result.trialsRun() <= 6, result.trialsRun() + " trials");
      if (measured[found.get(0)][found.get(1)][found.get(2)] >= 0.95 * best) {
        withinFivePercent++;
      }
    }
    assertTrue(
        withinFivePercent >= noisyWithinFivePercent - 12,
        withinFivePercent
            + " of 200 noisy replays within 5% (measured "
            + noisyWithinFivePercent
            + ")");
  }

  /**
   * The bar: the smart strategy reaches a configuration within 5% of the grid's best in at
   * most a third of the grid's trials, on a realistic landscape, whatever the measurement noise
   * does.
   */
  @ParameterizedTest(name = "noise seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void descentFindsTheGridsBestWithinFivePercentInAThirdOfTheTrials(long noiseSeed) {
    checkDescentAgainstGrid(SyntheticPipeline.NAMES, noiseSeed);
  }

  /**
   * The same on a smaller space (5 dimensions, 624 points left after pruning sources beyond
   * partitions).
   */
  @ParameterizedTest(name = "noise seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void descentBeatsTheBarOnASmallSpaceToo(long noiseSeed) {
    checkDescentAgainstGrid(
        List.of(
            "edge_kafka_sinks",
            "topic_partitions",
            "core_kafka_sources",
            "core_hdfs_sinks",
            "core_hdfs_batch_size"),
        noiseSeed);
  }

  private static void checkDescentAgainstGrid(List<String> names, long noiseSeed) {
    SyntheticPipeline pipeline = new SyntheticPipeline(names, 0.03, noiseSeed);
    SearchSpace space = pipeline.space(pipeline.ruleSeed());
    SearchResult grid = new GridStrategy().search(space, pipeline);
    SearchResult descent = new CoordinateDescent().search(space, pipeline);

    double gridBest = pipeline.trueValue(grid.best().orElseThrow().point());
    double descentBest = pipeline.trueValue(descent.best().orElseThrow().point());
    assertTrue(
        descentBest >= 0.95 * gridBest,
        "descent found "
            + descentBest
            + " events/s, grid "
            + gridBest
            + " ("
            + descent.best().orElseThrow().point()
            + " vs "
            + grid.best().orElseThrow().point()
            + ")");
    assertTrue(
        descent.trialsRun() * 3 <= grid.trialsRun(),
        "descent ran " + descent.trialsRun() + " trials, grid " + grid.trialsRun());
    assertTrue(
        descent.trialsRun() <= new CoordinateDescent().plannedEvaluations(space) * 2,
        "the ETA's estimate "
            + new CoordinateDescent().plannedEvaluations(space)
            + " is far from "
            + descent.trialsRun());
  }

  @Test
  void strategiesByName() {
    assertEquals("grid", Strategies.byName("grid").name());
    assertEquals("descent", Strategies.byName("descent").name());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Strategies.byName("annealing"));
    assertEquals("unknown strategy 'annealing'; use one of grid, descent", e.getMessage());
  }
}
