package org.flafka.edge.sink;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The one producer callback of every record of a batch, instead of a callback and a future per
 * record. A record Kafka refuses as too large is counted; any other failure fails the batch, the
 * first one kept as the cause. Callbacks run on the producer's I/O thread; the writer reads the
 * outcome after {@code flush()}, which makes their effects visible to it, or after {@link
 * #awaitAll} returned true.
 *
 * <p>The writer that counts its sends ({@link #sending()}) can wait for all of them to complete
 * with a deadline ({@link #awaitAll}); the last callback wakes it only when it waits, so a batch
 * whose records complete while it is still taking events costs no wake-ups.
 */
public final class BatchAcknowledgements implements Callback {
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final AtomicInteger tooLarge = new AtomicInteger();
  private volatile int lastTooLargeBytes;

  /** Records sent with this callback; the writer's thread only. */
  private int sent;

  /** Records completed, delivered or failed. */
  private final AtomicInteger completed = new AtomicInteger();

  /** How many completions the waiting writer waits for; none until it waits. */
  private volatile int awaited = Integer.MAX_VALUE;

  /** The writer's thread while it waits in {@link #awaitAll}, else null. */
  private volatile Thread waiter;

  /** Counts a record sent with this callback; the writer calls it before the send. */
  public void sending() {
    sent++;
  }

  /**
   * Waits until every record counted by {@link #sending()} has completed, or until {@code
   * untilNanos} (System.nanoTime): whether they all have. Returns at once when they have. The
   * writer's thread only.
   */
  public boolean awaitAll(long untilNanos) {
    // What the writer waits for is published before it reads the count, and the callback reads it
    // after counting: one of the two sees the other, so no wake-up is lost.
    awaited = sent;
    waiter = Thread.currentThread();
    try {
      while (completed.get() < sent) {
        long left = untilNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        LockSupport.parkNanos(this, left);
      }
      return true;
    } finally {
      waiter = null;
    }
  }

  @Override
  public void onCompletion(RecordMetadata metadata, Exception exception) {
    record(metadata, exception);
    if (completed.incrementAndGet() >= awaited) {
      Thread waiting = waiter;
      if (waiting != null) {
        LockSupport.unpark(waiting);
      }
    }
  }

  private void record(RecordMetadata metadata, Exception exception) {
    if (exception == null) {
      return;
    }
    if (exception instanceof RecordTooLargeException) {
      tooLarge.incrementAndGet();
      lastTooLargeBytes = metadata == null ? -1 : Math.max(0, metadata.serializedValueSize());
    } else {
      failure.compareAndSet(null, exception);
    }
  }

  /** The first failure other than a too-large record, or null. */
  public Exception failure() {
    return failure.get();
  }

  public int tooLarge() {
    return tooLarge.get();
  }

  /**
   * A record the writer did not send because Kafka would refuse it as too large ({@link Oversize}).
   */
  void refusedBeforeSending(int bytes) {
    tooLarge.incrementAndGet();
    lastTooLargeBytes = bytes;
  }

  public int lastTooLargeBytes() {
    return lastTooLargeBytes;
  }
}
