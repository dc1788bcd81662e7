package org.flafka.bench.jmh;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.flafka.contract.Headers;
import org.flafka.contract.KafkaRecordDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The core's first steps with a record, one operation per event of the {@link Corpus}: the batch
 * the edge's sink wrote (its records with the carried facts as headers, snappy) read back as
 * Kafka's consumer reads it (decompressed and parsed into records), then each record made a Flume
 * event. {@code keys} compares the decoder's way of telling which contract header a record header
 * is ({@code bytes}: the key's bytes compared with the names', {@link KafkaRecordDecoder}) with the
 * way it replaced ({@code strings}: Kafka's {@code Header.key()}, a new String per header, looked
 * up in a map), so what the header keys cost shows apart from Kafka's own parsing ({@code read}).
 * {@code headers} is the set the core reads: {@code all} (what the core's Avro output reads: every
 * header these records carry) or {@code bucket} (what its text output reads, {@link
 * Headers#BUCKET}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Corpus.SIZE)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CoreDecodeBenchmark {

  @Param({"strings", "bytes"})
  public String keys;

  @Param({"all", "bucket"})
  public String headers;

  private MemoryRecords batch;
  private KafkaRecordDecoder decoder;
  private Map<String, String> names;

  @Setup
  public void setUp() {
    List<String> read = Headers.named(headers);
    decoder = new KafkaRecordDecoder(Set.copyOf(read));
    names = names(read);
    EdgeSinkBenchmark edge = new EdgeSinkBenchmark();
    edge.headerMap = "eventHeaders";
    edge.recordHeaders = "carried";
    edge.setUp();
    MemoryRecordsBuilder builder =
        MemoryRecords.builder(
            ByteBuffer.allocate(1 << 22),
            Compression.snappy().build(),
            TimestampType.CREATE_TIME,
            0L);
    for (byte[] message : Corpus.messages(42)) {
      ProducerRecord<String, byte[]> record = edge.record(message);
      builder.append(Corpus.RECEIVED, null, record.value(), record.headers().toArray());
    }
    batch = builder.build();
  }

  /** Kafka's consumer reading the batch: decompressing and parsing its records. */
  @Benchmark
  public void read(Blackhole blackhole) {
    for (RecordBatch recordBatch : batch.batches()) {
      for (Record record : recordBatch) {
        blackhole.consume(record.headers());
      }
    }
  }

  /** Plus each record made a Flume event's body and headers. */
  @Benchmark
  public void decode(Blackhole blackhole) {
    boolean bytes = keys.equals("bytes");
    for (RecordBatch recordBatch : batch.batches()) {
      for (Record record : recordBatch) {
        ConsumerRecord<byte[], byte[]> consumed = consumed(record);
        blackhole.consume(bytes ? decoder.headers(consumed) : byDecodedKeys(consumed));
      }
    }
  }

  /** The decoder's header loop as it was: every key decoded, then looked up. */
  private Map<String, String> byDecodedKeys(ConsumerRecord<byte[], byte[]> record) {
    Map<String, String> headers = new HashMap<>(16);
    for (Header header : record.headers()) {
      byte[] value = header.value();
      String canonical = value == null ? null : names.get(header.key());
      if (canonical != null) {
        headers.put(canonical, new String(value, StandardCharsets.UTF_8));
      }
    }
    return headers;
  }

  private static ConsumerRecord<byte[], byte[]> consumed(Record record) {
    return new ConsumerRecord<>(
        "syslog",
        0,
        record.offset(),
        record.timestamp(),
        TimestampType.CREATE_TIME,
        0,
        record.valueSize(),
        null,
        bytes(record.value()),
        new RecordHeaders(record.headers()),
        Optional.empty());
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  private static Map<String, String> names(List<String> read) {
    Map<String, String> names = new HashMap<>();
    for (String name : read) {
      names.put(name, name);
    }
    return Map.copyOf(names);
  }
}
