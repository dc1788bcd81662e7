package org.flafka.interceptors;

/**
 * What {@link BucketHeadersInterceptor} repaired, as JMX attributes (and so in Flume's JSON metrics
 * under {@code INTERCEPTOR.<metrics.name>}). Every count is of events since the agent started.
 */
public interface BucketHeadersCounterMBean {

  /** When the group started, epoch ms (as every Flume counter group reports it). */
  long getStartTime();

  /** When the group stopped, epoch ms, or 0 while running. */
  long getStopTime();

  /** {@code INTERCEPTOR}. */
  String getType();

  /** Events the interceptor looked at. */
  long getEventCount();

  /** Events without a {@code timestamp} header. */
  long getTimestampMissingCount();

  /** Events whose {@code timestamp} header is not epoch milliseconds (decimal digits). */
  long getTimestampInvalidCount();

  /** Events whose {@code timestamp} is older than {@code timestamp.max.past.hours}. */
  long getTimestampTooOldCount();

  /** Events whose {@code timestamp} is later than {@code timestamp.max.future.hours}. */
  long getTimestampTooNewCount();

  /** Events without a usable {@code host} header (none, or empty). */
  long getHostMissingCount();

  /** Events whose {@code host} header was not a safe path component and was rewritten. */
  long getHostRewrittenCount();

  /**
   * Events whose body holds a line feed: in the text format such a body reads back as several
   * lines.
   */
  long getBodyWithNewlineCount();
}
