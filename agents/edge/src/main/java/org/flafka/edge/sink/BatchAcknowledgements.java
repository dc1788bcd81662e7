package org.flafka.edge.sink;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The one producer callback of every record of a batch, instead of a callback and a future per
 * record. A record Kafka refuses as too large is counted; any other failure fails the batch, the
 * first one kept as the cause. Callbacks run on the producer's I/O thread; the writer reads the
 * outcome after {@code flush()}, which makes their effects visible to it.
 */
public final class BatchAcknowledgements implements Callback {
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final AtomicInteger tooLarge = new AtomicInteger();
  private volatile int lastTooLargeBytes;

  @Override
  public void onCompletion(RecordMetadata metadata, Exception exception) {
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
