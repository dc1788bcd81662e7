package org.flafka.load;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP server on 127.0.0.1 (a free port) that reads everything sent to it and throws it away,
 * counting bytes and, if asked, frames. It stands in for a syslog agent when we want to know what
 * the generator alone can push, and is a real receiver for tests. Frame counting reads every byte
 * and costs CPU: leave it off when measuring.
 */
public final class NullReceiver implements Closeable {
  private static final int READ_BUFFER_BYTES = 1 << 20;

  private final ServerSocketChannel server;
  private final Framing countFrames;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong frames = new AtomicLong();
  private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private NullReceiver(ServerSocketChannel server, Framing countFrames) {
    this.server = server;
    this.countFrames = countFrames;
    this.acceptor = new Thread(this::accept, "null-receiver-accept");
    acceptor.setDaemon(true);
  }

  /**
   * Starts listening on 127.0.0.1 at a port the system picks.
   *
   * @param countFrames {@link Framing#NEWLINE} or {@link Framing#OCTET_COUNTING} to count frames of
   *     that framing, {@link Framing#NONE} to count bytes only
   */
  public static NullReceiver start(Framing countFrames) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    NullReceiver receiver = new NullReceiver(server, countFrames);
    receiver.acceptor.start();
    return receiver;
  }

  /** The address to send to (127.0.0.1 and the bound port). */
  public InetSocketAddress address() throws IOException {
    return (InetSocketAddress) server.getLocalAddress();
  }

  public long bytes() {
    return bytes.get();
  }

  /** Frames seen so far; 0 when not counting frames. */
  public long frames() {
    return frames.get();
  }

  /**
   * Waits until {@code expected} bytes have arrived or {@code timeoutMillis} passed; returns the
   * bytes seen.
   */
  public long awaitBytes(long expected, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (bytes.get() < expected && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return bytes.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (SocketChannel channel : open) {
      channel.close();
    }
  }

  private void accept() {
    try {
      while (true) {
        SocketChannel channel = server.accept();
        open.add(channel);
        Thread reader = new Thread(() -> read(channel), "null-receiver-reader");
        reader.setDaemon(true);
        reader.start();
      }
    } catch (ClosedChannelException e) {
      // close() was called
    } catch (IOException e) {
      throw new IllegalStateException("null receiver stopped accepting", e);
    }
  }

  private void read(SocketChannel channel) {
    ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    FrameCounter counter = new FrameCounter(countFrames);
    try (channel) {
      for (int read = channel.read(buffer); read >= 0; read = channel.read(buffer)) {
        bytes.addAndGet(read);
        if (countFrames != Framing.NONE) {
          frames.addAndGet(counter.count(buffer.array(), 0, buffer.position()));
        }
        buffer.clear();
      }
    } catch (IOException e) {
      // The sender went away: what arrived is counted.
    } finally {
      open.remove(channel);
    }
  }

  /**
   * Counts complete frames across reads: line feeds, or octet-counted frames ({@code LEN SP MSG})
   * by reading each length and skipping that many bytes. A malformed length makes the rest
   * uncountable (counting stops).
   */
  static final class FrameCounter {
    private final Framing framing;
    private long skip;
    private long length = -1;
    private boolean broken;

    FrameCounter(Framing framing) {
      this.framing = framing;
    }

    /** The frames completed within {@code bytes[offset, offset + count)}. */
    long count(byte[] bytes, int offset, int count) {
      long frames = 0;
      int end = offset + count;
      if (framing == Framing.NEWLINE) {
        for (int n = offset; n < end; n++) {
          if (bytes[n] == '\n') {
            frames++;
          }
        }
        return frames;
      }
      int at = offset;
      while (at < end && !broken) {
        if (skip > 0) {
          int step = (int) Math.min(skip, end - at);
          skip -= step;
          at += step;
          if (skip == 0) {
            frames++;
          }
          continue;
        }
        byte b = bytes[at++];
        if (b >= '0' && b <= '9' && length < 1_000_000_000L) {
          length = (length < 0 ? 0 : length * 10) + (b - '0');
        } else if (b == ' ' && length > 0) {
          skip = length;
          length = -1;
        } else {
          broken = true;
        }
      }
      return frames;
    }
  }
}
