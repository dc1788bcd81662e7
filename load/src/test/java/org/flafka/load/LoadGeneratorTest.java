package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator against real receivers on loopback: what arrives is exactly what the settings and
 * manifest say.
 */
class LoadGeneratorTest {

  private static final Pattern HOST = Pattern.compile("dev-(\\d{6})\\.site");

  /**
   * Certificates are made once (keytool takes a second each): one for 127.0.0.1, one for another
   * name.
   */
  private static TestTls loopbackCertificate;

  private static TestTls otherNameCertificate;

  @BeforeAll
  static void makeCertificates(@TempDir Path dir) throws Exception {
    loopbackCertificate = TestTls.create(dir, "loopback", "ip:127.0.0.1");
    otherNameCertificate = TestTls.create(dir, "other", "dns:edge.example");
  }

  private static final FormatMix ALL_FORMATS =
      FormatMix.parse("--mix", "rfc5424,rfc3164,asa,pix,ios,junk");

  private static LoadSettings settings(
      InetSocketAddress target,
      Protocol protocol,
      Framing framing,
      int connections,
      int devices,
      double rate,
      long count,
      SizeSpec sizes) {
    return new LoadSettings(
        target,
        protocol,
        framing,
        connections,
        devices,
        rate,
        count,
        null,
        ALL_FORMATS,
        sizes,
        11,
        TlsSettings.DEFAULT);
  }

  /**
   * Checks every message: its size is allowed, its mark is there, a host name in it names the
   * mark's device, and each device's sequences arrive in order. Returns device → sequences seen.
   */
  private static Map<Integer, List<Long>> checkMessages(List<byte[]> messages, Set<Integer> sizes) {
    Map<Integer, List<Long>> sequences = new TreeMap<>();
    for (byte[] message : messages) {
      String text = new String(message, StandardCharsets.ISO_8859_1);
      assertTrue(sizes.contains(message.length), "size " + message.length + ": " + text);
      Mark mark = Mark.find(message);
      assertTrue(mark != null, "no mark in " + text);
      Matcher host = HOST.matcher(text);
      if (host.find()) {
        assertEquals(
            mark.device(), Integer.parseInt(host.group(1)), "host and mark disagree: " + text);
      }
      sequences.computeIfAbsent(mark.device(), d -> new ArrayList<>()).add(mark.sequence());
    }
    return sequences;
  }

  private static List<Long> oneTo(long n) {
    List<Long> sequence = new ArrayList<>();
    for (long s = 1; s <= n; s++) {
      sequence.add(s);
    }
    return sequence;
  }

  private static Set<Integer> range(int min, int max) {
    Set<Integer> sizes = new TreeSet<>();
    for (int size = min; size <= max; size++) {
      sizes.add(size);
    }
    return sizes;
  }

  @Test
  void threeTcpConnectionsDeliverEveryDevicesSequenceInOrderWithoutGaps() throws Exception {
    try (CapturingReceiver receiver = new CapturingReceiver(3)) {
      LoadResult result =
          new LoadGenerator(
                  settings(
                      receiver.address(),
                      Protocol.TCP,
                      Framing.NEWLINE,
                      3,
                      10,
                      Double.POSITIVE_INFINITY,
                      1000,
                      SizeSpec.parseSize("--size", "150-400")),
                  Clock.SYSTEM)
              .run(null, 0);
      List<byte[]> streams = receiver.streams();
      assertEquals(3, streams.size());
      Map<Integer, List<Long>> sequences = new TreeMap<>();
      long messageBytes = 0;
      for (byte[] stream : streams) {
        List<byte[]> messages = Frames.split(stream, Framing.NEWLINE);
        Map<Integer, List<Long>> onThisConnection = checkMessages(messages, range(150, 400));
        // A device sends on one connection only: d mod 3 is the same for all devices of a stream.
        assertEquals(1, onThisConnection.keySet().stream().map(d -> d % 3).distinct().count());
        sequences.putAll(onThisConnection);
        messageBytes += messages.stream().mapToInt(m -> m.length).sum();
      }
      assertEquals(10, sequences.size());
      sequences.forEach((device, seen) -> assertEquals(oneTo(100), seen, "device " + device));
      assertNull(result.failure());
      assertEquals(1000, result.events());
      assertEquals(messageBytes, result.bytes());
      assertEquals(
          Arrays.stream(streams.toArray(new byte[0][])).mapToLong(s -> s.length).sum(),
          result.wireBytes());
      for (int device = 0; device < 10; device++) {
        assertEquals(100, result.sentBy(device));
      }
    }
  }

