package org.flafka.sweep.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BottleneckTest {
  private static final double MAX = Double.POSITIVE_INFINITY;

  @Test
  void aCoreMoreThanFivePercentBehindTheEdgeIsTheLimit() {
    assertEquals(
        Bottleneck.CORE_SINKS,
        Bottleneck.of(MAX, 50_000, 50_000, 50_000, 0.1, 20_000, 0.9, true),
        "its channels are backed up: the HDFS sinks");
    assertEquals(
        Bottleneck.CORE_SOURCES,
        Bottleneck.of(MAX, 50_000, 50_000, 50_000, 0.1, 20_000, 0.1, true),
        "its channels are empty: the Kafka sources");
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(MAX, 50_000, 50_000, 50_000, 0.1, 48_000, 0.9, true),
        "within 5% the core keeps up");
  }

  @Test
  void aCoreOfKafkaChannelsIsLimitedByItsSinksWhichReadTheChannels() {
    assertEquals(
        Bottleneck.CORE_CHANNEL_SINKS,
        Bottleneck.of(MAX, 50_000, 50_000, 50_000, 0.1, 20_000, 0.0, false),
        "no sources to blame: the channel's fill is its consumer lag, not a queue between stages");
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(MAX, 50_000, 50_000, 50_000, 0.1, 49_000, 0.0, false),
        "a core of Kafka channels that keeps up is not the limit");
  }

  @Test
  void insideTheEdgeTheChannelTellsSinksFromSources() {
    assertEquals(
        Bottleneck.EDGE_SINKS, Bottleneck.of(MAX, 30_000, 30_000, 30_000, 0.8, 30_000, 0.0, true));
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(MAX, 30_000, 30_000, 30_000, 0.1, 30_000, 0.0, true));
  }

  @Test
  void aSetRateTheWholePipelineMetLimitedNothing() {
    assertEquals(Bottleneck.NONE, Bottleneck.of(2_000, 1_990, 1_990, 1_990, 0.0, 1_985, 0.0, true));
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(40_000, 30_000, 30_000, 30_000, 0.0, 30_000, 0.0, true),
        "the load fell short of its rate: the edge could not take it");
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(40_000, 40_000, 30_000, 30_000, 0.0, 30_000, 0.0, true),
        "the load met its rate but the edge took less (UDP drops): the edge sources are the limit");
    assertEquals(
        Bottleneck.CORE_SINKS,
        Bottleneck.of(40_000, 40_000, 40_000, 40_000, 0.0, 20_000, 0.9, true));
    assertEquals(
        Bottleneck.EDGE_SOURCES,
        Bottleneck.of(Double.POSITIVE_INFINITY, 40_000, 40_000, 40_000, 0.0, 40_000, 0.0, true),
        "at max the load has no rate to meet");
  }
}
