package org.flafka.load;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when someone sleeps: a rate-limited run takes no real time. */
final class FakeClock implements Clock {
  static final long EPOCH_MILLIS = 1_795_000_000_000L;
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final AtomicLong sleeps = new AtomicLong();

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public long currentTimeMillis() {
    return EPOCH_MILLIS;
  }

  @Override
  public void sleepNanos(long duration) {
    sleeps.incrementAndGet();
    nanos.addAndGet(duration);
  }

  long sleeps() {
    return sleeps.get();
  }

  void advance(long duration) {
    nanos.addAndGet(duration);
  }
}