  @Test
  void octetCountedFramesCarryExactlyTheWeightedSizesAndUnevenCountsSplitByDevice()
      throws Exception {
    try (CapturingReceiver receiver = new CapturingReceiver(1)) {
      // 300 events over 7 devices: 42 each and one more for devices 0 to 5.
      LoadResult result =
          new LoadGenerator(
                  settings(
                      receiver.address(),
                      Protocol.TCP,
                      Framing.OCTET_COUNTING,
                      1,
                      7,
                      Double.POSITIVE_INFINITY,
                      300,
                      SizeSpec.parseWeighted("--sizes", "200:5,3000:1,70000:1")),
                  Clock.SYSTEM)
              .run(null, 0);
      List<byte[]> messages = Frames.split(receiver.streams().get(0), Framing.OCTET_COUNTING);
      assertEquals(300, messages.size());
      Map<Integer, List<Long>> sequences = checkMessages(messages, Set.of(200, 3000, 70000));
      assertEquals(
          Set.of(200, 3000, 70000),
          messages.stream().map(m -> m.length).collect(java.util.stream.Collectors.toSet()));
      for (int device = 0; device < 7; device++) {
        long expected = device < 6 ? 43 : 42;
        assertEquals(oneTo(expected), sequences.get(device), "device " + device);
        assertEquals(expected, result.sentBy(device));
      }
    }
  }

  @Test
  void udpSendsOneMessagePerDatagramWithNoFraming() throws Exception {
    try (DatagramChannel receiver = DatagramChannel.open()) {
      receiver.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
      receiver.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      // 100 datagrams at most: fewer than the smallest receive buffer holds, so none can be
      // dropped.
      LoadResult result =
          new LoadGenerator(
                  settings(
                      (InetSocketAddress) receiver.getLocalAddress(),
                      Protocol.UDP,
                      Framing.NONE,
                      2,
                      4,
                      Double.POSITIVE_INFINITY,
                      100,
                      SizeSpec.parseSize("--size", "130-1400")),
                  Clock.SYSTEM)
              .run(null, 0);
      List<byte[]> datagrams = new ArrayList<>();
      ByteBuffer buffer = ByteBuffer.allocate(Protocol.MAX_UDP_PAYLOAD);
      for (int n = 0; n < 100; n++) {
        buffer.clear();
        receiver.receive(buffer);
        datagrams.add(Arrays.copyOf(buffer.array(), buffer.position()));
      }
      Map<Integer, List<Long>> sequences = checkMessages(datagrams, range(130, 1400));
      sequences.forEach((device, seen) -> assertEquals(oneTo(25), seen, "device " + device));
      assertEquals(result.bytes(), result.wireBytes());
      assertEquals(datagrams.stream().mapToInt(d -> d.length).sum(), result.bytes());
    }
  }

  @Test
  void tlsWithTheReceiversCertificateInTheTrustStoreDeliversEverything() throws Exception {
    TestTls tls = loopbackCertificate;
    try (CapturingReceiver receiver = new CapturingReceiver(tls.serverSockets, 2, Long.MAX_VALUE)) {
      LoadSettings settings =
          new LoadSettings(
              receiver.address(),
              Protocol.TLS,
              Framing.OCTET_COUNTING,
              2,
              2,
              Double.POSITIVE_INFINITY,
              400,
              null,
              ALL_FORMATS,
              SizeSpec.fixed(300),
              5,
              new TlsSettings(tls.truststore, TestTls.PASSWORD, false));
      LoadResult result = new LoadGenerator(settings, Clock.SYSTEM).run(null, 0);
      Map<Integer, List<Long>> sequences = new TreeMap<>();
      for (byte[] stream : receiver.streams()) {
        sequences.putAll(checkMessages(Frames.split(stream, Framing.OCTET_COUNTING), Set.of(300)));
      }
      assertEquals(Map.of(0, oneTo(200), 1, oneTo(200)), sequences);
      assertNull(result.failure());
    }
  }

