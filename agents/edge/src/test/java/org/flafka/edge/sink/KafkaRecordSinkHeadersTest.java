package org.flafka.edge.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.flafka.edge.source.EventHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The record headers the sink builds, for events of the edge source ({@link EventHeaders}) and any
 * other: exactly the event's non-null headers that {@code recordHeaders} names, although the sink
 * reuses the encoding of a value it saw before. Record sending is tested against a real broker in
 * {@code it.KafkaRecordSinkTest}.
 */
class KafkaRecordSinkHeadersTest {

  private static final String[] NAMES = {
    "received",
    "peer",
    "facility",
    "severity",
    "app",
    "format",
    "parse",
    "site",
    "host",
    "timestamp",
    "timestamp_source",
    "id"
  };
  private static final String[] SHARED_VALUES = {
    "rfc5424", "ok", "edge-7", "10.0.0.1", "héllo", ""
  };

  @ParameterizedTest
  @ValueSource(strings = {"*", "host,id,site,format,peer", ""})
  void theChosenHeadersWithTheirCurrentValues(String recordHeaders) {
    KafkaRecordSink sink = new KafkaRecordSink();
    sink.setName("k");
    sink.configure(
        new Context(
            Map.of(
                "kafka.bootstrap.servers",
                "127.0.0.1:9092",
                "kafka.topic",
                "t",
                "recordHeaders",
                recordHeaders)));
    Random random = new Random(7);
    for (int n = 0; n < 2000; n++) {
      Map<String, String> plain = new LinkedHashMap<>();
      // mostly the usual order, sometimes another one
      int first = random.nextInt(20) == 0 ? random.nextInt(NAMES.length) : 0;
      for (int i = 0; i < NAMES.length; i++) {
        if (random.nextInt(8) > 0) {
          plain.put(NAMES[(first + i) % NAMES.length], value(random));
        }
      }
      List<String> expected = new ArrayList<>();
      plain.forEach(
          (name, value) -> {
            if (value != null
                && (recordHeaders.equals("*")
                    || List.of(recordHeaders.split(",")).contains(name))) {
              expected.add(name + "=" + value);
            }
          });
      expected.sort(null);
      EventHeaders compact = new EventHeaders(4);
      compact.putAll(plain);
      assertEquals(
          expected, headers(sink.toRecord(event(compact))), "edge event " + n + ": " + plain);
      assertEquals(
          expected,
          headers(sink.toRecord(event(new HashMap<>(plain)))),
          "event " + n + ": " + plain);
    }
  }

  /**
   * The same String instance again (as the edge's constants are), an equal new one, another value,
   * or none.
   */
  private static String value(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> SHARED_VALUES[random.nextInt(SHARED_VALUES.length)];
      case 1 -> new String(SHARED_VALUES[random.nextInt(SHARED_VALUES.length)]);
      case 2 -> "v" + random.nextInt(1000);
      default -> random.nextBoolean() ? null : SHARED_VALUES[0];
    };
  }

  private static Event event(Map<String, String> headers) {
    SimpleEvent event = new SimpleEvent();
    event.setBody("x".getBytes(StandardCharsets.US_ASCII));
    event.setHeaders(headers);
    return event;
  }

  /** Name=value pairs, sorted: a plain map has an iteration order of its own. */
  private static List<String> headers(ProducerRecord<String, byte[]> record) {
    List<String> pairs = new ArrayList<>();
    for (Header header : record.headers()) {
      pairs.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
    }
    pairs.sort(null);
    return pairs;
  }
}
