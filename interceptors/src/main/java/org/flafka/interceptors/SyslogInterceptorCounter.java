package org.flafka.interceptors;

import org.apache.flume.instrumentation.MonitoredCounterGroup;
import org.flafka.syslog.Defect;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.ParseStatus;
import org.flafka.syslog.TimestampSource;

/**
 * The counters of {@link SyslogInterceptor}: one group per JVM, named {@value #NAME}. Flume builds
 * one interceptor per source, and registering a second MBean under the same name would replace the
 * first, so every instance adds to the one group.
 */
final class SyslogInterceptorCounter extends MonitoredCounterGroup
    implements SyslogInterceptorCounterMBean {

  static final String NAME = "syslog";

  private static final String EVENTS = "interceptor.syslog.event.count";
  private static final String TIMESTAMP_RECEIVED = "interceptor.syslog.timestamp.received";
  private static final String TIMESTAMP_MISSING = "interceptor.syslog.timestamp.missing";
  private static final String TIMESTAMP_INVALID = "interceptor.syslog.timestamp.invalid";
  private static final String TIMESTAMP_IMPLAUSIBLE = "interceptor.syslog.timestamp.implausible";
  private static final String TIMESTAMP_UNKNOWN_ZONE = "interceptor.syslog.timestamp.unknown.zone";
  private static final String PARSE_RAW = "interceptor.syslog.parse.raw";

  private static final SyslogInterceptorCounter INSTANCE = started();

  private SyslogInterceptorCounter() {
    super(
        Type.INTERCEPTOR,
        NAME,
        EVENTS,
        TIMESTAMP_RECEIVED,
        TIMESTAMP_MISSING,
        TIMESTAMP_INVALID,
        TIMESTAMP_IMPLAUSIBLE,
        TIMESTAMP_UNKNOWN_ZONE,
        PARSE_RAW);
  }

  private static SyslogInterceptorCounter started() {
    SyslogInterceptorCounter group = new SyslogInterceptorCounter();
    group.start();
    return group;
  }

  /** The agent's group, registered with JMX and started. */
  static SyslogInterceptorCounter instance() {
    return INSTANCE;
  }

  /**
   * What one batch of events showed, counted on the caller's thread and added to the shared
   * counters once per batch, so the interceptor's hot path touches no shared state per event.
   */
  static final class Tally {
    private long events;
    private long received;
    private long missing;
    private long invalid;
    private long implausible;
    private long unknownZone;
    private long raw;

    /** Counts one parsed message. */
    void add(ParseResult result) {
      events++;
      if (result.timestampSource() == TimestampSource.RECEIVED) {
        received++;
      }
      if (result.status() == ParseStatus.RAW) {
        raw++;
        return;
      }
      if (result.hasDefect(Defect.MISSING_TIMESTAMP)) {
        missing++;
      }
      if (result.hasDefect(Defect.INVALID_TIMESTAMP)) {
        invalid++;
      }
      if (result.hasDefect(Defect.IMPLAUSIBLE_TIMESTAMP)) {
        implausible++;
      }
      if (result.hasDefect(Defect.UNKNOWN_TIME_ZONE)) {
        unknownZone++;
      }
    }

    /** Counts one message the parser failed on: it goes on raw, with the receive time. */
    void addRaw() {
      events++;
      received++;
      raw++;
    }

    /** Adds what was counted to {@code counter} and starts over. */
    void addTo(SyslogInterceptorCounter counter) {
      counter.addAndGet(EVENTS, events);
      addIfAny(counter, TIMESTAMP_RECEIVED, received);
      addIfAny(counter, TIMESTAMP_MISSING, missing);
      addIfAny(counter, TIMESTAMP_INVALID, invalid);
      addIfAny(counter, TIMESTAMP_IMPLAUSIBLE, implausible);
      addIfAny(counter, TIMESTAMP_UNKNOWN_ZONE, unknownZone);
      addIfAny(counter, PARSE_RAW, raw);
      events = received = missing = invalid = implausible = unknownZone = raw = 0;
    }

    private static void addIfAny(SyslogInterceptorCounter counter, String name, long delta) {
      if (delta != 0) {
        counter.addAndGet(name, delta);
      }
    }
  }

  @Override
  public long getEventCount() {
    return get(EVENTS);
  }

  @Override
  public long getTimestampReceivedCount() {
    return get(TIMESTAMP_RECEIVED);
  }

  @Override
  public long getTimestampMissingCount() {
    return get(TIMESTAMP_MISSING);
  }

  @Override
  public long getTimestampInvalidCount() {
    return get(TIMESTAMP_INVALID);
  }

  @Override
  public long getTimestampImplausibleCount() {
    return get(TIMESTAMP_IMPLAUSIBLE);
  }

  @Override
  public long getTimestampUnknownZoneCount() {
    return get(TIMESTAMP_UNKNOWN_ZONE);
  }

  @Override
  public long getParseRawCount() {
    return get(PARSE_RAW);
  }
}
