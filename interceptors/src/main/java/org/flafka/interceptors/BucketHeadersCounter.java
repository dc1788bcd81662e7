package org.flafka.interceptors;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flume.instrumentation.MonitoredCounterGroup;

/**
 * The counters of {@link BucketHeadersInterceptor}, one group per {@code metrics.name} per JVM.
 * Flume builds one interceptor per source, and registering a second MBean under the same name would
 * replace the first, so the instances share their group: a dashboard sees the whole agent's repairs
 * in one place.
 */
final class BucketHeadersCounter extends MonitoredCounterGroup
    implements BucketHeadersCounterMBean {

  private static final String EVENTS = "interceptor.bucket.event.count";
  private static final String TIMESTAMP_MISSING = "interceptor.bucket.timestamp.missing";
  private static final String TIMESTAMP_INVALID = "interceptor.bucket.timestamp.invalid";
  private static final String TIMESTAMP_TOO_OLD = "interceptor.bucket.timestamp.too.old";
  private static final String TIMESTAMP_TOO_NEW = "interceptor.bucket.timestamp.too.new";
  private static final String HOST_MISSING = "interceptor.bucket.host.missing";
  private static final String HOST_REWRITTEN = "interceptor.bucket.host.rewritten";
  private static final String BODY_WITH_NEWLINE = "interceptor.bucket.body.with.newline";

  private static final Map<String, BucketHeadersCounter> GROUPS = new ConcurrentHashMap<>();

  private BucketHeadersCounter(String name) {
    super(
        Type.INTERCEPTOR,
        name,
        EVENTS,
        TIMESTAMP_MISSING,
        TIMESTAMP_INVALID,
        TIMESTAMP_TOO_OLD,
        TIMESTAMP_TOO_NEW,
        HOST_MISSING,
        HOST_REWRITTEN,
        BODY_WITH_NEWLINE);
  }

  /** The group named {@code name}, created, registered with JMX and started on first use. */
  static BucketHeadersCounter named(String name) {
    return GROUPS.computeIfAbsent(
        name,
        key -> {
          BucketHeadersCounter group = new BucketHeadersCounter(key);
          group.start();
          return group;
        });
  }

  void addEvents(long events) {
    addAndGet(EVENTS, events);
  }

  void timestampMissing() {
    increment(TIMESTAMP_MISSING);
  }

  void timestampInvalid() {
    increment(TIMESTAMP_INVALID);
  }

  void timestampTooOld() {
    increment(TIMESTAMP_TOO_OLD);
  }

  void timestampTooNew() {
    increment(TIMESTAMP_TOO_NEW);
  }

  void hostMissing() {
    increment(HOST_MISSING);
  }

  void hostRewritten() {
    increment(HOST_REWRITTEN);
  }

  void bodyWithNewline() {
    increment(BODY_WITH_NEWLINE);
  }

  @Override
  public long getEventCount() {
    return get(EVENTS);
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
  public long getTimestampTooOldCount() {
    return get(TIMESTAMP_TOO_OLD);
  }

  @Override
  public long getTimestampTooNewCount() {
    return get(TIMESTAMP_TOO_NEW);
  }

  @Override
  public long getHostMissingCount() {
    return get(HOST_MISSING);
  }

  @Override
  public long getHostRewrittenCount() {
    return get(HOST_REWRITTEN);
  }

  @Override
  public long getBodyWithNewlineCount() {
    return get(BODY_WITH_NEWLINE);
  }
}