  @Test
  void tlsRefusesAReceiverItCannotVerify() throws Exception {
    TestTls tls = loopbackCertificate;
    TestTls otherName = otherNameCertificate;
    try (CapturingReceiver unknownCa = new CapturingReceiver(tls.serverSockets, 1, Long.MAX_VALUE);
        CapturingReceiver wrongName =
            new CapturingReceiver(otherName.serverSockets, 1, Long.MAX_VALUE)) {
      ConnectFailedException untrusted =
          assertThrows(
              ConnectFailedException.class,
              () ->
                  new LoadGenerator(
                          new LoadSettings(
                              unknownCa.address(),
                              Protocol.TLS,
                              Framing.NEWLINE,
                              1,
                              1,
                              1000,
                              10,
                              null,
                              ALL_FORMATS,
                              SizeSpec.fixed(300),
                              5,
                              TlsSettings.DEFAULT),
                          Clock.SYSTEM)
                      .run(null, 0));
      assertTrue(
          untrusted
              .getMessage()
              .startsWith(
                  "TLS handshake with 127.0.0.1:" + unknownCa.address().getPort() + " failed: "),
          untrusted.getMessage());
      assertTrue(
          untrusted
              .getMessage()
              .endsWith(
                  "; give --tls-truststore with the receiver's CA "
                      + "(or --tls-insecure to test)"),
          untrusted.getMessage());

      ConnectFailedException mismatch =
          assertThrows(
              ConnectFailedException.class,
              () ->
                  new LoadGenerator(
                          new LoadSettings(
                              wrongName.address(),
                              Protocol.TLS,
                              Framing.NEWLINE,
                              1,
                              1,
                              1000,
                              10,
                              null,
                              ALL_FORMATS,
                              SizeSpec.fixed(300),
                              5,
                              new TlsSettings(otherName.truststore, TestTls.PASSWORD, false)),
                          Clock.SYSTEM)
                      .run(null, 0));
      assertTrue(mismatch.getMessage().contains("127.0.0.1"), mismatch.getMessage());
    }
  }

  @Test
  void tlsInsecureAcceptsAnyCertificate() throws Exception {
    TestTls tls = otherNameCertificate;
    try (CapturingReceiver receiver = new CapturingReceiver(tls.serverSockets, 1, Long.MAX_VALUE)) {
      LoadResult result =
          new LoadGenerator(
                  new LoadSettings(
                      receiver.address(),
                      Protocol.TLS,
                      Framing.NEWLINE,
                      1,
                      1,
                      Double.POSITIVE_INFINITY,
                      10,
                      null,
                      ALL_FORMATS,
                      SizeSpec.fixed(300),
                      5,
                      new TlsSettings(null, null, true)),
                  Clock.SYSTEM)
              .run(null, 0);
      assertEquals(10, Frames.split(receiver.streams().get(0), Framing.NEWLINE).size());
      assertEquals(10, result.events());
    }
  }

  @Test
  void aRateOfAThousandPerSecondTakesFiveSecondsOfTheInjectedClockForFiveThousand()
      throws Exception {
    FakeClock clock = new FakeClock();
    try (NullReceiver receiver = NullReceiver.start(Framing.NEWLINE)) {
      LoadResult result =
          new LoadGenerator(
                  settings(
                      receiver.address(),
                      Protocol.TCP,
                      Framing.NEWLINE,
                      1,
                      5,
                      1000,
                      5000,
                      SizeSpec.fixed(200)),
                  clock)
              .run(null, 0);
      assertEquals(5000, result.events());
      // Paced in bursts of 21 events every 21 ms (RateLimiterTest): the last goes at 4,998 ms.
      assertEquals(4.998, result.elapsedSeconds(), 0.001);
      assertEquals(238, clock.sleeps());
      assertEquals(5000, awaitFrames(receiver, 5000));
    }
  }

  @Test
  void aRateChangedMidRunPacesTheRestOfTheRun() throws Exception {
    FakeClock time = new FakeClock();
    long start = time.nanoTime();
    AtomicReference<LoadGenerator> generator = new AtomicReference<>();
    Clock clock =
        new Clock() {
          @Override
          public long nanoTime() {
            return time.nanoTime();
          }

          @Override
          public long currentTimeMillis() {
            return time.currentTimeMillis();
          }

          @Override
          public void sleepNanos(long duration) {
            time.sleepNanos(duration);
            if (time.nanoTime() - start >= 2_000_000_000L) {
              generator.get().changeRate(3000); // a trickle first, then the trial's rate
            }
          }
        };
    try (NullReceiver receiver = NullReceiver.start(Framing.NONE)) {
      generator.set(
          new LoadGenerator(
              new LoadSettings(
                  receiver.address(),
                  Protocol.TCP,
                  Framing.NEWLINE,
                  1,
                  5,
                  1000,
                  0,
                  Duration.ofSeconds(4),
                  ALL_FORMATS,
                  SizeSpec.fixed(200),
                  1,
                  TlsSettings.DEFAULT),
              clock));
      LoadResult result = generator.get().run(null, 0);
      // 2 s at 1,000/s and 2 s at 3,000/s, give or take the 20 ms burst allowances
      assertEquals(8000, result.events(), 100);
    }
    assertThrows(IllegalArgumentException.class, () -> generator.get().changeRate(0));
  }

