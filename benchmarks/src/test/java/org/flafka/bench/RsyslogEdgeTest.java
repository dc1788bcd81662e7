package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.load.Protocol;
import org.flafka.stack.KafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bench's rsyslog variants against a real broker: Debian's rsyslogd with omkafka (installed by
 * scripts/setup) writes each line it receives, over TCP or UDP, as one record whose value is the
 * line as sent, without headers; and for rsyslog-fields, a JSON object of the contract's facts as
 * rsyslog parses them with the line in it. So what the bench compares ours with is the C daemon
 * doing the job it says it does.
 */
@Tag("e2e")
class RsyslogEdgeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> LINES =
      List.of(
          "<165>1 2026-11-26T17:00:00.123Z router-7 sshd 4123 ID47 - Accepted publickey for netops",
          "<13>Nov 26 17:00:01 fw-2 kernel: link up on eth1",
          "%ASA-6-302013: Built outbound TCP connection 1 for outside:10.0.0.1/443 (10.0.0.1/443)",
          "not syslog at all, but still a line");

  @TempDir static Path tmp;
  private static KafkaBroker kafka;

  @BeforeAll
  static void startBroker() {
    for (RsyslogEdge.Body body : RsyslogEdge.Body.values()) {
      RsyslogEdge.checkInstalled(Protocol.TCP, body, tmp.resolve("check-" + body));
    }
    kafka = KafkaBroker.start(tmp.resolve("kafka"));
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Protocol.class,
      names = {"TCP", "UDP"})
  @Timeout(120)
  void everyLineBecomesOneRecordOfItsExactBytesWithoutHeaders(Protocol protocol) throws Exception {
    String topic = "rsyslog-" + protocol.flagName();
    kafka.createTopic(topic, 2);
    int port = protocol.freeLoopbackPort();
    RsyslogEdge rsyslog =
        RsyslogEdge.start(
            new Variant.Target(kafka.bootstrapServers(), topic, port, protocol),
            RsyslogEdge.Body.RAW_MESSAGE,
            tmp.resolve(topic));
    try {
      assertTrue(rsyslog.isAlive());
      send(protocol, port);
      List<ConsumerRecord<byte[], byte[]>> records = consume(topic, LINES.size());
      assertEquals(
          new TreeSet<>(LINES),
          new TreeSet<>(
              records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList()),
          "the lines, byte for byte");
      for (ConsumerRecord<byte[], byte[]> record : records) {
        assertEquals(0, record.headers().toArray().length, "omkafka writes no record headers");
      }
      assertEquals(EdgeProcess.Counts.NONE, rsyslog.counts());
    } finally {
      rsyslog.kill();
    }
    assertFalse(rsyslog.isAlive());
  }

  @Test
  @Timeout(120)
  void theFieldsBodyIsOneJsonObjectOfTheContractsFactsAndTheLineAsSent() throws Exception {
    String topic = "rsyslog-fields";
    kafka.createTopic(topic, 2);
    int port = Protocol.TCP.freeLoopbackPort();
    RsyslogEdge rsyslog =
        RsyslogEdge.start(
            new Variant.Target(kafka.bootstrapServers(), topic, port, Protocol.TCP),
            RsyslogEdge.Body.CONTRACT_FIELDS_JSON,
            tmp.resolve(topic));
    Map<String, JsonNode> byLine = new HashMap<>();
    try {
      send(Protocol.TCP, port);
      for (ConsumerRecord<byte[], byte[]> record : consume(topic, LINES.size())) {
        assertEquals(0, record.headers().toArray().length, "omkafka writes no record headers");
        JsonNode fields = JSON.readTree(record.value());
        assertEquals(
            List.of(
                "timestamp",
                "host",
                "facility",
                "severity",
                "app",
                "procid",
                "msgid",
                "format",
                "received",
                "peer",
                "site",
                "message"),
            fieldNames(fields));
        byLine.put(fields.get("message").asText(), fields);
      }
    } finally {
      rsyslog.kill();
    }
    assertEquals(
        new TreeSet<>(LINES), new TreeSet<>(byLine.keySet()), "each line, whole, in its record");
    JsonNode rfc5424 = byLine.get(LINES.get(0));
    assertEquals("router-7", rfc5424.get("host").asText());
    assertEquals("local4", rfc5424.get("facility").asText());
    assertEquals("notice", rfc5424.get("severity").asText());
    assertEquals("sshd", rfc5424.get("app").asText());
    assertEquals("4123", rfc5424.get("procid").asText());
    assertEquals("ID47", rfc5424.get("msgid").asText());
    assertEquals("1", rfc5424.get("format").asText(), "rsyslog's protocol version for RFC 5424");
    assertEquals(
        Instant.parse("2026-11-26T17:00:00Z").getEpochSecond(), rfc5424.get("timestamp").asLong());
    JsonNode rfc3164 = byLine.get(LINES.get(1));
    assertEquals("fw-2", rfc3164.get("host").asText());
    assertEquals("user", rfc3164.get("facility").asText());
    assertEquals("kernel", rfc3164.get("app").asText());
    assertEquals("0", rfc3164.get("format").asText(), "rsyslog's protocol version for RFC 3164");
    for (JsonNode fields : byLine.values()) {
      assertEquals("127.0.0.1", fields.get("peer").asText());
      assertEquals(Variant.SITE, fields.get("site").asText());
      assertTrue(
          Math.abs(fields.get("received").asLong() - Instant.now().getEpochSecond()) < 120,
          "received is the receive time in epoch seconds: " + fields);
    }
  }

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void rsyslogsThreadsAreGroupedByWhatTheyDo() {
    // names as /proc/<pid>/task/*/comm shows them for rsyslogd 8.2302 with imtcp, imudp and omkafka
    assertEquals("rsyslog input", RsyslogEdge.THREAD_GROUPS.groupOf("in:imtcp"));
    assertEquals("rsyslog input", RsyslogEdge.THREAD_GROUPS.groupOf("imudp(w0)"));
    assertEquals(
        "rsyslog queue workers (omkafka)", RsyslogEdge.THREAD_GROUPS.groupOf("rs:main Q:Reg"));
    assertEquals("librdkafka threads", RsyslogEdge.THREAD_GROUPS.groupOf("rdk:broker1"));
    assertEquals("rsyslog other", RsyslogEdge.THREAD_GROUPS.groupOf("rsyslogd"));
  }

  private static void send(Protocol protocol, int port) throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    if (protocol == Protocol.UDP) {
      try (DatagramSocket socket = new DatagramSocket()) {
        for (String line : LINES) {
          byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
          socket.send(new DatagramPacket(bytes, bytes.length, loopback, port));
        }
      }
    } else {
      try (Socket socket = new Socket(loopback, port);
          OutputStream out = socket.getOutputStream()) {
        for (String line : LINES) {
          out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> consume(String topic, int count) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "check-" + topic,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (records.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
      // a moment more: a duplicate would show here
      consumer.poll(Duration.ofSeconds(1)).forEach(records::add);
    }
    assertEquals(count, records.size(), "one record per line");
    return records;
  }
}
