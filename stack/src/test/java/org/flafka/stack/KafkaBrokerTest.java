package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class KafkaBrokerTest {
  @TempDir Path tmp;

  @Test
  void producesAndConsumesRecordsWithHeadersAcrossPartitions() throws IOException {
    Path dir = tmp.resolve("broker");
    Path unrelated = Files.createDirectories(dir).resolve("unrelated.txt");
    Files.writeString(unrelated, "not the broker's");
    int port;
    try (KafkaBroker broker = KafkaBroker.start(dir)) {
      port =
          Integer.parseInt(
              broker.bootstrapServers().substring(broker.bootstrapServers().lastIndexOf(':') + 1));
      broker.createTopic("logs", 3);
      assertEquals(3, broker.partitions("logs"));

      KafkaClients.produce(broker, "logs", 30);
      List<ConsumerRecord<byte[], byte[]>> records = KafkaClients.consume(broker, "logs", 30);

      Set<Integer> partitions = new HashSet<>();
      for (ConsumerRecord<byte[], byte[]> record : records) {
        partitions.add(record.partition());
        String body = new String(record.value(), StandardCharsets.UTF_8);
        assertEquals(
            body.replace("event-", "host-"),
            new String(record.headers().lastHeader("host").value(), StandardCharsets.UTF_8));
      }
      assertEquals(Set.of(0, 1, 2), partitions, "records keyed across three partitions");

      broker.alterPartitions("logs", 5);
      assertEquals(5, broker.partitions("logs"));
    }
    assertFalse(Files.exists(dir.resolve("kraft")), "close deletes the broker's data");
    assertTrue(Files.exists(unrelated), "and nothing else in its directory");
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", port));
      assertTrue(socket.isBound(), "close frees the broker port");
    }
  }

  @Test
  void withClientLatencyEveryClientGoesThroughTheProxyAndWaitsForIt() throws Exception {
    Duration oneWay = Duration.ofMillis(25);
    try (KafkaBroker broker = KafkaBroker.start(tmp.resolve("remote"), Map.of(), oneWay)) {
      broker.createTopic("far", 2);
      // the metadata names the proxy: a client that bootstrapped through it stays behind it
      try (var admin = broker.admin()) {
        String advertised = admin.describeCluster().nodes().get().iterator().next().port() + "";
        assertTrue(broker.bootstrapServers().endsWith(":" + advertised), advertised);
      }
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  broker.bootstrapServers(),
                  ProducerConfig.ACKS_CONFIG,
                  "all",
                  ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                  ByteArraySerializer.class,
                  ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                  ByteArraySerializer.class))) {
        producer
            .send(new ProducerRecord<>("far", 0, null, "warm".getBytes(StandardCharsets.UTF_8)))
            .get();
        long started = System.nanoTime();
        producer
            .send(new ProducerRecord<>("far", 0, null, "timed".getBytes(StandardCharsets.UTF_8)))
            .get();
        Duration roundTrip = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(
            roundTrip.compareTo(oneWay.multipliedBy(2)) >= 0,
            "a send waits a round trip: " + roundTrip);
      }
      KafkaClients.produce(broker, "far", 20);
      List<ConsumerRecord<byte[], byte[]>> records = KafkaClients.consume(broker, "far", 22);
      Set<String> bodies = new HashSet<>();
      records.forEach(r -> bodies.add(new String(r.value(), StandardCharsets.UTF_8)));
      assertTrue(
          bodies.containsAll(Set.of("warm", "timed", "event-0", "event-19")), bodies.toString());
      assertEquals(22, bodies.size(), "every byte through the proxy, in order, once");
    }
  }

  @Test
  void aRestartableBrokerStopsAndComesBackAtTheSameAddressWithItsRecords() throws Exception {
    Path dir = tmp.resolve("restartable");
    try (KafkaBroker broker = KafkaBroker.startRestartable(dir, Map.of())) {
      String address = broker.bootstrapServers();
      broker.createTopic("kept", 2);
      KafkaClients.produce(broker, "kept", 5);
      // A site's link goes dark; the data centre's clients, on the direct listener, carry on
      broker.clientProxy().blackHole();
      KafkaCluster direct = broker::directBootstrapServers;
      KafkaClients.produce(direct, "kept", 5);
      broker.clientProxy().restore();

      broker.stop();
      assertFalse(broker.isRunning());
      try (var admin = broker.admin()) {
        assertThrows(
            Exception.class,
            () -> admin.describeCluster().nodes().get(2, java.util.concurrent.TimeUnit.SECONDS),
            "nobody answers while it is stopped");
      }

      broker.restart();
      assertEquals(address, broker.bootstrapServers());
      KafkaClients.produce(broker, "kept", 10);
      assertEquals(
          20,
          KafkaClients.consume(broker, "kept", 20).size(),
          "the records from before the restart and after it");
    }
    assertFalse(Files.exists(dir.resolve("kraft")), "close deletes the data");
  }

  /** Minimal producer and consumer the stack tests share. */
  static final class KafkaClients {
    private KafkaClients() {}

    static void produce(KafkaCluster cluster, String topic, int count) {
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                  ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                  ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
        for (int i = 0; i < count; i++) {
          RecordHeaders headers = new RecordHeaders();
          headers.add("host", ("host-" + i).getBytes(StandardCharsets.UTF_8));
          producer.send(
              new ProducerRecord<>(
                  topic,
                  null,
                  ("key-" + i).getBytes(StandardCharsets.UTF_8),
                  ("event-" + i).getBytes(StandardCharsets.UTF_8),
                  headers));
        }
        producer.flush();
      }
    }

    static List<ConsumerRecord<byte[], byte[]>> consume(
        KafkaCluster cluster, String topic, int count) {
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  cluster.bootstrapServers(),
                  ConsumerConfig.GROUP_ID_CONFIG,
                  "stack-test-" + topic,
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                  "earliest",
                  ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                  ByteArrayDeserializer.class,
                  ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                  ByteArrayDeserializer.class))) {
        consumer.subscribe(List.of(topic));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (records.size() < count && System.nanoTime() < deadline) {
          consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
      }
      assertEquals(count, records.size(), "records consumed from " + topic);
      return records;
    }
  }
}
