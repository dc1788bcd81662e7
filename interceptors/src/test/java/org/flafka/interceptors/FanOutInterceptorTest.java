package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flume.Channel;
import org.apache.flume.ChannelSelector;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.channel.ChannelSelectorFactory;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.conf.Configurables;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.junit.jupiter.api.Test;

class FanOutInterceptorTest {

  private static Interceptor build(Map<String, String> settings) {
    Interceptor.Builder builder = new FanOutInterceptor.Builder();
    builder.configure(new Context(settings));
    return builder.build();
  }

  private static List<Event> batch(int size) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      events.add(EventBuilder.withBody(("event " + i).getBytes(StandardCharsets.UTF_8)));
    }
    return events;
  }

  private static List<String> lanes(List<Event> events, String header) {
    return events.stream().map(e -> e.getHeaders().get(header)).toList();
  }

  @Test
  void givesEachBatchOneLaneInTurn() {
    Interceptor fanOut = build(Map.of("header", "fanout", "lanes", "3"));
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      List<Event> events = batch(4);
      assertSame(events, fanOut.intercept(events));
      List<String> lanes = lanes(events, "fanout");
      assertEquals(
          List.of(lanes.get(0), lanes.get(0), lanes.get(0), lanes.get(0)),
          lanes,
          "one lane per batch");
      seen.add(lanes.get(0));
    }
    assertEquals(List.of("0", "1", "2", "0", "1", "2", "0"), seen);
  }

  @Test
  void singleEventsTakeTurnsAndEmptyBatchesTakeNone() {
    Interceptor fanOut = build(Map.of("lanes", "2"));
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      fanOut.intercept(List.of());
      Event event = EventBuilder.withBody(new byte[] {(byte) 0xff, 0x00});
      fanOut.intercept(event);
      assertArrayEquals(new byte[] {(byte) 0xff, 0x00}, event.getBody(), "body untouched");
      seen.add(event.getHeaders().get("fanout"));
    }
    assertEquals(List.of("0", "1", "0"), seen, "default header 'fanout', one lane per event");
  }

  @Test
  void replacesALaneSetUpstreamAndKeepsOtherHeaders() {
    Event event =
        EventBuilder.withBody(new byte[0], new HashMap<>(Map.of("fanout", "9", "host", "r1")));
    build(Map.of("lanes", "4")).intercept(List.of(event));
    assertEquals(Map.of("fanout", "0", "host", "r1"), event.getHeaders());
  }

  @Test
  void threadsSharingOneInstanceSplitBatchesEvenly() throws Exception {
    Interceptor fanOut = build(Map.of("lanes", "4"));
    Map<String, AtomicInteger> perLane = new ConcurrentHashMap<>();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 250; i++) {
                    List<Event> events = fanOut.intercept(batch(2));
                    perLane
                        .computeIfAbsent(lanes(events, "fanout").get(0), k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
    assertEquals(
        Map.of("0", 250, "1", 250, "2", 250, "3", 250),
        Map.of(
            "0",
            perLane.get("0").get(),
            "1",
            perLane.get("1").get(),
            "2",
            perLane.get("2").get(),
            "3",
            perLane.get("3").get()));
  }

  /**
   * With Flume's own ChannelProcessor and multiplexing selector: each batch lands whole in one
   * channel.
   */
  @Test
  void flumesMultiplexingSelectorPutsEachBatchWholeIntoOneChannel() {
    List<Channel> channels = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      MemoryChannel channel = new MemoryChannel();
      channel.setName("ch" + i);
      Configurables.configure(
          channel, new Context(Map.of("capacity", "100", "transactionCapacity", "20")));
      channel.start();
      channels.add(channel);
    }
    ChannelSelector selector =
        ChannelSelectorFactory.create(
            channels,
            Map.of(
                "type",
                "multiplexing",
                "header",
                "fanout",
                "mapping.0",
                "ch0",
                "mapping.1",
                "ch1",
                "default",
                "ch0"));
    ChannelProcessor processor = new ChannelProcessor(selector);
    processor.configure(
        new Context(
            Map.of(
                "interceptors",
                "fanout",
                "interceptors.fanout.type",
                FanOutInterceptor.Builder.class.getName(),
                "interceptors.fanout.lanes",
                "2")));
    processor.initialize();

    for (int b = 0; b < 4; b++) {
      List<Event> events = batch(5);
      for (Event e : events) {
        e.getHeaders().put("batch", Integer.toString(b));
      }
      processor.processEventBatch(events);
    }

    assertEquals(
        List.of("0", "0", "0", "0", "0", "2", "2", "2", "2", "2"), drainBatches(channels.get(0)));
    assertEquals(
        List.of("1", "1", "1", "1", "1", "3", "3", "3", "3", "3"), drainBatches(channels.get(1)));
    channels.forEach(Channel::stop);
  }

  private static List<String> drainBatches(Channel channel) {
    List<String> batches = new ArrayList<>();
    Transaction tx = channel.getTransaction();
    tx.begin();
    for (Event e = channel.take(); e != null; e = channel.take()) {
      batches.add(e.getHeaders().get("batch"));
    }
    tx.commit();
    tx.close();
    return batches;
  }

  @Test
  void badSettingsNameKeyValueAndRule() {
    ConfigurationException zero =
        assertThrows(
            ConfigurationException.class, () -> new FanOutInterceptorConfig(Map.of("lanes", "0")));
    assertEquals(
        "fan-out interceptor: invalid value '0' for key 'lanes': must be between 1 and 1024. Fix: set "
            + "lanes to between 1 and 1024.",
        zero.getMessage());
    ConfigurationException word =
        assertThrows(
            ConfigurationException.class,
            () -> new FanOutInterceptorConfig(Map.of("lanes", "two")));
    assertEquals(
        "fan-out interceptor: invalid value 'two' for key 'lanes': must be a whole number between "
            + "-2147483648 and 2147483647. Fix: set lanes to a whole number between -2147483648 and 2147483647.",
        word.getMessage());
    ConfigurationException typo =
        assertThrows(
            ConfigurationException.class, () -> new FanOutInterceptorConfig(Map.of("lane", "2")));
    assertEquals(
        "fan-out interceptor: unknown key 'lane' (did you mean 'lanes'?). Fix: remove it or use one of "
            + "header, lanes.",
        typo.getMessage());
  }
}
