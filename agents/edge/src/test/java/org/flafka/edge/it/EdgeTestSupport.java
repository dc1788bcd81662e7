package org.flafka.edge.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.flume.Event;
import org.apache.flume.event.EventBuilder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.FlumeAgent;
import org.flafka.stack.KafkaCluster;

/**
 * What the edge end-to-end tests share: rendering, senders, a Kafka reader, keystores, metric
 * waits.
 */
public final class EdgeTestSupport {

  static final Duration WAIT = Duration.ofSeconds(60);
  static final String KEYSTORE_PASSWORD = "test-only";

  /**
   * Headers the edge sinks carry as Kafka record headers in these tests: the contract's, plus the
   * lane.
   */
  static final List<String> RECORD_HEADERS =
      List.of(
          "timestamp",
          "timestamp_source",
          "timestamp_rejected",
          "host",
          "facility",
          "severity",
          "app",
          "procid",
          "msgid",
          "format",
          "parse",
          "received",
          "peer",
          "site",
          "id",
          "fanout");

  private EdgeTestSupport() {}

  /**
   * The edge template rendered by flafka render's engine with these variables over the defaults.
   */
  static String render(Map<String, Object> variables) {
    return AgentTemplates.render(Tier.EDGE, variables);
  }

  /**
   * A PKCS12 keystore with an EC key and a self-signed certificate for 127.0.0.1, made by the JDK's
   * keytool.
   */
  static Path keystore(Path dir) throws IOException, InterruptedException {
    Path file = dir.resolve("edge-keystore.p12");
    Path keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool");
    Process process =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "edge",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=edge",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                KEYSTORE_PASSWORD,
                "-keypass",
                KEYSTORE_PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
    return file;
  }

  /** Fails, saying how to install it, when a system command the test drives is missing. */
  static Path requireCommand(String command, String debianPackage) {
    for (String dir :
        List.of("/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin", "/usr/local/sbin")) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return fail(
        command
            + " is not installed (Debian package "
            + debianPackage
            + "); run scripts/setup as root, which installs it");
  }

  // ---- waiting on agent metrics

  /** Waits until the counter satisfies {@code condition}; returns its value. */
  static long awaitCounter(
      FlumeAgent agent, String component, String counter, LongPredicate condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long value = -1;
    while (System.nanoTime() < deadline) {
      var metrics = agent.metrics();
      value = metrics.components().contains(component) ? metrics.counter(component, counter) : -1;
      if (value >= 0 && condition.test(value)) {
        return value;
      }
      sleep(100);
    }
    return fail(
        component
            + " "
            + counter
            + " never reached the expected value; last "
            + value
            + "; metrics "
            + agent.metrics());
  }

  /** The port a source bound (the templates' port 0 takes a free one; the source reports it). */
  static int listenPort(FlumeAgent agent, String source) {
    return (int) awaitCounter(agent, "SOURCE." + source, "ListenPort", port -> port > 0);
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---- senders

  static void sendUdp(int port, List<byte[]> messages) throws IOException {
    try (DatagramSocket socket = new DatagramSocket()) {
      for (byte[] message : messages) {
        socket.send(
            new DatagramPacket(message, message.length, InetAddress.getLoopbackAddress(), port));
      }
    }
  }

  /** One TCP connection, each message followed by LF (RFC 6587 non-transparent framing). */
  static void sendTcpLines(int port, List<byte[]> messages) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      writeLines(socket.getOutputStream(), messages);
    }
  }

  /** One TCP connection, each message as {@code LEN SP MSG} (RFC 6587 octet counting). */
  static void sendTcpOctetCounted(int port, List<byte[]> messages) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      writeOctetCounted(socket.getOutputStream(), messages);
    }
  }

  /** One TLS connection trusting the keystore's certificate, octet-counted as RFC 5425 says. */
  static void sendTls(int port, Path keystore, List<byte[]> messages) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(keystore)) {
      keys.load(in, KEYSTORE_PASSWORD.toCharArray());
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("edge", keys.getCertificate("edge"));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.startHandshake();
      writeOctetCounted(socket.getOutputStream(), messages);
    }
  }

  static void writeLines(OutputStream out, List<byte[]> messages) throws IOException {
    for (byte[] message : messages) {
      out.write(message);
      out.write('\n');
    }
    out.flush();
  }

  static void writeOctetCounted(OutputStream out, List<byte[]> messages) throws IOException {
    for (byte[] message : messages) {
      out.write((message.length + " ").getBytes(StandardCharsets.US_ASCII));
      out.write(message);
    }
    out.flush();
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  // ---- reading Kafka

  /**
   * Reads the topic from the beginning until {@code count} records match {@code filter} (or the
   * wait ends), and returns the matching ones. Reads a little longer after reaching the count so
   * that duplicates show.
   */
  public static List<ConsumerRecord<byte[], byte[]>> awaitRecords(
      KafkaCluster kafka,
      String topic,
      Predicate<ConsumerRecord<byte[], byte[]>> filter,
      int count) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(4 << 20));
    List<ConsumerRecord<byte[], byte[]>> matching = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + WAIT.toNanos();
      long settleUntil = Long.MAX_VALUE;
      while (System.nanoTime() < Math.min(deadline, settleUntil)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (filter.test(record)) {
            matching.add(record);
          }
        }
        if (matching.size() >= count && settleUntil == Long.MAX_VALUE) {
          settleUntil = System.nanoTime() + Duration.ofMillis(500).toNanos();
        }
      }
    }
    return matching;
  }

  /** A record header's value as UTF-8, or null when absent. */
  public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  static boolean bodyContains(ConsumerRecord<byte[], byte[]> record, String token) {
    return new String(record.value(), StandardCharsets.ISO_8859_1).contains(token);
  }

  // ---- the records a Kafka record sink or channel writes

  /**
   * Event {@code seq} of a stream from three routers: a body that is not UTF-8 (the value must be
   * the bytes received, not a decoded and re-encoded string), {@code host} and {@code id} headers,
   * and two that are not record headers ({@code fanout}, and {@code key}, which becomes the record
   * key).
   */
  static Event routerEvent(int seq) {
    return EventBuilder.withBody(
        routerBody(seq),
        Map.of(
            "host",
            "router" + (seq % 3),
            "id",
            "id-" + seq,
            "fanout",
            "1",
            "key",
            "router" + (seq % 3)));
  }

  private static byte[] routerBody(int seq) {
    return ("<13>Nov 21 12:00:00 router" + (seq % 3) + " seq=" + seq + " \u00ff")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * Reads {@code topic} and checks that it holds the {@link #routerEvent}s 0 to {@code count - 1},
   * each once, as written with {@code recordHeaders = host,id}: byte-exact bodies, those two record
   * headers only, the key.
   */
  static void assertRouterRecords(KafkaCluster kafka, String topic, int count) {
    List<ConsumerRecord<byte[], byte[]>> records = awaitRecords(kafka, topic, r -> true, count);
    assertEquals(count, records.size());
    Set<Integer> seen = new TreeSet<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      int seq = Integer.parseInt(header(record, "id").substring(3));
      seen.add(seq);
      assertArrayEquals(routerBody(seq), record.value());
      assertEquals("router" + (seq % 3), header(record, "host"));
      assertEquals("router" + (seq % 3), new String(record.key(), StandardCharsets.UTF_8));
      Set<String> names = new TreeSet<>();
      for (Header h : record.headers()) {
        names.add(h.key());
      }
      assertEquals(Set.of("host", "id"), names, "only the listed headers, not fanout or key");
    }
    assertEquals(count, seen.size(), "each event once");
  }
}
