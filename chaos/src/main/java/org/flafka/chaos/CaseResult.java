package org.flafka.chaos;

import java.time.Duration;

/**
 * What one case found.
 *
 * @param sent events the load sent
 * @param delivered distinct events in HDFS (each counted once)
 * @param missing events sent that are not in HDFS
 * @param duplicated copies beyond the first
 * @param acceptedBeforeKill events the edge had accepted before it was killed (read {@link
 *     ChaosSettings#KILL_ACCEPTED_LAG} before the kill of {@code edge-kill}, just before it in an
 *     outage), or -1 when the edge was not killed
 * @param dropped events the edge counted as dropped (its sources' drop counters, the kernel's drops
 *     at its UDP sockets)
 * @param diskErrors failures its disk buffers counted (a full or read-only disk)
 * @param recovery from the end of the fault until the core had committed as many records as the
 *     load had sent by then, less what the edge had counted as dropped; null when it did not within
 *     the settle timeout, or when the pipeline drained short of it
 * @param drainedShort the pipeline had drained everything it held with that count not reached: what
 *     is missing was lost on the way (an edge's kill destroys what it had not accepted), and
 *     waiting longer could not bring it
 * @param expectedToPass the case's protection is on (or it has no switch)
 * @param passed the audit found what {@link Fault#expect()} asks
 * @param note counters that explain the result (drops the edge counted, sink failures)
 */
public record CaseResult(
    ChaosSettings.Case chaosCase,
    boolean protectionOff,
    Duration outage,
    long sent,
    long delivered,
    long missing,
    long duplicated,
    long acceptedBeforeKill,
    long dropped,
    long diskErrors,
    Duration recovery,
    boolean drainedShort,
    boolean expectedToPass,
    boolean passed,
    String note) {

  /**
   * Events missing that the edge had accepted, at most: the missing events beyond those sent but
   * never accepted (the kill destroyed them in the kernel's socket buffers or the source's batch).
   */
  public long missingOfAccepted() {
    if (acceptedBeforeKill < 0) {
      return missing;
    }
    return Math.max(0, missing - Math.max(0, sent - acceptedBeforeKill));
  }

  /** The case turned out as expected: passed when expected to, failed when not. */
  public boolean asExpected() {
    return passed == expectedToPass;
  }
}
