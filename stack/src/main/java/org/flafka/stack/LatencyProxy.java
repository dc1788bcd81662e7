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
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on loopback that holds every byte it reads for a fixed time before passing it on,
 * in both directions, so that a client on this machine meets a server as it would across a network:
 * each round trip takes at least twice the delay. Bandwidth is not limited and order is kept. Two
 * threads per direction of a connection, one reading, one writing what is due; for benchmarks and
 * tests, not for production traffic.
 *
 * <p>{@link #blackHole()} makes it a network that has gone away without a word, as a WAN link that
 * is down does: connections stay open and what is sent into them vanishes, new connections are
 * accepted and go nowhere; nothing is refused or reset, so a client finds out only by its own
 * timeouts. {@link #restore()} ends that: the connections made or used meanwhile are closed (their
 * streams lost bytes) and new ones are forwarded again.
 */
public final class LatencyProxy implements AutoCloseable {
  private static final int CHUNK_BYTES = 64 * 1024;

  /** What a reader queues when its side has closed: the writer then closes its side for writing. */
  private static final Chunk END = new Chunk(0, new byte[0]);

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final long delayNanos;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

  /** Client sockets accepted during the black hole, which lead nowhere. */
  private final Set<Socket> swallowed = ConcurrentHashMap.newKeySet();

  private volatile boolean closed;
  private volatile boolean blackHole;

  private record Chunk(long dueNanos, byte[] bytes) {}

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

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (blackHole) {
        swallow(client);
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
      AtomicInteger openDirections = new AtomicInteger(2);
      forward(client, server, openDirections);
      forward(server, client, openDirections);
    }
  }

  /**
   * Forwards what {@code from} sends to {@code to}; the last of a connection's two directions to
   * end closes it.
   */
  private void forward(Socket from, Socket to, AtomicInteger openDirections) {
    BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    String name = "latency-proxy-" + from.getPort() + "-" + to.getPort();
    daemon(name + "-read", () -> read(from, to, queue)).start();
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

  private void read(Socket from, Socket to, BlockingQueue<Chunk> queue) {
    byte[] buffer = new byte[CHUNK_BYTES];
    try {
      InputStream in = from.getInputStream();
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (blackHole) {
          continue; // lost on the way
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

  /**
   * From now on, what is sent either way is dropped and new connections are accepted but lead
   * nowhere, until {@link #restore()}.
   */
  public void blackHole() {
    blackHole = true;
  }

  /**
   * Ends the black hole: closes every connection it swallowed bytes of (the forwarded ones of
   * before, whose streams now miss bytes, and those accepted meanwhile), so clients reconnect.
   */
  public void restore() {
    blackHole = false;
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
    for (Socket socket : swallowed) {
      closeQuietly(socket);
    }
    swallowed.clear();
  }

  /** Reads and drops what a client accepted during the black hole sends, until it is closed. */
  private void swallow(Socket client) {
    swallowed.add(client);
    daemon(
            "latency-proxy-black-hole-" + client.getPort(),
            () -> {
              byte[] buffer = new byte[CHUNK_BYTES];
              try (InputStream in = client.getInputStream()) {
                while (in.read(buffer) >= 0) {
                  // dropped
                }
              } catch (IOException e) {
                // closed by restore() or close()
              }
              swallowed.remove(client);
            })
        .start();
  }

  /** Stops listening and closes every forwarded connection. */
  @Override
  public void close() {
    closed = true;
    closeQuietly(listener);
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
    for (Socket socket : swallowed) {
      closeQuietly(socket);
    }
    swallowed.clear();
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
