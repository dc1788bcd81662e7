package org.flafka.cm.tsquery;

/**
 * How sure we are that Cloudera Manager knows a metric name or tsquery term (see
 * docs/reference/cloudera-manager.md). Ordered from strongest to weakest; a query is as sure as its
 * weakest part.
 */
public enum Verification {
  /** Seen in a response recorded from a real CM server. */
  LIVE,
  /** Named on a Cloudera metric reference page, in the Kafka CSD, or in public code querying CM. */
  DOCUMENTED,
  /**
   * Inferred (by symmetry or from a naming rule) and not found written anywhere: check with
   * /timeseries/schema.
   */
  UNVERIFIED;

  /** The weaker of the two. */
  public Verification weakest(Verification other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
