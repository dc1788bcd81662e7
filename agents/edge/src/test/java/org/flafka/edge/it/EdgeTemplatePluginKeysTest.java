package org.flafka.edge.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flume.Context;
import org.apache.flume.interceptor.Interceptor;
import org.apache.kafka.clients.producer.Partitioner;
import org.flafka.edge.channel.BatchMemoryChannel;
import org.flafka.edge.channel.BatchMemoryChannelConfig;
import org.flafka.edge.channel.KafkaRecordChannel;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.sink.KafkaRecordSink;
import org.flafka.edge.source.SyslogSource;
import org.flafka.edge.source.SyslogSourceConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every interceptor and partitioner the edge template names is built from the rendered keys, as
 * Flume and the Kafka producer would build it: a key the plugin does not define fails here (our
 * plugins reject unknown keys), including for renderings the end-to-end tests do not start (stock
 * sources, host affinity). Our memory channel's keys are checked likewise.
 */
class EdgeTemplatePluginKeysTest {

  static Stream<Arguments> renderings() {
    return Stream.of(
        Arguments.of(Map.of()),
        Arguments.of(
            Map.of(
                "edge_source_impl",
                "stock",
                "edge_sink_impl",
                "stock",
                "edge_listeners",
                List.of("udp", "tcp"))),
        Arguments.of(Map.of("edge_listeners", List.of("udp", "tcp", "tls"))),
        Arguments.of(Map.of("edge_partitioner", "stripe", "edge_kafka_sinks", 3)),
        Arguments.of(Map.of("edge_partitioner", "host-affinity", "edge_kafka_sinks", 4)),
        Arguments.of(
            Map.of(
                "edge_partitioner",
                "host-affinity",
                "edge_channel_type",
                "kafka",
                "kafka_flume_event_format",
                true)),
        Arguments.of(Map.of("edge_partitioner", "stripe", "edge_channel_type", "kafka")));
  }

  @ParameterizedTest
  @MethodSource("renderings")
  void everyPluginTheTemplateNamesAcceptsItsKeys(Map<String, Object> variables) throws Exception {
    Properties p = new Properties();
    p.load(new StringReader(EdgeTestSupport.render(variables)));
    int built = 0;
    for (String source : p.getProperty("edge.sources").split(" ")) {
      Map<String, String> sourceSettings = subProperties(p, "edge.sources." + source + ".");
      if (sourceSettings.get("type").equals(SyslogSource.class.getName())) {
        // throws on an unknown key and on a password reference of the wrong form
        SyslogSourceConfig.parse(source, sourceSettings);
        built++;
      }
      String prefix = "edge.sources." + source + ".interceptors";
      for (String name : p.getProperty(prefix).split(" ")) {
        Map<String, String> settings = subProperties(p, prefix + "." + name + ".");
        Interceptor.Builder builder =
            (Interceptor.Builder)
                Class.forName(settings.get("type")).getDeclaredConstructor().newInstance();
        builder.configure(new Context(settings));
        builder.build().initialize();
        built++;
      }
    }
    assertTrue(built > 0);
    for (String channel : p.getProperty("edge.channels").split(" ")) {
      Map<String, String> settings = subProperties(p, "edge.channels." + channel + ".");
      if (settings.get("type").equals(BatchMemoryChannel.class.getName())) {
        BatchMemoryChannelConfig.parse(channel, settings); // throws on an unknown key
        built++;
      } else if (settings.get("type").equals(KafkaRecordChannel.class.getName())) {
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, channel, settings);
        built++;
      }
    }
    String sinks = p.getProperty("edge.sinks");
    for (String sink : sinks == null ? new String[0] : sinks.split(" ")) {
      Map<String, String> settings = subProperties(p, "edge.sinks." + sink + ".");
      if (settings.get("type").equals(KafkaRecordSink.class.getName())) {
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.SINK, sink, settings);
        built++;
      }
    }
    Map<String, String> partitioners = new TreeMap<>();
    for (String key : p.stringPropertyNames()) {
      if (key.endsWith(".kafka.producer.partitioner.class")) {
        String prefix = key.substring(0, key.length() - "partitioner.class".length());
        Map<String, Object> producer = new HashMap<>(subProperties(p, prefix));
        Partitioner partitioner =
            (Partitioner) Class.forName(p.getProperty(key)).getDeclaredConstructor().newInstance();
        partitioner.configure(producer);
        partitioner.close();
        partitioners.put(key, String.valueOf(producer.get("flafka.stripe.index")));
      }
    }
    Object partitioner = variables.getOrDefault("edge_partitioner", "default");
    int lanes = (int) variables.getOrDefault("edge_kafka_sinks", 2);
    assertEquals(
        partitioner.equals("default") ? 0 : lanes, partitioners.size(), partitioners.toString());
    if (!partitioners.isEmpty()) {
      assertEquals(
          lanes,
          partitioners.values().stream().distinct().count(),
          "each sink its own stripe: " + partitioners);
    }
  }

  private static Map<String, String> subProperties(Properties p, String prefix) {
    Map<String, String> settings = new HashMap<>();
    for (String key : p.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        settings.put(key.substring(prefix.length()), p.getProperty(key));
      }
    }
    return settings;
  }
}
