package org.flafka.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ServerSocketFactory;

/**
 * A loopback stream server that keeps everything each connection sent, for tests that look at the
 * bytes.
 */
final class CapturingReceiver implements AutoCloseable {
  private final ServerSocket server;
  private final List<ByteArrayOutputStream> streams = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed;
  private final long closeAfterBytes;

  /** Captures {@code connections} TCP connections to their end. */
  CapturingReceiver(int connections) throws IOException {
    this(ServerSocketFactory.getDefault(), connections, Long.MAX_VALUE);
  }

  /**
   * Captures {@code connections} connections made through {@code factory} (TLS tests pass an SSL
   * one), hanging up on each after {@code closeAfterBytes}.
   */
  CapturingReceiver(ServerSocketFactory factory, int connections, long closeAfterBytes)
      throws IOException {
    this.server = factory.createServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.closed = new CountDownLatch(connections);
    this.closeAfterBytes = closeAfterBytes;
    Thread acceptor = new Thread(() -> accept(connections), "capture-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * 127.0.0.1 and the bound port; TLS checks the certificate against "127.0.0.1", as a user would
   * type it.
   */
  InetSocketAddress address() {
    return new InetSocketAddress("127.0.0.1", server.getLocalPort());
  }

  /** Each connection's bytes, in the order the connections were accepted, once all have ended. */
  List<byte[]> streams() throws InterruptedException {
    if (!closed.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the sender did not close its connections");
    }
    List<byte[]> result = new ArrayList<>();
    streams.forEach(stream -> result.add(stream.toByteArray()));
    return result;
  }

  private void accept(int connections) {
    for (int n = 0; n < connections; n++) {
      try {
        Socket socket = server.accept();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        streams.add(stream);
        Thread reader = new Thread(() -> read(socket, stream), "capture-" + n);
        reader.setDaemon(true);
        reader.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void read(Socket socket, ByteArrayOutputStream stream) {
    try (socket;
        InputStream in = socket.getInputStream()) {
      byte[] buffer = new byte[64 * 1024];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        stream.write(buffer, 0, read);
        if (stream.size() >= closeAfterBytes) {
          break;
        }
      }
    } catch (IOException e) {
      // The sender went away; keep what arrived.
    } finally {
      closed.countDown();
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
