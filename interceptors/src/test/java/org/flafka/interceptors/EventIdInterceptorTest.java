package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;

class EventIdInterceptorTest {

  private final MutableClock clock = new MutableClock("2026-11-21T06:30:00Z");

  private EventIdInterceptor interceptor(Map<String, String> settings) {
    return new EventIdInterceptor(
        new EventIdInterceptorConfig(settings), new UlidGenerator(clock, new Random(7)));
  }

  @Test
  void setsATimeSortableIdAndLeavesTheBodyAlone() {
    byte[] body = "<13>Nov 21 06:30:00 host app: hi".getBytes(StandardCharsets.UTF_8);
    Event event = EventBuilder.withBody(body.clone());
    Event result = interceptor(Map.of()).intercept(event);
    assertSame(event, result);
    String id = event.getHeaders().get("id");
    assertEquals(clock.millis(), UlidGenerator.timestampOf(id));
    assertArrayEquals(body, event.getBody());
  }

  @Test
  void keepsAnExistingIdSoResentEventsCanBeDeduplicated() {
    Event event =
        EventBuilder.withBody(
            new byte[0], new HashMap<>(Map.of("id", "01ARZ3NDEKTSV4RRFFQ69G5FAV")));
    interceptor(Map.of()).intercept(event);
    assertEquals("01ARZ3NDEKTSV4RRFFQ69G5FAV", event.getHeaders().get("id"));
  }

  @Test
  void overwritesAnExistingIdWhenConfigured() {
    Event event =
        EventBuilder.withBody(
            new byte[0], new HashMap<>(Map.of("id", "01ARZ3NDEKTSV4RRFFQ69G5FAV")));
    interceptor(Map.of("overwrite", "true")).intercept(event);
    assertNotEquals("01ARZ3NDEKTSV4RRFFQ69G5FAV", event.getHeaders().get("id"));
    assertEquals(clock.millis(), UlidGenerator.timestampOf(event.getHeaders().get("id")));
  }

  @Test
  void usesTheConfiguredHeaderName() {
    Event event = EventBuilder.withBody(new byte[0]);
    interceptor(Map.of("header", "eventId")).intercept(event);
    assertEquals(Map.of("eventId", event.getHeaders().get("eventId")), event.getHeaders());
  }

  @Test
  void batchesGetIncreasingIds() {
    List<Event> events =
        List.of(
            EventBuilder.withBody(new byte[0]),
            EventBuilder.withBody(new byte[0]),
            EventBuilder.withBody(new byte[0]));
    List<Event> result = interceptor(Map.of()).intercept(events);
    assertSame(events, result);
    assertTrue(
        events.get(1).getHeaders().get("id").compareTo(events.get(0).getHeaders().get("id")) > 0);
    assertTrue(
        events.get(2).getHeaders().get("id").compareTo(events.get(1).getHeaders().get("id")) > 0);
  }

  @Test
  void builderReadsTheFlumeContext() {
    Interceptor.Builder builder = new EventIdInterceptor.Builder();
    builder.configure(
        new Context(
            Map.of("type", "org.flafka.interceptors.EventIdInterceptor$Builder", "header", "uid")));
    Event event = EventBuilder.withBody(new byte[0]);
    builder.build().intercept(event);
    assertEquals(UlidGenerator.LENGTH, event.getHeaders().get("uid").length());
  }

  @Test
  void badSettingsNameKeyValueAndRule() {
    ConfigurationException badBoolean =
        assertThrows(
            ConfigurationException.class,
            () -> new EventIdInterceptorConfig(Map.of("overwrite", "ture")));
    assertEquals(
        "event id interceptor: invalid value 'ture' for key 'overwrite': must be true or false. Fix: set overwrite "
            + "to true or false.",
        badBoolean.getMessage());
    ConfigurationException badHeader =
        assertThrows(
            ConfigurationException.class,
            () -> new EventIdInterceptorConfig(Map.of("header", "event id")));
    assertEquals(
        "event id interceptor: invalid value 'event id' for key 'header': must be printable ASCII without spaces. "
            + "Fix: set header to printable ASCII without spaces.",
        badHeader.getMessage());
    ConfigurationException typo =
        assertThrows(
            ConfigurationException.class,
            () -> new EventIdInterceptorConfig(Map.of("headerName", "id")));
    assertEquals(
        "event id interceptor: unknown key 'headerName'. Fix: remove it or use one of header, overwrite.",
        typo.getMessage());
  }
}
