package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EdgeBenchTest {

  @Test
  void jitShareIsTheCompilersPartOfAllTheAgentsThreads() {
    assertEquals(
        0.25,
        EdgeBench.jitShare(
            Map.of("JIT compiler", 1.0, "sink runners", 2.0, "source and other", 1.0)),
        1e-9);
    assertEquals(0.0, EdgeBench.jitShare(Map.of("sink runners", 2.0)), 1e-9);
    assertEquals(0.0, EdgeBench.jitShare(Map.of()), 1e-9, "an idle agent has settled");
    assertEquals(1.0, EdgeBench.jitShare(Map.of("JIT compiler", 0.5)), 1e-9);
  }
}
