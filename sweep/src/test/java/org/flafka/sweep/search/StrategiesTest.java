package org.flafka.sweep.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StrategiesTest {

    @Test
    void gridEvaluatesEveryPointOnceInFileOrder() {
        SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(2, 3), null);
        List<Point> seen = new ArrayList<>();
        SearchResult result = new GridStrategy().search(space, point -> {
            seen.add(point);
            return new Outcome.Scored(point.get(0) * 10 + point.get(1));
        });
        assertEquals(List.of(Point.of(0, 0), Point.of(0, 1), Point.of(0, 2), Point.of(1, 0), Point.of(1, 1),
                Point.of(1, 2)), seen);
        assertEquals(Point.of(1, 2), result.best().orElseThrow().point());
        assertEquals(6, result.trialsRun());
        assertEquals(6, new GridStrategy().plannedEvaluations(space));
    }

    @Test
    void prunedPointsCostNoTrialAndNeverWin() {
        SearchSpace space = new SearchSpace(List.of("a"), List.of(3), null);
        SearchResult result = new GridStrategy().search(space, point -> point.get(0) == 2
                ? new Outcome.Unscored("pruned", false) : new Outcome.Scored(point.get(0)));
        assertEquals(2, result.trialsRun());
        assertEquals(Point.of(1), result.best().orElseThrow().point());
    }

    @Test
    void failedTrialsCostATrial() {
        SearchSpace space = new SearchSpace(List.of("a"), List.of(2), null);
        SearchResult result = new GridStrategy().search(space, point -> new Outcome.Unscored("agent died", true));
        assertEquals(2, result.trialsRun());
        assertTrue(result.best().isEmpty());
    }

    @Test
    void descentNeverEvaluatesAPointTwice() {
        SyntheticPipeline pipeline = new SyntheticPipeline(SyntheticPipeline.NAMES, 0.02, 7);
        Set<Point> seen = new HashSet<>();
        new CoordinateDescent().search(pipeline.space(pipeline.ruleSeed()), point -> {
            assertTrue(seen.add(point), "evaluated twice: " + point);
            return pipeline.evaluate(point);
        });
    }

    @Test
    void descentLeavesAnUnscoredSeedForTheBestPointOnItsLines() {
        // the seed is pruned; every other point scores its first coordinate
        SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(3, 3), Point.of(0, 0));
        SearchResult result = new CoordinateDescent().search(space, point -> point.equals(Point.of(0, 0))
                ? new Outcome.Unscored("pruned", false) : new Outcome.Scored(1 + point.get(0) + point.get(1)));
        assertEquals(Point.of(2, 2), result.best().orElseThrow().point());
    }

    @Test
    void descentStopsWhenAPassMovesNowhere() {
        SearchSpace space = new SearchSpace(List.of("a", "b"), List.of(3, 3), Point.of(1, 1));
        SearchResult result = new CoordinateDescent().search(space, point -> new Outcome.Scored(5));
        // seed plus two more values on each of the two lines, and nothing after the pass that did not move
        assertEquals(5, result.trialsRun());
    }

    /**
     * The bar: the smart strategy reaches a configuration within 5% of the grid's best in at most a third of
     * the grid's trials, on a realistic landscape, whatever the measurement noise does.
     */
    @ParameterizedTest(name = "noise seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void descentFindsTheGridsBestWithinFivePercentInAThirdOfTheTrials(long noiseSeed) {
        checkDescentAgainstGrid(SyntheticPipeline.NAMES, noiseSeed);
    }

    /** The same on a smaller space (5 dimensions, 624 points left after pruning sources beyond partitions). */
    @ParameterizedTest(name = "noise seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void descentBeatsTheBarOnASmallSpaceToo(long noiseSeed) {
        checkDescentAgainstGrid(List.of("edge_kafka_sinks", "topic_partitions", "core_kafka_sources",
                "core_hdfs_sinks", "core_hdfs_batch_size"), noiseSeed);
    }

    private static void checkDescentAgainstGrid(List<String> names, long noiseSeed) {
        SyntheticPipeline pipeline = new SyntheticPipeline(names, 0.03, noiseSeed);
        SearchSpace space = pipeline.space(pipeline.ruleSeed());
        SearchResult grid = new GridStrategy().search(space, pipeline);
        SearchResult descent = new CoordinateDescent().search(space, pipeline);

        double gridBest = pipeline.trueValue(grid.best().orElseThrow().point());
        double descentBest = pipeline.trueValue(descent.best().orElseThrow().point());
        assertTrue(descentBest >= 0.95 * gridBest, "descent found " + descentBest + " events/s, grid " + gridBest
                + " (" + descent.best().orElseThrow().point() + " vs " + grid.best().orElseThrow().point() + ")");
        assertTrue(descent.trialsRun() * 3 <= grid.trialsRun(), "descent ran " + descent.trialsRun()
                + " trials, grid " + grid.trialsRun());
        assertTrue(descent.trialsRun() <= new CoordinateDescent().plannedEvaluations(space) * 2,
                "the ETA's estimate " + new CoordinateDescent().plannedEvaluations(space) + " is far from "
                        + descent.trialsRun());
    }

    @Test
    void strategiesByName() {
        assertEquals("grid", Strategies.byName("grid").name());
        assertEquals("descent", Strategies.byName("descent").name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Strategies.byName("annealing"));
        assertEquals("unknown strategy 'annealing'; use one of grid, descent", e.getMessage());
    }
}
