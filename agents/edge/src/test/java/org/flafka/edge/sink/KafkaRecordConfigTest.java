package org.flafka.edge.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flume.conf.ConfigurationException;
import org.junit.jupiter.api.Test;

class KafkaRecordConfigTest {

  private static final String K0 = "Kafka record sink k0";

  private static KafkaRecordConfig parse(String... keyValues) {
    Map<String, String> props =
        new HashMap<>(Map.of("kafka.bootstrap.servers", "b:9092", "kafka.topic", "syslog"));
    for (int i = 0; i < keyValues.length; i += 2) {
      if (keyValues[i + 1] == null) {
        props.remove(keyValues[i]);
      } else {
        props.put(keyValues[i], keyValues[i + 1]);
      }
    }
    return KafkaRecordConfig.parse(KafkaRecordConfig.Role.SINK, "k0", props);
  }

  private static String error(String... keyValues) {
    return assertThrows(ConfigurationException.class, () -> parse(keyValues)).getMessage();
  }

  @Test
  void defaultsCarryEveryHeaderKeyedByTheKeyHeaderWithAcksAll() {
    KafkaRecordConfig config = parse();
    assertEquals(1000, config.batchSize());
    assertTrue(config.allRecordHeaders());
    assertEquals("key", config.keyHeader());
    Properties producer = config.producerProperties();
    assertEquals("all", producer.get("acks"));
    assertEquals("snappy", producer.get("compression.type"));
    assertEquals("b:9092", producer.get("bootstrap.servers"));
    assertEquals(
        "org.apache.kafka.common.serialization.ByteArraySerializer",
        producer.get("value.serializer"));
  }

  @Test
  void producerSettingsPassThroughAndOverrideTheDefaults() {
    Properties producer =
        parse("kafka.producer.acks", "1", "kafka.producer.linger.ms", " 50 ").producerProperties();
    assertEquals("1", producer.get("acks"));
    assertEquals("50", producer.get("linger.ms"));
  }

  @Test
  void aBatchWaitsForItsAcknowledgementsTenSecondsPastTheProducersDeliveryTimeoutUnlessSet() {
    assertEquals(130_000_000_000L, parse().ackTimeoutNanos(), "Kafka's 120 s plus 10 s");
    assertEquals(
        40_000_000_000L,
        parse("kafka.producer.delivery.timeout.ms", "30000").ackTimeoutNanos(),
        "follows the producer's delivery.timeout.ms");
    assertEquals(
        3_000_000_000L,
        parse("ackTimeoutMillis", "3000", "kafka.producer.delivery.timeout.ms", "30000")
            .ackTimeoutNanos(),
        "a value set is the value, below delivery.timeout.ms too");
    assertEquals(
        K0
            + ": invalid value 'soon' for key 'kafka.producer.delivery.timeout.ms': a whole number"
            + " of milliseconds. Fix: set kafka.producer.delivery.timeout.ms to a number such as"
            + " 60000.",
        error("kafka.producer.delivery.timeout.ms", "soon"));
    assertEquals(
        K0
            + ": invalid value '0' for key 'ackTimeoutMillis': must be at least 1. Fix: set"
            + " ackTimeoutMillis to at least 1.",
        error("ackTimeoutMillis", "0"));
  }

  @Test
  void aProducerLogsInUnlessItsProtocolIsPlaintext() {
    assertFalse(parse().logsIn());
    assertFalse(parse("kafka.producer.security.protocol", "PLAINTEXT").logsIn());
    assertTrue(parse("kafka.producer.security.protocol", "SASL_SSL").logsIn());
    assertTrue(parse("kafka.producer.security.protocol", "SSL").logsIn());
  }

  @Test
  void headerListsAndTheirEmptyValues() {
    KafkaRecordConfig listed = parse("recordHeaders", "host, id,,site");
    assertFalse(listed.allRecordHeaders());
    assertEquals(List.of("host", "id", "site"), listed.recordHeaders());
    KafkaRecordConfig none = parse("recordHeaders", "", "keyHeader", " ");
    assertFalse(none.allRecordHeaders());
    assertEquals(List.of(), none.recordHeaders());
    assertNull(none.keyHeader());
  }

