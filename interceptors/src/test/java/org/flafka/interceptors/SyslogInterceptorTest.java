package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;

class SyslogInterceptorTest {

  private static final String NOW = "2026-11-21T06:30:05Z";
  private final MutableClock clock = new MutableClock(NOW);

  private SyslogInterceptor interceptor(Map<String, String> settings) {
    return new SyslogInterceptor(new SyslogInterceptorConfig(settings), clock);
  }

  private static Event event(String body, Map<String, String> headers) {
    return EventBuilder.withBody(body.getBytes(StandardCharsets.UTF_8), new HashMap<>(headers));
  }

  private static String millis(String instant) {
    return Long.toString(Instant.parse(instant).toEpochMilli());
  }

  @Test
  void rfc5424MessageGetsEveryContractHeader() {
    String line =
        "<165>1 2026-11-21T06:30:00.123Z Edge-Router-7.example.net evntslog 1234 ID47 "
            + "[exampleSDID@32473 iut=\"3\"] An application event";
    Event event =
        event(line, Map.of("received", millis("2026-11-21T06:30:01Z"), "peer", "10.1.2.3"));
    Event result = interceptor(Map.of("site", "par-03")).intercept(event);

    assertSame(event, result);
    assertArrayEquals(line.getBytes(StandardCharsets.UTF_8), event.getBody());
    Map<String, String> expected = new HashMap<>();
    expected.put("timestamp", millis("2026-11-21T06:30:00.123Z"));
    expected.put("timestamp_source", "message");
    expected.put("host", "edge-router-7.example.net");
    expected.put("facility", "20");
    expected.put("severity", "5");
    expected.put("app", "evntslog");
    expected.put("procid", "1234");
    expected.put("msgid", "ID47");
    expected.put("format", "rfc5424");
    expected.put("parse", "ok");
    expected.put("received", millis("2026-11-21T06:30:01Z"));
    expected.put("peer", "10.1.2.3");
    expected.put("site", "par-03");
    assertEquals(expected, event.getHeaders());
  }

