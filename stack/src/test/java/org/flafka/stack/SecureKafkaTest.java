package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class SecureKafkaTest {
  @TempDir static Path tmp;
  private static SecureKafka kafka;

  @BeforeAll
  static void start() {
    kafka = SecureKafka.start(tmp.resolve("secure"));
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @Test
  void aKerberosClientWithItsKeytabProducesAndConsumesOverSaslSsl() throws Exception {
    Path keytab = kafka.kdc().createPrincipal("edge-gssapi");
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(keytab)),
        "a keytab is its owner's only");
    roundTrip("gssapi", kafka.gssapiClient("edge-gssapi", keytab));
  }

  @Test
  void aScramUserCreatedThroughTheAdminApiProducesAndConsumesOverSaslSsl() throws Exception {
    kafka.addScramUser("edge-scram", "s3cret-scram");
    roundTrip("scram", kafka.scramClient("edge-scram", "s3cret-scram"));
  }

  @Test
  void aClientCertificateSignedByTheCaProducesAndConsumesOverSsl() throws Exception {
    roundTrip("mtls", kafka.sslClient(kafka.ca().issue("edge-tls")));
  }

  @Test
  void aWrongScramPasswordIsRefusedAsAnAuthenticationFailure() {
    kafka.addScramUser("edge-wrong", "right-password");
    ExecutionException failure =
        assertThrows(
            ExecutionException.class,
            () -> produce("wrong", kafka.scramClient("edge-wrong", "wrong-password"), 1));
    assertInstanceOf(SaslAuthenticationException.class, failure.getCause());
  }

  @Test
  void aCertificateFromAnotherCaIsRefusedAsAnAuthenticationFailure() {
    CertificateAuthority stranger =
        CertificateAuthority.create(tmp.resolve("stranger-ca"), "Stranger CA");
    ExecutionException failure =
        assertThrows(
            ExecutionException.class,
            () -> produce("stranger", kafka.sslClient(stranger.issue("stranger")), 1));
    assertInstanceOf(SslAuthenticationException.class, failure.getCause());
  }

  @Test
  void aClientThatDoesNotTrustTheBrokersCaIsRefused() {
    CertificateAuthority stranger =
        CertificateAuthority.create(tmp.resolve("other-trust"), "Other CA");
    Map<String, String> client = kafka.scramClient("nobody", "whatever");
    client.put("ssl.truststore.location", stranger.trustStore().path().toString());
    client.put("ssl.truststore.password", stranger.trustStore().password());
    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> produce("untrusted", client, 1));
    assertInstanceOf(SslAuthenticationException.class, failure.getCause());
  }

  private static void roundTrip(String topic, Map<String, String> client) throws Exception {
    kafka.createTopic(topic, 2);
    produce(topic, client, 20);
    List<String> bodies = consume(topic, client, 20);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add(topic + "-" + i);
    }
    bodies.sort(null);
    expected.sort(null);
    assertEquals(expected, bodies);
  }

  private static void produce(String topic, Map<String, String> client, int count)
      throws Exception {
    Map<String, Object> config = new HashMap<>(client);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < count; i++) {
        producer
            .send(new ProducerRecord<>(topic, (topic + "-" + i).getBytes(StandardCharsets.UTF_8)))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static List<String> consume(String topic, Map<String, String> client, int count) {
    Map<String, Object> config = new HashMap<>(client);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + topic);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    List<String> bodies = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (bodies.size() < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          bodies.add(new String(record.value(), StandardCharsets.UTF_8));
        }
      }
    }
    return bodies;
  }
}
