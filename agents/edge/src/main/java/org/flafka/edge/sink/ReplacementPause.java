package org.flafka.edge.sink;

import java.util.concurrent.TimeUnit;

/**
 * The pause before a Kafka writer of the edge ({@link KafkaRecordSink}, the Kafka record channel)
 * makes its next producer: {@value #FIRST_SECONDS} s, doubling with each replacement up to {@value
 * #MAX_SECONDS} s, back to the first once a batch is delivered. A retired producer is replaced
 * after it, so a login refused for hours costs one producer made and closed per pause, not a
 * looping sender. Not thread-safe: its writer guards it.
 */
public final class ReplacementPause {
  static final long FIRST_SECONDS = 1;
  static final long MAX_SECONDS = 30;
  private static final long FIRST_NANOS = TimeUnit.SECONDS.toNanos(FIRST_SECONDS);
  private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(MAX_SECONDS);

  private long pauseNanos = FIRST_NANOS;

  /** The next producer is made no earlier than this (System.nanoTime). */
  private long overNanos;

  /** The next pause is the first again: a batch was delivered, or the writer (re)starts. */
  public void reset() {
    pauseNanos = FIRST_NANOS;
  }

  /** Starts a pause now; the one after it is twice as long, up to the longest. */
  public void start() {
    overNanos = System.nanoTime() + pauseNanos;
    pauseNanos = Math.min(2 * pauseNanos, MAX_NANOS);
  }

  /** What is left of the pause started last, 0 or less once it is over. */
  public long remainingNanos() {
    return overNanos - System.nanoTime();
  }

  /** How long the next pause will be: the most a writer will wait after this one. */
  public long nextNanos() {
    return pauseNanos;
  }
}
