package org.flafka.edge.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * A TCP relay between one client and the source that passes bytes through at once until told to
 * trickle, then forwards what the client sends one byte at a time, {@code pause} apart: a TLS
 * client whose handshake goes through normally and whose records then arrive a byte at a time, as a
 * slowloris beneath TLS would send them.
 */
final class TricklingRelay implements AutoCloseable {

  private final ServerSocket server;
  private final int targetPort;
  private final Duration pause;
  private volatile boolean trickle;
  private volatile Socket toSource;
  private volatile Socket fromClient;

  TricklingRelay(int targetPort, Duration pause) throws IOException {
    this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    this.targetPort = targetPort;
    this.pause = pause;
    Thread acceptor = new Thread(this::relay, "trickling-relay");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The port clients connect to. */
  int port() {
    return server.getLocalPort();
  }

  /** From now on, forward the client's bytes one at a time. */
  void trickle() {
    trickle = true;
  }

  private void relay() {
    try {
      fromClient = server.accept();
      toSource = new Socket(InetAddress.getLoopbackAddress(), targetPort);
      Thread back = new Thread(() -> pump(toSource, fromClient, false), "trickling-relay-back");
      back.setDaemon(true);
      back.start();
      pump(fromClient, toSource, true);
    } catch (IOException e) {
      // closed: the test is over or the source closed the connection
    }
  }

  private void pump(Socket from, Socket to, boolean mayTrickle) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[16_384];
      int n;
      while ((n = in.read(buffer)) != -1) {
        if (mayTrickle && trickle) {
          for (int i = 0; i < n; i++) {
            out.write(buffer[i]);
            out.flush();
            Thread.sleep(pause.toMillis());
          }
        } else {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException | InterruptedException e) {
      // one side closed
    } finally {
      closeQuietly(to);
      closeQuietly(from);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    if (fromClient != null) {
      fromClient.close();
    }
    if (toSource != null) {
      toSource.close();
    }
  }
}