  @Test
  void aDurationEndsTheRunOnTheInjectedClock() throws Exception {
    FakeClock clock = new FakeClock();
    try (NullReceiver receiver = NullReceiver.start(Framing.NONE)) {
      LoadSettings settings =
          new LoadSettings(
              receiver.address(),
              Protocol.TCP,
              Framing.NEWLINE,
              1,
              5,
              1000,
              0,
              Duration.ofSeconds(2),
              ALL_FORMATS,
              SizeSpec.fixed(200),
              1,
              TlsSettings.DEFAULT);
      LoadResult result = new LoadGenerator(settings, clock).run(null, 0);
      // 2 s at 1,000/s, plus the events the 20 ms burst allowance lets go early at the deadline.
      assertEquals(2020, result.events(), 1);
      assertEquals(2.0, result.elapsedSeconds(), 0.001);
    }
  }

  @Test
  void anUnreachableTargetFailsBeforeAnyLoadWithOneLine() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
    ConnectFailedException failure =
        assertThrows(
            ConnectFailedException.class,
            () ->
                new LoadGenerator(
                        settings(
                            target,
                            Protocol.TCP,
                            Framing.NEWLINE,
                            2,
                            2,
                            1000,
                            10,
                            SizeSpec.fixed(200)),
                        Clock.SYSTEM)
                    .run(null, 0));
    assertEquals(
        "cannot connect to 127.0.0.1:"
            + port
            + " over tcp: connection refused; is the receiver "
            + "listening there?",
        failure.getMessage());
  }

  @Test
  void aReceiverThatHangsUpMidRunEndsItWithTheCountSentSoFar() throws Exception {
    try (CapturingReceiver receiver =
        new CapturingReceiver(javax.net.ServerSocketFactory.getDefault(), 1, 100_000)) {
      LoadResult result =
          new LoadGenerator(
                  settings(
                      receiver.address(),
                      Protocol.TCP,
                      Framing.NEWLINE,
                      1,
                      3,
                      Double.POSITIVE_INFINITY,
                      100_000_000,
                      SizeSpec.fixed(200)),
                  Clock.SYSTEM)
              .run(null, 0);
      assertTrue(
          result
              .failure()
              .startsWith(
                  "connection 0 to "
                      + LoadSettings.describe(receiver.address())
                      + " failed after "
                      + result.events()
                      + " events: "),
          result.failure());
      assertTrue(result.events() < 100_000_000);
      JsonNode manifest = manifest(result);
      assertFalse(manifest.get("complete").asBoolean());
      assertEquals(result.failure(), manifest.get("failure").asText());
    }
  }

  @Test
  void theManifestListsEveryDeviceWithItsHostAndCount() throws Exception {
    try (NullReceiver receiver = NullReceiver.start(Framing.NONE)) {
      LoadResult result =
          new LoadGenerator(
                  settings(
                      receiver.address(),
                      Protocol.TCP,
                      Framing.NEWLINE,
                      2,
                      5,
                      Double.POSITIVE_INFINITY,
                      23,
                      SizeSpec.fixed(200)),
                  Clock.SYSTEM)
              .run(null, 0);
      JsonNode manifest = manifest(result);
      assertEquals(1, manifest.get("manifestVersion").asInt());
      assertEquals(
          "flafka:dev=000042;seq=000000012345;", manifest.get("mark").get("example").asText());
      assertEquals(23, manifest.get("events").asLong());
      assertTrue(manifest.get("complete").asBoolean());
      Map<String, Long> sent = new HashMap<>();
      manifest
          .get("devices")
          .forEach(d -> sent.put(d.get("host").asText(), d.get("sent").asLong()));
      // 23 over 5 devices: 4 each, 5 for devices 0 to 2.
      assertEquals(
          Map.of(
              "dev-000000.site",
              5L,
              "dev-000001.site",
              5L,
              "dev-000002.site",
              5L,
              "dev-000003.site",
              4L,
              "dev-000004.site",
              4L),
          sent);
    }
  }

  private static JsonNode manifest(LoadResult result) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    result.writeManifest(out);
    return new ObjectMapper().readTree(out.toByteArray());
  }

  private static long awaitFrames(NullReceiver receiver, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (receiver.frames() < expected && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return receiver.frames();
  }
}
