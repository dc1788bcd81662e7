package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EdgeVariantTest {
  private static final Variant.Target TARGET = new Variant.Target("127.0.0.1:9092", "t", 0);

  @Test
  void aVariantsOwnVariablesChangeOnlyWhatTheySet() throws IOException {
    Properties ours = parse(EdgeVariant.of(Variant.OURS).properties(TARGET, 2, Map.of()));
    Properties lingering =
        parse(
            EdgeVariant.parse("ours+edge_kafka_linger_ms=50+edge_kafka_batch_size=1048576")
                .properties(TARGET, 2, Map.of()));
    Set<String> differing = new TreeSet<>();
    for (String key : lingering.stringPropertyNames()) {
      if (!lingering.getProperty(key).equals(ours.getProperty(key))) {
        differing.add(key);
      }
    }
    assertEquals(
        Set.of(
            "edge.sinks.kafka0.kafka.producer.linger.ms",
            "edge.sinks.kafka1.kafka.producer.linger.ms",
            "edge.sinks.kafka0.kafka.producer.batch.size",
            "edge.sinks.kafka1.kafka.producer.batch.size"),
        differing);
    assertEquals("50", lingering.getProperty("edge.sinks.kafka0.kafka.producer.linger.ms"));
    assertEquals(ours.stringPropertyNames(), lingering.stringPropertyNames());
  }

  @Test
  void ownVariablesWinOverSetButNotOverWhatMakesTheVariant() throws IOException {
    Map<String, Object> set = Map.of("edge_kafka_linger_ms", 20, "edge_buffer_max_bytes", 1000);
    Properties memory =
        parse(
            EdgeVariant.parse("ours-memory+edge_kafka_linger_ms=30+edge_buffer_max_bytes=5000")
                .properties(TARGET, 1, set));
    assertEquals("30", memory.getProperty("edge.sinks.kafka0.kafka.producer.linger.ms"));
    assertNull(
        memory.getProperty("edge.channels.ch0.buffer.dir"),
        "ours-memory is the memory channel without its disk buffer, whatever else is set");
  }

  @Test
  void theNameIsTheSpecAsWrittenAndItsFileNameIsSafe() {
    EdgeVariant variant = EdgeVariant.parse(" ours + edge_extra_properties={a: b} ");
    assertEquals("ours+edge_extra_properties={a: b}", variant.flagName());
    assertEquals("ours_edge_extra_properties=_a__b_", variant.fileName());
    assertEquals(EdgeVariant.of(Variant.OURS), EdgeVariant.parse("ours"));
    assertNull(EdgeVariant.parse("theirs+edge_kafka_linger_ms=5"));
    assertThrows(
        IllegalArgumentException.class, () -> EdgeVariant.parse("rsyslog+edge_kafka_sinks=1"));
  }

  private static Properties parse(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }
}
