package org.flafka.edge;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Logs at most one WARN per interval for one kind of problem, and says how many were suppressed
 * since, so a sender that misbehaves a million times a second costs a million counter increments,
 * not a million log lines. Thread-safe; the message is built only when it is logged.
 */
public final class RateLimitedLog {

  private final Logger log;
  private final long intervalNanos;
  private final AtomicLong nextNanos;
  private final AtomicLong suppressed = new AtomicLong();

  public RateLimitedLog(Logger log, long interval, TimeUnit unit) {
    this.log = log;
    this.intervalNanos = unit.toNanos(interval);
    this.nextNanos = new AtomicLong(System.nanoTime());
  }

  public void warn(Supplier<String> message) {
    String line = due(message);
    if (line != null) {
      log.warn(line);
    }
  }

  /** As {@link #warn}, at ERROR: for trouble an operator must fix, such as a full disk. */
  public void error(Supplier<String> message) {
    String line = due(message);
    if (line != null) {
      log.error(line);
    }
  }

  /** The line to log now, or null when one was logged less than the interval ago. */
  private String due(Supplier<String> message) {
    long now = System.nanoTime();
    long next = nextNanos.get();
    if (now - next < 0 || !nextNanos.compareAndSet(next, now + intervalNanos)) {
      suppressed.incrementAndGet();
      return null;
    }
    long skipped = suppressed.getAndSet(0);
    return skipped == 0
        ? message.get()
        : message.get() + " (" + skipped + " more like this since the last report)";
  }
}
