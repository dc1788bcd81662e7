package org.flafka.stack;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.flafka.contract.Headers;

/**
 * One event as the edge writes it to Kafka: the body (message bytes) as the record value and the
 * edge header contract as Kafka record headers, each a UTF-8 string. The body names the event's id
 * so that the text format, which stores bodies only, can be audited too. Used by the core's tests
 * and by {@code flafka bench core}, which prefills a topic with these.
 */
public record ContractEvent(String id, byte[] body, Map<String, String> headers) {

  /** A syslog-like body of about {@code size} bytes that contains {@code id=<id>} once. */
  public static byte[] syslogBody(String id, String host, long timestamp, int size) {
    String time = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochMilli(timestamp));
    StringBuilder line =
        new StringBuilder("<134>1 ")
            .append(time)
            .append(' ')
            .append(host)
            .append(" sshd 4123 - - id=")
            .append(id)
            .append(" session opened for user admin");
    while (line.length() < size) {
      line.append(" pad");
    }
    return line.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The contract headers the edge sets for a well-parsed RFC 5424 message. */
  public static Map<String, String> contractHeaders(String id, String host, long timestamp) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(Headers.TIMESTAMP, Long.toString(timestamp));
    headers.put(Headers.TIMESTAMP_SOURCE, "message");
    headers.put(Headers.HOST, host);
    headers.put(Headers.FACILITY, "16");
    headers.put(Headers.SEVERITY, "6");
    headers.put(Headers.APP, "sshd");
    headers.put(Headers.PROCID, "4123");
    headers.put(Headers.FORMAT, "rfc5424");
    headers.put(Headers.PARSE, "ok");
    headers.put(Headers.RECEIVED, Long.toString(timestamp + 5));
    headers.put(Headers.PEER, "192.0.2.1");
    headers.put(Headers.SITE, "par-03");
    headers.put(Headers.ID, id);
    return headers;
  }

  /** A well-formed event of {@code host} at {@code timestamp}. */
  public static ContractEvent of(String id, String host, long timestamp) {
    return new ContractEvent(
        id, syslogBody(id, host, timestamp, 120), contractHeaders(id, host, timestamp));
  }

  /**
   * The same event with header {@code name} set to {@code value}, or removed when {@code value} is
   * null.
   */
  public ContractEvent withHeader(String name, String value) {
    Map<String, String> changed = new LinkedHashMap<>(headers);
    if (value == null) {
      changed.remove(name);
    } else {
      changed.put(name, value);
    }
    return new ContractEvent(id, body, changed);
  }

  public ContractEvent withBody(byte[] newBody) {
    return new ContractEvent(id, newBody, headers);
  }

  /** {@code dt=YYYY-MM-DD} of {@code timestamp} in {@code zone}. */
  public static String dt(long timestamp, ZoneId zone) {
    return DateTimeFormatter.ISO_LOCAL_DATE.format(Instant.ofEpochMilli(timestamp).atZone(zone));
  }

  public ProducerRecord<byte[], byte[]> toRecord(String topic) {
    return toRecord(topic, null);
  }

  /** The record for {@code partition}, or for the producer's partitioner when it is null. */
  public ProducerRecord<byte[], byte[]> toRecord(String topic, Integer partition) {
    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, null, body);
    headers.forEach(
        (name, value) ->
            record.headers().add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
    return record;
  }

  /**
   * A producer that waits for acks=all and compresses with snappy, as the edge's Kafka sinks do.
   */
  public static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    return producer(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /**
   * {@link #producer(String)} with {@code clientSettings}: the bootstrap servers and, for a secure
   * cluster, how the client logs in (e.g. {@link SecurePipeline#clientSettings()}).
   */
  public static KafkaProducer<byte[], byte[]> producer(Map<String, String> clientSettings) {
    Properties config = new Properties();
    config.putAll(clientSettings);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    // Not idempotent, one request in flight: on a loaded machine a just-created topic answered
    // NOT_LEADER_OR_FOLLOWER, and the idempotent producer then retried OUT_OF_ORDER_SEQUENCE_NUMBER
    // until its two-minute delivery timeout. Ordered retries cannot hit that; a rare duplicate is
    // fine for these tests.
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "snappy");
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /**
   * Sends {@code events} to {@code topic} with a producer of its own and waits until Kafka has them
   * all.
   */
  public static void produce(String bootstrapServers, String topic, List<ContractEvent> events) {
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
      send(producer, topic, events);
    }
  }

  /** Sends {@code events} to {@code topic} and waits until Kafka has them all. */
  public static void send(
      KafkaProducer<byte[], byte[]> producer, String topic, List<ContractEvent> events) {
    send(producer, topic, events, event -> null);
  }

  /**
   * Sends {@code events} to {@code topic}, each to the partition {@code partition} gives it (null:
   * the producer's partitioner chooses), and waits until Kafka has them all.
   */
  public static void send(
      KafkaProducer<byte[], byte[]> producer,
      String topic,
      List<ContractEvent> events,
      Function<ContractEvent, Integer> partition) {
    try {
      List<Future<RecordMetadata>> sent = new ArrayList<>(events.size());
      for (ContractEvent event : events) {
        sent.add(producer.send(event.toRecord(topic, partition.apply(event))));
      }
      for (Future<RecordMetadata> future : sent) {
        future.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka refused an event: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing", e);
    }
  }
}
