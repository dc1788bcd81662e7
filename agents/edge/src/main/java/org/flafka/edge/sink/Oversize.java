package org.flafka.edge.sink;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * A record Kafka would refuse as too large: its size as the limit it breaks counts it, that limit's
 * name and value. Kafka has two such limits, and a writer must judge both before sending: the
 * topic's {@code max.message.bytes} (the broker refuses the whole batch, and the producer then
 * splits and resends it for ever: {@link TopicMessageLimit}) and the producer's own {@code
 * max.request.size} (refused in {@code send}, after the writer may have sent the rest of its batch,
 * which a channel's source would then put again).
 */
public record Oversize(int bytes, String limitName, int limitBytes) {

  /**
   * Whether Kafka would refuse {@code record}, written to {@code topic}: null if it would not, else
   * the first limit it breaks. {@code topicLimitBytes} may be {@link TopicMessageLimit#UNKNOWN}.
   */
  static Oversize judge(
      ProducerRecord<String, byte[]> record,
      String topic,
      int topicLimitBytes,
      int maxRequestBytes) {
    // a body this far under both limits cannot reach either with the edge's headers: no need for
    // the exact sums
    int smallerLimit = Math.min(topicLimitBytes, maxRequestBytes);
    if (record.value().length <= smallerLimit - KafkaRecordConfig.RECORD_HEADROOM_BYTES) {
      return null;
    }
    int batchBytes = TopicMessageLimit.batchBytes(record);
    if (batchBytes > topicLimitBytes) {
      return new Oversize(batchBytes, "topic " + topic + "'s max.message.bytes", topicLimitBytes);
    }
    int requestBytes = KafkaRecordProducer.requestBytes(record);
    if (requestBytes > maxRequestBytes) {
      return new Oversize(requestBytes, "the producer's max.request.size", maxRequestBytes);
    }
    return null;
  }

  /**
   * What Kafka would have thrown, for a writer that reports the refusal as Kafka's own would be.
   */
  public RecordTooLargeException exception() {
    return new RecordTooLargeException("a record of " + this);
  }

  @Override
  public String toString() {
    return bytes + " bytes, over " + limitName + " (" + limitBytes + ")";
  }
}
