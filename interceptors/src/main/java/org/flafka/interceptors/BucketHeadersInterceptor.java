package org.flafka.interceptors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;
import org.flafka.contract.Headers;
import org.flafka.syslog.TimestampSource;

/**
 * Makes sure every event reaching the core's HDFS sinks carries the two headers its path is built
 * from ({@code <root>/dt=%Y-%m-%d/host=%{host}}), with values that name a sane bucket. It sits on
 * the core's Kafka sources, after the Kafka record headers have been mapped back to Flume headers.
 *
 * <p>Why: Flume's HDFS sink throws on an event whose {@code timestamp} header is missing or not a
 * number, rolls the whole transaction back and retries the same events forever: one bad record
 * wedges the sink, and the events of that transaction already appended to other files are written
 * again on every retry. A missing {@code host} writes into {@code host=}, and a host such as {@code
 * ../x} escapes the layout. The edge already guarantees both headers (the edge header contract);
 * this is the core's second line for anything else that writes to the topic, and it costs a few
 * comparisons per event.
 *
 * <ul>
 *   <li>{@code timestamp}: kept when it is epoch milliseconds within [now - {@code
 *       timestamp.max.past.hours}, now + {@code timestamp.max.future.hours}] by the agent's clock.
 *       Otherwise it is replaced by the {@code received} header when that one is valid and in the
 *       window ({@code timestamp_source=received}), else by the agent's clock ({@code
 *       timestamp_source=core}); the value replaced, if any, is kept in {@code timestamp_rejected}.
 *       An edge-flagged event ({@code timestamp_source=received}) already has a plausible time and
 *       passes unchanged, so it lands in the bucket of its receive time.
 *   <li>{@code host}: kept when it is a safe path component (see {@link HostNames}; case is kept,
 *       so an edge-made host header always passes unchanged); made safe when it is not; when
 *       missing or empty, the {@code peer} header made safe, else {@value HostNames#UNKNOWN_HOST}.
 *   <li>The body is never touched. A body holding a line feed is counted: the text format writes
 *       one event per line, so such an event reads back as several lines (the Avro format keeps it
 *       whole).
 * </ul>
 *
 * Every repair is counted in the {@link BucketHeadersCounterMBean} group {@code
 * INTERCEPTOR.<metrics.name>}. Never drops an event, never throws for any header value.
 * Thread-safe.
 *
 * <p>Flume configuration: {@code type = org.flafka.interceptors.BucketHeadersInterceptor$Builder};
 * keys in {@link BucketHeadersInterceptorConfig}.
 */
public final class BucketHeadersInterceptor implements Interceptor {

  /** {@code timestamp_source} of a time taken from the core agent's clock. */
  public static final String TIMESTAMP_SOURCE_CORE = "core";

  /**
   * {@code timestamp_source} of a time taken from the {@code received} header (the edge's receive
   * time).
   */
  public static final String TIMESTAMP_SOURCE_RECEIVED = TimestampSource.RECEIVED.headerValue();

  /** Longest rejected value kept in {@code timestamp_rejected}; a longer one is cut. */
  static final int MAX_REJECTED_LENGTH = 64;

  /** A body's bytes read eight at a time ({@link #containsLineFeed}). */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;

  private final Clock clock;
  private final long maxPastMillis;
  private final long maxFutureMillis;
  private final int hostMaxLength;
  private final BucketHeadersCounter counter;

  BucketHeadersInterceptor(BucketHeadersInterceptorConfig config, Clock clock) {
    this.clock = clock;
    this.maxPastMillis = config.maxPastMillis();
    this.maxFutureMillis = config.maxFutureMillis();
    this.hostMaxLength = config.hostMaxLength();
    this.counter = BucketHeadersCounter.named(config.metricsName());
  }

  @Override
  public void initialize() {}

  /** Repairs the headers in place and returns the same event. */
  @Override
  public Event intercept(Event event) {
    repair(event, clock.millis());
    counter.addEvents(1);
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    long now = clock.millis();
    for (Event event : events) {
      repair(event, now);
    }
    counter.addEvents(events.size());
    return events;
  }

  private void repair(Event event, long now) {
    Map<String, String> headers = event.getHeaders();
    repairTimestamp(headers, now);
    repairHost(headers);
    if (containsLineFeed(event.getBody())) {
      counter.bodyWithNewline();
    }
  }

  private void repairTimestamp(Map<String, String> headers, long now) {
    String value = headers.get(Headers.TIMESTAMP);
    long timestamp = EpochMillis.parse(value);
    if (value == null) {
      counter.timestampMissing();
    } else if (timestamp == EpochMillis.INVALID) {
      counter.timestampInvalid();
    } else if (timestamp < now - maxPastMillis) {
      counter.timestampTooOld();
    } else if (timestamp > now + maxFutureMillis) {
      counter.timestampTooNew();
    } else {
      return;
    }
    long received = EpochMillis.parse(headers.get(Headers.RECEIVED));
    if (received != EpochMillis.INVALID
        && received >= now - maxPastMillis
        && received <= now + maxFutureMillis) {
      headers.put(Headers.TIMESTAMP, Long.toString(received));
      headers.put(Headers.TIMESTAMP_SOURCE, TIMESTAMP_SOURCE_RECEIVED);
    } else {
      headers.put(Headers.TIMESTAMP, Long.toString(now));
      headers.put(Headers.TIMESTAMP_SOURCE, TIMESTAMP_SOURCE_CORE);
    }
    if (value != null) {
      headers.put(
          Headers.TIMESTAMP_REJECTED,
          value.length() > MAX_REJECTED_LENGTH ? value.substring(0, MAX_REJECTED_LENGTH) : value);
    }
  }

  private void repairHost(Map<String, String> headers) {
    String host = headers.get(Headers.HOST);
    String safe = HostNames.hostHeader(host, headers.get(Headers.PEER), false, hostMaxLength);
    // hostHeader returns a clean host itself, so equals() is the cheap common case
    if (safe.equals(host)) {
      return;
    }
    if (host == null || host.isEmpty()) {
      counter.hostMissing();
    } else {
      counter.hostRewritten();
    }
    headers.put(Headers.HOST, safe);
  }

  /**
   * Whether {@code body} holds a line feed, eight bytes per step: every event's body is scanned,
   * and a byte at a time this scan was a tenth of the core's sink threads.
   */
  static boolean containsLineFeed(byte[] body) {
    if (body == null) {
      return false;
    }
    int i = 0;
    for (; i + Long.BYTES <= body.length; i += Long.BYTES) {
      // a byte of x is 0 where the body has a line feed; (x - 0x01..) & ~x sets the top bit of the
      // lowest such byte (and of none when there is none)
      long x = (long) LONGS.get(body, i) ^ LINE_FEEDS;
      if (((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0) {
        return true;
      }
    }
    for (; i < body.length; i++) {
      if (body[i] == '\n') {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {}

  /**
   * Reads {@link BucketHeadersInterceptorConfig} from the interceptor's Flume context and builds
   * it.
   */
  public static final class Builder implements Interceptor.Builder {
    private BucketHeadersInterceptorConfig config;

    @Override
    public void configure(Context context) {
      config = new BucketHeadersInterceptorConfig(context.getParameters());
    }

    @Override
    public Interceptor build() {
      if (config == null) {
        throw new IllegalStateException("configure(Context) must be called before build()");
      }
      return new BucketHeadersInterceptor(config, Clock.systemUTC());
    }
  }
}
