package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

  /**
   * Sends {@code events} through the limiter, sleeping when told plus {@code oversleep} (the OS's
   * lateness); returns the fake time taken.
   */
  private static long send(RateLimiter limiter, FakeClock clock, int events, long oversleep) {
    long start = clock.nanoTime();
    for (int sent = 0; sent < events; ) {
      long wait = limiter.tryAcquire();
      if (wait == 0) {
        sent++;
      } else {
        clock.sleepNanos(wait + oversleep);
      }
    }
    return clock.nanoTime() - start;
  }

  private static long send(RateLimiter limiter, FakeClock clock, int events) {
    return send(limiter, clock, events, 0);
  }

  @Test
  void aThousandPerSecondTakesFiveSecondsForFiveThousandInBurstsOfTwentyMilliseconds() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = new RateLimiter(clock, 1000, 20_000_000L);
    // Event k is due at k ms and may go 20 ms early. The sender wakes when an event is due and
    // sends the 21 due within 20 ms: wakes at 0, 21, 42, ... ms; event 4,999 goes on the wake at
    // 238 * 21 = 4,998 ms.
    assertEquals(4_998_000_000L, send(limiter, clock, 5000), 1_000);
    assertEquals(238, clock.sleeps());
  }

  @Test
  void withoutBurstEveryEventWaitsItsTurn() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = new RateLimiter(clock, 50_000, 0);
    assertEquals(0, limiter.tryAcquire());
    assertEquals(20_000, limiter.tryAcquire());
    clock.advance(20_000);
    assertEquals(0, limiter.tryAcquire());
  }

  @Test
  void wakingLateEveryTimeStillKeepsTheAverageRate() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = new RateLimiter(clock, 1000, 20_000_000L);
    // Every sleep ends 3 ms late: 10,000 events still take 10 s, not 10 s * (21 + 3) / 21.
    assertEquals(10.0, send(limiter, clock, 10_000, 3_000_000L) / 1e9, 0.03);
  }

  @Test
  void anOversleepShorterThanTheAllowanceIsCaughtUpSoTheAverageHolds() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = new RateLimiter(clock, 1000, 20_000_000L);
    send(limiter, clock, 21);
    clock.advance(15_000_000L); // the OS woke us 15 ms late
    int burst = 0;
    while (limiter.tryAcquire() == 0) {
      burst++;
    }
    // 15 ms late at 1/ms: the 15 overdue events plus the 20 ms allowance that was already used up
    // before.
    assertEquals(15, burst);
  }

  @Test
  void idlingSavesUpNoMoreThanTheAllowance() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = new RateLimiter(clock, 1000, 20_000_000L);
    clock.advance(10_000_000_000L);
    int burst = 0;
    while (limiter.tryAcquire() == 0) {
      burst++;
    }
    // 10 s idle at 1/ms: not 10,000 events at once, but 20 ms late plus 20 ms early, 41 events.
    assertEquals(41, burst);
  }

  @Test
  void aRateMustBePositive() {
    assertEquals(
        "eventsPerSecond must be above 0 but was 0.0",
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(new FakeClock(), 0, 0))
            .getMessage());
  }
}
