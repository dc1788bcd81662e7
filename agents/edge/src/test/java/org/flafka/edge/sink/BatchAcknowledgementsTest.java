package org.flafka.edge.sink;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class BatchAcknowledgementsTest {

  private static long inMillis(long millis) {
    return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
  }

  @Test
  void aBatchWithNothingSentHasNothingToWaitFor() {
    assertTrue(new BatchAcknowledgements().awaitAll(System.nanoTime()));
  }

  @Test
  void aRecordNeverCompletedEndsTheWaitAtItsDeadlineUnacknowledged() {
    BatchAcknowledgements acks = new BatchAcknowledgements();
    acks.sending();
    acks.sending();
    acks.onCompletion(null, null);
    assertFalse(acks.awaitAll(inMillis(50)), "one of two records never completed");
  }

  @Test
  void theLastCompletionOnAnotherThreadWakesTheWaitingWriter() throws Exception {
    BatchAcknowledgements acks = new BatchAcknowledgements();
    for (int i = 0; i < 1000; i++) {
      acks.sending();
    }
    TimeoutException failed = new TimeoutException("expired");
    Thread producerIo =
        new Thread(
            () -> {
              for (int i = 0; i < 999; i++) {
                acks.onCompletion(null, null);
              }
              acks.onCompletion(null, failed);
            });
    producerIo.start();
    // a deadline no test run reaches: the wait ends by the last completion, not by the clock
    assertTrue(acks.awaitAll(inMillis(TimeUnit.MINUTES.toMillis(10))));
    producerIo.join();
    assertSame(failed, acks.failure(), "a failed record is the batch's failure");
  }

  @Test
  void recordsCompletedWhileTheWriterWasStillSendingNeedNoWait() {
    BatchAcknowledgements acks = new BatchAcknowledgements();
    acks.sending();
    acks.onCompletion(null, null);
    acks.sending();
    acks.onCompletion(null, null);
    assertTrue(acks.awaitAll(System.nanoTime()));
    assertNull(acks.failure());
  }
}
