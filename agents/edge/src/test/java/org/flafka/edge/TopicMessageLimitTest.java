package org.flafka.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.junit.jupiter.api.Test;

/** The size a record is judged by against the topic's limit, against the size Kafka's own encoding gives it. */
class TopicMessageLimitTest {

  private static ProducerRecord<String, byte[]> record(String key, int bodyBytes, List<Header> headers) {
    return new ProducerRecord<>("t", null, null, key, new byte[bodyBytes], headers);
  }

  /** The record in a batch of its own, uncompressed, as the producer would build it with an offset far on. */
  private static int kafkaBatchBytes(ProducerRecord<String, byte[]> record) {
    MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1 << 20), Compression.NONE,
        TimestampType.CREATE_TIME, 1_000_000L);
    byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
    builder.append(System.currentTimeMillis(), key, record.value(), record.headers().toArray());
    return builder.build().sizeInBytes();
  }

  @Test
  void theJudgedSizeIsKafkasOwn() {
    List<Header> contract = List.of(new RecordHeader("timestamp", bytes("1763726400123")),
        new RecordHeader("host", bytes("edge-router-7.paris.example.net")), new RecordHeader("app", bytes("sshd")),
        new RecordHeader("site", bytes("par-03")), new RecordHeader("id", bytes("01JD2Z8Q4M7W1X9C3V5B6N8K0T")),
        new RecordHeader("hôte", bytes("é")), new RecordHeader("empty", null));
    for (ProducerRecord<String, byte[]> record : List.of(record(null, 0, List.of()), record("router-7", 200, contract),
        record(null, 70_000, contract), record("ключ", 3 << 20, List.of()))) {
      assertEquals(kafkaBatchBytes(record), TopicMessageLimit.batchBytes(record));
    }
  }

  @Test
  void aRecordExceedsTheLimitOnlyWhenItsBatchWould() {
    ProducerRecord<String, byte[]> record = record("router-7", 100_000, List.of(new RecordHeader("id", bytes("x"))));
    int judged = TopicMessageLimit.batchBytes(record);
    assertFalse(TopicMessageLimit.exceeds(record, judged));
    assertTrue(TopicMessageLimit.exceeds(record, judged - 1));
    assertFalse(TopicMessageLimit.exceeds(record, TopicMessageLimit.UNKNOWN));
    // a body far under the limit is not summed at all
    assertFalse(TopicMessageLimit.exceeds(record(null, 200, List.of()), 1_048_588));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
