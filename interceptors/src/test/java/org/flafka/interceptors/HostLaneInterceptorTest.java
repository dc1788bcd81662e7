package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HostLaneInterceptorTest {

  private static Interceptor interceptor(Map<String, String> settings) {
    Interceptor.Builder builder = new HostLaneInterceptor.Builder();
    builder.configure(new Context(settings));
    return builder.build();
  }

  private static Event event(String host) {
    Map<String, String> headers = new HashMap<>();
    if (host != null) {
      headers.put("host", host);
    }
    return EventBuilder.withBody("x".getBytes(StandardCharsets.UTF_8), headers);
  }

  @Test
  void laneOfAHostIsFixedForever() {
    // Pinned: a change here moves every host to another sink, so each bucket briefly gets two
    // writers
    assertEquals(1, HostLaneInterceptor.lane("edge-router-7", 4));
    assertEquals(0, HostLaneInterceptor.lane("fw-par-01", 4));
    assertEquals(8, HostLaneInterceptor.lane("fw-par-01", 16));
    assertEquals(12, HostLaneInterceptor.lane("10.1.2.3", 16));
  }

  @Test
  void everyEventOfOneHostGetsTheSameLaneFromEveryInstance() {
    Interceptor a = interceptor(Map.of("lanes", "4"));
    Interceptor b = interceptor(Map.of("lanes", "4"));
    for (int i = 0; i < 200; i++) {
      String host = "edge-router-" + i;
      String lane = a.intercept(event(host)).getHeaders().get("fanout");
      assertEquals(lane, b.intercept(event(host)).getHeaders().get("fanout"), host);
      assertEquals(lane, a.intercept(event(host)).getHeaders().get("fanout"), host);
    }
  }

  @Test
  void similarHostNamesSpreadEvenly() {
    int lanes = 4;
    int[] perLane = new int[lanes];
    for (int i = 0; i < 4000; i++) {
      perLane[HostLaneInterceptor.lane("edge-router-" + i, lanes)]++;
    }
    for (int count : perLane) {
      assertTrue(
          count > 850 && count < 1150, "hosts per lane: " + java.util.Arrays.toString(perLane));
    }
  }

  @Test
  void laneIsAlwaysInRange() {
    Random random = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      byte[] bytes = new byte[1 + random.nextInt(40)];
      random.nextBytes(bytes);
      int lanes = 1 + random.nextInt(256);
      int lane = HostLaneInterceptor.lane(new String(bytes, StandardCharsets.ISO_8859_1), lanes);
      assertTrue(lane >= 0 && lane < lanes, lane + " of " + lanes);
    }
  }

  @Test
  void oneLaneAndMissingHostGoToLaneZero() {
    assertEquals(
        "0", interceptor(Map.of()).intercept(event("anything")).getHeaders().get("fanout"));
    assertEquals(
        "0", interceptor(Map.of("lanes", "8")).intercept(event(null)).getHeaders().get("fanout"));
  }

  @Test
  void headerAndKeyAreConfigurableAndTheBodyIsKept() {
    Interceptor byPeer = interceptor(Map.of("lanes", "16", "header", "lane", "key.header", "peer"));
    Event event =
        EventBuilder.withBody(new byte[] {1, 2, 3}, new HashMap<>(Map.of("peer", "10.1.2.3")));
    byte[] body = event.getBody();

    List<Event> result = byPeer.intercept(List.of(event));

    assertEquals("12", result.get(0).getHeaders().get("lane"));
    assertSame(body, result.get(0).getBody());
    assertEquals(2, result.get(0).getHeaders().size());
  }

  static Stream<Arguments> badSettings() {
    return Stream.of(
        Arguments.of(
            Map.of("lanes", "0"),
            "host lane interceptor: invalid value '0' for key 'lanes': must be between 1 and 256. Fix: set lanes to "
                + "between 1 and 256."),
        Arguments.of(
            Map.of("lanes", "many"),
            "host lane interceptor: invalid value 'many' for key 'lanes': must be a whole number between -2147483648 and "
                + "2147483647. Fix: set lanes to a whole number between -2147483648 and 2147483647."),
        Arguments.of(
            Map.of("header", ""),
            "host lane interceptor: invalid value '' for key 'header': must not be empty. "
                + "Fix: set header to non-empty printable ASCII without spaces."),
        Arguments.of(
            Map.of("key.header", "a b"),
            "host lane interceptor: invalid value 'a b' for key 'key.header': "
                + "must be printable ASCII without spaces. Fix: set key.header to printable ASCII without spaces."),
        Arguments.of(
            Map.of("lane", "2"),
            "host lane interceptor: unknown key 'lane' (did you mean 'lanes'?). Fix: remove it or use one of "
                + "header, lanes, key.header."));
  }

  @ParameterizedTest
  @MethodSource("badSettings")
  void badSettingNamesKeyValueAndRule(Map<String, String> settings, String message) {
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> new HostLaneInterceptorConfig(settings));
    assertEquals(message, e.getMessage());
  }
}