  @Test
  void eventsOnTheirReceiveTimeAreCountedByReasonInTheAgentsMetrics() throws Exception {
    SyslogInterceptorCounter counter = SyslogInterceptorCounter.instance();
    long[] before = counts(counter);
    List<Event> batch =
        List.of(
            event("<34>Nov 21 06:30:00 mymachine su[230]: fine", Map.of()),
            event("<34>mymachine su[230]: no stamp at all", Map.of()),
            event("<34>Feb 30 06:30:00 mymachine su[230]: no such day", Map.of()),
            event("<165>1 2001-11-21T06:30:00Z host app - - - years away", Map.of()),
            event(
                "<189>123: Nov 21 06:30:00.123 XYZ: %SYS-5-CONFIG_I: zone nobody knows", Map.of()),
            event("\u0001\u0002 no syslog here", Map.of()));
    interceptor(Map.of()).intercept(batch);

    long[] after = counts(counter);
    // events, on receive time, missing, invalid, implausible, unknown zone, raw
    long[] expected = {6, 4, 1, 1, 1, 1, 1};
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], after[i] - before[i], "counter " + i + " of " + List.of(batch));
    }
    // What Flume's JSON metrics and JMX read: the group's MBean under the interceptor type
    javax.management.ObjectName name =
        new javax.management.ObjectName("org.apache.flume.interceptor:type=syslog");
    assertEquals(
        after[1],
        java.lang.management.ManagementFactory.getPlatformMBeanServer()
            .getAttribute(name, "TimestampReceivedCount"));
  }

  private static long[] counts(SyslogInterceptorCounter counter) {
    return new long[] {
      counter.getEventCount(),
      counter.getTimestampReceivedCount(),
      counter.getTimestampMissingCount(),
      counter.getTimestampInvalidCount(),
      counter.getTimestampImplausibleCount(),
      counter.getTimestampUnknownZoneCount(),
      counter.getParseRawCount()
    };
  }

  @Test
  void zonelessStampIsReadInTheConfiguredZoneAndReceivedComesFromTheClock() {
    Event event =
        event("<34>Nov 21 07:30:00 mymachine su[230]: 'su root' failed for lonvick", Map.of());
    interceptor(Map.of("timezone.default", "Europe/Paris")).intercept(event);

    Map<String, String> headers = event.getHeaders();
    assertEquals(millis("2026-11-21T06:30:00Z"), headers.get("timestamp"));
    assertEquals("message", headers.get("timestamp_source"));
    assertEquals(Long.toString(clock.millis()), headers.get("received"));
    assertEquals("mymachine", headers.get("host"));
    assertEquals("4", headers.get("facility"));
    assertEquals("2", headers.get("severity"));
    assertEquals("su", headers.get("app"));
    assertEquals("230", headers.get("procid"));
    assertEquals("rfc3164", headers.get("format"));
    assertEquals(null, headers.get("site"));
  }

  @Test
  void unparseableInputIsKeptWholeWithTheSenderAsHostAndTheReceiveTime() {
    String junk = "GET /index.html HTTP/1.1";
    Event event = event(junk, Map.of("received", "1795761005000", "peer", "FE80::1%eth0"));
    interceptor(Map.of()).intercept(event);

    Map<String, String> expected = new HashMap<>();
    expected.put("timestamp", "1795761005000");
    expected.put("timestamp_source", "received");
    expected.put("host", "fe80__1_eth0");
    expected.put("format", "unknown");
    expected.put("parse", "raw");
    expected.put("received", "1795761005000");
    expected.put("peer", "FE80::1%eth0");
    assertEquals(expected, event.getHeaders());
    assertEquals(junk, new String(event.getBody(), StandardCharsets.UTF_8));
  }

  @Test
  void withNeitherHostnameNorPeerTheHostIsUnknown() {
    Event event = event("no syslog here", Map.of());
    interceptor(Map.of()).intercept(event);
    assertEquals("unknown", event.getHeaders().get("host"));
  }

  @Test
  void aStampFarInThePastIsReplacedByTheReceiveTimeAndKept() {
    Event event = event("<13>1 2019-03-01T00:00:00Z host app - - - clock reset", Map.of());
    interceptor(Map.of("timestamp.max.past.ms", Long.toString(7L * 86_400_000))).intercept(event);

    Map<String, String> headers = event.getHeaders();
    assertEquals(Long.toString(clock.millis()), headers.get("timestamp"));
    assertEquals("received", headers.get("timestamp_source"));
    assertEquals(millis("2019-03-01T00:00:00Z"), headers.get("timestamp_rejected"));
    assertEquals("lenient", headers.get("parse"));
  }

  @Test
  void aStampMoreThanADayAheadIsReplacedByTheReceiveTime() {
    Event event = event("<13>1 2026-11-22T07:00:00Z host app - - - from the future", Map.of());
    interceptor(Map.of()).intercept(event);

    assertEquals(Long.toString(clock.millis()), event.getHeaders().get("timestamp"));
    assertEquals("received", event.getHeaders().get("timestamp_source"));
    assertEquals(millis("2026-11-22T07:00:00Z"), event.getHeaders().get("timestamp_rejected"));
  }

  @Test
  void aStampWithinTheWindowIsKept() {
    Event event = event("<13>1 2026-11-22T06:00:00Z host app - - - a little ahead", Map.of());
    interceptor(Map.of()).intercept(event);

    assertEquals(millis("2026-11-22T06:00:00Z"), event.getHeaders().get("timestamp"));
    assertEquals("message", event.getHeaders().get("timestamp_source"));
    assertEquals(null, event.getHeaders().get("timestamp_rejected"));
  }

  @Test
  void headersAlreadySetAreKeptUnlessListedInOverwrite() {
    String line = "<34>1 2026-11-21T06:30:00Z real-host app - - - msg";
    Map<String, String> preset = Map.of("timestamp", "1", "host", "from-source", "site", "lyo-01");

    Event kept = event(line, preset);
    interceptor(Map.of("site", "par-03")).intercept(kept);
    assertEquals("1", kept.getHeaders().get("timestamp"));
    assertEquals(null, kept.getHeaders().get("timestamp_source"));
    assertEquals("from-source", kept.getHeaders().get("host"));
    assertEquals("lyo-01", kept.getHeaders().get("site"));

    Event replaced = event(line, preset);
    interceptor(Map.of("site", "par-03", "overwrite", "timestamp,host,site")).intercept(replaced);
    assertEquals(millis("2026-11-21T06:30:00Z"), replaced.getHeaders().get("timestamp"));
    assertEquals("message", replaced.getHeaders().get("timestamp_source"));
    assertEquals("real-host", replaced.getHeaders().get("host"));
    assertEquals("par-03", replaced.getHeaders().get("site"));
  }

  @Test
  void aReceivedHeaderThatIsNotEpochMillisIsReplacedByTheClock() {
    Event event = event("<13>1 - host app - - - no stamp", Map.of("received", "yesterday"));
    interceptor(Map.of()).intercept(event);
    assertEquals(Long.toString(clock.millis()), event.getHeaders().get("received"));
    assertEquals(Long.toString(clock.millis()), event.getHeaders().get("timestamp"));
    assertEquals("received", event.getHeaders().get("timestamp_source"));
  }

  @Test
  void setsOnlyTheListedHeaders() {
    Event event = event("<165>1 2026-11-21T06:30:00Z host app 1 ID - msg", Map.of());
    interceptor(Map.of("headers", "format, parse")).intercept(event);
    assertEquals(Map.of("format", "rfc5424", "parse", "ok"), event.getHeaders());
  }

  @Test
  void keepsHostCaseWhenAskedAndCutsLongNames() {
    Event event = event("<13>1 2026-11-21T06:30:00Z Core-Switch-0042 app - - - msg", Map.of());
    interceptor(Map.of("host.lowercase", "false", "host.max.length", "11")).intercept(event);
    assertEquals("Core-Switch", event.getHeaders().get("host"));
  }

  @Test
  void batchesAreInterceptedInPlace() {
    List<Event> events =
        List.of(event("<13>1 - a app - - - one", Map.of()), event("junk", Map.of()));
    List<Event> result = interceptor(Map.of()).intercept(events);
    assertSame(events, result);
    assertEquals("a", events.get(0).getHeaders().get("host"));
    assertEquals("raw", events.get(1).getHeaders().get("parse"));
  }

  @Test
  void eachEventGetsItsOwnTimestampWhenNeighboursShareOrChangeIt() {
    // The interceptor reuses the text of a timestamp it has just written; a run of one stamp, a
    // new one, and the first again must each come out as the event's own.
    String[] stamps = {
      "2026-11-21T06:30:01Z",
      "2026-11-21T06:30:01Z",
      "2026-11-21T06:30:02Z",
      "2026-11-21T06:30:01Z",
      "2026-11-21T06:30:02.500Z"
    };
    List<Event> events = new ArrayList<>();
    for (String stamp : stamps) {
      events.add(event("<13>1 " + stamp + " r1 app - - - m", Map.of()));
    }
    SyslogInterceptor interceptor = interceptor(Map.of());
    interceptor.intercept(events.subList(0, 2));
    interceptor.intercept(events.subList(2, events.size()));
    for (int i = 0; i < stamps.length; i++) {
      assertEquals(millis(stamps[i]), events.get(i).getHeaders().get("timestamp"), stamps[i]);
    }
  }

  @Test
  void builderReadsTheFlumeContext() {
    Interceptor.Builder builder = new SyslogInterceptor.Builder();
    builder.configure(
        new Context(
            Map.of(
                "type",
                "org.flafka.interceptors.SyslogInterceptor$Builder",
                "site",
                "ams-2",
                "detect.cisco.asa",
                "false")));
    Event event = event("<13>1 - host app - - - msg", Map.of());
    builder.build().intercept(event);
    assertEquals("ams-2", event.getHeaders().get("site"));
    assertEquals("host", event.getHeaders().get("host"));
  }

  @Test
  void badSettingsNameKeyValueAndRule() {
    String site =
        " Fix: set site to empty, or up to 64 of [A-Za-z0-9._-], not starting with '.' or '_'.";
    assertEquals(
        "syslog interceptor: invalid value 'par/03' for key 'site': may contain only letters, digits, "
            + "'.', '_' and '-'."
            + site,
        configError(Map.of("site", "par/03")));
    assertEquals(
        "syslog interceptor: invalid value '.par' for key 'site': must not start with '.' or '_' "
            + "(Hadoop treats those as hidden)."
            + site,
        configError(Map.of("site", ".par")));
    String headers =
        "timestamp, host, facility, severity, app, procid, msgid, format, parse, received, site";
    assertEquals(
        "syslog interceptor: invalid value 'timestamp,hostname' for key 'headers': 'hostname' is not one "
            + "of "
            + headers
            + ". Fix: set headers to any of "
            + headers
            + ".",
        configError(Map.of("headers", "timestamp,hostname")));
    String overwrite =
        "timestamp, host, facility, severity, app, procid, msgid, format, parse, site";
    assertEquals(
        "syslog interceptor: invalid value 'received' for key 'overwrite': 'received' is not one of "
            + overwrite
            + ". Fix: set overwrite to any of "
            + overwrite
            + ".",
        configError(Map.of("overwrite", "received")));
    assertEquals(
        "syslog interceptor: invalid value 'host,host' for key 'overwrite': 'host' is listed twice. "
            + "Fix: set overwrite to any of "
            + overwrite
            + ".",
        configError(Map.of("overwrite", "host,host")));
    assertEquals(
        "syslog interceptor: invalid value 'timestamp,,host' for key 'overwrite': must be a "
            + "comma-separated list without empty items. Fix: set overwrite to a comma-separated list without "
            + "empty items.",
        configError(Map.of("overwrite", "timestamp,,host")));
    assertEquals(
        "syslog interceptor: invalid value '0' for key 'host.max.length': must be between 1 and 253. "
            + "Fix: set host.max.length to between 1 and 253.",
        configError(Map.of("host.max.length", "0")));
    assertEquals(
        "syslog interceptor: invalid value 'many' for key 'host.max.length': must be a whole number "
            + "between -2147483648 and 2147483647. Fix: set host.max.length to a whole number between "
            + "-2147483648 and 2147483647.",
        configError(Map.of("host.max.length", "many")));
    assertEquals(
        "syslog interceptor: invalid value 'yes' for key 'host.lowercase': must be true or false. Fix: "
            + "set host.lowercase to true or false.",
        configError(Map.of("host.lowercase", "yes")));
  }

  @Test
  void badParserOptionsAreConfigurationErrorsToo() {
    ConfigurationException error =
        assertThrows(
            ConfigurationException.class,
            () -> new SyslogInterceptorConfig(Map.of("timestamp.max.past.ms", "-1")));
    assertEquals(
        "syslog interceptor: invalid value '-1' for key 'timestamp.max.past.ms': must be an integer >= 0. "
            + "Fix: set timestamp.max.past.ms to an integer >= 0.",
        error.getMessage());
  }

  @Test
  void aMisspeltKeyIsAnErrorListingTheKnownKeys() {
    String message = configError(Map.of("sites", "par-03"));
    assertEquals(
        "syslog interceptor: unknown key 'sites' (did you mean 'site'?). Fix: remove it or use one of "
            + "site, headers, overwrite, host.lowercase, host.max.length, ",
        message.substring(0, message.indexOf("timezone.default")));
    // the parser's options are known keys too, and suggested
    assertTrue(
        configError(Map.of("timezone.defualt", "UTC"))
            .startsWith(
                "syslog interceptor: unknown key "
                    + "'timezone.defualt' (did you mean 'timezone.default'?). Fix: remove it or use one of site, "));
  }

  private static String configError(Map<String, String> settings) {
    return assertThrows(ConfigurationException.class, () -> new SyslogInterceptorConfig(settings))
        .getMessage();
  }
}
