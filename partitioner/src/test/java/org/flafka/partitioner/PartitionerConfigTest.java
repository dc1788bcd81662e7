package org.flafka.partitioner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionerConfigTest {

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "flafka.stripe.count|0|Invalid value 0 for configuration flafka.stripe.count: Value must be at least 1",
        "flafka.stripe.index|-1|Invalid value -1 for configuration flafka.stripe.index: Value must be at least 0",
        "flafka.stripe.index|two|Invalid value two for configuration flafka.stripe.index: Not a number of type INT",
        "flafka.sticky.bytes|0|Invalid value 0 for configuration flafka.sticky.bytes: Value must be at least 1",
        "flafka.host.partitions|0|Invalid value 0 for configuration flafka.host.partitions: Value must be at least 1",
      })
  void aBadValueIsRejectedNamingKeyValueAndRule(String key, String value, String message) {
    assertEquals(
        message,
        assertThrows(ConfigException.class, () -> new PartitionerConfig(Map.of(key, value)))
            .getMessage());
  }

  @Test
  void anIndexOutsideTheStripesNamesBothKeys() {
    assertEquals(
        "Invalid value 4 for configuration flafka.stripe.index: must be less than flafka.stripe.count "
            + "(4); set flafka.stripe.count to the number of sinks on every sink",
        assertThrows(
                ConfigException.class,
                () ->
                    new PartitionerConfig(
                        Map.of("flafka.stripe.count", "4", "flafka.stripe.index", "4")))
            .getMessage());
    assertEquals(
        "Invalid value 2 for configuration flafka.stripe.index: must be less than flafka.stripe.count "
            + "(1, its default); set flafka.stripe.count to the number of sinks on every sink",
        assertThrows(
                ConfigException.class,
                () -> new PartitionerConfig(Map.of("flafka.stripe.index", "2")))
            .getMessage());
  }

  @Test
  void docsPartitioningListsEveryKeyWithItsDefault() throws Exception {
    String docs = Files.readString(Path.of("..", "docs", "guides", "partitioning.md"));
    for (ConfigDef.ConfigKey key : PartitionerConfig.configDef().configKeys().values()) {
      String row =
          "| `"
              + key.name
              + "` | "
              + (key.defaultValue == null ? "producer's batch.size" : key.defaultValue)
              + " |";
      assertTrue(docs.contains(row), "docs/guides/partitioning.md lacks the row starting " + row);
    }
  }

  @Test
  void defaultsAreOneStripeFourPartitionsPerHostAndTheProducersBatchSize() {
    PartitionerConfig config = new PartitionerConfig(Map.of("acks", "all"));
    assertEquals(1, config.stripeCount());
    assertEquals(0, config.stripeIndex());
    assertEquals(4, config.hostPartitions());
    assertEquals(16384, config.stickyBytes());
    assertEquals(65536, new PartitionerConfig(Map.of("batch.size", "65536")).stickyBytes());
    assertEquals(
        1000,
        new PartitionerConfig(Map.of("batch.size", "65536", "flafka.sticky.bytes", 1000))
            .stickyBytes());
  }
}
