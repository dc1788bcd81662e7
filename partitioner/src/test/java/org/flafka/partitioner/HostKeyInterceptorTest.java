package org.flafka.partitioner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;

class HostKeyInterceptorTest {

  private static Interceptor build(Map<String, String> settings) {
    HostKeyInterceptor.Builder builder = new HostKeyInterceptor.Builder();
    builder.configure(new Context(settings));
    return builder.build();
  }

  private static Event event(Map<String, String> headers) {
    return EventBuilder.withBody(
        "<13>1 - dev-1 app - - - hi", StandardCharsets.UTF_8, new HashMap<>(headers));
  }

  @Test
  void theHostBecomesTheKafkaKeyAndTheBodyIsUntouched() {
    Event event = build(Map.of()).intercept(event(Map.of("host", "dev-1.site", "key", "other")));
    assertEquals(Map.of("host", "dev-1.site", "key", "dev-1.site"), event.getHeaders());
    assertEquals("<13>1 - dev-1 app - - - hi", new String(event.getBody(), StandardCharsets.UTF_8));
  }

  @Test
  void anEventWithoutAHostKeepsNoKey() {
    List<Event> events =
        build(Map.of()).intercept(List.of(event(Map.of()), event(Map.of("host", ""))));
    assertEquals(Map.of(), events.get(0).getHeaders());
    assertEquals(Map.of("host", ""), events.get(1).getHeaders());
  }

  @Test
  void preserveExistingKeepsAKeySetEarlierAndOtherwiseStillCopiesTheHost() {
    Interceptor interceptor = build(Map.of("preserveExisting", "true", "hostHeader", "device"));
    assertEquals(
        "other",
        interceptor
            .intercept(event(Map.of("device", "d", "key", "other")))
            .getHeaders()
            .get("key"));
    assertEquals("d", interceptor.intercept(event(Map.of("device", "d"))).getHeaders().get("key"));
  }

  @Test
  void badSettingsNameTheKeyAndValue() {
    assertEquals(
        "preserveExisting must be true or false but was 'ture'",
        assertThrows(ConfigurationException.class, () -> build(Map.of("preserveExisting", "ture")))
            .getMessage());
    assertEquals(
        "hostHeader must name a header but was empty; the default is 'host'",
        assertThrows(ConfigurationException.class, () -> build(Map.of("hostHeader", " ")))
            .getMessage());
  }
}
