package org.flafka.edge.it;

import static org.flafka.edge.it.EdgeTestSupport.awaitCounter;
import static org.flafka.edge.it.EdgeTestSupport.awaitRecords;
import static org.flafka.edge.it.EdgeTestSupport.bodyContains;
import static org.flafka.edge.it.EdgeTestSupport.header;
import static org.flafka.edge.it.EdgeTestSupport.listenPort;
import static org.flafka.edge.it.EdgeTestSupport.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flafka.stack.InProcessAgent;
import org.flafka.stack.KafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge agent as the template renders it, started in this JVM (the Flume components, our source,
 * interceptors and partitioner from the test classpath), writing to a real KRaft broker; records
 * read back with a plain Kafka consumer. One agent and one broker for the class: UDP, TCP and TLS
 * listeners, a memory channel smaller than the bursts, two Kafka sinks with FanOutInterceptor lanes
 * and the stripe partitioner.
 */
@Tag("e2e")
class EdgeAgentInProcessTest {

  private static final String AGENT = "edge";
  private static final String TOPIC = "edge-inproc";
  private static final String SITE = "par-03";

  /** Small, so that the bursts below overflow it. */
  private static final int CHANNEL_CAPACITY = 300;

  private static final int MIB = 1 << 20;

  @TempDir static Path dir;
  static KafkaBroker kafka;
  static InProcessAgent agent;
  static Path keystore;
  static int udpPort;
  static int tcpPort;
  static int tlsPort;

  @BeforeAll
  static void start() throws Exception {
    // A 1 MiB body plus headers exceeds the broker's default message.max.bytes (1 MiB + 12).
    kafka =
        KafkaBroker.start(
            dir.resolve("kafka"), Map.of("message.max.bytes", Integer.toString(2 * MIB)));
    kafka.createTopic(TOPIC, 4);
    keystore = EdgeTestSupport.keystore(dir);
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("agent_name", AGENT);
    vars.put("site", SITE);
    vars.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    vars.put("kafka_topic", TOPIC);
    vars.put("kafka_record_facts", "all");
    vars.put("edge_listeners", List.of("udp", "tcp", "tls"));
    vars.put("edge_bind_address", "127.0.0.1");
    vars.put("edge_udp_port", 0);
    vars.put("edge_tcp_port", 0);
    vars.put("edge_tls_port", 0);
    vars.put("edge_tls_keystore", keystore.toString());
    // the listener reads its key store password from the secrets file the rendering refers to
    Path secrets = dir.resolve("secrets.properties");
    Files.writeString(
        secrets,
        "syslog.tls.keystore.password=" + EdgeTestSupport.KEYSTORE_PASSWORD + "\n",
        StandardCharsets.UTF_8);
    vars.put("kafka_secrets_file", secrets.toString());
    vars.put("edge_source_batch_size", 100);
    vars.put("edge_source_batch_duration_millis", 50);
    vars.put("edge_max_message_bytes", MIB + 1024);
    vars.put("edge_kafka_max_request_size", 2 * MIB);
    // the disk buffers (the default) in the test's directory, not /var/lib
    vars.put("edge_data_dir", dir.resolve("data").toString());
    vars.put("edge_channel_capacity", CHANNEL_CAPACITY);
    vars.put("edge_channel_transaction_capacity", 100);
    vars.put("edge_kafka_flume_batch_size", 100);
    vars.put("edge_kafka_linger_ms", 5);
    vars.put("edge_kafka_sinks", 2);
    vars.put("edge_partitioner", "stripe");
    // A full memory channel refuses a put at once instead of blocking up to 3 s: the sources' own
    // backpressure (TCP) and drop counting (UDP) then run, which is what the bursts test. The sinks
    // also write the lane, for the lanes test.
    String recordHeaders = String.join(",", EdgeTestSupport.RECORD_HEADERS);
    vars.put(
        "edge_extra_properties",
        Map.of(
            "channels.ch0.keep-alive",
            "0",
            "channels.ch1.keep-alive",
            "0",
            "sinks.kafka0.recordHeaders",
            recordHeaders,
            "sinks.kafka1.recordHeaders",
            recordHeaders));
    agent = InProcessAgent.start(AGENT, EdgeTestSupport.render(vars), dir.resolve("agent"));
    udpPort = listenPort(agent, "syslog_udp");
    tcpPort = listenPort(agent, "syslog_tcp");
    tlsPort = listenPort(agent, "syslog_tls");
  }

