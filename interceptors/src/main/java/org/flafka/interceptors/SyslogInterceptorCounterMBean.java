package org.flafka.interceptors;

/**
 * What {@link SyslogInterceptor} could not take from the messages, as JMX attributes (and so in
 * Flume's JSON metrics under {@code INTERCEPTOR.syslog}). Every count is of events since the agent
 * started, across every syslog interceptor of the agent. An operator reads them to see a device
 * family whose times the parser does not understand: those events land in the HDFS bucket of their
 * receive time.
 */
public interface SyslogInterceptorCounterMBean {

  /** When the group started, epoch ms (as every Flume counter group reports it). */
  long getStartTime();

  /** When the group stopped, epoch ms, or 0 while running. */
  long getStopTime();

  /** {@code INTERCEPTOR}. */
  String getType();

  /** Events the interceptor parsed. */
  long getEventCount();

  /**
   * Events whose event time is the receive time instead of the device's, for any reason: the four
   * below, an uptime instead of a clock, or a clock the device marks as never set.
   */
  long getTimestampReceivedCount();

  /** Events whose message has no timestamp where its format has one. */
  long getTimestampMissingCount();

  /** Events whose timestamp does not exist in the calendar (Feb 30, 25:00). */
  long getTimestampInvalidCount();

  /**
   * Events whose timestamp is further from the receive time than the parser's plausibility window
   * (the {@code timestamp_rejected} header keeps it).
   */
  long getTimestampImplausibleCount();

  /**
   * Events whose timestamp names a zone the parser does not know: the time is read in the default
   * zone, so it may be off by hours.
   */
  long getTimestampUnknownZoneCount();

  /** Events the parser did not understand at all ({@code parse=raw}). */
  long getParseRawCount();
}
