package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.flafka.load.Protocol;
import org.junit.jupiter.api.Test;

class VariantTest {
  private static final Variant.Target TARGET = new Variant.Target("127.0.0.1:9092", "t", 5140);

  private static Properties parse(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }

  @Test
  void everyVariantRunsAConfigurationLintAccepts() {
    for (Protocol protocol : List.of(Protocol.TCP, Protocol.UDP)) {
      for (Variant variant : Variant.values()) {
        assertEquals(
            List.of(),
            variant.lintErrors(protocol, 2, Map.of(), 4),
            variant.flagName() + " " + protocol);
      }
    }
    assertEquals(
        "kafka-headers",
        Variant.OURS
            .lintErrors(
                Protocol.TCP,
                2,
                Map.of("edge_channel_type", "kafka", "edge_channel_impl", "stock"),
                4)
            .get(0)
            .rule(),
        "Flume's Kafka channel without its envelope writes bodies only");
  }

  @Test
  void stockSetsNothingButWhatItNeedsToRun() throws IOException {
    Properties stock = parse(Variant.STOCK.properties(TARGET, 4, Map.of()));
    Set<String> expected =
        new TreeSet<>(
            Set.of(
                "edge.sources",
                "edge.channels",
                "edge.sinks",
                "edge.sources.syslog_tcp.type",
                "edge.sources.syslog_tcp.host",
                "edge.sources.syslog_tcp.ports",
                "edge.sources.syslog_tcp.channels",
                "edge.channels.ch0.type",
                "edge.sinks.kafka0.type",
                "edge.sinks.kafka0.channel",
                "edge.sinks.kafka0.kafka.bootstrap.servers",
                "edge.sinks.kafka0.kafka.topic"));
    assertEquals(
        expected,
        new TreeSet<>(stock.stringPropertyNames()),
        "stock runs Flume's defaults, one sink");
    assertEquals("multiport_syslogtcp", stock.getProperty("edge.sources.syslog_tcp.type"));
    assertEquals("5140", stock.getProperty("edge.sources.syslog_tcp.ports"));
    assertEquals("memory", stock.getProperty("edge.channels.ch0.type"));
  }

  @Test
  void tunedStockRaisesBatchesAndAddsSinksOnTheOneChannel() throws IOException {
    Properties tuned = parse(Variant.STOCK_TUNED.properties(TARGET, 2, Map.of()));
    assertEquals("kafka0 kafka1", tuned.getProperty("edge.sinks"));
    assertEquals("1000", tuned.getProperty("edge.sources.syslog_tcp.batchSize"));
    assertEquals("10000", tuned.getProperty("edge.channels.ch0.transactionCapacity"));
    assertEquals("ch0", tuned.getProperty("edge.sinks.kafka1.channel"));
    assertEquals("1000", tuned.getProperty("edge.sinks.kafka1.flumeBatchSize"));
    assertEquals("snappy", tuned.getProperty("edge.sinks.kafka1.kafka.producer.compression.type"));
    assertNull(
        tuned.getProperty("edge.sources.syslog_tcp.keepFields"),
        "tuning changes speed, not content");
  }

  @Test
  void oursStockSinkDiffersFromOursOnlyInTheSink() throws IOException {
    Properties stockSink =
        differsFromOursOnlyIn(Variant.OURS_STOCK_SINK, key -> key.startsWith("edge.sinks."));
    assertEquals(
        "org.apache.flume.sink.kafka.KafkaSink", stockSink.getProperty("edge.sinks.kafka0.type"));
    assertEquals("host", stockSink.getProperty("edge.sinks.kafka0.header.host"));
  }

