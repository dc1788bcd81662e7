package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy forwarding to an echo server on loopback, with and without a black hole. */
class LatencyProxyTest {
  private static final int QUIET_MILLIS = 500;

  private ServerSocket echo;
  private LatencyProxy proxy;

  @BeforeEach
  void startEchoServerBehindTheProxy() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept =
        new Thread(
            () -> {
              while (!echo.isClosed()) {
                try {
                  Socket socket = echo.accept();
                  Thread serve = new Thread(() -> echoAll(socket), "echo");
                  serve.setDaemon(true);
                  serve.start();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "echo-accept");
    accept.setDaemon(true);
    accept.start();
    proxy =
        LatencyProxy.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort()),
            Duration.ZERO);
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void aBlackHoleDropsBytesSilentlyBothOnOpenAndOnNewConnectionsUntilTrafficIsRestored()
      throws IOException {
    try (Socket before = connect()) {
      assertEquals("hello", roundTrip(before, "hello"), "forwarded before the outage");

      proxy.blackHole();
      send(before, "lost");
      assertThrows(
          SocketTimeoutException.class,
          () -> before.getInputStream().read(),
          "no answer, and no reset or end of stream either: the client only times out");
      try (Socket during = connect()) {
        send(during, "unheard");
        assertThrows(
            SocketTimeoutException.class,
            () -> during.getInputStream().read(),
            "a connection made during the outage is accepted and never answered");
      }
      assertTrue(proxy.droppedBytes() >= "lost".length(), "the dropped bytes are counted");

      proxy.restore();
      assertEquals(
          -1, readOrEnd(before), "a connection that lost bytes is closed when traffic returns");
      try (Socket after = connect()) {
        assertEquals("back", roundTrip(after, "back"), "forwarded again after the outage");
      }
    }
  }

  @Test
  void aConnectionThatLostNothingToTheBlackHoleCarriesOnAfterIt() throws IOException {
    try (Socket idle = connect()) {
      assertEquals("one", roundTrip(idle, "one"));
      proxy.blackHole();
      proxy.restore();
      assertEquals("two", roundTrip(idle, "two"));
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    socket.setSoTimeout(QUIET_MILLIS);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    out.flush();
  }

  private static String roundTrip(Socket socket, String text) throws IOException {
    send(socket, text);
    byte[] answer = socket.getInputStream().readNBytes(text.length());
    return new String(answer, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The next byte, or -1 at end of stream or when the connection was reset. */
  private static int readOrEnd(Socket socket) throws IOException {
    try {
      return socket.getInputStream().read();
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException reset) {
      return -1;
    }
  }

  private static void echoAll(Socket socket) {
    try (socket;
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream()) {
      byte[] buffer = new byte[1024];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the test closed its side
    }
  }
}
