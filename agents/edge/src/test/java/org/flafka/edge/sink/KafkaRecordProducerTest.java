package org.flafka.edge.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class KafkaRecordProducerTest {

  @Test
  void flushesAskedForWhileOneIsQueuedAddNoneBehindIt() {
    // nothing listens on port 1: the metadata fetch holds the background thread for max.block.ms
    KafkaRecordConfig config =
        KafkaRecordConfig.parse(
            KafkaRecordConfig.Role.CHANNEL,
            "ch0",
            Map.of(
                "kafka.bootstrap.servers", "127.0.0.1:1",
                "kafka.topic", "syslog",
                "kafka.producer.max.block.ms", "3000"));
    try (KafkaRecordProducer producer = new KafkaRecordProducer(config)) {
      CompletableFuture<Void> fetching = producer.fetchMetadataInBackground();

      for (int commit = 0; commit < 100; commit++) {
        producer.flushInBackground();
      }

      assertEquals(1, producer.queuedInBackground(), "one flush waits, covering every commit");
      fetching.exceptionally(failure -> null).join();
    }
  }
}