  @Test
  void oursStockChannelDiffersFromOursOnlyInTheChannelTypeAndItsDiskBuffer() throws IOException {
    Properties stockChannel =
        differsFromOursOnlyIn(
            Variant.OURS_STOCK_CHANNEL,
            key ->
                key.equals("edge.channels.ch0.type")
                    || key.startsWith("edge.channels.ch0.buffer."));
    assertEquals("memory", stockChannel.getProperty("edge.channels.ch0.type"));
    assertNull(stockChannel.getProperty("edge.channels.ch0.buffer.dir"));
  }

  @Test
  void oursMemoryIsOursWithoutTheDiskBuffer() throws IOException {
    Properties memory =
        differsFromOursOnlyIn(
            Variant.OURS_MEMORY, key -> key.startsWith("edge.channels.ch0.buffer."));
    assertEquals(
        "org.flafka.edge.channel.BatchMemoryChannel", memory.getProperty("edge.channels.ch0.type"));
    assertNull(memory.getProperty("edge.channels.ch0.buffer.dir"));
    assertEquals(
        "/var/lib/flafka/edge/ch0/buffer",
        parse(Variant.OURS.properties(new Variant.Target("127.0.0.1:9092", "t", 0), 1, Map.of()))
            .getProperty("edge.channels.ch0.buffer.dir"));
  }

  @Test
  void oursHostAffinityDiffersFromOursOnlyInHowRecordsArePlaced() throws IOException {
    Properties placed =
        differsFromOursOnlyIn(
            Variant.OURS_HOST_AFFINITY,
            // the partitioner and its settings, and the interceptor that gives each record its host
            // as key
            key ->
                key.startsWith("edge.sinks.kafka0.kafka.producer.")
                    || key.startsWith("edge.sources.syslog_tcp.interceptors"));
    assertEquals(
        "org.flafka.partitioner.HostAffinityPartitioner",
        placed.getProperty("edge.sinks.kafka0.kafka.producer.partitioner.class"));
    assertEquals(
        "2", placed.getProperty("edge.sinks.kafka0.kafka.producer.flafka.host.partitions"));
  }

  @Test
  void oursAllFactsDiffersFromOursOnlyInTheRecordHeaders() throws IOException {
    Properties all =
        differsFromOursOnlyIn(
            Variant.OURS_ALL_FACTS,
            // with carried, the syslog interceptor sets only the headers that go on the wire
            key ->
                key.equals("edge.sinks.kafka0.recordHeaders")
                    || key.equals("edge.sources.syslog_tcp.interceptors.syslog.headers"));
    assertEquals("all", all.getProperty("edge.sinks.kafka0.recordHeaders"));
    assertEquals(
        "carried",
        parse(Variant.OURS.properties(new Variant.Target("127.0.0.1:9092", "t", 0), 1, Map.of()))
            .getProperty("edge.sinks.kafka0.recordHeaders"));
  }

  /**
   * Checks that {@code variant} runs our plugins and renders ours but for the keys {@code
   * differing}; returns it.
   */
  private static Properties differsFromOursOnlyIn(Variant variant, Predicate<String> differing)
      throws IOException {
    Variant.Target target = new Variant.Target("127.0.0.1:9092", "t", 0);
    Properties ours = parse(Variant.OURS.properties(target, 1, Map.of()));
    Properties other = parse(variant.properties(target, 1, Map.of()));
    assertEquals(
        "org.flafka.edge.sink.KafkaRecordSink", ours.getProperty("edge.sinks.kafka0.type"));
    assertEquals(
        "org.flafka.edge.channel.BatchMemoryChannel", ours.getProperty("edge.channels.ch0.type"));
    for (String key : ours.stringPropertyNames()) {
      if (!differing.test(key)) {
        assertEquals(ours.getProperty(key), other.getProperty(key), key);
      }
    }
    assertTrue(variant.usesPlugins());
    return other;
  }

