package org.flafka.bench;

import java.time.Duration;
import org.flafka.stack.KafkaBrokerProcess;

/**
 * A bench run's abort (Ctrl-C) as its steps see it, the same for {@link EdgeBench} and {@link
 * CoreBench}: once the run is aborted its next check fails, and its broker is killed rather than
 * closed cleanly.
 */
final class RunControl {
  private volatile boolean aborted;

  /** Marks the run aborted; called from the thread that aborts it. */
  void abort() {
    aborted = true;
  }

  /**
   * @throws BenchException "interrupted" once the run is aborted
   */
  void checkNotAborted() {
    if (aborted) {
      throw new BenchException("interrupted");
    }
  }

  /** Waits {@code duration}; an interrupt fails the run. */
  void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted", e);
    }
  }

  /** Stops {@code broker} (null: none started): killed once the run is aborted, else closed. */
  void stop(KafkaBrokerProcess broker) {
    if (broker != null) {
      if (aborted) {
        broker.kill();
      } else {
        broker.close();
      }
    }
  }
}
