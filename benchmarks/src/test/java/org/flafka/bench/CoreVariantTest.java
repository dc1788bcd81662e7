package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CoreVariantTest {
  private static final CoreVariant.Target TARGET =
      new CoreVariant.Target(
          "127.0.0.1:9092", "t", "g", "hdfs://127.0.0.1:8020/root", Path.of("/tmp/data"));

  private static Properties properties(CoreVariant variant, Map<String, Object> variables)
      throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(variant.properties(TARGET, variables)));
    return properties;
  }

  @ParameterizedTest
  @EnumSource(CoreVariant.class)
  void everyVariantReadsTheTargetAndWritesUnderItsRoot(CoreVariant variant) throws IOException {
    Properties p = properties(variant, Map.of());
    // The reader is a source, or with the default template a Kafka channel
    String reader =
        p.getProperty("core.sources") == null ? "core.channels.ch0." : "core.sources.kafka0.";
    assertEquals("127.0.0.1:9092", p.getProperty(reader + "kafka.bootstrap.servers"));
    assertEquals(
        "t", p.getProperty(reader + "kafka.topics", p.getProperty(reader + "kafka.topic")));
    assertEquals("g", p.getProperty(reader + "kafka.consumer.group.id"));
    assertEquals("earliest", p.getProperty(reader + "kafka.consumer.auto.offset.reset"));
    String root =
        p.getProperty("core.sinks.hdfs0.hdfs.root", p.getProperty("core.sinks.hdfs0.hdfs.path"));
    assertTrue(root.startsWith("hdfs://127.0.0.1:8020/root"), root);
    if (variant.usesTemplate()) {
      assertEquals(java.util.List.of(), variant.lintErrors(Map.of(), 8), variant.flagName());
    }
  }

  @Test
  void theVariantsAreWhatTheyAreNamed() throws IOException {
    Properties ours = properties(CoreVariant.OURS, Map.of());
    assertNull(ours.getProperty("core.sources"));
    assertEquals("org.flafka.core.KafkaRecordChannel", ours.getProperty("core.channels.ch0.type"));
    assertEquals("org.flafka.core.HdfsBucketSink", ours.getProperty("core.sinks.hdfs0.type"));
    Properties memory = properties(CoreVariant.OURS_MEMORY_CHANNEL, Map.of());
    assertEquals(
        "org.flafka.core.KafkaRecordSource", memory.getProperty("core.sources.kafka0.type"));
    assertEquals("memory", memory.getProperty("core.channels.ch0.type"));
    assertEquals("org.flafka.core.HdfsBucketSink", memory.getProperty("core.sinks.hdfs0.type"));
    assertEquals(
        "file",
        properties(CoreVariant.OURS_FILE_CHANNEL, Map.of()).getProperty("core.channels.ch0.type"));
    Properties tuned = properties(CoreVariant.STOCK_TUNED, Map.of());
    assertEquals(
        "org.apache.flume.source.kafka.KafkaSource", tuned.getProperty("core.sources.kafka0.type"));
    assertEquals("memory", tuned.getProperty("core.channels.ch0.type"));
    assertEquals("hdfs", tuned.getProperty("core.sinks.hdfs0.type"));
    Properties stock = properties(CoreVariant.STOCK, Map.of());
    assertEquals("hdfs0", stock.getProperty("core.sinks"));
    assertNull(stock.getProperty("core.sinks.hdfs0.hdfs.rollCount"), "Flume's default rolls");
    assertEquals(
        "0",
        properties(CoreVariant.STOCK_ROLLS, Map.of())
            .getProperty("core.sinks.hdfs0.hdfs.rollCount"));
  }

  @Test
  void setChangesTheTemplateVariantsButNotTheirOwnChoice() throws IOException {
    Map<String, Object> set = Map.of("core_hdfs_sinks", 2, "core_channel_type", "memory");
    Properties fileChannel = properties(CoreVariant.OURS_FILE_CHANNEL, set);
    assertEquals("hdfs0 hdfs1", fileChannel.getProperty("core.sinks"));
    assertEquals("file", fileChannel.getProperty("core.channels.ch0.type"));
    assertEquals("hdfs0", properties(CoreVariant.STOCK, set).getProperty("core.sinks"));
  }

  @Test
  void flagNamesRoundTrip() {
    for (CoreVariant variant : CoreVariant.values()) {
      assertEquals(variant, CoreVariant.byFlagName(variant.flagName()));
    }
    assertNull(CoreVariant.byFlagName("fast"));
  }
}
