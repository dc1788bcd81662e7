package org.flafka.edge.source;

import static org.flafka.edge.source.SourceHarness.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.FlumeException;
import org.apache.flume.SourceRunner;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.channel.ReplicatingChannelSelector;
import org.apache.flume.conf.Configurables;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.flume.lifecycle.LifecycleState;
import org.apache.flume.lifecycle.LifecycleSupervisor;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.flafka.contract.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SyslogSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  static Map<String, String> source(String protocol, String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("protocol", protocol);
    props.put("bind", "127.0.0.1");
    props.put("port", "0");
    props.put("batchDurationMillis", "20");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  private static Map<String, String> channel(int capacity, int transactionCapacity) {
    return Map.of(
        "capacity",
        Integer.toString(capacity),
        "transactionCapacity",
        Integer.toString(transactionCapacity),
        "keep-alive",
        "0");
  }

  static Map<String, String> roomyChannel() {
    return channel(100_000, 10_000);
  }

  private static Socket connect(SourceHarness harness) throws IOException {
    Socket socket = new Socket(LOOPBACK, harness.source.getPort());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static void sendUdp(DatagramSocket socket, int port, byte[] payload) throws IOException {
    socket.send(new DatagramPacket(payload, payload.length, new InetSocketAddress(LOOPBACK, port)));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String body(Event event) {
    return new String(event.getBody(), StandardCharsets.ISO_8859_1);
  }

  private static List<String> bodies(List<Event> events) {
    List<String> bodies = new ArrayList<>();
    events.forEach(e -> bodies.add(body(e)));
    return bodies;
  }

  private static void assertHeaders(Event event, long sentAfter, long takenBefore) {
    long received = Long.parseLong(event.getHeaders().get(Headers.RECEIVED));
    assertTrue(
        received >= sentAfter && received <= takenBefore,
        "received " + received + " outside [" + sentAfter + ", " + takenBefore + "]");
    assertEquals("127.0.0.1", event.getHeaders().get(Headers.PEER));
  }

  @Test
  void tcpLineFramingDeliversExactBodiesWithReceivedAndPeer() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "framing", "newline"), roomyChannel());
        Socket socket = connect(harness)) {
      long before = System.currentTimeMillis();
      OutputStream out = socket.getOutputStream();
      out.write(
          bytes(
              "<13>Nov 21 06:28:00 host app: one\n<14>two\r\n<15>\u00ff\u00fe\u0080 \u00e9 not utf-8\n"));
      out.flush();
      List<Event> events = harness.take(3, WAIT);
      long after = System.currentTimeMillis();
      assertEquals(
          List.of(
              "<13>Nov 21 06:28:00 host app: one",
              "<14>two",
              "<15>\u00ff\u00fe\u0080 \u00e9 not utf-8"),
          bodies(events));
      assertArrayEquals(
          new byte[] {'<', '1', '5', '>', (byte) 0xff, (byte) 0xfe, (byte) 0x80, ' ', (byte) 0xe9},
          java.util.Arrays.copyOf(events.get(2).getBody(), 9));
      events.forEach(e -> assertHeaders(e, before, after));
      assertEquals(
          2,
          events.get(0).getHeaders().size(),
          "only received and peer: " + events.get(0).getHeaders());
    }
  }

  @Test
  void tcpOctetCountingIsDetectedAndDelivered() throws Exception {
    try (SourceHarness harness = new SourceHarness(source("tcp"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("10 <13>hello\n13 <14>two\nlines"));
      List<Event> events = harness.take(2, WAIT);
      assertEquals(List.of("<13>hello\n", "<14>two\nlines"), bodies(events));
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void udpDeliversEachDatagramExactly(String transport) throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("udp", "udp.transport", transport), roomyChannel());
        DatagramSocket socket = new DatagramSocket()) {
      long before = System.currentTimeMillis();
      sendUdp(socket, harness.source.getPort(), bytes("<13>one"));
      sendUdp(socket, harness.source.getPort(), bytes("<14>two\n"));
      byte[] big = new byte[SyslogSourceConfig.MAX_UDP_PAYLOAD];
      new Random(1).nextBytes(big);
      sendUdp(socket, harness.source.getPort(), big);
      List<Event> events = harness.take(3, WAIT);
      long after = System.currentTimeMillis();
      assertEquals(List.of("<13>one", "<14>two\n"), bodies(events.subList(0, 2)));
      assertArrayEquals(big, events.get(2).getBody(), "a 65507-byte datagram arrives whole");
      events.forEach(e -> assertHeaders(e, before, after));
      assertTrue(harness.counter().getUdpReceiveBufferBytes() > 0);
      assertEquals(transport, harness.source.udpTransport());
    }
  }

  @Test
  void udpReadsWithTheNativeTransportWhereItLoadsAndWithNioWhenAskedTo() throws Exception {
    try (SourceHarness auto = new SourceHarness(source("udp"), roomyChannel());
        SourceHarness nio =
            new SourceHarness(source("udp", "udp.transport", "nio"), roomyChannel())) {
      assertEquals(Epoll.isAvailable() ? "epoll" : "nio", auto.source.udpTransport());
      assertEquals("nio", nio.source.udpTransport());
    }
    assertTrue(
        Epoll.isAvailable() || !isX8664Linux(),
        "the agent's class path carries the native library for x86-64 Linux: "
            + Epoll.unavailabilityCause());
  }

  private static boolean isX8664Linux() {
    return System.getProperty("os.name").startsWith("Linux")
        && Set.of("amd64", "x86_64").contains(System.getProperty("os.arch"));
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void udpReceiveThreadsShareThePortAndKeepEachSendersOrder(String transport) throws Exception {
    int senders = 12;
    int perSender = 300;
    try (SourceHarness harness =
        new SourceHarness(
            source(
                "udp",
                "udp.receiveThreads",
                "3",
                "udp.transport",
                transport,
                "interceptors",
                "thread",
                "interceptors.thread.type",
                TestInterceptor.Builder.class.getName(),
                "interceptors.thread.does",
                "thread"),
            roomyChannel())) {
      int port = harness.source.getPort();
      assertEquals(3, UdpKernelStats.socketsOn(port), "three sockets on the port");
      List<DatagramSocket> sockets = new ArrayList<>();
      try {
        for (int s = 0; s < senders; s++) {
          sockets.add(new DatagramSocket());
        }
        for (int n = 0; n < perSender; n++) {
          for (int s = 0; s < senders; s++) {
            sendUdp(sockets.get(s), port, bytes("<13>sender " + s + " message " + n));
          }
        }
      } finally {
        sockets.forEach(DatagramSocket::close);
      }
      Map<Integer, List<Integer>> received = new HashMap<>();
      Map<Integer, Set<String>> threadsOfSender = new HashMap<>();
      for (Event event : harness.take(senders * perSender, WAIT)) {
        String[] words = body(event).split(" ");
        int sender = Integer.parseInt(words[1]);
        received.computeIfAbsent(sender, s -> new ArrayList<>()).add(Integer.parseInt(words[3]));
        threadsOfSender
            .computeIfAbsent(sender, s -> new HashSet<>())
            .add(event.getHeaders().get(TestInterceptor.THREAD_HEADER));
      }
      List<Integer> inOrder = IntStream.range(0, perSender).boxed().toList();
      for (int s = 0; s < senders; s++) {
        assertEquals(
            inOrder, received.get(s), "sender " + s + ": every datagram, in the order sent");
        assertEquals(1, threadsOfSender.get(s).size(), "sender " + s + " is read by one thread");
      }
      Set<String> threads = new HashSet<>();
      threadsOfSender.values().forEach(threads::addAll);
      // 12 senders all hashed to one of 3 sockets: 3 / 3^12, about 1 in 177,000
      assertTrue(
          threads.size() > 1, "the senders are spread over the sockets' threads: " + threads);
      assertEquals(senders * perSender, harness.counter().getEventAcceptedCount());
    }
  }

  @Test
  void oneMebibyteMessageArrivesIntactWhenTheLimitAllowsIt() throws Exception {
    byte[] message = new byte[1 << 20];
    Random random = new Random(7);
    for (int i = 0; i < message.length; i++) {
      message[i] = (byte) (32 + random.nextInt(95)); // printable: no LF inside
    }
    try (SourceHarness harness =
            new SourceHarness(
                source("tcp", "maxMessageBytes", Integer.toString(2 << 20)), roomyChannel());
        Socket octetCounted = connect(harness);
        Socket lineFramed = connect(harness)) {
      octetCounted.getOutputStream().write(bytes(message.length + " "));
      octetCounted.getOutputStream().write(message);
      lineFramed.getOutputStream().write(bytes("<13>"));
      lineFramed.getOutputStream().write(message);
      lineFramed.getOutputStream().write('\n');
      List<Event> events = harness.take(2, WAIT);
      assertEquals(2, events.size());
      events.sort(java.util.Comparator.comparingInt(e -> e.getBody().length));
      assertArrayEquals(message, events.get(0).getBody(), "octet-counted");
      assertArrayEquals(
          message,
          java.util.Arrays.copyOfRange(events.get(1).getBody(), 4, 4 + message.length),
          "line-framed");
      assertEquals(4 + message.length, events.get(1).getBody().length);
      assertEquals(0, harness.counter().getEventReadFail());
    }
  }

  @Test
  void oversizeMessageIsCountedAndTheNextOneStillArrives() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "maxMessageBytes", "100"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>" + "x".repeat(200) + "\n<13>next\n"));
      List<Event> events = harness.take(1, WAIT);
      assertEquals(List.of("<13>next"), bodies(events));
      assertEquals(1, harness.counter().getOversizeCount());
      assertEquals(1, harness.counter().getEventReadFail());
      assertEquals(
          2,
          harness.counter().getEventReceivedCount(),
          "received and not accepted, as CM sees a drop");
      assertEquals(1, harness.counter().getEventAcceptedCount());
    }
  }

  @Test
  void eventsArePutInBatchesOneTransactionPerBatch() throws Exception {
    // a long batch duration: only full batches go out, so 1000 events are exactly 10 transactions
    // of 100
    SourceHarness.CountingMemoryChannel channel = new SourceHarness.CountingMemoryChannel();
    try (SourceHarness harness =
            new SourceHarness(
                source(
                    "tcp",
                    "batchSize",
                    "100",
                    "batchDurationMillis",
                    "60000",
                    "tcp.workerThreads",
                    "1"),
                roomyChannel(),
                channel);
        Socket socket = connect(harness)) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 1000; i++) {
        lines.append("<13>event ").append(i).append('\n');
      }
      socket.getOutputStream().write(bytes(lines.toString()));
      assertTrue(
          await(() -> harness.counter().getEventAcceptedCount() == 1000, WAIT),
          "accepted " + harness.counter().getEventAcceptedCount());
      assertEquals(10, channel.transactions.get(), "channel transactions for 1000 events");
      assertEquals(10, harness.counter().getAppendBatchAcceptedCount());
      assertEquals(1000, harness.take(1000, WAIT).size());
    }
  }

  @Test
  void partialBatchGoesOutAfterBatchDuration() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                source("tcp", "batchSize", "1000", "batchDurationMillis", "50"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>a\n<13>b\n<13>c\n"));
      assertEquals(List.of("<13>a", "<13>b", "<13>c"), bodies(harness.take(3, WAIT)));
      assertEquals(1, harness.counter().getAppendBatchAcceptedCount(), "three events, one batch");
    }
  }

  @Test
  void tcpBurstLargerThanTheChannelLosesNothingWhenTheTakerIsSlow() throws Exception {
    int total = 20_000;
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "batchSize", "100"), channel(300, 100));
        Socket socket = connect(harness)) {
      AtomicReference<Exception> sendFailure = new AtomicReference<>();
      Thread sender =
          new Thread(
              () -> {
                try {
                  OutputStream out = socket.getOutputStream();
                  for (int i = 0; i < total; i++) {
                    out.write(bytes("<13>sequence " + i + " " + "p".repeat(80) + "\n"));
                  }
                  out.flush();
                } catch (IOException e) {
                  sendFailure.set(e);
                }
              });
      sender.start();
      List<Event> events = new ArrayList<>();
      while (events.size() < total) {
        List<Event> some =
            harness.take(Math.min(50, total - events.size()), Duration.ofSeconds(10));
        if (some.isEmpty()) {
          break;
        }
        events.addAll(some);
        Thread.sleep(1); // slower than the sender: the channel fills
      }
      sender.join();
      assertEquals(null, sendFailure.get());
      assertEquals(total, events.size());
      for (int i = 0; i < total; i++) {
        assertTrue(
            body(events.get(i)).startsWith("<13>sequence " + i + " "), "event " + i + " in order");
      }
      assertTrue(harness.counter().getChannelWriteFail() > 0, "the channel refused batches");
      assertTrue(harness.counter().getReadPauseCount() > 0, "reading paused");
      assertEquals(0, harness.counter().getChannelFullDropCount());
      assertEquals(total, harness.counter().getEventAcceptedCount());
    }
  }

  @Test
  void stopReadsWhatTheSenderAlreadyWroteBeforeClosingTheConnection() throws Exception {
    // Nobody takes from the channel (10 events) until stop begins, so reading pauses and most of
    // the 1000 lines wait in the kernel's buffers. The sender saw every write succeed: closing the
    // connection at once would discard what the kernel holds, counted nowhere. Stop reads on while
    // the test takes.
    int total = 1000;
    SourceHarness harness = new SourceHarness(source("tcp", "batchSize", "10"), channel(10, 10));
    int port = harness.source.getPort();
    try (Socket socket = connect(harness)) {
      OutputStream out = socket.getOutputStream();
      for (int i = 0; i < total; i++) {
        out.write(bytes("<13>written " + i + " " + "p".repeat(80) + "\n"));
      }
      out.flush();
      assertTrue(await(() -> harness.counter().getReadPauseCount() > 0, WAIT), "reading paused");
      assertTrue(
          ProcNetSockets.unreadBytes(ProcNetSockets.TCP, port) > 0, "lines wait in the kernel");
      Thread stopping = new Thread(harness.source::stop, "stopping");
      stopping.start();
      List<Event> events = harness.take(total, Duration.ofSeconds(10));
      stopping.join();
      assertEquals(total, events.size(), harness.counter().toString());
      for (int i = 0; i < total; i++) {
        assertTrue(
            body(events.get(i)).startsWith("<13>written " + i + " "), "event " + i + " in order");
      }
      assertEquals(0, harness.counter().getChannelFullDropCount());
    } finally {
      harness.channel.stop();
    }
  }

  @ParameterizedTest(name = "udp.receiveThreads = {0}, udp.transport = {1}")
  @CsvSource({"1, epoll", "3, epoll", "1, nio", "3, nio"})
  void udpBurstIntoAFullChannelCountsEveryDrop(int receiveThreads, String transport)
      throws Exception {
    int total = 500;
    try (SourceHarness harness =
        new SourceHarness(
            source(
                "udp",
                "udp.queueBytes",
                "0",
                "batchSize",
                "10",
                "udp.channelFullTimeoutMillis",
                "30",
                "udp.receiveThreads",
                Integer.toString(receiveThreads),
                "udp.transport",
                transport),
            channel(20, 10))) {
      // several senders, so that several sockets (and batchers) take part when there are several
      List<DatagramSocket> senders = new ArrayList<>();
      try {
        for (int s = 0; s < 6; s++) {
          senders.add(new DatagramSocket());
        }
        for (int i = 0; i < total; i++) {
          sendUdp(
              senders.get(i % senders.size()),
              harness.source.getPort(),
              bytes("<13>datagram " + i));
        }
      } finally {
        senders.forEach(DatagramSocket::close);
      }
      SyslogSourceCounter counter = harness.counter();
      assertTrue(
          await(
              () -> {
                harness.source.pollKernelStats();
                // the kernel's drops are received and not accepted, so that Cloudera Manager sees
                // them
                return counter.getEventReceivedCount() == total
                    && counter.getEventReceivedCount()
                        == counter.getEventAcceptedCount()
                            + counter.getChannelFullDropCount()
                            + counter.getUdpSocketDropCount();
              },
              WAIT),
          counter.toString());
      // the channel holds 20; a batcher's last, partial batch may not fit into what the others left
      long accepted = counter.getEventAcceptedCount();
      assertTrue(accepted > 10 && accepted <= 20, counter.toString());
      assertTrue(counter.getChannelFullDropCount() > 0);
      assertEquals(accepted, harness.take(total, Duration.ofMillis(200)).size());
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void aFullChannelKeepsUdpInTheQueueUntilItTakesThem(String transport) throws Exception {
    // the channel holds 20 and nothing takes from it for longer than udp.channelFullTimeoutMillis:
    // with a queue nothing is dropped, the rest waits in the queue and goes in as room is made
    int total = 500;
    try (SourceHarness harness =
        new SourceHarness(
            source(
                "udp",
                "batchSize",
                "10",
                "udp.channelFullTimeoutMillis",
                "30",
                "udp.transport",
                transport),
            channel(20, 10))) {
      try (DatagramSocket sender = new DatagramSocket()) {
        for (int i = 0; i < total; i++) {
          sendUdp(sender, harness.source.getPort(), bytes("<13>datagram " + i));
        }
      }
      SyslogSourceCounter counter = harness.counter();
      assertTrue(
          await(
              () -> counter.getEventAcceptedCount() == 20 && counter.getReadPauseCount() > 0, WAIT),
          counter.toString());
      Thread.sleep(200); // several times udp.channelFullTimeoutMillis
      assertTrue(counter.getUdpQueuedBytes() > 0, "the rest waits in the queue: " + counter);
      List<Event> events = harness.take(total, WAIT);
      harness.source.pollKernelStats();
      assertEquals(total, events.size(), counter.toString());
      for (int i = 0; i < total; i++) {
        assertEquals("<13>datagram " + i, body(events.get(i)), "in the order sent");
      }
      assertEquals(0, counter.getChannelFullDropCount(), counter.toString());
      assertEquals(0, counter.getUdpSocketDropCount(), counter.toString());
      assertEquals(total, counter.getEventAcceptedCount(), counter.toString());
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void kernelDropsOnTheUdpSocketAreCounted(String transport) throws Exception {
    // a receive buffer that holds about one datagram, and reading paused for a second after the
    // first event (the channel holds one; no queue between reading and parsing to take the rest),
    // make the kernel drop
    try (SourceHarness harness =
            new SourceHarness(
                source(
                    "udp",
                    "udp.queueBytes",
                    "0",
                    "batchSize",
                    "1",
                    "udp.receiveBufferBytes",
                    "1024",
                    "udp.channelFullTimeoutMillis",
                    "1000",
                    "udp.transport",
                    transport),
                channel(1, 1));
        DatagramSocket socket = new DatagramSocket()) {
      byte[] payload = new byte[1000];
      for (int i = 0; i < 300; i++) {
        sendUdp(socket, harness.source.getPort(), payload);
      }
      harness.source.pollKernelStats();
      long drops = harness.counter().getUdpSocketDropCount();
      assertTrue(drops > 0, harness.counter().toString());
      assertTrue(
          harness.counter().getUdpHostRcvbufErrors() >= drops,
          "host-wide includes ours: " + harness.counter());
      harness.source.stop();
      SyslogSourceCounter counter = harness.counter();
      assertTrue(
          counter.getUdpSocketDropCount() >= drops,
          "the last poll reads the socket before it closes, not its absence: " + counter);
      // what was read is accepted or dropped on the full channel; the kernel's drops are received,
      // not accepted
      assertEquals(
          counter.getEventReceivedCount(),
          counter.getEventAcceptedCount()
              + counter.getChannelFullDropCount()
              + counter.getUdpSocketDropCount(),
          counter.toString());
      // and stop read what the socket's buffer still held before closing it: every datagram sent is
      // received
      assertEquals(300, counter.getEventReceivedCount(), counter.toString());
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void stopReadsWhatTheKernelStillHoldsBeforeClosingTheSocket(String transport) throws Exception {
    // The channel holds one event. A read takes up to 64 datagrams; once the channel refuses a
    // batch, reading pauses for 200 ms, so most of the 200 wait in the socket's buffer when stop
    // begins (with no queue between reading and parsing, which would take them from the kernel).
    // Closing the socket then would discard them, counted nowhere.
    int sent = 200;
    SourceHarness harness =
        new SourceHarness(
            source(
                "udp",
                "udp.queueBytes",
                "0",
                "batchSize",
                "1",
                "udp.channelFullTimeoutMillis",
                "200",
                "udp.transport",
                transport),
            channel(1, 1));
    int port = harness.source.getPort();
    try (DatagramSocket socket = new DatagramSocket()) {
      for (int i = 0; i < sent; i++) {
        sendUdp(socket, port, bytes("<13>queued " + i));
      }
      assertTrue(await(() -> harness.counter().getReadPauseCount() > 0, WAIT), "reading paused");
      assertTrue(
          ProcNetSockets.unreadBytes(ProcNetSockets.UDP, port) > 0, "datagrams wait in the kernel");
      harness.source.stop();
      assertEquals(0, UdpKernelStats.socketsOn(port), "the socket is closed");
      SyslogSourceCounter counter = harness.counter();
      assertEquals(0, counter.getUdpSocketDropCount(), counter.toString());
      assertEquals(sent, counter.getEventReceivedCount(), counter.toString());
      assertEquals(1, counter.getEventAcceptedCount(), counter.toString());
      assertEquals(
          sent - 1,
          counter.getChannelFullDropCount(),
          "the channel stayed full: dropped, and counted");
    } finally {
      harness.channel.stop();
    }
  }

  /**
   * A UDP source whose parse is slow ({@link TestInterceptor}'s slow, 20 ms a batch of 10), a
   * kernel buffer of 256 KiB (a couple of hundred of {@link #sendBurst}'s datagrams, tens of
   * milliseconds of them: room for a reader that a busy machine leaves waiting), and {@code
   * queueBytes} between reading and parsing.
   */
  private static SourceHarness slowUdpSource(String transport, String queueBytes, String... more) {
    List<String> keyValues =
        new ArrayList<>(
            List.of(
                "udp.transport",
                transport,
                "udp.queueBytes",
                queueBytes,
                "udp.receiveBufferBytes",
                "262144",
                "batchSize",
                "10",
                "interceptors",
                "slow",
                "interceptors.slow.type",
                TestInterceptor.Builder.class.getName(),
                "interceptors.slow.does",
                "slow"));
    keyValues.addAll(List.of(more));
    return new SourceHarness(source("udp", keyValues.toArray(String[]::new)), roomyChannel());
  }

  /**
   * {@code count} datagrams of 1000 bytes, numbered, 4 at a time with a millisecond between: far
   * faster than the slow parse, slow enough for a reader that only copies, cold JVM and NIO
   * included.
   */
  private static void sendBurst(int port, int count) throws Exception {
    try (DatagramSocket socket = new DatagramSocket()) {
      for (int i = 0; i < count; i++) {
        byte[] payload = new byte[1000];
        java.util.Arrays.fill(payload, (byte) 'x');
        byte[] head = bytes("<13>burst " + i + " ");
        System.arraycopy(head, 0, payload, 0, head.length);
        sendUdp(socket, port, payload);
        if (i % 4 == 3) {
          Thread.sleep(1);
        }
      }
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void udpQueueHoldsWhatTheParsingCannotTakeAtOnce(String transport) throws Exception {
    // 1000 datagrams arrive within about 250 ms and take 2 s to parse: the kernel's buffer holds
    // a couple of hundred. A reader that parses too loses most of them in the kernel; one that
    // only hands them to the queue loses none.
    int sent = 1000;
    long dropsWithoutQueue;
    try (SourceHarness parsingReader = slowUdpSource(transport, "0")) {
      sendBurst(parsingReader.source.getPort(), sent);
      assertTrue(
          await(
              () -> {
                parsingReader.source.pollKernelStats();
                SyslogSourceCounter c = parsingReader.counter();
                return c.getEventReceivedCount() == sent
                    && c.getEventAcceptedCount() + c.getUdpSocketDropCount() == sent;
              },
              WAIT),
          parsingReader.counter().toString());
      dropsWithoutQueue = parsingReader.counter().getUdpSocketDropCount();
    }
    assertTrue(dropsWithoutQueue > 0, "without a queue the kernel drops part of the burst");
    try (SourceHarness queued = slowUdpSource(transport, Integer.toString(64 << 20))) {
      sendBurst(queued.source.getPort(), sent);
      List<Event> events = queued.take(sent, WAIT);
      queued.source.pollKernelStats();
      SyslogSourceCounter counter = queued.counter();
      assertEquals(0, counter.getUdpSocketDropCount(), counter.toString());
      assertEquals(sent, events.size(), counter.toString());
      for (int i = 0; i < sent; i++) {
        assertTrue(body(events.get(i)).startsWith("<13>burst " + i + " "), "in the order sent");
      }
      assertTrue(
          await(() -> counter.getUdpQueuedBytes() == 0, WAIT), "nothing left waiting: " + counter);
      assertEquals(0, counter.getUdpQueueFullCount(), counter.toString());
    }
  }

  @Test
  void udpQueueKeepsTheTimeEachDatagramWasRead() throws Exception {
    // 20 batches of one take 400 ms to parse; the last datagram is read within milliseconds and
    // parsed last
    try (SourceHarness harness = slowUdpSource("epoll", "1048576", "batchSize", "1")) {
      long before = System.currentTimeMillis();
      sendBurst(harness.source.getPort(), 20);
      long sent = System.currentTimeMillis();
      List<Event> events = harness.take(20, WAIT);
      long parsed = System.currentTimeMillis();
      assertEquals(20, events.size());
      assertTrue(
          parsed - sent >= 19 * TestInterceptor.SLOW_MILLIS, "the parse took its time: " + parsed);
      events.forEach(e -> assertHeaders(e, before, sent + 100));
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void aFullUdpQueueStopsReadingAndWhatTheKernelThenDropsIsCounted(String transport)
      throws Exception {
    // the smallest queue, 1 MiB, holds about a thousand of these datagrams and the kernel's buffer
    // a couple of hundred; the parse takes 250 of the 2000 while they arrive
    int sent = 2000;
    try (SourceHarness harness = slowUdpSource(transport, "1048576")) {
      sendBurst(harness.source.getPort(), sent);
      SyslogSourceCounter counter = harness.counter();
      assertTrue(
          await(
              () -> {
                harness.source.pollKernelStats();
                return counter.getEventReceivedCount() == sent
                    && counter.getEventAcceptedCount() + counter.getUdpSocketDropCount() == sent;
              },
              WAIT),
          counter.toString());
      assertTrue(counter.getUdpQueueFullCount() > 0, counter.toString());
      assertTrue(counter.getUdpSocketDropCount() > 0, counter.toString());
      assertEquals(0, counter.getChannelFullDropCount(), counter.toString());
      assertEquals(
          counter.getEventAcceptedCount(), harness.take(sent, Duration.ofMillis(500)).size());
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void stopPutsEverythingTheUdpQueueStillHolds(String transport) throws Exception {
    int sent = 200;
    SourceHarness harness = slowUdpSource(transport, Integer.toString(64 << 20));
    try {
      sendBurst(harness.source.getPort(), sent);
      SyslogSourceCounter counter = harness.counter();
      assertTrue(await(() -> counter.getUdpQueuedBytes() > 0, WAIT), "datagrams wait to be parsed");
      harness.source.stop();
      assertEquals(0, counter.getUdpQueuedBytes(), counter.toString());
      assertEquals(sent, counter.getEventReceivedCount(), counter.toString());
      assertEquals(sent, counter.getEventAcceptedCount(), "every one put before the stop returned");
      assertEquals(sent, harness.take(sent, WAIT).size());
    } finally {
      harness.channel.stop();
    }
  }

  @Test
  void connectionsBeyondMaxConnectionsAreRefusedAndCounted() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "maxConnections", "2"), roomyChannel());
        Socket second = connect(harness)) {
      try (Socket first = connect(harness)) {
        // connections are set up on two threads: wait until both are in, so that the third is the
        // one refused
        assertTrue(await(() -> harness.counter().getOpenConnectionCount() == 2, WAIT));
        try (Socket third = connect(harness)) {
          assertEquals(
              -1, third.getInputStream().read(), "the third connection is closed by the source");
        }
        assertEquals(1, harness.counter().getConnectionRefusedCount());
        assertEquals(2, harness.counter().getOpenConnectionCount());
        first.getOutputStream().write(bytes("<13>first\n"));
        assertEquals(
            List.of("<13>first"), bodies(harness.take(1, WAIT)), "the first two are served");
      }
      assertTrue(
          await(() -> harness.counter().getOpenConnectionCount() == 1, WAIT),
          "a closed one frees a place");
      try (Socket fourth = connect(harness)) {
        fourth.getOutputStream().write(bytes("<13>after\n"));
        second.getOutputStream().write(bytes("<13>second\n"));
        List<String> got = bodies(harness.take(2, WAIT));
        got.sort(null);
        assertEquals(List.of("<13>after", "<13>second"), got);
      }
    }
  }

  @Test
  void idleConnectionIsClosed() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "tcp.idleTimeoutSeconds", "1"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>hello\n"));
      assertEquals(1, harness.take(1, WAIT).size());
      assertEquals(-1, socket.getInputStream().read(), "closed after a second of silence");
    }
  }

  @Test
  void theSourceLooksStartedInItsMetricsOnlyOnceItsSocketIsBound() {
    // Flume retries a source whose port is taken every few seconds: between the group's start and
    // the failed bind, whoever waits for the agent's sources must not see it started
    SyslogSourceCounter counter = new SyslogSourceCounter("bind-race-" + System.nanoTime());
    counter.start();
    try {
      assertEquals(0, counter.getStartTime(), "started before its socket is bound");
      counter.setListenPort(5514);
      assertTrue(counter.getStartTime() > 0, "listening, so started");
    } finally {
      counter.stop();
    }
  }

  @Test
  void startFailsWithAClearMessageWhenThePortIsTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, LOOPBACK)) {
      int port = taken.getLocalPort();
      FlumeException e =
          assertThrows(
              FlumeException.class,
              () ->
                  new SourceHarness(source("tcp", "port", Integer.toString(port)), roomyChannel()));
      assertEquals(
          "syslog source r1: cannot listen on tcp 127.0.0.1:"
              + port
              + ": Address already in use. Fix: "
              + "free the port (ss -lnp | grep :"
              + port
              + ") or set port to another one; ports below 1024 also need "
              + "root or CAP_NET_BIND_SERVICE.",
          e.getMessage());
    }
    try (DatagramSocket taken = new DatagramSocket(0, LOOPBACK)) {
      int port = taken.getLocalPort();
      for (String threads : List.of("1", "2")) {
        // the socket holding the port did not set SO_REUSEPORT, so sharing it is refused too
        FlumeException e =
            assertThrows(
                FlumeException.class,
                () ->
                    new SourceHarness(
                        source(
                            "udp", "port", Integer.toString(port), "udp.receiveThreads", threads),
                        roomyChannel()));
        assertTrue(
            e.getMessage()
                .startsWith(
                    "syslog source r1: cannot listen on udp 127.0.0.1:"
                        + port
                        + ": Address already in use."),
            e.getMessage());
      }
    }
  }

  @Test
  void flumeKeepsTheSourceStoppedWhileThePortIsTakenAndStartsItOnceFree() throws Exception {
    ServerSocket taken = new ServerSocket(0, 50, LOOPBACK);
    int port = taken.getLocalPort();
    SyslogSource source = new SyslogSource();
    source.setName("r1");
    source.setChannelProcessor(new ChannelProcessor(new ReplicatingChannelSelector()));
    Configurables.configure(source, new Context(source("tcp", "port", Integer.toString(port))));
    SourceRunner runner = SourceRunner.forSource(source);
    LifecycleSupervisor supervisor = new LifecycleSupervisor();
    supervisor.start();
    try {
      supervisor.supervise(
          runner,
          new LifecycleSupervisor.SupervisorPolicy.AlwaysRestartPolicy(),
          LifecycleState.START);
      Thread.sleep(500); // the supervisor's first attempt runs at once
      assertEquals(
          LifecycleState.IDLE, source.getLifecycleState(), "not started while the port is taken");
      assertEquals(-1, source.getPort());
      taken.close();
      assertTrue(
          await(() -> source.getLifecycleState() == LifecycleState.START, WAIT),
          "started once free");
      assertEquals(port, source.getPort());
    } finally {
      supervisor.stop();
      taken.close();
    }
  }

  @Test
  void interceptorsConfiguredOnTheSourceRunOnEachBatch() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                source(
                    "tcp",
                    "interceptors",
                    "site",
                    "interceptors.site.type",
                    "static",
                    "interceptors.site.key",
                    "site",
                    "interceptors.site.value",
                    "lab-1"),
                roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>hello\n"));
      Event event = harness.take(1, WAIT).get(0);
      assertEquals("lab-1", event.getHeaders().get("site"));
      assertEquals("127.0.0.1", event.getHeaders().get("peer"));
    }
  }

  @Test
  void aBatchAnInterceptorThrowsOnIsDroppedAndCounted() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                source(
                    "tcp",
                    "batchSize",
                    "1",
                    "interceptors",
                    "bug",
                    "interceptors.bug.type",
                    TestInterceptor.Builder.class.getName(),
                    "interceptors.bug.does",
                    "throw"),
                roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>boom\n<13>fine\n"));
      assertEquals(List.of("<13>fine"), bodies(harness.take(1, WAIT)));
      assertEquals(1, harness.counter().getGenericProcessingFail());
      assertEquals(1, harness.counter().getProcessingErrorDropCount());
      assertEquals(2, harness.counter().getEventReceivedCount());
    }
  }

  /**
   * A memory channel that refuses, as Flume's Kafka channel does when Kafka refuses a record as too
   * large, any transaction with an event over {@code maxBytes}; and then, as a full channel, the
   * next {@code fullAfterTooLarge} puts of other events.
   */
  private static final class KafkaLimitChannel extends SourceHarness.CountingMemoryChannel {
    private final int maxBytes;
    private final AtomicInteger fullAfterTooLarge;
    private volatile boolean refusedTooLarge;

    KafkaLimitChannel(int maxBytes, int fullAfterTooLarge) {
      this.maxBytes = maxBytes;
      this.fullAfterTooLarge = new AtomicInteger(fullAfterTooLarge);
    }

    @Override
    public void put(Event event) {
      if (event.getBody().length > maxBytes) {
        refusedTooLarge = true;
        throw new ChannelException(
            "Commit failed as send to Kafka failed",
            new ExecutionException(
                new RecordTooLargeException(
                    "The request included a message larger than the max message size")));
      }
      if (refusedTooLarge && fullAfterTooLarge.getAndDecrement() > 0) {
        throw new ChannelException("full");
      }
      super.put(event);
    }
  }

  /**
   * Sends ten messages that make one batch (a source with batchSize 10): those at {@code largeAt}
   * of 8,014 bytes that compression cannot shrink, the others small ({@link #small}), then ten more
   * ({@code <13>after 0..9}). Returns the bodies the channel gives back before the first of those:
   * the later ten arriving shows that the source still reads.
   */
  static List<String> sendTen(SourceHarness harness, Set<Integer> largeAt) throws Exception {
    List<String> after = after();
    try (Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes(tenThenTenAfter(largeAt)));
      List<String> got = new ArrayList<>();
      while (!got.contains(after.get(after.size() - 1))) {
        List<String> one = bodies(harness.take(1, WAIT));
        assertEquals(1, one.size(), "nothing more within " + WAIT + " after " + got);
        got.addAll(one);
      }
      int firstAfter = got.indexOf(after.get(0));
      assertEquals(after, got.subList(firstAfter, got.size()));
      return got.subList(0, firstAfter);
    }
  }

  /**
   * Ten messages, large ones at {@code largeAt} (8,014 bytes that compression cannot shrink) and
   * small ones elsewhere, then the ten of {@link #after()}, as newline-framed lines.
   */
  static String tenThenTenAfter(Set<Integer> largeAt) {
    byte[] random = new byte[6000];
    new Random(3).nextBytes(random);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      lines
          .append(
              largeAt.contains(i)
                  ? "<13>large " + Base64.getEncoder().encodeToString(random)
                  : "<13>small " + i)
          .append('\n');
    }
    after().forEach(line -> lines.append(line).append('\n'));
    return lines.toString();
  }

  /** The ten small messages {@link #tenThenTenAfter} sends last. */
  static List<String> after() {
    return IntStream.range(0, 10).mapToObj(i -> "<13>after " + i).toList();
  }

  /** The small messages {@link #sendTen} sends with {@code largeAt}, in the order sent. */
  static List<String> small(Set<Integer> largeAt) {
    return IntStream.range(0, 10)
        .filter(i -> !largeAt.contains(i))
        .mapToObj(i -> "<13>small " + i)
        .toList();
  }

  private static SourceHarness batchesOfTen(KafkaLimitChannel channel) {
    return new SourceHarness(
        source("tcp", "batchSize", "10", "batchDurationMillis", "60000", "tcp.workerThreads", "1"),
        roomyChannel(),
        channel);
  }

  @Test
  void anEventKafkaRefusesAsTooLargeIsDroppedAloneAndCounted() throws Exception {
    try (SourceHarness harness = batchesOfTen(new KafkaLimitChannel(1000, 0))) {
      assertEquals(
          small(Set.of(3)),
          sendTen(harness, Set.of(3)),
          "the rest of the batch, each once, in order");
      SyslogSourceCounter counter = harness.counter();
      assertEquals(1, counter.getRecordTooLargeDropCount());
      assertEquals(
          4,
          counter.getAppendBatchReceivedCount(),
          "the batch, its large event alone, the rest, the ten after");
      assertEquals(2, counter.getAppendBatchAcceptedCount());
      assertEquals(19, counter.getEventAcceptedCount());
      assertEquals(20, counter.getEventReceivedCount());
      assertEquals(0, counter.getChannelWriteFail(), "not counted as a full channel");
      assertEquals(0, counter.getReadPauseCount(), "reading never paused");
    }
  }

  @Test
  void severalTooLargeEventsAndAFullChannelWhileSplittingLoseNothingElse() throws Exception {
    Set<Integer> largeAt = Set.of(2, 3, 7);
    try (SourceHarness harness = batchesOfTen(new KafkaLimitChannel(1000, 2))) {
      assertEquals(small(largeAt), sendTen(harness, largeAt), "each once, in order");
      SyslogSourceCounter counter = harness.counter();
      assertEquals(3, counter.getRecordTooLargeDropCount());
      assertEquals(2, counter.getChannelWriteFail(), "the two refusals as full");
      assertEquals(1, counter.getReadPauseCount());
      assertEquals(0, counter.getChannelFullDropCount());
      assertEquals(counter.getEventReceivedCount(), counter.getEventAcceptedCount() + 3);
    }
  }

  @Test
  void nulEndsAMessageWhenConfigured() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "framing.nulDelimiter", "true"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>a\0<13>b\n"));
      assertEquals(List.of("<13>a", "<13>b"), bodies(harness.take(2, WAIT)));
    }
  }

  @Test
  void strictOctetCountingCountsALineFramedMessageAsAFramingError() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp", "framing", "octet-counting"), roomyChannel());
        Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>line framed\n5 hello"));
      assertEquals(List.of("hello"), bodies(harness.take(1, WAIT)));
      assertEquals(1, harness.counter().getFramingErrorCount());
      assertEquals(1, harness.counter().getEventReadFail());
      assertEquals(2, harness.counter().getEventReceivedCount());
      assertEquals(1, harness.counter().getEventAcceptedCount());
    }
  }

  @ParameterizedTest(name = "udp.transport = {0}")
  @ValueSource(strings = {"epoll", "nio"})
  void udpDatagramOverTheLimitIsCounted(String transport) throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                source("udp", "maxMessageBytes", "100", "udp.transport", transport),
                roomyChannel());
        DatagramSocket socket = new DatagramSocket()) {
      sendUdp(socket, harness.source.getPort(), bytes("<13>" + "x".repeat(200)));
      sendUdp(socket, harness.source.getPort(), bytes("<13>" + "y".repeat(96)));
      sendUdp(socket, harness.source.getPort(), bytes("<13>" + "z".repeat(97)));
      sendUdp(socket, harness.source.getPort(), bytes("<13>next"));
      // exactly the limit is carried whole; one byte over is not, nor is one the kernel cut to the
      // read's slot (epoll)
      assertEquals(List.of("<13>" + "y".repeat(96), "<13>next"), bodies(harness.take(2, WAIT)));
      assertEquals(2, harness.counter().getOversizeCount());
      assertEquals(4, harness.counter().getEventReceivedCount());
    }
  }

  @Test
  void stopPutsWhatIsStillQueued() throws Exception {
    SourceHarness harness =
        new SourceHarness(
            source("tcp", "batchSize", "1000", "batchDurationMillis", "600000"), roomyChannel());
    try (Socket socket = connect(harness)) {
      socket.getOutputStream().write(bytes("<13>a\n<13>b\n<13>tail without LF"));
      socket.getOutputStream().flush();
      assertTrue(await(() -> harness.counter().getOpenConnectionCount() == 1, WAIT));
      Thread.sleep(200); // the source reads; nothing is put (batch not full, duration far away)
      assertEquals(0, harness.counter().getEventAcceptedCount());
      harness.source.stop();
      assertEquals(List.of("<13>a", "<13>b", "<13>tail without LF"), bodies(harness.take(3, WAIT)));
    } finally {
      harness.channel.stop();
    }
  }

  @Test
  void metricsAppearInFlumesMonitoringWithTheBoundPort(@TempDir Path dir) throws Exception {
    Path portFile = dir.resolve("r1.port");
    try (SourceHarness harness =
            new SourceHarness(
                source("tcp", "maxMessageBytes", "10", "portFile", portFile.toString()),
                roomyChannel());
        Socket socket = connect(harness)) {
      assertEquals(harness.source.getPort() + "\n", Files.readString(portFile));
      socket.getOutputStream().write(bytes("<13>far too long\n<13>ok\n"));
      assertEquals(1, harness.take(1, WAIT).size());
      // what Flume's HTTP monitoring (GET /metrics) serialises to JSON
      Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("SOURCE.r1");
      assertEquals(Integer.toString(harness.source.getPort()), metrics.get("ListenPort"));
      assertEquals("1", metrics.get("OversizeCount"));
      assertEquals("1", metrics.get("EventAcceptedCount"));
      assertEquals("2", metrics.get("EventReceivedCount"));
      List<SyslogSourceCounter.Metric> documented = new ArrayList<>(SyslogSourceCounter.STANDARD);
      documented.addAll(SyslogSourceCounter.METRICS);
      for (SyslogSourceCounter.Metric metric : documented) {
        assertTrue(
            metrics.containsKey(metric.attribute()),
            metric.attribute() + " in " + metrics.keySet());
      }
    }
    assertFalse(Files.exists(portFile), "the port file goes away on stop");
  }
}
