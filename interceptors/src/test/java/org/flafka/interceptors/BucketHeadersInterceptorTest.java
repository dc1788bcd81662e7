package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.management.ObjectName;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BucketHeadersInterceptorTest {

  private static final AtomicInteger GROUPS = new AtomicInteger();
  private static final long HOUR = 3_600_000L;

  /** 2026-11-21T12:00:00Z, the agent's clock in every test. */
  private static final long NOW = Instant.parse("2026-11-21T12:00:00Z").toEpochMilli();

  private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

  private final String metricsName = "bucket-test-" + GROUPS.incrementAndGet();

  private BucketHeadersInterceptor interceptor(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("metrics.name", metricsName);
    return new BucketHeadersInterceptor(new BucketHeadersInterceptorConfig(all), CLOCK);
  }

  private BucketHeadersInterceptor interceptor() {
    return interceptor(Map.of());
  }

  private static Event event(String body, Map<String, String> headers) {
    return EventBuilder.withBody(body.getBytes(StandardCharsets.UTF_8), new HashMap<>(headers));
  }

  private long counter(String attribute) throws Exception {
    ObjectName name = new ObjectName("org.apache.flume.interceptor:type=" + metricsName);
    return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(name, attribute);
  }

  @Test
  void contractEventPassesUnchanged() throws Exception {
    Map<String, String> headers =
        Map.of(
            "timestamp",
            Long.toString(NOW - 5 * HOUR),
            "timestamp_source",
            "message",
            "host",
            "Edge-Router-7",
            "received",
            Long.toString(NOW - 1000),
            "id",
            "01K0");
    Event event = event("<34>1 2026-11-21T07:00:00Z Edge-Router-7 app - - - hello", headers);

    Event result = interceptor().intercept(event);

    assertSame(event, result);
    assertEquals(
        headers, result.getHeaders(), "a valid contract event keeps every header as it was");
    assertEquals(1, counter("EventCount"));
    assertEquals(
        0,
        counter("TimestampMissingCount")
            + counter("TimestampInvalidCount")
            + counter("TimestampTooOldCount")
            + counter("TimestampTooNewCount")
            + counter("HostMissingCount")
            + counter("HostRewrittenCount"),
        "nothing was repaired");
  }

  @Test
  void edgeFlaggedEventKeepsItsReceiveTime() {
    // The edge replaced a device's far-off clock by the receive time and said so: the bucket
    // follows it.
    Map<String, String> headers =
        Map.of(
            "timestamp",
            Long.toString(NOW - 2000),
            "timestamp_source",
            "received",
            "timestamp_rejected",
            "946684800000",
            "host",
            "bad-clock",
            "received",
            Long.toString(NOW - 2000));

    Event result = interceptor().intercept(event("x", headers));

    assertEquals(headers, result.getHeaders());
  }

  static Stream<Arguments> badTimestamps() {
    return Stream.of(
        Arguments.of(null, "TimestampMissingCount"),
        Arguments.of("", "TimestampInvalidCount"),
        Arguments.of("not-a-time", "TimestampInvalidCount"),
        Arguments.of("-5", "TimestampInvalidCount"),
        Arguments.of("+1795780800000", "TimestampInvalidCount"),
        Arguments.of("1795780800000.5", "TimestampInvalidCount"),
        Arguments.of("1234567890123456789012", "TimestampInvalidCount"),
        // seconds instead of milliseconds: 1970
        Arguments.of(Long.toString(NOW / 1000), "TimestampTooOldCount"),
        // a device clock in 2003
        Arguments.of(
            Long.toString(Instant.parse("2003-01-01T00:00:00Z").toEpochMilli()),
            "TimestampTooOldCount"),
        Arguments.of(Long.toString(NOW - 365 * 24 * HOUR - 1), "TimestampTooOldCount"),
        Arguments.of(Long.toString(NOW + 24 * HOUR + 1), "TimestampTooNewCount"),
        // microseconds instead of milliseconds: year 57000
        Arguments.of(Long.toString(NOW * 1000), "TimestampTooNewCount"));
  }

  @ParameterizedTest
  @MethodSource("badTimestamps")
  void badTimestampIsReplacedByTheReceiveTime(String timestamp, String counter) throws Exception {
    Map<String, String> headers =
        new HashMap<>(Map.of("host", "h1", "received", Long.toString(NOW - 3000)));
    if (timestamp != null) {
      headers.put("timestamp", timestamp);
    }

    Event result = interceptor().intercept(event("x", headers));

    assertEquals(Long.toString(NOW - 3000), result.getHeaders().get("timestamp"));
    assertEquals("received", result.getHeaders().get("timestamp_source"));
    assertEquals(
        timestamp,
        result.getHeaders().get("timestamp_rejected"),
        "the value replaced is kept for whoever wants to know what the device said");
    assertEquals(1, counter(counter), counter);
  }

  @Test
  void badTimestampWithoutUsableReceiveTimeTakesTheAgentClock() throws Exception {
    for (String received : new String[] {null, "garbage", Long.toString(NOW + 25 * HOUR)}) {
      Map<String, String> headers = new HashMap<>(Map.of("timestamp", "garbage", "host", "h1"));
      if (received != null) {
        headers.put("received", received);
      }

      Event result = interceptor().intercept(event("x", headers));

      assertEquals(
          Long.toString(NOW), result.getHeaders().get("timestamp"), "received=" + received);
      assertEquals("core", result.getHeaders().get("timestamp_source"), "received=" + received);
      assertEquals(
          "garbage", result.getHeaders().get("timestamp_rejected"), "received=" + received);
    }
    assertEquals(3, counter("TimestampInvalidCount"));
  }

  @Test
  void missingTimestampLeavesNoRejectedHeader() {
    Event result = interceptor().intercept(event("x", Map.of("host", "h1")));

    assertEquals(Long.toString(NOW), result.getHeaders().get("timestamp"));
    assertFalse(result.getHeaders().containsKey("timestamp_rejected"));
  }

  @Test
  void windowEdgesAreInclusive() {
    for (long timestamp : new long[] {NOW - 365 * 24 * HOUR, NOW + 24 * HOUR}) {
      Event result =
          interceptor()
              .intercept(event("x", Map.of("timestamp", Long.toString(timestamp), "host", "h1")));

      assertEquals(Long.toString(timestamp), result.getHeaders().get("timestamp"));
      assertNull(result.getHeaders().get("timestamp_source"));
    }
  }

  @Test
  void windowIsConfigurable() {
    Interceptor narrow =
        interceptor(Map.of("timestamp.max.past.hours", "2", "timestamp.max.future.hours", "1"));

    Event tooOld =
        narrow.intercept(
            event("x", Map.of("timestamp", Long.toString(NOW - 2 * HOUR - 1), "host", "h1")));
    Event tooNew =
        narrow.intercept(
            event("x", Map.of("timestamp", Long.toString(NOW + HOUR + 1), "host", "h1")));

    assertEquals(Long.toString(NOW), tooOld.getHeaders().get("timestamp"));
    assertEquals(Long.toString(NOW), tooNew.getHeaders().get("timestamp"));
  }

  @Test
  void longRejectedValueIsCut() {
    String value = "x".repeat(500);

    Event result = interceptor().intercept(event("x", Map.of("timestamp", value, "host", "h1")));

    assertEquals(
        value.substring(0, BucketHeadersInterceptor.MAX_REJECTED_LENGTH),
        result.getHeaders().get("timestamp_rejected"));
  }

  static Stream<Arguments> hosts() {
    return Stream.of(
        // host, peer, expected host header, counter
        Arguments.of(null, "192.0.2.7", "192.0.2.7", "HostMissingCount"),
        Arguments.of("", "192.0.2.7", "192.0.2.7", "HostMissingCount"),
        Arguments.of(null, "2001:db8::7", "2001_db8__7", "HostMissingCount"),
        Arguments.of(null, null, "unknown", "HostMissingCount"),
        Arguments.of("../../etc", null, "-._.._etc", "HostRewrittenCount"),
        Arguments.of("/x", null, "-x", "HostRewrittenCount"),
        Arguments.of("_hidden", null, "-hidden", "HostRewrittenCount"),
        Arguments.of("router 7\u00e9", null, "router_7_", "HostRewrittenCount"),
        Arguments.of("a".repeat(200), null, "a".repeat(128), "HostRewrittenCount"));
  }

  @ParameterizedTest
  @MethodSource("hosts")
  void hostBecomesOneSafePathComponent(String host, String peer, String expected, String counter)
      throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("timestamp", Long.toString(NOW)));
    if (host != null) {
      headers.put("host", host);
    }
    if (peer != null) {
      headers.put("peer", peer);
    }

    Event result = interceptor().intercept(event("x", headers));

    assertEquals(expected, result.getHeaders().get("host"));
    assertEquals(1, counter(counter), counter);
  }

  @Test
  void hostCaseIsKept() throws Exception {
    Event result =
        interceptor()
            .intercept(
                event(
                    "x",
                    Map.of("timestamp", Long.toString(NOW), "host", "Edge-Router-7.Example.NET")));

    assertEquals(
        "Edge-Router-7.Example.NET",
        result.getHeaders().get("host"),
        "the core must not file a host the edge already made safe under another name");
    assertEquals(0, counter("HostRewrittenCount"));
  }

  @Test
  void bodyIsNeverTouchedAndLineFeedsAreCounted() throws Exception {
    byte[] multiLine = "first line\nsecond line\n".getBytes(StandardCharsets.UTF_8);
    byte[] oneLine = "one line\r".getBytes(StandardCharsets.UTF_8);
    Event a = EventBuilder.withBody(multiLine, new HashMap<>(Map.of("host", "h")));
    Event b = EventBuilder.withBody(oneLine, new HashMap<>(Map.of("host", "h")));
    Event c = EventBuilder.withBody(new byte[0], new HashMap<>());

    List<Event> result = interceptor().intercept(List.of(a, b, c));

    assertEquals(3, result.size(), "no event is ever dropped");
    assertSame(multiLine, result.get(0).getBody());
    assertSame(oneLine, result.get(1).getBody());
    assertEquals(1, counter("BodyWithNewlineCount"));
    assertEquals(3, counter("EventCount"));
  }

  @Test
  void aLineFeedIsFoundWhereverItIsAndNothingElseLooksLikeOne() {
    for (int length = 0; length <= 25; length++) {
      byte[] body = new byte[length];
      // bytes one bit or one step from a line feed, and those with the top bit set
      byte[] near = {0x0B, 0x09, 0x08, 0x0E, 0x1A, (byte) 0x8A, (byte) 0xFF, 0x00, 0x01, 'n'};
      for (int i = 0; i < length; i++) {
        body[i] = near[i % near.length];
      }
      assertFalse(BucketHeadersInterceptor.containsLineFeed(body), "length " + length);
      for (int at = 0; at < length; at++) {
        byte[] withLineFeed = body.clone();
        withLineFeed[at] = '\n';
        assertTrue(
            BucketHeadersInterceptor.containsLineFeed(withLineFeed),
            "length " + length + ", line feed at " + at);
      }
    }
  }

  @Test
  void instancesWithOneMetricsNameShareTheirCounters() throws Exception {
    Interceptor first = interceptor();
    Interceptor second = interceptor();

    first.intercept(event("x", Map.of("host", "h")));
    second.intercept(event("x", Map.of("host", "h")));

    assertEquals(2, counter("TimestampMissingCount"), "both sources' repairs show in one group");
    assertEquals(
        "INTERCEPTOR",
        ManagementFactory.getPlatformMBeanServer()
            .getAttribute(
                new ObjectName("org.apache.flume.interceptor:type=" + metricsName), "Type"));
  }

  @Test
  void builderReadsTheFlumeContext() {
    Interceptor.Builder builder = new BucketHeadersInterceptor.Builder();
    builder.configure(
        new Context(
            Map.of(
                "type",
                BucketHeadersInterceptor.Builder.class.getName(),
                "metrics.name",
                metricsName,
                "timestamp.max.future.hours",
                "1")));
    Interceptor built = builder.build();

    Event result =
        built.intercept(
            event(
                "x",
                Map.of(
                    "timestamp",
                    Long.toString(System.currentTimeMillis() + 2 * HOUR),
                    "host",
                    "h")));

    assertEquals("core", result.getHeaders().get("timestamp_source"));
  }

  @Test
  void builderMustBeConfiguredFirst() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> new BucketHeadersInterceptor.Builder().build());
    assertEquals("configure(Context) must be called before build()", e.getMessage());
  }

  static Stream<Arguments> badSettings() {
    return Stream.of(
        Arguments.of(
            Map.of("timestamp.max.past.hours", "0"),
            "bucket headers interceptor: invalid value '0' for key 'timestamp.max.past.hours': must be between 1 and 87840. "
                + "Fix: set timestamp.max.past.hours to between 1 and 87840."),
        Arguments.of(
            Map.of("timestamp.max.future.hours", "soon"),
            "bucket headers interceptor: invalid value 'soon' for key 'timestamp.max.future.hours': must be a whole number "
                + "between -2147483648 and 2147483647. Fix: set timestamp.max.future.hours to a whole "
                + "number between -2147483648 and 2147483647."),
        Arguments.of(
            Map.of("host.max.length", "254"),
            "bucket headers interceptor: invalid value '254' for key 'host.max.length': must be between 1 and 253. Fix: set "
                + "host.max.length to between 1 and 253."),
        Arguments.of(
            Map.of("metrics.name", ""),
            "bucket headers interceptor: invalid value '' for key 'metrics.name': must not be empty. Fix: set metrics.name to "
                + "1 to 64 of [A-Za-z0-9._-], not starting with '.' or '_'."),
        Arguments.of(
            Map.of("metrics.name", "a/b"),
            "bucket headers interceptor: invalid value 'a/b' for key "
                + "'metrics.name': may contain only letters, digits, '.', '_' and '-'. Fix: set metrics.name "
                + "to 1 to 64 of [A-Za-z0-9._-], not starting with '.' or '_'."),
        Arguments.of(
            Map.of("timestamp.max.past.ms", "1000"),
            "bucket headers interceptor: unknown key "
                + "'timestamp.max.past.ms'. Fix: remove it or use one of timestamp.max.past.hours, "
                + "timestamp.max.future.hours, host.max.length, metrics.name."));
  }

  @ParameterizedTest
  @MethodSource("badSettings")
  void badSettingNamesKeyValueAndRule(Map<String, String> settings, String message) {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class, () -> new BucketHeadersInterceptorConfig(settings));
    assertEquals(message, e.getMessage());
  }
}
