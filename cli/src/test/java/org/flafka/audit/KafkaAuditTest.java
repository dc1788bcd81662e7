package org.flafka.audit;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.flafka.cli.FlafkaRun;
import org.flafka.stack.KafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit against a real KRaft broker, fed with what a real {@code flafka load} run sent. */
@Tag("e2e")
class KafkaAuditTest {
  @TempDir static Path tmp;
  private static KafkaBroker kafka;
  private static LoadRun run;

  @BeforeAll
  static void produce() throws Exception {
    run =
        LoadRun.run(
            tmp,
            Deliveries.DEVICES,
            Deliveries.CONNECTIONS,
            Deliveries.DEVICES * Deliveries.PER_DEVICE);
    kafka = KafkaBroker.start(tmp.resolve("kafka"));
    // One AdminClient call, no describe afterwards: KafkaCluster.createTopic's describe can race
    // the new topic's metadata ("This server does not host this topic-partition"); the producer
    // waits for it anyway.
    try (Admin admin = kafka.admin()) {
      admin
          .createTopics(
              List.of(new NewTopic("damaged", 3, (short) 1), new NewTopic("clean", 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                "5"),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (byte[] body : Deliveries.all(run)) {
        producer.send(new ProducerRecord<>("damaged", body));
      }
      for (byte[] body : run.bodies.values()) {
        producer.send(new ProducerRecord<>("clean", body));
      }
      producer.flush();
    }
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void findsEveryFaultInATopic() throws Exception {
    AuditResult result =
        Audit.run(
            Manifest.read(run.manifest), new KafkaTopicSource(kafka.bootstrapServers(), "damaged"));

    Deliveries.assertFound(result, List.of(), 0);
    assertEquals(
        Deliveries.all(run).size(), result.records(), "every record of every partition read");
    assertEquals("kafka " + kafka.bootstrapServers() + " topic damaged", result.source());
  }

  @Test
  void cliReportsProblemDevicesAndExitsOne() {
    FlafkaRun audit =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            "damaged");

    assertEquals(1, audit.exitCode(), audit.err());
    assertTrue(
        audit
            .out()
            .contains(
                "dev 000001 dev-000001.site: sent 500, delivered 449, missing 51: 101-150, "
                    + "300\n"),
        audit.out());
    assertTrue(
        audit
            .out()
            .contains(
                "dev 000002 dev-000002.site: sent 500, delivered 500; duplicated 3 (2 "
                    + "sequences)\n"),
        audit.out());
    assertTrue(audit.out().contains("FAILED: 52 missing, 4 corrupted"), audit.out());
  }

  @Test
  void cleanTopicPassesWithJsonForScripts() throws Exception {
    FlafkaRun audit =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            "clean",
            "--format",
            "json",
            "--verbose");

    assertEquals(0, audit.exitCode(), audit.err() + audit.out());
    JsonNode json = new ObjectMapper().readTree(audit.out());
    assertTrue(json.get("passed").asBoolean());
    assertEquals(2000, json.get("delivered").asLong());
    assertEquals(0, json.get("corrupted").asLong());
    assertEquals(Deliveries.DEVICES, json.get("devices").size(), "--verbose lists every device");
  }

  @Test
  void windowAfterEveryRecordReadsNothing() throws Exception {
    AuditResult result =
        Audit.run(
            Manifest.read(run.manifest),
            new KafkaTopicSource(kafka.bootstrapServers(), "clean")
                .withWindow(Instant.now().plus(Duration.ofHours(1)), null));

    assertEquals(0, result.records());
    assertEquals(2000, result.missing());
  }

  @Test
  void missingTopicAndUnreachableBrokerAreOneLineErrors() throws Exception {
    FlafkaRun missing =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            "nope");
    assertEquals(2, missing.exitCode());
    assertEquals(
        "flafka: topic nope does not exist on Kafka at "
            + kafka.bootstrapServers()
            + ": check --topic\n",
        missing.err());

    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    long start = System.nanoTime();
    FlafkaRun unreachable =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--bootstrap-server",
            "127.0.0.1:" + closedPort,
            "--topic",
            "syslog",
            "--timeout",
            "2s");
    assertEquals(2, unreachable.exitCode());
    assertEquals(
        "flafka: cannot reach Kafka at 127.0.0.1:"
            + closedPort
            + " within 2s: check --bootstrap-server\n",
        unreachable.err());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "fails fast");
  }
}