  @AfterAll
  static void stop() {
    if (agent != null) {
      agent.stop();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> records(String token, int count) {
    return awaitRecords(kafka, TOPIC, record -> bodyContains(record, token), count);
  }

  /** An RFC 5424 message stamped now (to the millisecond), and its stamp. */
  private static String rfc5424(Instant stamp, String host, String mark) {
    return "<165>1 " + stamp + " " + host + " linkd 4711 IF-DOWN [origin ip=\"10.0.0.7\"] " + mark;
  }

  @Test
  void everyListenerDeliversTheBodyByteExactWithTheContractHeaders() throws Exception {
    Instant stamp = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    long before = System.currentTimeMillis();
    Map<String, byte[]> sent = new TreeMap<>();
    sent.put("udp", utf8(rfc5424(stamp, "Router-7.Par", "listener-udp")));
    sent.put("tcp-newline", utf8(rfc5424(stamp, "router-8", "listener-tcp-newline")));
    // Octet counting carries a LF inside a message; line framing could not.
    sent.put("tcp-octet", utf8(rfc5424(stamp, "router-9", "listener-tcp-octet\nsecond line")));
    sent.put("tls", utf8(rfc5424(stamp, "router-10", "listener-tls")));

    EdgeTestSupport.sendUdp(udpPort, List.of(sent.get("udp")));
    EdgeTestSupport.sendTcpLines(tcpPort, List.of(sent.get("tcp-newline")));
    EdgeTestSupport.sendTcpOctetCounted(tcpPort, List.of(sent.get("tcp-octet")));
    EdgeTestSupport.sendTls(tlsPort, keystore, List.of(sent.get("tls")));

    List<ConsumerRecord<byte[], byte[]>> got = records("listener-", 4);
    assertEquals(4, got.size(), "one record per message, no duplicates");
    Map<String, String> expectedHost =
        Map.of(
            "udp",
            "router-7.par",
            "tcp-newline",
            "router-8",
            "tcp-octet",
            "router-9",
            "tls",
            "router-10");
    for (Map.Entry<String, byte[]> message : sent.entrySet()) {
      ConsumerRecord<byte[], byte[]> record =
          got.stream()
              .filter(r -> bodyContains(r, "listener-" + message.getKey()))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no record for " + message.getKey()));
      assertArrayEquals(message.getValue(), record.value(), message.getKey() + ": body as sent");
      assertEquals(
          Long.toString(stamp.toEpochMilli()), header(record, "timestamp"), message.getKey());
      assertEquals("message", header(record, "timestamp_source"), message.getKey());
      assertEquals(expectedHost.get(message.getKey()), header(record, "host"), message.getKey());
      assertEquals("20", header(record, "facility"), message.getKey());
      assertEquals("5", header(record, "severity"), message.getKey());
      assertEquals("linkd", header(record, "app"), message.getKey());
      assertEquals("4711", header(record, "procid"), message.getKey());
      assertEquals("IF-DOWN", header(record, "msgid"), message.getKey());
      assertEquals("rfc5424", header(record, "format"), message.getKey());
      assertEquals("ok", header(record, "parse"), message.getKey());
      assertEquals("127.0.0.1", header(record, "peer"), message.getKey());
      assertEquals(SITE, header(record, "site"), message.getKey());
      long received = Long.parseLong(header(record, "received"));
      assertTrue(
          received >= before && received <= System.currentTimeMillis(), "received " + received);
      assertEquals(26, header(record, "id").length(), "a ULID: " + header(record, "id"));
    }
    assertEquals(
        4, new HashSet<>(got.stream().map(r -> header(r, "id")).toList()).size(), "ids unique");
  }

  @Test
  void malformedAndNonUtf8InputIsKeptWholeAndMarked() throws Exception {
    byte[] junk = utf8("garbage-mark no priority, no date: \u0001\u0002 }{");
    // Latin-1 and a stray 0xFF inside an otherwise valid RFC 3164 line: the body must not be
    // re-encoded.
    byte[] latin1 =
        concat(
            utf8("<13>Nov 21 06:30:00 box7 app: latin1-mark caf"),
            new byte[] {(byte) 0xE9, ' ', (byte) 0xFF, (byte) 0xFE});
    EdgeTestSupport.sendTcpLines(tcpPort, List.of(junk, latin1));
    EdgeTestSupport.sendUdp(udpPort, List.of(utf8("udp-garbage-mark")));

    ConsumerRecord<byte[], byte[]> raw = records("garbage-mark no", 1).get(0);
    assertArrayEquals(junk, raw.value());
    assertEquals("raw", header(raw, "parse"));
    assertEquals("received", header(raw, "timestamp_source"));
    assertEquals(
        "127.0.0.1", header(raw, "host"), "no hostname in the message: the sender's address");
    assertNotNull(header(raw, "id"));

    ConsumerRecord<byte[], byte[]> udpRaw = records("udp-garbage-mark", 1).get(0);
    assertArrayEquals(utf8("udp-garbage-mark"), udpRaw.value());
    assertEquals("raw", header(udpRaw, "parse"));

    ConsumerRecord<byte[], byte[]> nonUtf8 = records("latin1-mark", 1).get(0);
    assertArrayEquals(latin1, nonUtf8.value(), "bytes as sent");
    assertEquals("box7", header(nonUtf8, "host"));
    assertEquals("rfc3164", header(nonUtf8, "format"));
  }

  @Test
  void aOneMebibyteMessageArrivesIntact() throws Exception {
    byte[] prefix =
        utf8(rfc5424(Instant.now().truncatedTo(ChronoUnit.MILLIS), "big-host", "mib-mark "));
    byte[] message = Arrays.copyOf(prefix, MIB);
    for (int i = prefix.length; i < message.length; i++) {
      message[i] = (byte) ('a' + i % 26);
    }
    EdgeTestSupport.sendTcpOctetCounted(tcpPort, List.of(message));

    List<ConsumerRecord<byte[], byte[]>> got = records("mib-mark", 1);
    assertEquals(1, got.size());
    assertEquals(MIB, got.get(0).value().length);
    assertArrayEquals(message, got.get(0).value());
    assertEquals("big-host", header(got.get(0), "host"));
    assertEquals(0, agent.metrics().source("syslog_tcp", "OversizeCount"));
  }

  @Test
  void aTcpBurstLargerThanTheChannelLosesNothing() throws Exception {
    int count = 10 * CHANNEL_CAPACITY;
    long pausesBefore = agent.metrics().source("syslog_tcp", "ChannelWriteFail");
    List<byte[]> lines = new ArrayList<>();
    List<byte[]> framed = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      (i % 2 == 0 ? lines : framed)
          .add(utf8("<14>Nov 21 06:30:00 burst app: tcp-burst-" + i + " end"));
    }
    Thread second =
        new Thread(
            () -> {
              try {
                EdgeTestSupport.sendTcpOctetCounted(tcpPort, framed);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    second.start();
    EdgeTestSupport.sendTcpLines(tcpPort, lines);
    second.join();

    Set<String> marks = new TreeSet<>();
    List<ConsumerRecord<byte[], byte[]>> got = records("tcp-burst-", count);
    for (ConsumerRecord<byte[], byte[]> record : got) {
      String body = new String(record.value(), StandardCharsets.UTF_8);
      marks.add(body.substring(body.indexOf("tcp-burst-"), body.lastIndexOf(" end")));
    }
    assertEquals(count, marks.size(), "every mark arrived");
    // two sinks, two channels: the fan-out gives a whole batch one channel, so a refused batch is
    // retried whole without any part of it already committed elsewhere (Flume commits a batch
    // channel by channel)
    assertEquals(count, got.size(), "no duplicates");
    System.out.printf(
        "TCP burst of %d into a channel of %d: %d refused puts (backpressure, retried)%n",
        count,
        CHANNEL_CAPACITY,
        agent.metrics().source("syslog_tcp", "ChannelWriteFail") - pausesBefore);
  }

  @Test
  void aUdpBurstLosesOnlyWhatTheCountersReport() throws Exception {
    int count = 10 * CHANNEL_CAPACITY;
    String source = "SOURCE.syslog_udp";
    long receivedBefore = agent.metrics().counter(source, "EventReceivedCount");
    long acceptedBefore = agent.metrics().counter(source, "EventAcceptedCount");
    long droppedBefore =
        agent.metrics().counter(source, "ChannelFullDropCount")
            + agent.metrics().counter(source, "ProcessingErrorDropCount");
    List<byte[]> datagrams = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      datagrams.add(utf8("<14>Nov 21 06:30:00 burst app: udp-burst-" + i + " end"));
    }
    EdgeTestSupport.sendUdp(udpPort, datagrams);

    // Every datagram sent is received: read by the source, or dropped by the kernel on this socket
    // (UdpSocketDropCount, polled from /proc/net/udp every 5 s and added to EventReceivedCount, so
    // that Cloudera Manager sees it). Every datagram received is accepted into the channel or in a
    // drop counter.
    long socketDropsBefore = agent.metrics().counter(source, "UdpSocketDropCount");
    awaitCounter(
        agent,
        source,
        "EventReceivedCount",
        value -> {
          var m = agent.metrics();
          return value - receivedBefore == count
              && m.counter(source, "EventAcceptedCount")
                      - acceptedBefore
                      + m.counter(source, "ChannelFullDropCount")
                      + m.counter(source, "ProcessingErrorDropCount")
                      - droppedBefore
                      + m.counter(source, "UdpSocketDropCount")
                      - socketDropsBefore
                  == value - receivedBefore;
        });
    var metrics = agent.metrics();
    long received = metrics.counter(source, "EventReceivedCount") - receivedBefore;
    long accepted = metrics.counter(source, "EventAcceptedCount") - acceptedBefore;
    long kernelDrops = metrics.counter(source, "UdpSocketDropCount") - socketDropsBefore;
    long dropped = received - accepted - kernelDrops;
    assertTrue(accepted > 0, "loopback delivers some of a burst: " + metrics);

    List<ConsumerRecord<byte[], byte[]>> got = records("udp-burst-", (int) accepted);
    Set<String> marks = new TreeSet<>();
    for (ConsumerRecord<byte[], byte[]> record : got) {
      marks.add(new String(record.value(), StandardCharsets.UTF_8));
    }
    assertEquals(accepted, marks.size(), "Kafka holds exactly what the source accepted");
    assertEquals(accepted, got.size(), "no duplicates");
    System.out.printf(
        "UDP burst of %d: %d received, %d of them dropped by the kernel (UdpSocketDropCount), %d"
            + " accepted, %d dropped on a full channel (ChannelFullDropCount)%n",
        count, received, kernelDrops, accepted, dropped);
  }

  @Test
  void twoSinksShareTheLoadAndEachWritesOnlyItsStripe() throws Exception {
    for (int round = 0; round < 6; round++) {
      List<byte[]> batch = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        batch.add(utf8("<14>Nov 21 06:30:00 lane-host app: lanes-" + round + "-" + i));
      }
      EdgeTestSupport.sendTcpLines(tcpPort, batch);
      // Longer than edge_source_batch_duration_millis: each round is at least one source batch.
      EdgeTestSupport.sleep(150);
    }
    List<ConsumerRecord<byte[], byte[]>> got = records("lanes-", 120);
    assertEquals(120, got.size());
    Map<String, Integer> perLane = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> record : got) {
      String lane = header(record, "fanout");
      perLane.merge(lane, 1, Integer::sum);
      assertEquals(
          Integer.parseInt(lane),
          record.partition() % 2,
          "sink kafka"
              + lane
              + " (stripe "
              + lane
              + " of 2) wrote partition "
              + record.partition());
    }
    assertEquals(Set.of("0", "1"), perLane.keySet(), "both lanes used: " + perLane);
    assertTrue(agent.metrics().sink("kafka0", "EventDrainSuccessCount") > 0);
    assertTrue(agent.metrics().sink("kafka1", "EventDrainSuccessCount") > 0);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
