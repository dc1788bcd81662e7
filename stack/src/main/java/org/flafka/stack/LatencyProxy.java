package org.flafka.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on loopback that holds every byte it reads for a fixed time before passing it on,
 * in both directions, so that a client on this machine meets a server as it would across a network:
 * each round trip takes at least twice the delay. Bandwidth is not limited and order is kept. Two
 * threads per direction of a connection, one reading, one writing what is due; for benchmarks and
 * tests, not for production traffic.
 *
 * <p>{@link #blackHole()} makes it a network that has gone dark, the way a WAN link fails: every
 * byte read in either direction is dropped without a word (no RST, no FIN), connections made
 * meanwhile are accepted and never answered, so clients learn of the outage only by their own
 * timeouts. {@link #restore()} ends it: new connections are forwarded again, and each connection
 * that lost bytes is closed, since its stream can no longer be trusted (a real one would have timed
 * out by then); connections that lost nothing carry on.
 */
public final class LatencyProxy implements AutoCloseable {
  private static final int CHUNK_BYTES = 64 * 1024;

  /** What a reader queues when its side has closed: the writer then closes its side for writing. */
  private static final Chunk END = new Chunk(0, new byte[0]);

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final long delayNanos;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

  /** Connections that lost bytes to the black hole, closed when it ends. */
  private final Set<Connection> broken = ConcurrentHashMap.newKeySet();

  private volatile boolean closed;
  private volatile boolean blackHoled;
  private final AtomicLong droppedBytes = new AtomicLong();

  private record Chunk(long dueNanos, byte[] bytes) {}

  /** A client socket and the socket to the target it is forwarded to (null while black-holed). */
  private record Connection(Socket client, Socket server) {}

  private LatencyProxy(ServerSocket listener, InetSocketAddress target, Duration oneWayDelay) {
    this.listener = listener;
    this.target = target;
    this.delayNanos = oneWayDelay.toNanos();
  }

  /**
   * Listens on a free loopback port and forwards every connection to {@code target}, {@code
   * oneWayDelay} late.
   */
  public static LatencyProxy start(InetSocketAddress target, Duration oneWayDelay) {
    if (oneWayDelay.isNegative()) {
      throw new IllegalArgumentException("the delay must be 0 or more but was " + oneWayDelay);
    }
    try {
      LatencyProxy proxy =
          new LatencyProxy(
              new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), target, oneWayDelay);
      daemon("latency-proxy-accept-" + proxy.port(), proxy::acceptLoop).start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("latency proxy: no free loopback port: " + e.getMessage(), e);
    }
  }

  /** The loopback port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * Drops every byte from now on, in both directions and on new connections, without closing
   * anything (see the class comment).
   */
  public void blackHole() {
    blackHoled = true;
  }

  /**
   * Forwards again: new connections reach the target, and the connections that lost bytes are
   * closed.
   */
  public void restore() {
    blackHoled = false;
    for (Connection connection : broken) {
      broken.remove(connection);
      closeQuietly(connection.client());
      if (connection.server() != null) {
        closeQuietly(connection.server());
      }
    }
  }

  public boolean isBlackHoled() {
    return blackHoled;
  }

  /** Bytes the black hole has dropped since this proxy started, both directions together. */
  public long droppedBytes() {
    return droppedBytes.get();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (blackHoled) {
        // As a SYN lost on the way would, except that the kernel has completed the handshake: the
        // client's requests go unanswered until it gives up
        Connection connection = new Connection(client, null);
        sockets.add(client);
        broken.add(connection);
        daemon("latency-proxy-" + client.getPort() + "-black-hole", () -> drain(client, connection))
            .start();
        continue;
      }
      Socket server = new Socket();
      try {
        server.connect(target);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
      } catch (IOException e) {
        // the client sees its connection closed, as it would with the server down
        closeQuietly(client);
        closeQuietly(server);
        continue;
      }
      sockets.add(client);
      sockets.add(server);
      Connection connection = new Connection(client, server);
      AtomicInteger openDirections = new AtomicInteger(2);
      forward(client, server, connection, openDirections);
      forward(server, client, connection, openDirections);
    }
  }

  /** Reads and drops what a client sends on a connection made while black-holed. */
  private void drain(Socket client, Connection connection) {
    byte[] buffer = new byte[CHUNK_BYTES];
    try {
      InputStream in = client.getInputStream();
      for (int read; (read = in.read(buffer)) >= 0; ) {
        droppedBytes.addAndGet(read);
      }
    } catch (IOException e) {
      // closed by restore() or by the client
    }
    broken.remove(connection);
    closeQuietly(client);
    sockets.remove(client);
  }

  /**
   * Forwards what {@code from} sends to {@code to}; the last of a connection's two directions to
   * end closes it.
   */
  private void forward(
      Socket from, Socket to, Connection connection, AtomicInteger openDirections) {
    BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    String name = "latency-proxy-" + from.getPort() + "-" + to.getPort();
    daemon(name + "-read", () -> read(from, to, connection, queue)).start();
    daemon(
            name + "-write",
            () -> {
              write(from, to, queue);
              if (openDirections.decrementAndGet() == 0) {
                closePair(from, to);
              }
            })
        .start();
  }

  private void read(Socket from, Socket to, Connection connection, BlockingQueue<Chunk> queue) {
    byte[] buffer = new byte[CHUNK_BYTES];
    try {
      InputStream in = from.getInputStream();
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (blackHoled) {
          droppedBytes.addAndGet(read);
          broken.add(connection);
          continue;
        }
        queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, read)));
      }
      queue.add(END);
    } catch (IOException e) {
      closePair(from, to);
      queue.add(END);
    }
  }

  private void write(Socket from, Socket to, BlockingQueue<Chunk> queue) {
    try {
      OutputStream out = to.getOutputStream();
      while (true) {
        Chunk chunk = queue.take();
        if (chunk == END) {
          to.shutdownOutput();
          return;
        }
        for (long wait = chunk.dueNanos - System.nanoTime();
            wait > 0;
            wait = chunk.dueNanos - System.nanoTime()) {
          LockSupport.parkNanos(wait);
        }
        out.write(chunk.bytes);
      }
    } catch (IOException e) {
      closePair(from, to);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closePair(from, to);
    }
  }

  private void closePair(Socket a, Socket b) {
    closeQuietly(a);
    closeQuietly(b);
    sockets.remove(a);
    sockets.remove(b);
  }

  /** Stops listening and closes every forwarded connection. */
  @Override
  public void close() {
    closed = true;
    broken.clear();
    closeQuietly(listener);
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // closing is all that is left to do
    }
  }
}
