package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentMetricsTest {
  /** Trimmed from a real Flume 1.11 /metrics answer: every value a string. */
  private static final String JSON =
      """
            {"SINK.k1":{"ConnectionCreatedCount":"0","BatchCompleteCount":"0","EventDrainAttemptCount":"100",\
            "StartTime":"1795243014038","StopTime":"0","EventDrainSuccessCount":"100","Type":"SINK"},
            "CHANNEL.c1":{"ChannelCapacity":"1000","ChannelFillPercentage":"2.5","Type":"CHANNEL","ChannelSize":"25",\
            "StartTime":"1795243014000","StopTime":"1795243019000"}}""";

  @Test
  void typesStringValuesIntoCountersAndGauges() {
    AgentMetrics metrics = AgentMetrics.parseJson(JSON);
    assertEquals(Set.of("SINK.k1", "CHANNEL.c1"), metrics.components());
    assertEquals(100L, metrics.sink("k1", "EventDrainSuccessCount"));
    assertEquals(25L, metrics.channel("c1", "ChannelSize"));
    assertEquals(2.5, metrics.gauge("CHANNEL.c1", "ChannelFillPercentage"));
    assertFalse(
        metrics.counters().get("SINK.k1").containsKey("Type"), "the type is in the component name");
  }

  @Test
  void startedMeansStartTimeSetAndStopTimeNot() {
    AgentMetrics metrics = AgentMetrics.parseJson(JSON);
    assertTrue(metrics.isStarted("SINK.k1"));
    assertFalse(metrics.isStarted("CHANNEL.c1"), "stopped");
    assertFalse(metrics.isStarted("SOURCE.r1"), "absent");
  }

  @Test
  void missingCountersAreErrorsNamingWhatExists() {
    AgentMetrics metrics = AgentMetrics.parseJson(JSON);
    assertEquals(
        "no metrics for SOURCE.r1; components reporting: [CHANNEL.c1, SINK.k1]",
        assertThrows(
                IllegalArgumentException.class, () -> metrics.source("r1", "EventAcceptedCount"))
            .getMessage());
    assertEquals(
        "no counter EventPutSuccessCount for CHANNEL.c1; it has [ChannelCapacity, ChannelSize, StartTime,"
            + " StopTime]",
        assertThrows(
                IllegalArgumentException.class, () -> metrics.channel("c1", "EventPutSuccessCount"))
            .getMessage());
  }

  @Test
  void malformedJsonIsAStackError() {
    StackException e = assertThrows(StackException.class, () -> AgentMetrics.parseJson("[1, 2]"));
    assertTrue(
        e.getMessage().startsWith("Flume metrics are not the expected JSON object of objects: "),
        e.getMessage());
  }
}
