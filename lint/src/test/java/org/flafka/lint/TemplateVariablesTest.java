package org.flafka.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A template variable the rendering ignores is a warning: the core's source-side variables with
 * Kafka channels; the same variables with Kafka sources are silent.
 */
class TemplateVariablesTest {

  private static final String KAFKA_CHANNELS =
      """
            core.channels = ch0
            core.sinks = hdfs0
            core.channels.ch0.type = org.flafka.core.KafkaRecordChannel
            core.channels.ch0.kafka.bootstrap.servers = localhost:9092
            core.channels.ch0.kafka.topic = syslog
            core.sinks.hdfs0.type = org.flafka.core.HdfsBucketSink
            core.sinks.hdfs0.channel = ch0
            core.sinks.hdfs0.hdfs.root = /data/syslog
            core.sinks.hdfs0.hdfs.filePrefix = core-%[localhost]-hdfs0
            """;

  private static final String KAFKA_SOURCES =
      """
            core.sources = kafka0
            core.channels = ch0
            core.sinks = hdfs0
            core.sources.kafka0.type = org.flafka.core.KafkaRecordSource
            core.sources.kafka0.kafka.bootstrap.servers = localhost:9092
            core.sources.kafka0.kafka.topics = syslog
            core.sources.kafka0.channels = ch0
            core.channels.ch0.type = memory
            core.sinks.hdfs0.type = org.flafka.core.HdfsBucketSink
            core.sinks.hdfs0.channel = ch0
            core.sinks.hdfs0.hdfs.root = /data/syslog
            core.sinks.hdfs0.hdfs.filePrefix = core-%[localhost]-hdfs0
            """;

  private static Properties properties(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }

  @Test
  void sourceSideVariablesWarnWithKafkaChannelsOnly() throws IOException {
    Set<String> set = Set.of("core_kafka_sources", "core_hdfs_sinks", "core_fanout");
    assertEquals(
        List.of(
            "WARNING [unused-variable] core_fanout: does not apply with core_channel_type kafka (no "
                + "Kafka sources: each Kafka channel is a consumer drained by its HDFS sink). Fix: "
                + "remove it, or set core_channel_type to memory or file to use Kafka sources.",
            "WARNING [unused-variable] core_kafka_sources: does not apply with core_channel_type kafka "
                + "(no Kafka sources: each Kafka channel is a consumer drained by its HDFS sink). Fix: "
                + "remove it, or set core_channel_type to memory or file to use Kafka sources."),
        TemplateVariables.unused(properties(KAFKA_CHANNELS), set).stream()
            .map(Finding::toString)
            .toList());
    assertEquals(List.of(), TemplateVariables.unused(properties(KAFKA_SOURCES), set));
  }

  @Test
  void theKafkaChannelCoreHasNoLintFindings() throws IOException {
    assertEquals(List.of(), Linter.lint(properties(KAFKA_CHANNELS), OptionalInt.of(4)));
  }
}
