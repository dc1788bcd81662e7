package org.flafka.partitioner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.conf.Configurables;
import org.apache.flume.sink.kafka.KafkaSink;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Flume's own Kafka sink builds its producer from our documented settings and the producer
 * configures our partitioner with them. No broker is needed: the producer configures its
 * partitioner in its constructor, before it connects anywhere. Where records land is covered with a
 * broker by the end-to-end tests.
 */
class FlumeKafkaSinkWiringTest {

  private static KafkaSink sink(Map<String, String> partitionerSettings) {
    Map<String, String> settings = new HashMap<>(partitionerSettings);
    // Port 9 (discard) on loopback: nothing answers, and nothing needs to before start() returns.
    settings.put("kafka.bootstrap.servers", "127.0.0.1:9");
    settings.put("kafka.topic", "syslog");
    KafkaSink sink = new KafkaSink();
    sink.setName("k1");
    MemoryChannel channel = new MemoryChannel();
    Configurables.configure(channel, new Context());
    sink.setChannel(channel);
    Configurables.configure(sink, new Context(settings));
    return sink;
  }

  @Test
  void theSinkStartsWithTheStripePartitionerConfiguredThroughKafkaProducerSettings() {
    KafkaSink sink =
        sink(
            Map.of(
                "kafka.producer.partitioner.class", StripePartitioner.class.getName(),
                "kafka.producer.flafka.stripe.count", "4",
                "kafka.producer.flafka.stripe.index", "3"));
    sink.start();
    sink.stop();
  }

  @Test
  void aBadStripeIndexInTheSinkConfigurationStopsTheSinkWithOurMessage() {
    KafkaSink sink =
        sink(
            Map.of(
                "kafka.producer.partitioner.class", HostAffinityPartitioner.class.getName(),
                "kafka.producer.flafka.stripe.count", "4",
                "kafka.producer.flafka.stripe.index", "4"));
    KafkaException failure = assertThrows(KafkaException.class, sink::start);
    ConfigException cause = assertInstanceOf(ConfigException.class, failure.getCause());
    assertEquals(
        "Invalid value 4 for configuration flafka.stripe.index: must be less than flafka.stripe.count "
            + "(4); set flafka.stripe.count to the number of sinks on every sink",
        cause.getMessage());
  }
}
