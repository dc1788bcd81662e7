package org.flafka.sweep.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.target.AgentSample;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TrialEnvironment;
import org.junit.jupiter.api.Test;

class PrunerTest {
  /** A target that runs everything: only the rules prune. */
  static final Target RULES_ONLY = new RulesOnlyTarget(Optional.empty());

  private static Settings point(String space, int... coordinates) {
    Space parsed = SpaceParser.parse("space.yml", "space", space);
    return parsed.settingsAt(java.util.Arrays.stream(coordinates).boxed().toList());
  }

  @Test
  void aBatchAboveTheChannelsTransactionCapacityIsPruned() {
    Settings settings =
        point(
            """
                set: {core_channel_type: memory, core_channel_transaction_capacity: 10000}
                dimensions:
                  core_hdfs_batch_size: [10000, 20000]
                """,
            1);
    String reason = new Pruner(RULES_ONLY).reason(settings).orElseThrow();
    assertEquals(
        "core lint ERROR [transaction-capacity] core.channels.ch0.transactionCapacity:"
            + " transactionCapacity 10000 is below the batch size 20000 of sink hdfs0 (hdfs.batchSize), so its"
            + " transactions fail. Fix: set core.channels.ch0.transactionCapacity to at least 20000, or lower"
            + " core.sinks.hdfs0.hdfs.batchSize. (and 3 more like it)",
        reason);
    assertEquals(
        Optional.empty(),
        new Pruner(RULES_ONLY)
            .reason(
                point(
                    """
                set: {core_channel_type: memory, core_channel_transaction_capacity: 10000}
                dimensions:
                  core_hdfs_batch_size: [10000, 20000]
                """,
                    0)));
  }

  @Test
  void moreKafkaSourcesThanPartitionsArePruned() {
    String space =
        """
                set: {core_channel_type: memory}
                dimensions:
                  topic_partitions: [2, 8]
                  core_kafka_sources: [4]
                """;
    String reason = new Pruner(RULES_ONLY).reason(point(space, 0, 0)).orElseThrow();
    assertEquals(
        "core lint WARNING [kafka-sources-vs-partitions] core.sources: 4 Kafka sources in group"
            + " flafka-core on syslog share 2 partitions; 2 get no partition and sit idle. Fix: use at most 2"
            + " sources, or add partitions to the topic.",
        reason);
    assertEquals(Optional.empty(), new Pruner(RULES_ONLY).reason(point(space, 1, 0)));
  }

  @Test
  void moreKafkaChannelsThanPartitionsArePruned() {
    String space =
        """
                dimensions:
                  topic_partitions: [2, 8]
                  core_hdfs_sinks: [4]
                """;
    String reason = new Pruner(RULES_ONLY).reason(point(space, 0, 0)).orElseThrow();
    assertEquals(
        "core lint WARNING [kafka-sources-vs-partitions] core.channels: 4 Kafka channels in group"
            + " flafka-core on syslog share 2 partitions; 2 get no partition and their sinks sit idle."
            + " Fix: use at most 2 channel and sink pairs (core_hdfs_sinks), or add partitions to the"
            + " topic.",
        reason);
    assertEquals(Optional.empty(), new Pruner(RULES_ONLY).reason(point(space, 1, 0)));
  }

  @Test
  void flumesKafkaChannelWithoutFlumeEventFormatIsPrunedButOursIsNot() {
    String space =
        """
                dimensions:
                  edge_channel_type: [kafka]
                  edge_channel_impl: [stock, flafka]
                  kafka_flume_event_format: [false, true]
                """;
    String reason = new Pruner(RULES_ONLY).reason(point(space, 0, 0, 0)).orElseThrow();
    assertTrue(reason.startsWith("edge lint ERROR [kafka-headers]"), reason);
    assertEquals(
        Optional.empty(),
        new Pruner(RULES_ONLY).reason(point(space, 0, 0, 1)),
        "Flume's Kafka channel with its Avro envelope keeps the headers");
    assertEquals(
        Optional.empty(),
        new Pruner(RULES_ONLY).reason(point(space, 0, 1, 0)),
        "the Kafka record channel writes record headers");
  }

  @Test
  void contradictoryLoadSettingsArePruned() {
    String reason =
        new Pruner(RULES_ONLY)
            .reason(
                point(
                    """
                load: {devices: 4}
                dimensions:
                  load.connections: [2, 8]
                """,
                    1))
            .orElseThrow();
    assertTrue(reason.startsWith("load: load.connections 8 is more than load.devices 4"), reason);
  }

  @Test
  void whatTheTargetCannotRunIsPruned() {
    Target lacking = new RulesOnlyTarget(Optional.of("needs org.example.Missing"));
    assertEquals(
        Optional.of("edge: needs org.example.Missing core: needs org.example.Missing"),
        new Pruner(lacking).reason(point("dimensions:\n  core_hdfs_sinks: [1]\n", 0)));
  }

  @Test
  void renderingOverlaysTheTargetsEnvironment() {
    Settings settings = point("dimensions:\n  core_hdfs_sinks: [1]\n", 0);
    String core =
        Pruner.render(Tier.CORE, settings, java.util.Map.of("kafka_topic", "sweep-t001-r1"));
    assertTrue(core.contains("core.channels.ch0.kafka.topic = sweep-t001-r1"), core);
    assertTrue(core.contains("core.sinks = hdfs0\n"), core);
  }

  record RulesOnlyTarget(Optional<String> cannotRun) implements Target {
    @Override
    public String description() {
      return "rules only";
    }

    @Override
    public void start(Consumer<String> status) {}

    @Override
    public Optional<String> cannotRun(Tier tier, String properties) {
      return cannotRun;
    }

    @Override
    public TrialEnvironment prepare(String runName, int partitions, Protocol protocol) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void startAgents(
        TrialEnvironment environment, String edgeProperties, String coreProperties) {
      throw new UnsupportedOperationException();
    }

    @Override
    public AgentSample sample(Tier tier) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void stopAgents() {}

    @Override
    public void checkHealthy() {}

    @Override
    public void close() {}
  }

  @Test
  void seedPutsParallelismHighAndSourcesAtMostPartitions() {
    Space space =
        SpaceParser.parse(
            "space.yml",
            "space",
            """
                dimensions:
                  edge_kafka_sinks: [1, 2, 4]
                  topic_partitions: [2, 4]
                  core_kafka_sources: [1, 2, 4, 8]
                  core_hdfs_sinks: [8, 1]
                  core_hdfs_batch_size: [100, 1000, 20000]
                  edge_kafka_compression_type: [lz4, snappy]
                """);
    // sinks 4, partitions 4, sources 4 (not 8 > 4 partitions), HDFS sinks 8, batch nearest the
    // default 10000 on a log scale (20000), compression the default snappy
    assertEquals(List.of(2, 1, 2, 0, 2, 1), RuleSeed.of(space).coordinates());
  }
}
