package org.flafka.edge.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.flafka.edge.it.KafkaBrokerExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The size a record is judged by against the topic's limit, against the size Kafka's own encoding
 * gives it; and the lookups of the limit on a real broker, timed by a clock the test moves.
 */
@Tag("e2e")
class TopicMessageLimitTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void theLimitIsLookedUpThenRetriedAndRefreshedOnTheClock() throws Exception {
    AtomicLong clock = new AtomicLong();
    Properties producer = new Properties();
    producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer.put(
        ProducerConfig.ACKS_CONFIG, "all"); // a producer key the AdminClient must not be given
    try (TopicMessageLimit limit =
        new TopicMessageLimit("test sink", "limits", producer, clock::get)) {
      assertEquals(TopicMessageLimit.UNKNOWN, limit.bytes(), "no such topic yet");
      kafka.createTopic("limits", 1);
      setMaxMessageBytes("limits", 4096);
      assertStays(limit, TopicMessageLimit.UNKNOWN, "no lookup before the retry is due");
      clock.addAndGet(TopicMessageLimit.RETRY_NANOS);
      assertEquals(4096, awaitLimit(limit, 4096));

      setMaxMessageBytes("limits", 16384);
      clock.addAndGet(TopicMessageLimit.REFRESH_NANOS - 1);
      assertStays(limit, 4096, "no lookup before the refresh is due");
      clock.addAndGet(1);
      assertEquals(16384, awaitLimit(limit, 16384));
    }
  }

  private static void setMaxMessageBytes(String topic, int bytes) throws Exception {
    try (Admin admin = kafka.admin()) {
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      AlterConfigOp set =
          new AlterConfigOp(
              new ConfigEntry("max.message.bytes", Integer.toString(bytes)),
              AlterConfigOp.OpType.SET);
      admin.incrementalAlterConfigs(Map.of(resource, List.of(set))).all().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Asserts that the limit stays {@code expected} for half a second of asking, the test's clock
   * standing still.
   */
  private static void assertStays(TopicMessageLimit limit, int expected, String why)
      throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
    while (System.nanoTime() < end) {
      assertEquals(expected, limit.bytes(), why);
      Thread.sleep(20);
    }
  }

  /**
   * The limit once the lookup under way has answered {@code expected}, or what it last answered
   * after 30 s.
   */
  private static int awaitLimit(TopicMessageLimit limit, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int bytes = limit.bytes();
    while (bytes != expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
      bytes = limit.bytes();
    }
    return bytes;
  }

  private static ProducerRecord<String, byte[]> record(
      String key, int bodyBytes, List<Header> headers) {
    return new ProducerRecord<>("t", null, null, key, new byte[bodyBytes], headers);
  }

  /**
   * The record in a batch of its own, uncompressed, as the producer would build it with an offset
   * far on.
   */
  private static int kafkaBatchBytes(ProducerRecord<String, byte[]> record) {
    MemoryRecordsBuilder builder =
        MemoryRecords.builder(
            ByteBuffer.allocate(1 << 20), Compression.NONE, TimestampType.CREATE_TIME, 1_000_000L);
    byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
    builder.append(System.currentTimeMillis(), key, record.value(), record.headers().toArray());
    return builder.build().sizeInBytes();
  }

  @Test
  void theJudgedSizeIsKafkasOwn() {
    List<Header> contract =
        List.of(
            new RecordHeader("timestamp", bytes("1763726400123")),
            new RecordHeader("host", bytes("edge-router-7.paris.example.net")),
            new RecordHeader("app", bytes("sshd")),
            new RecordHeader("site", bytes("par-03")),
            new RecordHeader("id", bytes("01JD2Z8Q4M7W1X9C3V5B6N8K0T")),
            new RecordHeader("hôte", bytes("é")),
            new RecordHeader("empty", null));
    for (ProducerRecord<String, byte[]> record :
        List.of(
            record(null, 0, List.of()),
            record("router-7", 200, contract),
            record(null, 70_000, contract),
            record("ключ", 3 << 20, List.of()))) {
      assertEquals(kafkaBatchBytes(record), TopicMessageLimit.batchBytes(record));
    }
  }

  @Test
  void aRecordIsOversizeOnlyWhenKafkaWouldRefuseIt() {
    ProducerRecord<String, byte[]> record =
        record("router-7", 100_000, List.of(new RecordHeader("id", bytes("x"))));
    int batch = TopicMessageLimit.batchBytes(record);
    int request = KafkaRecordProducer.requestBytes(record);
    assertTrue(
        request >= batch, "the producer's estimate is an upper bound: " + request + " < " + batch);
    int unlimited = Integer.MAX_VALUE;

    assertNull(Oversize.judge(record, "t", batch, request), "at both limits exactly");
    assertEquals(
        new Oversize(batch, "topic t's max.message.bytes", batch - 1),
        Oversize.judge(record, "t", batch - 1, unlimited));
    assertEquals(
        new Oversize(request, "the producer's max.request.size", request - 1),
        Oversize.judge(record, "t", TopicMessageLimit.UNKNOWN, request - 1));
    assertEquals(
        "topic t's max.message.bytes",
        Oversize.judge(record, "t", batch - 1, request - 1).limitName(),
        "over both: the topic's, which is judged first");
    assertNull(Oversize.judge(record, "t", TopicMessageLimit.UNKNOWN, unlimited));
    // a body far under both limits is not summed at all
    assertNull(Oversize.judge(record(null, 200, List.of()), "t", 1_048_588, 1_048_576));
    assertEquals(
        "a record of " + batch + " bytes, over topic t's max.message.bytes (" + (batch - 1) + ")",
        Oversize.judge(record, "t", batch - 1, unlimited).exception().getMessage());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
