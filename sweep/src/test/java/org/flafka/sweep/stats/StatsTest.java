package org.flafka.sweep.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsTest {

  @Test
  void medianOfOddAndEvenCounts() {
    assertEquals(new Summary(3, 20, 10, 30), Summary.of(List.of(30.0, 10.0, 20.0)));
    assertEquals(new Summary(4, 25, 10, 40), Summary.of(List.of(40.0, 10.0, 20.0, 30.0)));
    assertEquals(new Summary(1, 7, 7, 7), Summary.of(List.of(7.0)));
  }

  @Test
  void missingValuesAreLeftOut() {
    assertEquals(new Summary(2, 15, 10, 20), Summary.of(List.of(10.0, Double.NaN, 20.0)));
    assertTrue(Summary.of(List.of(Double.NaN)).isEmpty());
    assertTrue(Summary.of(List.of()).isEmpty());
  }

  @Test
  void spread() {
    Summary summary = Summary.of(List.of(90.0, 100.0, 110.0));
    assertEquals(20, summary.spread());
    assertEquals(0.2, summary.relativeSpread(), 1e-12);
  }

  @Test
  void overlappingRepeatsTie() {
    Summary a = Summary.of(List.of(100.0, 104.0, 110.0));
    Summary b = Summary.of(List.of(95.0, 99.0, 101.0));
    assertTrue(a.tiesWith(b));
    assertTrue(b.tiesWith(a));
    Summary clear = Summary.of(List.of(120.0, 125.0, 130.0));
    assertFalse(clear.tiesWith(a));
  }

  @Test
  void singleRepeatsNeverTieUnlessEqual() {
    assertFalse(Summary.of(List.of(100.0)).tiesWith(Summary.of(List.of(99.0))));
    assertTrue(Summary.of(List.of(100.0)).tiesWith(Summary.of(List.of(100.0))));
    assertFalse(Summary.of(List.of()).tiesWith(Summary.of(List.of(100.0))));
  }

  @Test
  void singleMeasurementsWithinTheMachinesNoiseAreFlagged() {
    assertTrue(Summary.of(List.of(100.0)).unrepeatedAndClose(Summary.of(List.of(86.0))));
    assertFalse(Summary.of(List.of(100.0)).unrepeatedAndClose(Summary.of(List.of(84.0))));
    assertFalse(
        Summary.of(List.of(100.0, 101.0)).unrepeatedAndClose(Summary.of(List.of(99.0, 100.0))),
        "repeats have a spread to judge by");
  }

  @Test
  void rankingOrdersByMedianAndNamesTheTies() {
    Map<String, Summary> results =
        Map.of(
            "slow", Summary.of(List.of(50.0, 52.0, 54.0)),
            "best", Summary.of(List.of(100.0, 104.0, 110.0)),
            "close", Summary.of(List.of(95.0, 99.0, 101.0)),
            "unmeasured", Summary.of(List.of()));
    Ranking<String> ranking =
        Ranking.of(List.of("slow", "best", "close", "unmeasured"), results::get);
    assertEquals(List.of("best", "close", "slow"), ranking.ordered());
    assertEquals("best", ranking.best());
    assertEquals(List.of("close"), ranking.tiedWithBest());
    assertFalse(ranking.hasWinner());

    Ranking<String> clear = Ranking.of(List.of("slow", "best"), results::get);
    assertTrue(clear.hasWinner());
    assertTrue(clear.tiedWithBest().isEmpty());
    assertTrue(Ranking.of(List.of("unmeasured"), results::get).isEmpty());
  }
}
