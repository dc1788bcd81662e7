package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hand-over between one UDP socket's reading thread and the thread that parses what it reads
 * and puts it to the channel ({@code udp.queueBytes} above 0): a ring of bytes with one writer, the
 * reader, and one reader, the parsing thread's {@link EventBatcher}, which takes the datagrams in
 * the order read.
 *
 * <p>Why: the kernel's receive buffer holds only milliseconds of a fast sender, and a reader that
 * also parses stops reading for as long as the parse (or a put) takes. A JVM's first seconds are
 * the worst of it: until the compiler has caught up, the whole receive path is several times
 * slower, and the kernel drops what it cannot hold. A reader that only copies is cheap from its
 * first datagram, so the backlog waits here, in memory the agent sizes, and the parsing thread
 * works it off. rsyslog does the same: imudp only reads, its main queue's workers parse.
 *
 * <p>Why a ring of bytes and not a queue of objects: it is allocated once, so a backlog is not a
 * heap of young objects for the collector to copy again and again while it waits (an overloaded
 * agent's queue stays full), and the reader allocates nothing per datagram. A record is the
 * payload's length, the time it was read, the sender's address as text, and the payload; one that
 * does not fit before the ring's end starts again at its beginning.
 *
 * <p>The reader publishes what it wrote once per read; it wakes the parsing thread only when that
 * thread has found nothing for a while (see {@link #drain}). When a datagram finds no room, the
 * reader waits for it: the socket is then not read, and the kernel drops what its buffer cannot
 * hold, counted in UdpSocketDropCount like any other drop there.
 */
final class DatagramQueue {

  /** A record's bytes beside its payload and the sender's address: the lengths and the time. */
  static final int RECORD_HEADER_BYTES = Integer.BYTES + Long.BYTES + 1;

  /** The smallest ring: room for a few of the largest datagrams. */
  static final int MIN_CAPACITY_BYTES = 1 << 20;

  private static final int WRAP = -1;
  private static final long POLL_MILLIS = 1;
  private static final int IDLE_POLLS = 10;

  /** A full ring's reader waits until this fraction of it is free again: a quarter. */
  private static final int RESUME_FRACTION = 4;

  private static final long ROOM_WAIT_MILLIS = 100;

  private final EventLoop parser;
  private final EventBatcher batcher;
  private final SyslogSourceCounter counter;
  private final byte[] ring;
  private final int capacity;

  /** Bytes the reader has written, from the start; positions in the ring are these mod capacity. */
  private long written;

  /** Of those, what the last flush published. The reader's, like {@link #written}. */
  private long flushed;

  /** What the parsing thread may read, up to. */
  private final AtomicLong published = new AtomicLong();

  /** What the parsing thread has read, up to: the reader may write over what is below it. */
  private final AtomicLong freed = new AtomicLong();

  /** Whether a drain is scheduled or running; set by the reader, cleared by the drain. */
  private final AtomicBoolean drainScheduled = new AtomicBoolean();

  private final Runnable drain = this::drain;
  private final Object room = new Object();
  private volatile boolean waitingForRoom;
  private volatile boolean closed;

  /** The parsing thread's: where it reads, and the last sender's address, text and bytes. */
  private long read;

  /** The parsing thread's: polls in a row that found nothing; whether paused with the batcher. */
  private int idlePolls;

  private boolean stalled;

  private String lastPeer = "";
  private byte[] lastPeerBytes = new byte[0];

  DatagramQueue(
      EventLoop parser, EventBatcher batcher, SyslogSourceCounter counter, int capacityBytes) {
    this.parser = parser;
    this.batcher = batcher;
    this.counter = counter;
    this.capacity = capacityBytes;
    this.ring = new byte[capacityBytes];
    batcher.feedFromQueue(this::resumeDraining);
  }

  /**
   * On the reader's thread: one datagram, read at {@code receivedMillis} from {@code peer} (the
   * address as ASCII text, at most 255 bytes). Waits for room when the ring is full; when there is
   * none because the source is stopping, the datagram is dropped and counted.
   */
  void add(ByteBuf payload, byte[] peer, long receivedMillis) {
    int length = payload.readableBytes();
    int need = RECORD_HEADER_BYTES + peer.length + length;
    int offset = (int) (written % capacity);
    int skip = capacity - offset < need ? capacity - offset : 0;
    if (written + skip + need - freed.get() > capacity && !awaitRoom(skip + need)) {
      counter.addToEventReceivedCount(1);
      counter.addChannelFullDrops(1);
      return;
    }
    if (skip > 0) {
      if (skip >= Integer.BYTES) {
        putInt(offset, WRAP);
      }
      written += skip;
      offset = 0;
    }
    putInt(offset, length);
    putLong(offset + Integer.BYTES, receivedMillis);
    ring[offset + Integer.BYTES + Long.BYTES] = (byte) peer.length;
    System.arraycopy(peer, 0, ring, offset + RECORD_HEADER_BYTES, peer.length);
    payload.getBytes(
        payload.readerIndex(), ring, offset + RECORD_HEADER_BYTES + peer.length, length);
    written += need;
  }

  /** On the reader's thread, after each read: the parsing thread may take what it added. */
  void flush() {
    if (written == flushed) {
      return;
    }
    counter.addUdpQueuedBytes(written - flushed);
    flushed = written;
    published.set(written);
    if (!drainScheduled.get() && drainScheduled.compareAndSet(false, true)) {
      execute(drain);
    }
  }

  /** The socket starts feeding the batcher: on the parsing thread, in order with its datagrams. */
  void register(Channel socket) {
    execute(() -> batcher.register(socket));
  }

  /**
   * The socket has closed and flushed: on the parsing thread, its last datagrams go to the batcher,
   * then it is unregistered (a stop's drain waits for every socket to be).
   */
  void unregister(Channel socket) {
    execute(
        () -> {
          drainPublished(true);
          batcher.unregister(socket);
        });
  }

  /** Stops the reader's waiting for room for good: the source is stopping. */
  void close() {
    closed = true;
    synchronized (room) {
      room.notifyAll();
    }
  }

  private void execute(Runnable task) {
    try {
      parser.execute(task);
    } catch (RejectedExecutionException e) {
      // the parsing thread has shut down: a stop's deadline passed before it was done (its
      // WARN says so); nothing more is parsed, and the reader must not wait for room
      closed = true;
    }
  }

  /**
   * On the parsing thread: everything published; then again at once if more came meanwhile, else
   * again in {@value #POLL_MILLIS} ms, for up to {@value #IDLE_POLLS} polls that find nothing,
   * before it sleeps until the reader's next flush wakes it. While datagrams keep coming the drain
   * stays scheduled, so the reader wakes the parsing thread about once per {@value #IDLE_POLLS} ms
   * of silence instead of once per read. Stops while the batcher is paused (the channel refused a
   * batch), until it resumes.
   */
  private void drain() {
    drainPublished(false);
    if (batcher.isPaused()) {
      stalled = true; // still scheduled: the reader's flushes need not wake this thread
      return;
    }
    if (published.get() != read) {
      idlePolls = 0;
      // a task of its own, so that the batcher's timers run between the rounds
      execute(drain);
    } else if (idlePolls++ < IDLE_POLLS && !parser.isShuttingDown()) {
      parser.schedule(drain, POLL_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      idlePolls = 0;
      drainScheduled.set(false);
      // the reader may have published after the check above and seen the drain still scheduled
      if (published.get() != read && drainScheduled.compareAndSet(false, true)) {
        execute(drain);
      }
    }
  }

  /** On the parsing thread: the batcher takes batches again. */
  private void resumeDraining() {
    if (stalled) {
      stalled = false;
      execute(drain);
    } else if (drainScheduled.compareAndSet(false, true)) {
      execute(drain);
    }
  }

  /**
   * Hands the batcher what is published; {@code evenIfPaused} all of it (the socket has closed: a
   * stop's drain puts or counts what the batcher holds), else until it pauses.
   */
  private void drainPublished(boolean evenIfPaused) {
    long limit = published.get();
    long from = read;
    while (read < limit && (evenIfPaused || !batcher.isPaused())) {
      int offset = (int) (read % capacity);
      if (capacity - offset < Integer.BYTES || getInt(offset) == WRAP) {
        read += capacity - offset;
        continue;
      }
      int length = getInt(offset);
      long receivedMillis = getLong(offset + Integer.BYTES);
      int peerLength = ring[offset + Integer.BYTES + Long.BYTES] & 0xff;
      String peer = peer(offset + RECORD_HEADER_BYTES, peerLength);
      int bodyOffset = offset + RECORD_HEADER_BYTES + peerLength;
      byte[] body = Arrays.copyOfRange(ring, bodyOffset, bodyOffset + length);
      read += RECORD_HEADER_BYTES + peerLength + length;
      // the bytes are copied out: the reader may write over them while the put below waits
      freed.lazySet(read);
      if (waitingForRoom && published.get() - read <= capacity - capacity / RESUME_FRACTION) {
        synchronized (room) {
          room.notifyAll();
        }
      }
      batcher.add(body, peer, receivedMillis);
    }
    freed.set(read);
    counter.addUdpQueuedBytes(from - read);
  }

  // Plain shifts, not a VarHandle view: a JVM's first seconds run this interpreted, where a
  // VarHandle call costs many times a few byte stores, and those seconds are what the queue is for.
  private void putInt(int offset, int value) {
    ring[offset] = (byte) (value >>> 24);
    ring[offset + 1] = (byte) (value >>> 16);
    ring[offset + 2] = (byte) (value >>> 8);
    ring[offset + 3] = (byte) value;
  }

  private void putLong(int offset, long value) {
    putInt(offset, (int) (value >>> 32));
    putInt(offset + Integer.BYTES, (int) value);
  }

  private int getInt(int offset) {
    return (ring[offset] & 0xff) << 24
        | (ring[offset + 1] & 0xff) << 16
        | (ring[offset + 2] & 0xff) << 8
        | (ring[offset + 3] & 0xff);
  }

  private long getLong(int offset) {
    return (long) getInt(offset) << 32 | (getInt(offset + Integer.BYTES) & 0xffffffffL);
  }

  /** The sender's address as a header value: the last one's again when it is the same sender. */
  private String peer(int offset, int length) {
    if (!Arrays.equals(ring, offset, offset + length, lastPeerBytes, 0, lastPeerBytes.length)) {
      lastPeerBytes = Arrays.copyOfRange(ring, offset, offset + length);
      lastPeer = new String(lastPeerBytes, StandardCharsets.ISO_8859_1);
    }
    return lastPeer;
  }

  /**
   * On the reader's thread: publishes what it wrote, then waits until a quarter of the ring is free
   * ({@link #RESUME_FRACTION}) and {@code bytes} fit: a reader woken for every datagram the parsing
   * thread frees would cost a context switch per datagram while the ring stays full. Returns false
   * when the source is stopping and they do not fit.
   */
  private boolean awaitRoom(int bytes) {
    flush();
    counter.addUdpQueueFull();
    long resumeAt = Math.min(capacity - bytes, capacity - capacity / RESUME_FRACTION);
    synchronized (room) {
      waitingForRoom = true;
      try {
        while (written - freed.get() > resumeAt) {
          if (closed) {
            return false;
          }
          room.wait(ROOM_WAIT_MILLIS);
        }
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } finally {
        waitingForRoom = false;
      }
    }
  }
}
