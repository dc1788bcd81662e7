package org.flafka.bench.jmh;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;
import org.apache.flume.interceptor.Interceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.flafka.contract.Headers;
import org.flafka.edge.sink.KafkaRecordSink;
import org.flafka.edge.source.EventBatcher;
import org.flafka.edge.source.EventHeaders;
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
 * An edge event's way from the source's header map to encoded Kafka bytes, on one thread, one
 * operation per event of the {@link Corpus}: the event as the edge source builds it, the syslog and
 * event-id interceptors (the 15 contract headers), the sink's {@code toRecord}, and with {@code
 * encode} Kafka's own record encoding with snappy ({@code MemoryRecordsBuilder}, Kafka's internal
 * class that the producer appends every record with; what the producer does per record, without the
 * network). {@code headerMap} compares the edge's {@link EventHeaders} with the {@code HashMap} it
 * replaced; {@code recordHeaders} the sink sending every fact ({@code all}) with sending only the
 * facts the body cannot give back ({@code carried}, the template's default), so what the record
 * headers cost in the sink and in Kafka's encoding shows apart from the rest.
 *
 * <p>In the package of the classes it measures (package-private) although it lives in the
 * benchmarks jar. What it cannot show: in an agent the sink thread reads headers the source thread
 * wrote, on another core, so a map of scattered objects costs more there than here
 * (docs/benchmarks.md, {@code flafka bench edge}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Corpus.SIZE)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EdgeSinkBenchmark {

  private static final String RECEIVED = Long.toString(Corpus.RECEIVED);
  private static final String PEER = "10.20.30.40";

  @Param({"hashMap", "eventHeaders"})
  public String headerMap;

  /** The sink's {@code recordHeaders}: the named sets of the templates' kafka_record_facts. */
  @Param({"all", "carried"})
  public String recordHeaders;

  private byte[][] messages;
  private Interceptor syslogInterceptor;
  private Interceptor eventIdInterceptor;
  private KafkaRecordSink sink;
  private MemoryRecordsBuilder records;
  private final ByteBuffer recordsBuffer = ByteBuffer.allocate(1 << 20);

  @Setup
  public void setUp() {
    messages = Corpus.messages(42);
    syslogInterceptor = InterceptorBenchmark.syslogInterceptor();
    eventIdInterceptor = InterceptorBenchmark.eventIdInterceptor();
    sink = new KafkaRecordSink();
    sink.setName("kafka0");
    // never started, so no producer and no broker
    sink.configure(
        new Context(
            Map.of(
                "kafka.bootstrap.servers",
                "127.0.0.1:9092",
                "kafka.topic",
                "syslog",
                "recordHeaders",
                recordHeaders)));
    records = newRecords();
  }

  /** The source's event and the interceptors: the baseline the sink's work is measured above. */
  @Benchmark
  public void intercept(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(intercepted(message));
    }
  }

  /** Plus the sink turning the event into a Kafka record. */
  @Benchmark
  public void toRecord(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(sink.toRecord(intercepted(message)));
    }
  }

  /** Plus Kafka encoding and compressing the record into a batch. */
  @Benchmark
  public void encode(Blackhole blackhole) {
    for (byte[] message : messages) {
      ProducerRecord<String, byte[]> record = sink.toRecord(intercepted(message));
      Header[] headers = record.headers().toArray();
      if (!records.hasRoomFor(Corpus.RECEIVED, null, record.value(), headers)) {
        blackhole.consume(records.build());
        records = newRecords();
      }
      records.append(Corpus.RECEIVED, null, record.value(), headers);
    }
  }

  /** The record the edge's sink makes of {@code message}, for the core's benchmark to read. */
  ProducerRecord<String, byte[]> record(byte[] message) {
    return sink.toRecord(intercepted(message));
  }

  private MemoryRecordsBuilder newRecords() {
    recordsBuffer.clear();
    return MemoryRecords.builder(
        recordsBuffer, Compression.snappy().build(), TimestampType.CREATE_TIME, 0L);
  }

  private Event intercepted(byte[] message) {
    SimpleEvent event = new SimpleEvent();
    event.setBody(message);
    // as EventBatcher builds them: before, a HashMap sized for the contract; now EventHeaders
    Map<String, String> headers =
        headerMap.equals("hashMap")
            ? new HashMap<>(32)
            : new EventHeaders(EventBatcher.EVENT_HEADER_CAPACITY);
    headers.put(Headers.RECEIVED, RECEIVED);
    headers.put(Headers.PEER, PEER);
    event.setHeaders(headers);
    return eventIdInterceptor.intercept(syslogInterceptor.intercept(event));
  }
}
