package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Transaction;
import org.apache.flume.conf.Configurables;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaRecordChannelConfig}: what the channel's consumer is told, the static membership id,
 * and settings refused with the key and a fix; and a put into the channel is refused.
 */
class KafkaRecordChannelConfigTest {

  private static Map<String, String> minimal() {
    Map<String, String> settings = new HashMap<>();
    settings.put("kafka.bootstrap.servers", "b:9092");
    settings.put("kafka.topic", "syslog");
    return settings;
  }

  @Test
  void everyConsumerSettingReachesTheConsumerVerbatim() {
    Map<String, String> settings = minimal();
    String jaas =
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" "
            + "password=\"p\";";
    settings.put("kafka.consumer.sasl.jaas.config", jaas);
    settings.put("kafka.consumer.security.protocol", "SASL_SSL");
    settings.put("kafka.consumer.max.poll.records", "5000");
    settings.put("kafka.consumer.group.id", "flafka-core");
    Properties props = new KafkaRecordChannelConfig("c", settings).consumerProperties("ch0");
    assertEquals(jaas, props.getProperty("sasl.jaas.config"));
    assertEquals("SASL_SSL", props.getProperty("security.protocol"));
    assertEquals("5000", props.getProperty("max.poll.records"));
    assertEquals("false", props.getProperty("enable.auto.commit"));
    assertEquals("earliest", props.getProperty("auto.offset.reset"));
    assertEquals("b:9092", props.getProperty("bootstrap.servers"));
  }

  @Test
  void staticMembershipIsTheDefaultWithAnIdPerGroupHostAndChannel() {
    Properties props = new KafkaRecordChannelConfig("c", minimal()).consumerProperties("ch1");
    String id = props.getProperty("group.instance.id");
    assertTrue(id.startsWith("flume-"), id);
    assertTrue(id.endsWith("-ch1"), id);
    assertEquals(
        "g-core-7.example.org-ch0",
        KafkaRecordChannelConfig.groupInstanceId("g", "core-7.example.org", "ch0"));
    assertEquals("g-h_x-ch0", KafkaRecordChannelConfig.groupInstanceId("g", "h x", "ch0"));

    Map<String, String> named = minimal();
    named.put("kafka.consumer.group.instance.id", "core-a-ch1");
    assertEquals(
        "core-a-ch1",
        new KafkaRecordChannelConfig("c", named)
            .consumerProperties("ch1")
            .getProperty("group.instance.id"));

    Map<String, String> dynamic = minimal();
    dynamic.put("staticMembership", "false");
    assertFalse(
        new KafkaRecordChannelConfig("c", dynamic)
            .consumerProperties("ch1")
            .containsKey("group.instance.id"));
  }

  @Test
  void badSettingsNameTheKeyAndTheFix() {
    Map<String, String> noTopic = minimal();
    noTopic.remove("kafka.topic");
    assertEquals(
        "Kafka record channel ch0: missing required key 'kafka.topic'. Fix: add kafka.topic = syslog "
            + "to the channel.",
        assertThrows(
                ConfigurationException.class,
                () -> new KafkaRecordChannelConfig("Kafka record channel ch0", noTopic))
            .getMessage());
    Map<String, String> owned = minimal();
    owned.put("kafka.consumer.enable.auto.commit", "true");
    assertEquals(
        "c: key 'kafka.consumer.enable.auto.commit' is set by the channel itself. Fix: remove it.",
        assertThrows(ConfigurationException.class, () -> new KafkaRecordChannelConfig("c", owned))
            .getMessage());
    Map<String, String> badGuard = minimal();
    badGuard.put("bucket.timestamp.max.past.hours", "0");
    assertTrue(
        assertThrows(
                ConfigurationException.class, () -> new KafkaRecordChannelConfig("c", badGuard))
            .getMessage()
            .contains("timestamp.max.past.hours"));
  }

  @Test
  void aPutIsRefusedWithAFix() {
    KafkaRecordChannel channel = new KafkaRecordChannel();
    channel.setName("ch0");
    Configurables.configure(channel, new Context(minimal()));
    Transaction tx = channel.getTransaction();
    tx.begin();
    ChannelException refused =
        assertThrows(ChannelException.class, () -> channel.put(EventBuilder.withBody(new byte[1])));
    assertTrue(refused.getMessage().contains("has no sources"), refused.getMessage());
    assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
    tx.rollback();
    tx.close();
  }
}
