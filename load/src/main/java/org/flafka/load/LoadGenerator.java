package org.flafka.load;

import java.io.IOException;
import java.net.PortUnreachableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Sends syslog load as {@link LoadSettings} describe it: one thread per connection, each the only
 * sender for its devices (device d on connection d mod C), so every device's sequence numbers go
 * out in order and without gaps. Messages are patched from prepared {@link Payloads} into one large
 * buffer per connection, which is written when full, before a rate-limit pause and at the end (UDP:
 * one datagram per message).
 *
 * <p>What was sent is counted at each successful write, so a failed connection reports exactly the
 * events it handed to the kernel; up to one buffer beyond that may have partly left the machine.
 *
 * <p>{@link #changeRate} sets another rate while it runs (the sweep primes a pipeline with a
 * trickle, then sends at the trial's rate); each connection takes it up within {@value
 * #CHECK_EVERY} events or one pause.
 */
public final class LoadGenerator {
  /** Streams batch this many bytes per write, or one message if that is larger. */
  static final int STREAM_BUFFER_BYTES = 256 * 1024;

  /** Checks the stop flag and deadline every this many events (a power of two). */
  private static final int CHECK_EVERY = 256;

  private final LoadSettings settings;
  private final Clock clock;
  private final List<Worker> workers = new ArrayList<>();
  private volatile boolean stopRequested;
  private volatile long startNanos;

  /** Events/s over all connections now: the settings' rate until {@link #changeRate}. */
  private volatile double rate;

  public LoadGenerator(LoadSettings settings, Clock clock) {
    this.settings = settings.validate();
    this.clock = clock;
    this.rate = settings.rate();
  }

  /** What has been sent so far, for progress lines. */
  public record Progress(long events, long bytes, long elapsedNanos) {}

  /**
   * Connects every connection (failing before any load if one cannot), then sends until the count
   * or duration is reached, a connection fails, or {@link #stop()} is called. {@code progress} is
   * called about every {@code progressMillis} of real time while it runs, from the calling thread;
   * null for none.
   */
  public LoadResult run(Consumer<Progress> progress, long progressMillis)
      throws ConnectFailedException, InterruptedException {
    long startedMillis = clock.currentTimeMillis();
    Payloads payloads =
        Payloads.prepare(settings.mix(), settings.sizes(), settings.seed(), startedMillis);
    List<Connection> connections = new ArrayList<>();
    try {
      for (int n = 0; n < settings.connections(); n++) {
        connections.add(Connection.open(settings.protocol(), settings.target(), settings.tls()));
      }
    } catch (ConnectFailedException e) {
      closeAll(connections);
      throw e;
    }
    CountDownLatch done = new CountDownLatch(connections.size());
    startNanos = clock.nanoTime();
    for (int n = 0; n < connections.size(); n++) {
      workers.add(new Worker(n, connections.get(n), payloads, done));
    }
    List<Thread> threads = new ArrayList<>();
    for (Worker worker : workers) {
      Thread thread = new Thread(worker, "flafka-load-" + worker.index);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    try {
      while (!done.await(progress == null ? 1_000 : progressMillis, TimeUnit.MILLISECONDS)) {
        if (progress != null) {
          progress.accept(progress());
        }
      }
    } finally {
      stop();
      for (Thread thread : threads) {
        thread.join();
      }
      closeAll(connections);
    }
    long elapsed =
        workers.stream().mapToLong(w -> w.endNanos).max().orElse(startNanos) - startNanos;
    Worker failed = workers.stream().filter(w -> w.failure != null).findFirst().orElse(null);
    return new LoadResult(
        settings,
        startedMillis,
        elapsed,
        workers.stream().mapToLong(w -> w.sentEvents).toArray(),
        workers.stream().mapToLong(w -> w.sentBytes).sum(),
        workers.stream().mapToLong(w -> w.sentWireBytes).sum(),
        failed == null ? null : failed.failure,
        failed != null && failed.refused);
  }

  /**
   * Sends at {@code eventsPerSecond} over all connections from now on ({@link
   * Double#POSITIVE_INFINITY}: as fast as possible), whatever the settings said.
   */
  public void changeRate(double eventsPerSecond) {
    if (!(eventsPerSecond > 0)) {
      throw new IllegalArgumentException(
          "rate must be above 0 events/s but was " + eventsPerSecond);
    }
    rate = eventsPerSecond;
  }

  /**
   * Asks every connection to stop after its current message; {@link #run} then returns what was
   * sent.
   */
  public void stop() {
    stopRequested = true;
  }

  /** Events and bytes sent so far. */
  public Progress progress() {
    long events = 0;
    long bytes = 0;
    for (Worker worker : workers) {
      events += worker.sentEvents;
      bytes += worker.sentBytes;
    }
    return new Progress(events, bytes, clock.nanoTime() - startNanos);
  }

  private static void closeAll(List<Connection> connections) {
    for (Connection connection : connections) {
      try {
        connection.close();
      } catch (IOException e) {
        // Closing after the run: nothing left to lose, the counts are final.
      }
    }
  }

  /** One connection's sender. Its counters are written by its thread only and read by others. */
  private final class Worker implements Runnable {
    final int index;
    private final Connection connection;
    private final Payloads payloads;
    private final CountDownLatch done;
    private final int deviceCount;
    private final long limit;

    /** The rate {@link #limiter} paces to; null with it for as fast as possible. */
    private double limiterRate = Double.NaN;

    private RateLimiter limiter;
    private final boolean datagrams;
    private final byte[] buffer;
    volatile long sentEvents;
    volatile long sentBytes;
    volatile long sentWireBytes;
    volatile long endNanos;
    volatile String failure;
    volatile boolean refused;

    Worker(int index, Connection connection, Payloads payloads, CountDownLatch done) {
      this.index = index;
      this.connection = connection;
      this.payloads = payloads;
      this.done = done;
      this.deviceCount = settings.devicesOn(index);
      this.limit = settings.count() == 0 ? Long.MAX_VALUE : settings.countOn(index);
      followRate();
      this.datagrams = settings.protocol() == Protocol.UDP;
      int largest = payloads.maxSize() + settings.framing().overhead(payloads.maxSize());
      this.buffer = new byte[datagrams ? largest : Math.max(STREAM_BUFFER_BYTES, largest)];
    }

    @Override
    public void run() {
      try {
        send();
      } catch (PortUnreachableException e) {
        refused = true;
        fail(
            "the receiver refused UDP datagrams (ICMP port unreachable); is it listening on "
                + LoadSettings.describe(settings.target())
                + "?");
      } catch (IOException e) {
        fail(e.getMessage() == null ? e.toString() : e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        fail("internal error (a bug in flafka, please report it): " + e);
      } finally {
        endNanos = clock.nanoTime();
        done.countDown();
      }
    }

    /**
     * Paces to the generator's current rate, this connection's share of it (devices on it / all
     * devices).
     */
    private void followRate() {
      double current = rate;
      if (current == limiterRate) {
        return;
      }
      limiterRate = current;
      limiter =
          Double.isInfinite(current)
              ? null
              : new RateLimiter(
                  clock,
                  current * deviceCount / settings.devices(),
                  RateLimiter.DEFAULT_BURST_NANOS);
    }

    private void fail(String reason) {
      failure =
          "connection "
              + index
              + " to "
              + LoadSettings.describe(settings.target())
              + " failed after "
              + sentEvents
              + " events: "
              + reason;
      stop();
    }

    private void send() throws IOException, InterruptedException {
      Framing framing = settings.framing();
      long deadline =
          settings.duration() == null ? Long.MAX_VALUE : startNanos + settings.duration().toNanos();
      int slotOffset = index * SentMessages.CONNECTION_SLOT_STRIDE;
      int position = 0;
      long events = 0;
      long bufferedBytes = 0;
      int deviceIndex = 0;
      long sequence = 1;
      while (events < limit) {
        if ((events & (CHECK_EVERY - 1)) == 0) {
          if (stopRequested || clock.nanoTime() - deadline >= 0) {
            break;
          }
          followRate();
        }
        if (limiter != null) {
          long wait = limiter.tryAcquire();
          if (wait > 0) {
            // Whatever is buffered is due now: send it before pausing.
            position = flush(position, events, bufferedBytes);
            bufferedBytes = 0;
            long untilDeadline = deadline - clock.nanoTime();
            if (untilDeadline <= 0 || stopRequested) {
              break;
            }
            clock.sleepNanos(Math.min(wait, untilDeadline));
            followRate();
            continue;
          }
        }
        int slot = (int) events + slotOffset;
        int size = payloads.sizeOf(slot);
        if (position + size + framing.overhead(size) > buffer.length) {
          position = flush(position, events, bufferedBytes);
          bufferedBytes = 0;
        }
        position = framing.writeHeader(buffer, position, size);
        payloads.write(
            slot, buffer, position, index + deviceIndex * settings.connections(), sequence);
        position = framing.writeTrailer(buffer, position + size);
        bufferedBytes += size;
        events++;
        if (++deviceIndex == deviceCount) {
          deviceIndex = 0;
          sequence++;
        }
        if (datagrams) {
          position = flush(position, events, bufferedBytes);
          bufferedBytes = 0;
        }
      }
      flush(position, events, bufferedBytes);
    }

    /** Writes the buffer; on success everything up to event {@code eventsAfter} counts as sent. */
    private int flush(int position, long eventsAfter, long bytes) throws IOException {
      if (position > 0) {
        connection.write(buffer, 0, position);
        sentWireBytes += position;
        sentBytes += bytes;
        sentEvents = eventsAfter;
      }
      return 0;
    }
  }
}
