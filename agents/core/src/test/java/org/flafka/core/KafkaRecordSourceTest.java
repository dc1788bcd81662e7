package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.PollableSource;
import org.apache.flume.Transaction;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.channel.ReplicatingChannelSelector;
import org.apache.flume.conf.Configurables;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.ContractEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KafkaRecordSource} against a real KRaft broker: records become events byte for byte with
 * their headers, including the two cases Flume's source gets wrong (a null header value, a
 * non-ASCII one under another default charset); offsets are committed only after the channel took
 * the batch; a full channel keeps the batch and offers it again, so nothing is lost and nothing is
 * read twice.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class KafkaRecordSourceTest {

  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  private static MemoryChannel channel(int capacity) {
    MemoryChannel channel = new MemoryChannel();
    channel.setName("ch");
    Configurables.configure(
        channel,
        new Context(Map.of("capacity", Integer.toString(capacity), "transactionCapacity", "100")));
    channel.start();
    return channel;
  }

  private static KafkaRecordSource source(
      String name, String topic, String group, MemoryChannel channel) {
    KafkaRecordSource source = new KafkaRecordSource();
    source.setName(name);
    Map<String, String> settings = new HashMap<>();
    settings.put("type", KafkaRecordSource.class.getName());
    settings.put("channels", "ch");
    settings.put("kafka.bootstrap.servers", stack.kafka().bootstrapServers());
    settings.put("kafka.topics", topic);
    settings.put("kafka.consumer.group.id", group);
    settings.put("batchSize", "50");
    settings.put("batchDurationMillis", "200");
    settings.put("recordHeaders", "timestamp,host,site,odd,accent");
    Configurables.configure(source, new Context(settings));
    ReplicatingChannelSelector selector = new ReplicatingChannelSelector();
    selector.setChannels(List.of(channel));
    source.setChannelProcessor(new ChannelProcessor(selector));
    return source;
  }

  private static List<Event> take(MemoryChannel channel, int max) {
    List<Event> events = new ArrayList<>();
    Transaction tx = channel.getTransaction();
    tx.begin();
    for (int i = 0; i < max; i++) {
      Event event = channel.take();
      if (event == null) {
        break;
      }
      events.add(event);
    }
    tx.commit();
    tx.close();
    return events;
  }

  @Test
  void recordsBecomeEventsByteForByteAndOffsetsFollowTheChannel() throws Exception {
    String topic = "record-source";
    stack.kafka().createTopic(topic, 1);
    byte[] notUtf8 = {'<', '1', '3', '>', 'x', (byte) 0xff, (byte) 0xfe, '\t', 'y'};
    try (KafkaProducer<byte[], byte[]> producer =
        ContractEvent.producer(stack.kafka().bootstrapServers())) {
      for (int i = 0; i < 120; i++) {
        ProducerRecord<byte[], byte[]> record =
            new ProducerRecord<>(
                topic,
                0,
                1_000L + i,
                ("k" + i).getBytes(StandardCharsets.UTF_8),
                i == 7 ? notUtf8 : ("<13>line " + i).getBytes(StandardCharsets.UTF_8));
        record
            .headers()
            .add("timestamp", Long.toString(5_000L + i).getBytes(StandardCharsets.UTF_8));
        record.headers().add("host", "router-1".getBytes(StandardCharsets.UTF_8));
        record.headers().add("not-listed", "x".getBytes(StandardCharsets.UTF_8));
        record.headers().add("accent", "café".getBytes(StandardCharsets.UTF_8));
        if (i == 9) {
          // Flume's source throws on this, after taking the record: it is skipped and committed
          // past
          record.headers().add(new RecordHeader("odd", (byte[]) null));
        }
        if (i == 11) {
          record.headers().remove("timestamp");
        }
        producer.send(record);
      }
    }
    // Room for 100 events: the third batch of 50 finds the channel full
    MemoryChannel channel = channel(100);
    KafkaRecordSource source = source("kafka0", topic, "g-record", channel);
    source.start();
    try {
      List<Event> events = new ArrayList<>();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (stack.kafka().committedOffset("g-record", topic, 0) < 100
          && System.nanoTime() < deadline) {
        source.process();
      }
      assertEquals(
          100,
          stack.kafka().committedOffset("g-record", topic, 0),
          "two batches committed after the channel took them");
      // The channel is full: the third batch is read but not accepted, so its offsets are not
      // committed
      assertEquals(PollableSource.Status.BACKOFF, source.process());
      assertEquals(100, stack.kafka().committedOffset("g-record", topic, 0));
      assertTrue(counter(source, "ChannelWriteFail") >= 1);
      events.addAll(take(channel, 100));
      // Room again: the kept batch goes in, then the rest
      while (stack.kafka().committedOffset("g-record", topic, 0) < 120
          && System.nanoTime() < deadline) {
        source.process();
        events.addAll(take(channel, 100));
      }
      events.addAll(take(channel, 100));
      assertEquals(120, stack.kafka().committedOffset("g-record", topic, 0));
      assertEquals(120, events.size(), "each record once, none lost to the full channel");
      for (int i = 0; i < 120; i++) {
        Event event = events.get(i);
        assertArrayEquals(
            i == 7 ? notUtf8 : ("<13>line " + i).getBytes(StandardCharsets.UTF_8),
            event.getBody(),
            "body " + i);
        Map<String, String> headers = event.getHeaders();
        // The record's own time stands in for a missing timestamp header, as in Flume's source
        assertEquals(
            Long.toString(i == 11 ? 1_000L + i : 5_000L + i), headers.get("timestamp"), "ts " + i);
        assertEquals("router-1", headers.get("host"));
        assertEquals("café", headers.get("accent"), "UTF-8 whatever the default charset");
        assertEquals("k" + i, headers.get("key"));
        assertFalse(headers.containsKey("not-listed"), "only the listed record headers");
        assertFalse(headers.containsKey("odd"), "a null value is skipped, the record kept");
      }
      assertEquals(120, counter(source, "EventAcceptedCount"));
    } finally {
      source.stop();
      channel.stop();
    }
  }

  private static long counter(KafkaRecordSource source, String name) {
    return AgentMetrics.of(JMXPollUtil.getAllMBeans()).source(source.getName(), name);
  }

  @Test
  void badSettingsNameTheKeyAndTheFix() {
    assertEquals(
        "Kafka record source: missing required key 'kafka.topics'. Fix: add kafka.topics = syslog to "
            + "the source.",
        assertThrows(
                ConfigurationException.class,
                () -> new KafkaRecordSourceConfig(Map.of("kafka.bootstrap.servers", "b:9092")))
            .getMessage());
    assertEquals(
        "Kafka record source: key 'kafka.consumer.enable.auto.commit' is set by the source itself. "
            + "Fix: remove it.",
        assertThrows(
                ConfigurationException.class,
                () ->
                    new KafkaRecordSourceConfig(
                        Map.of(
                            "kafka.bootstrap.servers",
                            "b:9092",
                            "kafka.topics",
                            "t",
                            "kafka.consumer.enable.auto.commit",
                            "true")))
            .getMessage());
    // Flume's KafkaSource keys that do not apply here are errors, not silently ignored
    assertTrue(
        assertThrows(
                ConfigurationException.class,
                () ->
                    new KafkaRecordSourceConfig(
                        Map.of(
                            "kafka.bootstrap.servers",
                            "b:9092",
                            "kafka.topics",
                            "t",
                            "header.host",
                            "host")))
            .getMessage()
            .startsWith(
                "Kafka record source: unknown key 'header.host'. Fix: remove it or use one of "));
  }
}