  @Test
  void errorsNameTheKeyTheRuleAndTheFix() {
    assertEquals(
        K0 + ": missing required key 'kafka.topic'. Fix: add kafka.topic = syslog to the sink.",
        error("kafka.topic", null));
    assertEquals(
        K0
            + ": missing required key 'kafka.bootstrap.servers'. Fix: add kafka.bootstrap.servers = "
            + "broker1:9092,broker2:9092 to the sink.",
        error("kafka.bootstrap.servers", "  "));
    assertEquals(
        K0
            + ": invalid value '0' for key 'batchSize': must be at least 1. Fix: set batchSize to at "
            + "least 1.",
        error("batchSize", "0"));
    assertEquals(
        K0
            + ": invalid value 'host,*' for key 'recordHeaders': * stands alone (every header). Fix: set "
            + "recordHeaders to * or to a list of header names.",
        error("recordHeaders", "host,*"));
    assertEquals(
        K0
            + ": key 'kafka.producer.bootstrap.servers' is set by the sink itself. Fix: remove it and set "
            + "kafka.bootstrap.servers instead.",
        error("kafka.producer.bootstrap.servers", "x:1"));
    assertEquals(
        K0 + ": key 'kafka.producer.value.serializer' is set by the sink itself. Fix: remove it.",
        error("kafka.producer.value.serializer", "x"));
  }

  @Test
  void unknownKeysAreErrorsWithAHintButFlumesOwnAreNot() {
    assertEquals(
        5,
        parse("batchSize", "5", "type", "org.flafka.edge.sink.KafkaRecordSink", "channel", "c")
            .batchSize());
    assertEquals(
        K0
            + ": unknown key 'batchsize' (did you mean 'batchSize'?). Fix: remove it or use one of "
            + "kafka.bootstrap.servers, kafka.topic, recordHeaders, keyHeader, batchSize, batchDurationMillis, "
            + "ackTimeoutMillis, kafka.producer.*.",
        error("batchsize", "5"));
  }

  @Test
  void theReferenceDocIsUpToDate() throws Exception {
    String text =
        Files.readString(Path.of("../../docs/reference/edge-sink.md"), StandardCharsets.UTF_8);
    assertEquals(
        KafkaRecordConfig.withGeneratedDoc(KafkaRecordConfig.Role.SINK, text),
        text,
        "docs/reference/edge-sink.md is out of date: regenerate it with the command in its Reference section");
  }

  @Test
  void theChannelHasTransactionCapacityInsteadOfBatchSizeAndNamesItselfInErrors() {
    Map<String, String> props =
        new HashMap<>(Map.of("kafka.bootstrap.servers", "b:9092", "kafka.topic", "syslog"));
    KafkaRecordConfig channel =
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, "ch0", props);
    assertEquals(10_000, channel.transactionCapacity());
    assertEquals(
        130_000_000_000L,
        channel.ackTimeoutNanos(),
        "a commit waits for its acknowledgements as long as the sink's batch: Kafka's 120 s plus 10 s");
    assertEquals(
        4_000_000_000L,
        KafkaRecordConfig.parse(
                KafkaRecordConfig.Role.CHANNEL,
                "ch0",
                Map.of(
                    "kafka.bootstrap.servers",
                    "b:9092",
                    "kafka.topic",
                    "t",
                    "ackTimeoutMillis",
                    "4000"))
            .ackTimeoutNanos());
    props.put("transactionCapacity", "0");
    String capacityError =
        assertThrows(
                ConfigurationException.class,
                () -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, "ch0", props))
            .getMessage();
    assertTrue(
        capacityError.startsWith(
            "Kafka record channel ch0: invalid value '0' for key 'transactionCapacity': "
                + "must be at least 1."),
        capacityError);
    props.put("transactionCapacity", "5");
    props.put("kafka.producer.key.serializer", "x");
    assertEquals(
        "Kafka record channel ch0: key 'kafka.producer.key.serializer' is set by the channel itself. Fix: "
            + "remove it.",
        assertThrows(
                ConfigurationException.class,
                () -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, "ch0", props))
            .getMessage());
    props.remove("kafka.producer.key.serializer");
    props.put("type", "org.flafka.edge.channel.KafkaRecordChannel");
    props.put("batchSize", "5");
    assertEquals(
        "Kafka record channel ch0: unknown key 'batchSize'. Fix: remove it or use one of "
            + "kafka.bootstrap.servers, kafka.topic, recordHeaders, keyHeader, transactionCapacity, "
            + "ackTimeoutMillis, kafka.producer.*.",
        assertThrows(
                ConfigurationException.class,
                () -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, "ch0", props))
            .getMessage());
    props.remove("batchSize");
    props.put("channel", "c");
    assertThrows(
        ConfigurationException.class,
        () -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, "ch0", props),
        "a sink's Flume key is unknown to a channel");
  }

  @Test
  void theChannelsReferenceDocIsUpToDate() throws Exception {
    String text =
        Files.readString(
            Path.of("../../docs/reference/edge-kafka-channel.md"), StandardCharsets.UTF_8);
    assertEquals(
        KafkaRecordConfig.withGeneratedDoc(KafkaRecordConfig.Role.CHANNEL, text),
        text,
        "docs/reference/edge-kafka-channel.md is out of date: regenerate it with the command in its Reference section");
  }
}
