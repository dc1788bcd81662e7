package org.flafka.sweep.audit;

/**
 * What an audit of one trial found, counting events by their load marks: {@code expected} were sent
 * (the manifest), {@code delivered} distinct ones landed, {@code missing} = expected - delivered,
 * {@code duplicated} landed more than once (extra copies), {@code corrupted} landed without a
 * readable mark.
 */
public record AuditCounts(
    long expected, long delivered, long missing, long duplicated, long corrupted) {
  public AuditCounts {
    if (expected < 0 || delivered < 0 || missing < 0 || duplicated < 0 || corrupted < 0) {
      throw new IllegalArgumentException(
          "audit counts cannot be negative: expected "
              + expected
              + ", delivered "
              + delivered
              + ", missing "
              + missing
              + ", duplicated "
              + duplicated
              + ", corrupted "
              + corrupted);
    }
  }
}
