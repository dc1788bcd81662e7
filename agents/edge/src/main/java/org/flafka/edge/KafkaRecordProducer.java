package org.flafka.edge;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka producer of a {@link KafkaRecordSink} or {@link KafkaRecordChannel} and the limit of the topic it writes
 * ({@link TopicMessageLimit}), opened and closed together. Thread-safe: the producer is, and the limit is read
 * under this object's lock, once per batch (a channel's source puts from several threads).
 */
final class KafkaRecordProducer implements AutoCloseable {
  /** How long closing waits for records still being sent. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

  private final KafkaProducer<String, byte[]> producer;
  private final TopicMessageLimit topicLimit;

  KafkaRecordProducer(KafkaRecordConfig config) {
    Properties producerProperties = config.producerProperties();
    producer = new KafkaProducer<>(producerProperties);
    topicLimit = new TopicMessageLimit(config.component(), config.topic(), producerProperties);
  }

  /** The topic's {@code max.message.bytes}, or {@link TopicMessageLimit#UNKNOWN}. */
  synchronized int topicLimitBytes() {
    return topicLimit.bytes();
  }

  void send(ProducerRecord<String, byte[]> record, Callback callback) {
    producer.send(record, callback);
  }

  /** Returns once every record sent so far is acknowledged or failed, their callbacks run. */
  void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close(CLOSE_WAIT);
    topicLimit.close();
  }
}