  @Test
  void oursIsTheEdgeTemplateWithOneTcpListenerOnAFreePort() throws IOException {
    Properties ours =
        parse(Variant.OURS.properties(new Variant.Target("127.0.0.1:9092", "t", 0), 1, Map.of()));
    assertEquals("syslog_tcp", ours.getProperty("edge.sources"));
    assertEquals(
        "org.flafka.edge.source.SyslogSource", ours.getProperty("edge.sources.syslog_tcp.type"));
    assertEquals("0", ours.getProperty("edge.sources.syslog_tcp.port"));
    assertEquals("127.0.0.1", ours.getProperty("edge.sources.syslog_tcp.bind"));
    assertEquals("kafka0", ours.getProperty("edge.sinks"));
    assertEquals("t", ours.getProperty("edge.sinks.kafka0.kafka.topic"));
    assertFalse(ours.getProperty("edge.sources.syslog_tcp.interceptors").contains("fanout"));
    Properties two =
        parse(Variant.OURS.properties(new Variant.Target("127.0.0.1:9092", "t", 0), 2, Map.of()));
    assertEquals("kafka0 kafka1", two.getProperty("edge.sinks"));
    assertTrue(two.getProperty("edge.sources.syslog_tcp.interceptors").contains("fanout"));
  }

  @Test
  void onUdpOursListensOnUdpAndStockWithSyslogudp() throws IOException {
    Properties ours =
        parse(
            Variant.OURS.properties(
                new Variant.Target("127.0.0.1:9092", "t", 0, Protocol.UDP), 1, Map.of()));
    assertEquals("syslog_udp", ours.getProperty("edge.sources"));
    assertEquals(
        "org.flafka.edge.source.SyslogSource", ours.getProperty("edge.sources.syslog_udp.type"));
    assertEquals("udp", ours.getProperty("edge.sources.syslog_udp.protocol"));
    assertEquals("0", ours.getProperty("edge.sources.syslog_udp.port"));
    assertEquals(
        Variant.sourceName(Protocol.UDP),
        ours.getProperty("edge.sources"),
        "the name the bench reads");

    Properties stock =
        parse(
            Variant.STOCK_CAPACITY.properties(
                new Variant.Target("127.0.0.1:9092", "t", 5140, Protocol.UDP), 1, Map.of()));
    assertEquals("syslog_udp", stock.getProperty("edge.sources"));
    assertEquals("syslogudp", stock.getProperty("edge.sources.syslog_udp.type"));
    assertEquals("5140", stock.getProperty("edge.sources.syslog_udp.port"));
    assertEquals("10000", stock.getProperty("edge.channels.ch0.capacity"));
  }

  @Test
  void stockCapacityDiffersFromStockOnlyInTheChannelCapacity() throws IOException {
    Properties stock = parse(Variant.STOCK.properties(TARGET, 1, Map.of()));
    Properties roomy =
        parse(Variant.STOCK_CAPACITY.properties(TARGET, 3, Map.of("edge_kafka_linger_ms", 1)));
    assertEquals("10000", roomy.getProperty("edge.channels.ch0.capacity"));
    roomy.remove("edge.channels.ch0.capacity");
    assertEquals(
        stock, roomy, "one setting changed; --sinks and --set do not apply to stock variants");
  }

  @Test
  void setVariablesChangeOursButNotWhatTheBenchOwns() throws IOException {
    Properties ours =
        parse(
            Variant.OURS.properties(
                new Variant.Target("127.0.0.1:9092", "t", 0),
                1,
                Map.of("edge_kafka_compression_type", "lz4", "edge_channel_capacity", 20000)));
    assertEquals("lz4", ours.getProperty("edge.sinks.kafka0.kafka.producer.compression.type"));
    assertEquals("20000", ours.getProperty("edge.channels.ch0.capacity"));
    assertEquals("0", ours.getProperty("edge.sources.syslog_tcp.port"));
  }

  @Test
  void variantsAreFoundByTheirFlagNames() {
    assertEquals(Variant.STOCK_TUNED, Variant.byFlagName("stock-tuned"));
    assertNull(Variant.byFlagName("STOCK"));
  }
}
