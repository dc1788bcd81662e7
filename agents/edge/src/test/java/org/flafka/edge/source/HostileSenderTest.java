package org.flafka.edge.source;

import static org.flafka.edge.source.SourceHarness.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flume.Event;
import org.flafka.contract.Headers;
import org.junit.jupiter.api.Test;

/**
 * One misbehaving sender must not hurt the others (docs/guides/edge.md, "Hostile senders"): in each
 * test a hostile sender misbehaves on real sockets while a well-behaved one keeps sending, every
 * message of the well-behaved one arrives, and the hostile one is limited or closed and counted.
 * The hostile sender connects from 127.0.0.2, the well-behaved one from 127.0.0.1 (both loopback on
 * Linux).
 */
class HostileSenderTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final InetAddress GOOD = InetAddress.getLoopbackAddress();
  private static final InetAddress HOSTILE = address(127, 0, 0, 2);

  /** Long enough to span each hostile behaviour: 150 messages, 10 ms apart. */
  private static final int GOOD_MESSAGES = 150;

  private static final Duration GOOD_PAUSE = Duration.ofMillis(10);

  private static InetAddress address(int... bytes) {
    byte[] address = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      address[i] = (byte) bytes[i];
    }
    try {
      return InetAddress.getByAddress(address);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Socket connect(SourceHarness harness, InetAddress from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(from, 0));
    socket.connect(new InetSocketAddress(GOOD, harness.source.getPort()));
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * Takes {@code count} events and returns the bodies of those from {@code peer}, in order of
   * arrival.
   */
  private static List<String> bodiesFrom(SourceHarness harness, int count, InetAddress peer)
      throws InterruptedException {
    List<Event> events = harness.take(count, WAIT);
    List<String> bodies = new ArrayList<>();
    for (Event event : events) {
      if (peer.getHostAddress().equals(event.getHeaders().get(Headers.PEER))) {
        bodies.add(new String(event.getBody(), StandardCharsets.ISO_8859_1));
      }
    }
    return bodies;
  }

  /** Takes {@code count} events and returns their bodies by sender address, in order of arrival. */
  private static Map<String, List<String>> bodiesByPeer(SourceHarness harness, int count)
      throws InterruptedException {
    Map<String, List<String>> bodies = new HashMap<>();
    for (Event event : harness.take(count, WAIT)) {
      bodies
          .computeIfAbsent(event.getHeaders().get(Headers.PEER), peer -> new ArrayList<>())
          .add(new String(event.getBody(), StandardCharsets.ISO_8859_1));
    }
    return bodies;
  }

  /** Reads until the source closes the connection; true if it did (a reset counts as closed). */
  private static boolean closedBySource(Socket socket) {
    try {
      InputStream in = socket.getInputStream();
      while (in.read() != -1) {
        // the source never answers; anything read would be a surprise, but keep reading
      }
      return true;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @Test
  void oneAddressOverItsConnectionLimitIsRefusedAndCountedWhileAnotherAddressKeepsSending()
      throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "maxConnectionsPerAddress", "3"),
                SyslogSourceTest.roomyChannel());
        Socket good = connect(harness, GOOD)) {
      SteadySender sender = new SteadySender(good, "good", GOOD_MESSAGES, GOOD_PAUSE);
      List<Socket> flood = new ArrayList<>();
      try {
        for (int i = 0; i < 20; i++) {
          flood.add(connect(harness, HOSTILE));
        }
        assertTrue(
            await(() -> harness.counter().getConnectionRefusedPerAddressCount() == 17, WAIT),
            "17 of the 20 connections from one address refused: "
                + harness.counter().getConnectionRefusedPerAddressCount());
        long served = flood.stream().filter(socket -> !closedBySource(socket, 200)).count();
        assertEquals(3, served, "the first three from that address are served");
        try (Socket another = connect(harness, GOOD)) {
          another.getOutputStream().write(bytes("<13>another\n"));
          another.getOutputStream().flush();
          sender.awaitSent(WAIT);
          List<String> fromGood = bodiesFrom(harness, GOOD_MESSAGES + 1, GOOD);
          assertEquals(GOOD_MESSAGES + 1, fromGood.size(), "every message from the other address");
          assertTrue(fromGood.containsAll(sender.messages()) && fromGood.contains("<13>another"));
        }
        assertEquals(0, harness.counter().getConnectionRefusedCount(), "the global limit");
        assertTrue(
            await(() -> harness.counter().getOpenConnectionCount() == 4, WAIT),
            "three hostile and the steady one: " + harness.counter().getOpenConnectionCount());
      } finally {
        for (Socket socket : flood) {
          socket.close();
        }
      }
      assertTrue(
          await(() -> harness.counter().getOpenConnectionCount() == 1, WAIT),
          "closed ones free their places");
      try (Socket again = connect(harness, HOSTILE)) {
        again.getOutputStream().write(bytes("<13>again\n"));
        assertEquals(List.of("<13>again"), bodiesFrom(harness, 1, HOSTILE));
      }
    }
  }

  /** As {@link #closedBySource(Socket)}, waiting at most {@code millis} for the close. */
  private static boolean closedBySource(Socket socket, int millis) {
    try {
      socket.setSoTimeout(millis);
    } catch (IOException e) {
      return true;
    }
    return closedBySource(socket);
  }

  @Test
  void aSenderTricklingBytesIsClosedAfterTheFrameTimeoutAndWhatItHeldIsCounted() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "tcp.frameTimeoutSeconds", "1"),
                SyslogSourceTest.roomyChannel());
        Socket good = connect(harness, GOOD);
        Socket slow = connect(harness, HOSTILE)) {
      SteadySender sender = new SteadySender(good, "good", GOOD_MESSAGES, GOOD_PAUSE);
      long start = System.nanoTime();
      // six seconds of trickle: far longer than the timeout, even on a loaded machine
      byte[] trickle = bytes("<13>a never ending story, told one byte at a time, slowly: 12345");
      OutputStream out = slow.getOutputStream();
      int sent = 0;
      try {
        // one byte every 100 ms: never idle, never a frame
        for (; sent < trickle.length; sent++) {
          out.write(trickle[sent]);
          out.flush();
          Thread.sleep(100);
        }
      } catch (IOException closed) {
        // the source closed the connection: what the test expects
      }
      assertTrue(closedBySource(slow), "closed by the source");
      long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
      assertTrue(sent < trickle.length, "closed before it finished trickling, after " + seconds);
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodiesFrom(harness, GOOD_MESSAGES, GOOD));
      assertTrue(await(() -> harness.counter().getFrameTimeoutCount() == 1, WAIT));
      assertEquals(1, harness.counter().getFramingErrorCount(), "its incomplete message dropped");
      assertEquals(
          GOOD_MESSAGES + 1,
          harness.counter().getEventReceivedCount(),
          "received: the good ones and the dropped one");
      assertEquals(GOOD_MESSAGES, harness.counter().getEventAcceptedCount());
      assertEquals(0, harness.counter().getConnectionErrorCount());
    }
  }

  @Test
  void aSenderQuietBetweenCompleteMessagesIsNotClosedByTheFrameTimeout() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "tcp.frameTimeoutSeconds", "1"),
                SyslogSourceTest.roomyChannel());
        Socket quiet = connect(harness, GOOD)) {
      OutputStream out = quiet.getOutputStream();
      out.write(bytes("<13>first\n<13>second in two "));
      out.flush();
      Thread.sleep(500);
      out.write(bytes("parts\n"));
      out.flush();
      Thread.sleep(2500);
      out.write(bytes("<13>after a quiet while\n"));
      out.flush();
      assertEquals(
          List.of("<13>first", "<13>second in two parts", "<13>after a quiet while"),
          bodiesFrom(harness, 3, GOOD));
      assertEquals(0, harness.counter().getFrameTimeoutCount());
    }
  }

  @Test
  void aConnectionHeldBackByAFullChannelIsNotClosedByTheFrameTimeout() throws Exception {
    Map<String, String> smallChannel =
        Map.of("capacity", "200", "transactionCapacity", "100", "keep-alive", "0");
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "batchSize", "100", "tcp.frameTimeoutSeconds", "1"),
                smallChannel);
        Socket busy = connect(harness, GOOD)) {
      // far more than the channel holds: the source stops reading, most likely in the middle of a
      // message, and the sender waits on us; nobody takes for longer than the frame timeout
      SteadySender sender =
          new SteadySender(busy, "a message of some length", 20_000, Duration.ZERO);
      assertTrue(await(() -> harness.counter().getReadPauseCount() > 0, WAIT), "paused");
      Thread.sleep(2500);
      assertEquals(0, harness.counter().getFrameTimeoutCount(), "we held it back, not the sender");
      List<String> bodies = bodiesFrom(harness, 20_000, GOOD);
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodies);
      assertEquals(0, harness.counter().getFrameTimeoutCount());
    }
  }

  @Test
  void anEndlessLineIsCountedAndTheStreamResyncsAtTheNextLineFeed() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "framing", "newline", "maxMessageBytes", "1000"),
                SyslogSourceTest.roomyChannel());
        Socket good = connect(harness, GOOD);
        Socket endless = connect(harness, HOSTILE)) {
      SteadySender sender = new SteadySender(good, "good", GOOD_MESSAGES, GOOD_PAUSE);
      OutputStream out = endless.getOutputStream();
      byte[] chunk = new byte[10_000];
      Arrays.fill(chunk, (byte) 'x');
      for (int i = 0; i < 100; i++) {
        out.write(chunk);
      }
      out.write(bytes("\n<13>after the endless line\n"));
      out.flush();
      sender.awaitSent(WAIT);
      Map<String, List<String>> bodies = bodiesByPeer(harness, GOOD_MESSAGES + 1);
      assertEquals(sender.messages(), bodies.get(GOOD.getHostAddress()));
      assertEquals(
          List.of("<13>after the endless line"),
          bodies.get(HOSTILE.getHostAddress()),
          "resynced at the next LF");
      assertEquals(1, harness.counter().getOversizeCount(), "the endless line, once");
      assertEquals(GOOD_MESSAGES + 2, harness.counter().getEventReceivedCount());
    }
  }

  @Test
  void anOctetCountAboveTheMaximumIsCountedAndSkippedToTheNextFrame() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source("tcp", "maxMessageBytes", "1000"),
                SyslogSourceTest.roomyChannel());
        Socket good = connect(harness, GOOD);
        Socket hostile = connect(harness, HOSTILE)) {
      SteadySender sender = new SteadySender(good, "good", GOOD_MESSAGES, GOOD_PAUSE);
      OutputStream out = hostile.getOutputStream();
      out.write(bytes("500000 "));
      byte[] chunk = new byte[10_000];
      Arrays.fill(chunk, (byte) '\n');
      for (int i = 0; i < 50; i++) {
        out.write(chunk);
      }
      out.write(bytes("9 <13>after"));
      out.flush();
      sender.awaitSent(WAIT);
      Map<String, List<String>> bodies = bodiesByPeer(harness, GOOD_MESSAGES + 1);
      assertEquals(sender.messages(), bodies.get(GOOD.getHostAddress()));
      assertEquals(List.of("<13>after"), bodies.get(HOSTILE.getHostAddress()), "the next frame");
      assertEquals(1, harness.counter().getOversizeCount());
      assertEquals(0, harness.counter().getFramingErrorCount());
    }
  }

  @Test
  void anEndlessLineThatNeverEndsIsClosedByTheFrameTimeoutAndCounted() throws Exception {
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source(
                    "tcp", "maxMessageBytes", "1000", "tcp.frameTimeoutSeconds", "1"),
                SyslogSourceTest.roomyChannel());
        Socket good = connect(harness, GOOD);
        Socket endless = connect(harness, HOSTILE)) {
      SteadySender sender = new SteadySender(good, "good", GOOD_MESSAGES, GOOD_PAUSE);
      byte[] chunk = new byte[1000];
      Arrays.fill(chunk, (byte) 'x');
      long written = 0;
      try {
        OutputStream out = endless.getOutputStream();
        long until = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < until) {
          out.write(chunk);
          out.flush();
          written += chunk.length;
          Thread.sleep(5);
        }
      } catch (IOException closed) {
        // the source closed the connection: what the test expects
      }
      assertTrue(closedBySource(endless), "closed, after " + written + " bytes");
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodiesFrom(harness, GOOD_MESSAGES, GOOD));
      assertTrue(await(() -> harness.counter().getFrameTimeoutCount() == 1, WAIT));
      assertEquals(1, harness.counter().getOversizeCount(), "the endless line, once");
      assertEquals(0, harness.counter().getFramingErrorCount());
      assertEquals(GOOD_MESSAGES + 1, harness.counter().getEventReceivedCount());
    }
  }
}
