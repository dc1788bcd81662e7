package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.flafka.contract.Headers;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.ContractEvent;
import org.flafka.stack.InProcessAgent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core agent, rendered from the template, drains events written with the edge header contract
 * into {@code <root>/dt=YYYY-MM-DD/host=<host>/}: in the default text format (snappy), byte for
 * byte and readable by Hadoop's own codec, and in the Avro format with every header beside its
 * body; both with two sources and two HDFS sinks (text: the template's fan-out by batch; Avro:
 * lanes by host).
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class CoreAgentLayoutTest {

  private static final long DAY = 24 * 3_600_000L;
  private static final String GUARD = "INTERCEPTOR.bucket-headers";

  @TempDir static Path dir;
  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  /** An event that should land in {@code dt}/{@code host}. */
  private record Expected(ContractEvent event, String dt, String host) {}

  /**
   * A mix of ordinary and odd events, each with the bucket it belongs in by {@code zone}: several
   * hosts over three days, the last millisecond before midnight and midnight itself, an event the
   * edge flagged for a bad device clock, one with an unreadable timestamp header, one without a
   * host header, one with an unsafe host, and bodies that are not plain ASCII.
   */
  private static List<Expected> eventMix(String prefix, ZoneId zone) {
    long now = System.currentTimeMillis();
    long midnight = LocalDate.now(zone).atStartOfDay(zone).toInstant().toEpochMilli();
    List<Expected> events = new ArrayList<>();
    int n = 0;
    for (int day = 0; day < 3; day++) {
      for (int h = 1; h <= 4; h++) {
        for (int k = 0; k < 10; k++) {
          long timestamp = midnight - day * DAY + k * 3_600_000L + h;
          String host = "edge-router-" + h;
          events.add(
              new Expected(
                  ContractEvent.of(prefix + n++, host, timestamp),
                  ContractEvent.dt(timestamp, zone),
                  host));
        }
      }
    }
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "edge-router-1", midnight - 1),
            ContractEvent.dt(midnight - 1, zone),
            "edge-router-1"));
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "edge-router-1", midnight),
            ContractEvent.dt(midnight, zone),
            "edge-router-1"));
    // The edge replaced a device clock of 2000-01-01 by the receive time and flagged it
    long received = now - 1000;
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "bad-clock", received)
                .withHeader("timestamp_source", "received")
                .withHeader("timestamp_rejected", "946684800000"),
            ContractEvent.dt(received, zone),
            "bad-clock"));
    // Not from our edge: a timestamp the HDFS sink cannot parse (it would wedge the sink without
    // the guard)
    long received2 = now - 2000;
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "odd-producer", now)
                .withHeader("timestamp", "17x")
                .withHeader("received", Long.toString(received2)),
            ContractEvent.dt(received2, zone),
            "odd-producer"));
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "ignored", now)
                .withHeader("host", null)
                .withHeader("peer", "192.0.2.99"),
            ContractEvent.dt(now, zone),
            "192.0.2.99"));
    events.add(
        new Expected(
            ContractEvent.of(prefix + n++, "../evil", now),
            ContractEvent.dt(now, zone),
            "-._evil"));
    // Bytes exactly as received: UTF-8, a tab, a carriage return, and bytes that are not UTF-8 at
    // all
    String id = prefix + n++;
    byte[] odd =
        concat(
            ("<13>Nov 21 10:00:00 edge-router-2 app: id=" + id + " caf\u00e9 \t x\r")
                .getBytes(StandardCharsets.UTF_8),
            new byte[] {(byte) 0xff, (byte) 0xfe, 'z'});
    events.add(
        new Expected(
            ContractEvent.of(id, "edge-router-2", now).withBody(odd),
            ContractEvent.dt(now, zone),
            "edge-router-2"));
    return events;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] joined = new byte[a.length + b.length];
    System.arraycopy(a, 0, joined, 0, a.length);
    System.arraycopy(b, 0, joined, a.length, b.length);
    return joined;
  }

  private static ContractEvent multiLineEvent(String id, ZoneId zone) {
    long now = System.currentTimeMillis();
    byte[] body =
        ("<11>1 - edge-router-3 java - - - id="
                + id
                + " Exception in thread main\n"
                + "\tat org.example.Main.run(Main.java:7)")
            .getBytes(StandardCharsets.UTF_8);
    return ContractEvent.of(id, "edge-router-3", now).withBody(body);
  }

  @Test
  void textFormatLandsEachBodyAsOneSnappyLineInItsDateAndHostBucket() throws IOException {
    String topic = "text";
    stack.kafka().createTopic(topic, 4);
    String root = stack.hdfsRoot("text");
    ZoneId utc = ZoneOffset.UTC;
    List<Expected> expected = eventMix("t", utc);
    ContractEvent multiLine = multiLineEvent("tmulti", utc);
    List<ContractEvent> sent = new ArrayList<>(expected.stream().map(Expected::event).toList());
    sent.add(multiLine);
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, sent);

    // Two sources, two sinks, fan-out by batch (core_fanout: batch)
    Map<String, Object> variables =
        stack.variables(
            topic,
            root,
            dir.resolve("text-data"),
            Map.of("core_kafka_sources", 2, "core_hdfs_sinks", 2, "core_fanout", "batch"));
    // The guard's counter group lives as long as this JVM: compare before and after
    Map<String, Long> guardBefore = guardCounters();
    InProcessAgent agent =
        InProcessAgent.start("core", CoreStack.render(variables), dir.resolve("text-agent"));
    try {
      stack.awaitLanded(
          root, sent.stream().map(ContractEvent::id).toList(), Duration.ofSeconds(60));
    } finally {
      Map<String, Long> guardAfter = guardCounters();
      agent.stop();
      // Every repair and every multi-line body is counted where a dashboard sees it
      assertEquals(1, delta(guardBefore, guardAfter, "TimestampInvalidCount"));
      assertEquals(1, delta(guardBefore, guardAfter, "HostMissingCount"));
      assertEquals(1, delta(guardBefore, guardAfter, "HostRewrittenCount"));
      assertEquals(1, delta(guardBefore, guardAfter, "BodyWithNewlineCount"));
    }

    Landing landing = stack.landing(root);
    // A clean stop closes every file: no in-use names, nothing cut short
    for (Landing.LandedFile file : landing.files()) {
      assertFalse(file.inUse(), file.path());
      assertFalse(file.truncated(), file.path());
      String name = file.path().substring(file.path().lastIndexOf('/') + 1);
      assertTrue(name.matches("core-.+-hdfs[01]\\.\\d+\\.snappy"), "file name " + name);
      assertInstanceOf(
          SnappyCodec.class,
          new CompressionCodecFactory(stack.fs().getConf())
              .getCodec(new org.apache.hadoop.fs.Path(file.path())),
          "Hadoop's own codec reads " + name);
    }
    Map<String, Landing.Landed> byId =
        landing.events().stream()
            .filter(e -> e.id() != null)
            .collect(Collectors.toMap(Landing.Landed::id, e -> e));
    for (Expected e : expected) {
      Landing.Landed landed = byId.get(e.event().id());
      assertEquals(
          e.dt() + "/" + e.host(),
          landed.dt() + "/" + landed.host(),
          "bucket of " + e.event().id());
      assertArrayEquals(e.event().body(), landed.body(), "body of " + e.event().id());
    }
    assertEquals(Map.of(), duplicates(landing), "nothing failed, so nothing is duplicated");

    // Text is one event per line: a body with a line feed reads back as two lines, in order, in one
    // file
    int first = indexOfLineWith(landing, "id=tmulti");
    Landing.Landed head = landing.events().get(first);
    Landing.Landed tail = landing.events().get(first + 1);
    assertEquals(head.file(), tail.file());
    assertArrayEquals(
        multiLine.body(), concat(concat(head.body(), new byte[] {'\n'}), tail.body()));
    assertEquals(
        expected.size() + 2, landing.events().size(), "every body a line, the multi-line one two");
  }

  @Test
  void avroFormatKeepsEveryHeaderWithItsBodyAndBucketsInTheConfiguredZone() throws IOException {
    String topic = "avro";
    stack.kafka().createTopic(topic, 4);
    String root = stack.hdfsRoot("avro");
    // +05:30 all year: a bucket boundary nowhere near UTC midnight, so the zone setting visibly
    // matters
    ZoneId zone = ZoneId.of("Asia/Kolkata");
    List<Expected> expected = new ArrayList<>(eventMix("a", zone));
    ContractEvent multiLine = multiLineEvent("amulti", zone);
    long multiLineTime = Long.parseLong(multiLine.headers().get("timestamp"));
    expected.add(new Expected(multiLine, ContractEvent.dt(multiLineTime, zone), "edge-router-3"));
    List<ContractEvent> sent = expected.stream().map(Expected::event).toList();
    // Every other event whose headers are what an edge parses from its body, as the edge writes it
    // by default (kafka_record_facts: carried): the core derives the rest from the body, and the
    // files must not tell the two apart.
    List<ContractEvent> produced = new ArrayList<>();
    for (int i = 0; i < sent.size(); i++) {
      ContractEvent event = sent.get(i);
      produced.add(i % 2 == 0 && bodyAgreesWithHeaders(event) ? carriedOnly(event) : event);
    }
    assertTrue(produced.stream().filter(e -> !e.headers().containsKey("format")).count() > 20);
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, produced);

    Map<String, Object> variables =
        stack.variables(
            topic,
            root,
            dir.resolve("avro-data"),
            Map.of(
                "core_hdfs_format",
                "avro",
                "core_hdfs_time_zone",
                zone.getId(),
                // Kafka sources with lanes by host: one writer per bucket whatever the partitioning
                "core_channel_type",
                "memory",
                "core_kafka_sources",
                2,
                "core_hdfs_sinks",
                2));
    InProcessAgent agent =
        InProcessAgent.start("core", CoreStack.render(variables), dir.resolve("avro-agent"));
    try {
      stack.awaitLanded(
          root, sent.stream().map(ContractEvent::id).toList(), Duration.ofSeconds(60));
    } finally {
      agent.stop();
    }

    Landing landing = stack.landing(root);
    for (Landing.LandedFile file : landing.files()) {
      assertFalse(file.inUse() || file.truncated(), file.path());
      String name = file.path().substring(file.path().lastIndexOf('/') + 1);
      assertTrue(name.matches("core-.+-hdfs[01]\\.\\d+\\.avro"), "file name " + name);
      try (InputStream in = stack.fs().open(new org.apache.hadoop.fs.Path(file.path()));
          DataFileStream<GenericRecord> avro =
              new DataFileStream<>(in, new GenericDatumReader<>())) {
        assertEquals("snappy", avro.getMetaString("avro.codec"), name);
      }
    }
    assertEquals(expected.size(), landing.events().size());
    assertEquals(Map.of(), duplicates(landing));
    // Lanes by host: each bucket has one writer, however many sinks there are, and both sinks wrote
    Map<String, Set<String>> sinksPerBucket = new TreeMap<>();
    for (Landing.LandedFile file : landing.files()) {
      String bucket = file.path().substring(0, file.path().lastIndexOf('/'));
      sinksPerBucket
          .computeIfAbsent(bucket, b -> new TreeSet<>())
          .add(file.path().replaceAll(".*-(hdfs\\d+)\\.\\d+\\.avro$", "$1"));
    }
    sinksPerBucket.forEach(
        (bucket, sinks) -> assertEquals(1, sinks.size(), bucket + " written by " + sinks));
    assertEquals(
        Set.of("hdfs0", "hdfs1"),
        sinksPerBucket.values().stream().flatMap(Set::stream).collect(Collectors.toSet()));
    Map<String, Landing.Landed> byId =
        landing.events().stream().collect(Collectors.toMap(Landing.Landed::id, e -> e));
    for (Expected e : expected) {
      Landing.Landed landed = byId.get(e.event().id());
      String id = e.event().id();
      assertEquals(e.dt() + "/" + e.host(), landed.dt() + "/" + landed.host(), "bucket of " + id);
      assertArrayEquals(e.event().body(), landed.body(), "body of " + id);
      assertEquals(landed.host(), landed.headers().get("host"), "host header of " + id);
      // Every contract header crossed Kafka and HDFS unchanged, except the ones the guard repaired
      Map<String, String> sentHeaders = new LinkedHashMap<>(e.event().headers());
      sentHeaders.remove("host");
      if (sentHeaders.get("timestamp").equals("17x")) {
        assertEquals("17x", landed.headers().get("timestamp_rejected"));
        assertEquals("received", landed.headers().get("timestamp_source"));
        assertEquals(sentHeaders.get("received"), landed.headers().get("timestamp"));
        sentHeaders.remove("timestamp");
        sentHeaders.remove("timestamp_source");
      }
      sentHeaders.forEach(
          (name, value) ->
              assertEquals(value, landed.headers().get(name), "header " + name + " of " + id));
    }
  }

  /** Whether the event's headers are those {@link ContractEvent#of} sets for its body. */
  private static boolean bodyAgreesWithHeaders(ContractEvent event) {
    String host = event.headers().get("host");
    String timestamp = event.headers().get("timestamp");
    return host != null
        && timestamp != null
        && timestamp.chars().allMatch(Character::isDigit)
        && "message".equals(event.headers().get("timestamp_source"))
        && Arrays.equals(
            event.body(),
            ContractEvent.syslogBody(event.id(), host, Long.parseLong(timestamp), 120));
  }

  /** The event with only the facts the body cannot give back, as the edge writes it by default. */
  private static ContractEvent carriedOnly(ContractEvent event) {
    ContractEvent carried = event;
    for (String name : event.headers().keySet()) {
      if (!Headers.CARRIED.contains(name) || name.equals(Headers.TIMESTAMP_SOURCE)) {
        carried = carried.withHeader(name, null);
      }
    }
    return carried;
  }

  private static int indexOfLineWith(Landing landing, String text) {
    for (int i = 0; i < landing.events().size(); i++) {
      if (landing.events().get(i).bodyText().contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no line contains " + text);
  }

  private static Map<String, Integer> duplicates(Landing landing) {
    Map<String, Integer> duplicates = new LinkedHashMap<>();
    landing
        .idCounts()
        .forEach(
            (id, count) -> {
              if (count > 1 && !id.equals("null")) {
                duplicates.put(id, count);
              }
            });
    return duplicates;
  }

  private static Map<String, Long> guardCounters() {
    return AgentMetrics.of(JMXPollUtil.getAllMBeans()).counters().getOrDefault(GUARD, Map.of());
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String counter) {
    return after.getOrDefault(counter, 0L) - before.getOrDefault(counter, 0L);
  }
}
