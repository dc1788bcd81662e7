package org.flafka.load;

import java.util.concurrent.locks.LockSupport;

/** Time as the load generator sees it, so tests can run a rate-limited load in no real time. */
public interface Clock {
  /** Monotonic nanoseconds, for rates and durations. */
  long nanoTime();

  /**
   * Wall-clock milliseconds since the epoch, for the timestamps inside messages and the manifest.
   */
  long currentTimeMillis();

  /** Sleeps about {@code nanos}; may return early (the caller checks the time again). */
  void sleepNanos(long nanos) throws InterruptedException;

  /** The machine's clocks. */
  Clock SYSTEM =
      new Clock() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }

        @Override
        public long currentTimeMillis() {
          return System.currentTimeMillis();
        }

        @Override
        public void sleepNanos(long nanos) throws InterruptedException {
          LockSupport.parkNanos(nanos);
          if (Thread.interrupted()) {
            throw new InterruptedException();
          }
        }
      };
}
