package org.flafka.load;

/**
 * Paces events to a rate, accurate on average: a token bucket in its "virtual scheduling" form
 * (GCRA). Each event is due one interval (1/rate) after the previous one and may go up to the burst
 * allowance early. When an event is not allowed yet, the sender is told to wait until it is exactly
 * due; by then the allowance lets the next burst allowance's worth of events go at once. At 50,000
 * events/s the interval is 20 µs and the default allowance (20 ms) is 1,000 events: the sender
 * sleeps about every 20 ms instead of every 20 µs, which the OS can time well.
 *
 * <p>The OS always wakes a sleeper a little late. Lateness up to the allowance is caught up (the
 * schedule keeps its place), so the average holds; beyond that the schedule restarts, so a stalled
 * or idle sender bursts at most twice the allowance (the late part and the early part), never
 * everything it missed.
 */
final class RateLimiter {
  static final long DEFAULT_BURST_NANOS = 20_000_000L;

  private final Clock clock;
  private final double intervalNanos;
  private final long burstNanos;

  /**
   * When the next event is due, in {@link Clock#nanoTime()} terms (a double: intervals need not be
   * whole ns).
   */
  private double nextDue;

  RateLimiter(Clock clock, double eventsPerSecond, long burstNanos) {
    if (!(eventsPerSecond > 0)) {
      throw new IllegalArgumentException(
          "eventsPerSecond must be above 0 but was " + eventsPerSecond);
    }
    if (burstNanos < 0) {
      throw new IllegalArgumentException("burstNanos must be at least 0 but was " + burstNanos);
    }
    this.clock = clock;
    this.intervalNanos = 1e9 / eventsPerSecond;
    this.burstNanos = burstNanos;
    this.nextDue = clock.nanoTime();
  }

  /**
   * Takes one event's turn if it may go now (returns 0), else returns the nanoseconds until that
   * event is due: waiting that long lets a whole burst allowance of events go.
   */
  long tryAcquire() {
    long now = clock.nanoTime();
    if (nextDue < now - burstNanos) {
      // Later than the allowance (idle, or stalled): keep only one allowance of the missed time.
      nextDue = now - burstNanos;
    }
    if (nextDue - now <= burstNanos) {
      nextDue += intervalNanos;
      return 0;
    }
    return Math.max(1, (long) Math.ceil(nextDue - now));
  }
}
