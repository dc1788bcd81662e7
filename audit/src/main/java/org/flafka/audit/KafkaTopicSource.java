package org.flafka.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.contract.KafkaRecordDecoder;
import org.flafka.contract.KafkaSecurityFailure;

/**
 * Every record of a topic, all partitions, from the beginning (or the first record at or after
 * {@code from}) to the end offsets when the read starts (or the first record at or after {@code
 * to}). It assigns partitions itself: no consumer group, nothing committed, so it can run beside
 * the pipeline's own consumers.
 *
 * <p>Client timeouts are short ({@link #DEFAULT_TIMEOUT} unless set) so an unreachable cluster
 * fails fast. Records are matched to the window by Kafka's offset-for-time lookup: with producer
 * (CreateTime) timestamps out of order within a partition, the window's edges are approximate.
 *
 * <p>Only bodies are read, as the core reads them ({@link KafkaRecordDecoder#body}): the marks the
 * audit counts are in the message itself, so the record headers are not decoded.
 */
public final class KafkaTopicSource implements DeliverySource {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration POLL = Duration.ofMillis(500);

  private final String bootstrapServers;
  private final String topic;
  private final Duration timeout;
  private final Instant from;
  private final Instant to;
  private final Map<String, String> consumerProperties;

  public KafkaTopicSource(String bootstrapServers, String topic) {
    this(bootstrapServers, topic, DEFAULT_TIMEOUT, null, null, Map.of());
  }

  private KafkaTopicSource(
      String bootstrapServers,
      String topic,
      Duration timeout,
      Instant from,
      Instant to,
      Map<String, String> consumerProperties) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.timeout = timeout;
    this.from = from;
    this.to = to;
    this.consumerProperties = Map.copyOf(consumerProperties);
  }

  /** How long to wait for the cluster to answer, and for records to keep coming. */
  public KafkaTopicSource withTimeout(Duration newTimeout) {
    return new KafkaTopicSource(bootstrapServers, topic, newTimeout, from, to, consumerProperties);
  }

  /**
   * Only records from {@code start} (null: the beginning) up to before {@code end} (null: the end
   * offsets).
   */
  public KafkaTopicSource withWindow(Instant start, Instant end) {
    return new KafkaTopicSource(bootstrapServers, topic, timeout, start, end, consumerProperties);
  }

  /** Extra consumer settings, e.g. {@code security.protocol}, applied over the audit's own. */
  public KafkaTopicSource withConsumerProperties(Map<String, String> properties) {
    return new KafkaTopicSource(bootstrapServers, topic, timeout, from, to, properties);
  }

  @Override
  public String describe() {
    return "kafka "
        + bootstrapServers
        + " topic "
        + topic
        + (from == null && to == null
            ? ""
            : " from "
                + (from == null ? "the beginning" : from)
                + " to "
                + (to == null ? "the end" : to));
  }

  @Override
  public void readInto(Tally tally) throws AuditException {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig())) {
      List<TopicPartition> partitions = partitions(consumer);
      Map<TopicPartition, Long> start =
          from == null
              ? consumer.beginningOffsets(partitions, timeout)
              : offsetsAt(consumer, partitions, from);
      Map<TopicPartition, Long> end =
          to == null
              ? consumer.endOffsets(partitions, timeout)
              : offsetsAt(consumer, partitions, to);
      List<TopicPartition> toRead = new ArrayList<>();
      for (TopicPartition partition : partitions) {
        if (start.get(partition) < end.get(partition)) {
          toRead.add(partition);
        }
      }
      consumer.assign(toRead);
      toRead.forEach(partition -> consumer.seek(partition, start.get(partition)));
      read(consumer, toRead, end, tally);
    } catch (TimeoutException e) {
      throw unreachable(e);
    } catch (KafkaException e) {
      Optional<String> security = KafkaSecurityFailure.explain(e, consumerProperties);
      if (security.isPresent()) {
        throw new AuditException(
            "cannot read topic "
                + topic
                + " from Kafka at "
                + bootstrapServers
                + ": "
                + security.get(),
            e);
      }
      Throwable cause = e;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      throw new AuditException(
          "cannot read topic "
              + topic
              + " from Kafka at "
              + bootstrapServers
              + ": "
              + cause.getMessage()
              + ": check --bootstrap-server and --topic",
          e);
    }
  }

  private void read(
      KafkaConsumer<byte[], byte[]> consumer,
      List<TopicPartition> toRead,
      Map<TopicPartition, Long> end,
      Tally tally)
      throws AuditException {
    List<TopicPartition> remaining = new ArrayList<>(toRead);
    long lastProgress = System.nanoTime();
    while (!remaining.isEmpty()) {
      boolean progress = false;
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        if (record.offset() < end.get(partition)) {
          byte[] body = KafkaRecordDecoder.body(record);
          tally.record(body, 0, body.length);
          progress = true;
        }
      }
      List<TopicPartition> done = new ArrayList<>();
      for (TopicPartition partition : remaining) {
        // position() passes transaction markers and compacted gaps that never show up as records.
        if (consumer.position(partition, timeout) >= end.get(partition)) {
          done.add(partition);
        }
      }
      if (!done.isEmpty()) {
        remaining.removeAll(done);
        consumer.pause(done);
        progress = true;
      }
      if (progress) {
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > timeout.toNanos()) {
        throw new AuditException(
            "reading topic "
                + topic
                + " from Kafka at "
                + bootstrapServers
                + " stalled for "
                + timeout.toSeconds()
                + "s with partitions "
                + remaining
                + " unfinished: check the brokers' health, or raise --timeout");
      }
    }
  }

  private List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer)
      throws AuditException {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      throw new AuditException(
          "topic " + topic + " does not exist on Kafka at " + bootstrapServers + ": check --topic");
    }
    List<TopicPartition> partitions = new ArrayList<>();
    infos.forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
    return partitions;
  }

  /**
   * The first offset at or after {@code time} per partition; the end offset where every record is
   * older.
   */
  private Map<TopicPartition, Long> offsetsAt(
      KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Instant time) {
    Map<TopicPartition, Long> query = new HashMap<>();
    partitions.forEach(partition -> query.put(partition, time.toEpochMilli()));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (TopicPartition partition : partitions) {
      OffsetAndTimestamp offset = found.get(partition);
      offsets.put(partition, offset == null ? ends.get(partition) : offset.offset());
    }
    return offsets;
  }

  private AuditException unreachable(TimeoutException e) {
    return new AuditException(
        "cannot reach Kafka at "
            + bootstrapServers
            + " within "
            + timeout.toSeconds()
            + "s: check --bootstrap-server",
        e);
  }

  private Properties consumerConfig() {
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "flafka-audit");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(millis));
    config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(millis));
    config.put(
        ConsumerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
        Integer.toString(Math.min(millis, 5_000)));
    config.put(
        ConsumerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
        Integer.toString(Math.min(millis, 5_000)));
    config.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
    config.putAll(consumerProperties);
    return config;
  }
}
