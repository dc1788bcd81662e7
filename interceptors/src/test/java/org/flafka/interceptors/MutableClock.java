package org.flafka.interceptors;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests set and move by hand, so time-dependent behaviour is asserted exactly. */
final class MutableClock extends Clock {
  private volatile long millis;

  MutableClock(long millis) {
    this.millis = millis;
  }

  MutableClock(String instant) {
    this(Instant.parse(instant).toEpochMilli());
  }

  void set(long millis) {
    this.millis = millis;
  }

  void advance(long deltaMillis) {
    this.millis += deltaMillis;
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}
