package org.flafka.edge.it;

import static org.flafka.edge.it.EdgeTestSupport.header;
import static org.flafka.edge.it.EdgeTestSupport.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.EventDeliveryException;
import org.apache.flume.Sink;
import org.apache.flume.Transaction;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.conf.Configurables;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flafka.edge.channel.BatchMemoryChannel;
import org.flafka.edge.sink.KafkaRecordSink;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KafkaRecordSink} against a real KRaft broker: bodies byte-exact, the chosen headers as
 * record headers, the key, batch accounting in Flume's metrics, a batch ended by its time bound, a
 * too-large event dropped and counted without stalling the sink, an unreachable broker rolling the
 * batch back into the channel, and a batch Kafka does not acknowledge within ackTimeoutMillis
 * rolled back and sent again by a new producer.
 */
@Tag("e2e")
class KafkaRecordSinkTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = KafkaBrokerExtension.behindProxy();

  @Test
  void writesBodiesByteExactWithTheChosenHeadersAndTheKey() throws Exception {
    MemoryChannel channel = channel("c-exact");
    for (int seq = 0; seq < 250; seq++) {
      put(channel, EdgeTestSupport.routerEvent(seq));
    }
    Sink sink =
        sink(
            "k-exact",
            channel,
            "kafka.topic",
            "exact",
            "batchSize",
            "100",
            "recordHeaders",
            "host,id");
    try {
      drain(sink);
    } finally {
      sink.stop();
    }

    EdgeTestSupport.assertRouterRecords(kafka, "exact", 250);
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("SINK.k-exact");
    assertEquals("250", metrics.get("EventDrainAttemptCount"));
    assertEquals("250", metrics.get("EventDrainSuccessCount"));
    assertEquals("2", metrics.get("BatchCompleteCount"));
    assertEquals("1", metrics.get("BatchUnderflowCount"));
    assertEquals("1", metrics.get("BatchEmptyCount"));
    assertEquals("0", metrics.get("EventWriteFail"));
  }

  @Test
  void aBatchCommitsWithWhatItHoldsOnceBatchDurationMillisHavePassed() throws Exception {
    // Flume's memory channel: its takes wait out their keep-alive (3 s), but a trickle of events
    // never lets them; the sink's own clock ends the batch.
    MemoryChannel flumes = channel("c-trickle");
    AtomicBoolean trickling = new AtomicBoolean(true);
    Thread trickle =
        new Thread(
            () -> {
              for (int seq = 0; trickling.get() && seq < 400; seq++) {
                put(flumes, EdgeTestSupport.routerEvent(seq));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
              }
            },
            "trickle");
    trickle.start();
    Sink onFlumes =
        sink(
            "k-trickle",
            flumes,
            "kafka.topic",
            "trickle",
            "batchSize",
            "5000",
            "batchDurationMillis",
            "300");
    try {
      assertEquals(Sink.Status.READY, onFlumes.process());
    } finally {
      trickling.set(false);
      trickle.join();
      onFlumes.stop();
    }
    Map<String, String> trickled = JMXPollUtil.getAllMBeans().get("SINK.k-trickle");
    long drained = Long.parseLong(trickled.get("EventDrainSuccessCount"));
    assertTrue(
        drained >= 1 && drained < 100,
        "one batch of about 300 ms of a 50 events/s trickle, not all of it: " + drained);
    assertEquals("1", trickled.get("BatchUnderflowCount"));

    // Ours: a take waiting on the empty channel ends at the batch's deadline, not at the keep-alive
    // (10 s here).
    BatchMemoryChannel ours = new BatchMemoryChannel();
    ours.setName("c-quiet");
    Configurables.configure(
        ours,
        new Context(Map.of("capacity", "1000", "transactionCapacity", "1000", "keep-alive", "10")));
    ours.start();
    for (int seq = 0; seq < 3; seq++) {
      put(ours, EdgeTestSupport.routerEvent(seq));
    }
    Sink onOurs =
        sink(
            "k-quiet",
            ours,
            "kafka.topic",
            "quiet",
            "batchSize",
            "5000",
            "batchDurationMillis",
            "300",
            "recordHeaders",
            "host,id");
    long started = System.nanoTime();
    try {
      assertEquals(Sink.Status.READY, onOurs.process());
    } finally {
      onOurs.stop();
      ours.stop();
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertTrue(
        tookMillis >= 300 && tookMillis < 5_000,
        "the batch took "
            + tookMillis
            + " ms: until "
            + "batchDurationMillis (300), not the channel's keep-alive (10 s)");
    EdgeTestSupport.assertRouterRecords(kafka, "quiet", 3);
    assertEquals("3", JMXPollUtil.getAllMBeans().get("SINK.k-quiet").get("EventDrainSuccessCount"));
  }

  @Test
  void aTooLargeEventIsDroppedWholeAndCountedWithoutStallingTheSink() throws Exception {
    assertDroppedBetweenTwoSmallOnes("large", "kafka.producer.max.request.size", "4096");
  }

  @Test
  void anEventTheTopicRefusesAsTooLargeIsDroppedWholeAndCountedToo() throws Exception {
    // The producer's own limit (1 MiB by default) lets it through; the topic's max.message.bytes
    // does not.
    try (Admin admin = kafka.admin()) {
      admin
          .createTopics(
              List.of(
                  new NewTopic("refused", 1, (short) 1)
                      .configs(Map.of("max.message.bytes", "4096"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    assertDroppedBetweenTwoSmallOnes("refused");
  }

  /**
   * Sends an 8,000-byte event between two small ones to {@code topic} through a sink with {@code
   * sinkSettings}, then checks that the small ones arrived, the large one was counted, and the sink
   * did not stall on it.
   */
  private static void assertDroppedBetweenTwoSmallOnes(String topic, String... sinkSettings)
      throws Exception {
    MemoryChannel channel = channel("c-" + topic);
    // Random bytes, so that snappy cannot shrink the record under a limit.
    byte[] large = new byte[8000];
    new Random(42).nextBytes(large);
    put(
        channel,
        EventBuilder.withBody("small-1".getBytes(StandardCharsets.US_ASCII), Map.of("host", "a")));
    put(channel, EventBuilder.withBody(large, Map.of("host", "b")));
    put(
        channel,
        EventBuilder.withBody("small-2".getBytes(StandardCharsets.US_ASCII), Map.of("host", "c")));
    List<String> settings = new ArrayList<>(List.of("kafka.topic", topic));
    settings.addAll(List.of(sinkSettings));
    Sink sink = sink("k-" + topic, channel, settings.toArray(String[]::new));
    try {
      assertEquals(Sink.Status.READY, sink.process());
      assertEquals(Sink.Status.BACKOFF, sink.process(), "the channel is empty: nothing is retried");
    } finally {
      sink.stop();
    }

    List<ConsumerRecord<byte[], byte[]>> records =
        EdgeTestSupport.awaitRecords(kafka, topic, r -> true, 2);
    assertEquals(
        List.of("small-1", "small-2"),
        records.stream()
            .map(r -> new String(r.value(), StandardCharsets.US_ASCII))
            .sorted()
            .toList());
    assertEquals(
        "a",
        header(
            records.stream()
                .filter(r -> r.value().length == 7 && r.value()[6] == '1')
                .findFirst()
                .orElseThrow(),
            "host"),
        "recordHeaders defaults to every header");
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("SINK.k-" + topic);
    assertEquals("2", metrics.get("EventDrainSuccessCount"));
    assertEquals("1", metrics.get("RecordTooLargeDropCount"));
    assertEquals("1", metrics.get("EventWriteFail"));
  }

  @Test
  void anUnreachableBrokerRollsTheBatchBackIntoTheChannel() throws Exception {
    MemoryChannel channel = channel("c-down");
    for (int i = 0; i < 5; i++) {
      put(
          channel,
          EventBuilder.withBody(("kept-" + i).getBytes(StandardCharsets.US_ASCII), Map.of()));
    }
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Sink sink =
        sink(
            "k-down",
            channel,
            "kafka.bootstrap.servers",
            "127.0.0.1:" + closedPort,
            "kafka.topic",
            "down",
            "kafka.producer.max.block.ms",
            "500");
    try {
      EventDeliveryException e = assertThrows(EventDeliveryException.class, sink::process);
      assertTrue(
          e.getMessage()
              .startsWith(
                  "Kafka record sink k-down: Kafka did not acknowledge every event of the batch: "),
          e.getMessage());
    } finally {
      sink.stop();
    }
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("SINK.k-down");
    assertEquals("1", metrics.get("RollbackCount"));
    assertEquals("0", metrics.get("EventDrainSuccessCount"));
    assertEquals("1", metrics.get("EventWriteFail"));
    List<String> left = new ArrayList<>();
    Transaction tx = channel.getTransaction();
    tx.begin();
    for (Event event = channel.take(); event != null; event = channel.take()) {
      left.add(new String(event.getBody(), StandardCharsets.US_ASCII));
    }
    tx.commit();
    tx.close();
    assertEquals(List.of("kept-0", "kept-1", "kept-2", "kept-3", "kept-4"), left);
  }

  @Test
  void aBatchKafkaDoesNotAcknowledgeInTimeIsRolledBackAndDeliveredByANewProducer()
      throws Exception {
    MemoryChannel channel = channel("c-dark");
    put(channel, EventBuilder.withBody(utf8("before-the-dark"), Map.of()));
    Sink sink =
        sink(
            "k-dark", channel, "kafka.topic", "dark", "ackTimeoutMillis", "3000", "batchSize", "5");
    try {
      assertEquals(Sink.Status.READY, sink.process(), "the producer has the topic's metadata");
      for (int i = 0; i < 5; i++) {
        put(channel, EventBuilder.withBody(utf8("kept-" + i), Map.of()));
      }
      // The link goes dark: the producer sends into it and would wait delivery.timeout.ms (120 s)
      kafka.clientProxy().blackHole();
      long started = System.nanoTime();
      EventDeliveryException e;
      try {
        e = assertThrows(EventDeliveryException.class, sink::process);
      } finally {
        kafka.clientProxy().restore();
      }
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertTrue(
          e.getMessage()
              .equals(
                  "Kafka record sink k-dark: Kafka did not acknowledge every event of the batch"
                      + " within ackTimeoutMillis (3000 ms); the batch is rolled back and the"
                      + " producer replaced"),
          e.getMessage());
      assertTrue(
          tookMillis >= 3000 && tookMillis < 60_000,
          "the batch ended at ackTimeoutMillis, not at delivery.timeout.ms: " + tookMillis);
      Map<String, String> rolledBack = JMXPollUtil.getAllMBeans().get("SINK.k-dark");
      assertEquals("1", rolledBack.get("RollbackCount"));
      assertEquals("1", rolledBack.get("EventDrainSuccessCount"));
      assertEquals("0", rolledBack.get("KafkaProducerReplacementCount"));

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (sink.process() != Sink.Status.READY) {
        assertTrue(System.nanoTime() < deadline, "a new producer sends the batch again");
        Thread.sleep(100);
      }
    } finally {
      sink.stop();
    }
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("SINK.k-dark");
    assertEquals("6", metrics.get("EventDrainSuccessCount"));
    assertEquals("1", metrics.get("KafkaProducerReplacementCount"));
    List<String> delivered =
        EdgeTestSupport.awaitRecords(kafka, "dark", r -> true, 6).stream()
            .map(r -> new String(r.value(), StandardCharsets.US_ASCII))
            .distinct()
            .sorted()
            .toList();
    assertEquals(
        List.of("before-the-dark", "kept-0", "kept-1", "kept-2", "kept-3", "kept-4"), delivered);
  }

  private static MemoryChannel channel(String name) {
    MemoryChannel channel = new MemoryChannel();
    channel.setName(name);
    Configurables.configure(
        channel, new Context(Map.of("capacity", "1000", "transactionCapacity", "1000")));
    channel.start();
    return channel;
  }

  private static void put(Channel channel, Event event) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    channel.put(event);
    tx.commit();
    tx.close();
  }

  private static Sink sink(String name, Channel channel, String... keyValues) {
    Map<String, String> props =
        new HashMap<>(
            Map.of(
                "kafka.bootstrap.servers",
                kafka.bootstrapServers(),
                "kafka.producer.linger.ms",
                "0"));
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    KafkaRecordSink sink = new KafkaRecordSink();
    sink.setName(name);
    sink.setChannel(channel);
    Configurables.configure(sink, new Context(props));
    sink.start();
    return sink;
  }

  private static void drain(Sink sink) throws EventDeliveryException {
    while (sink.process() == Sink.Status.READY) {
      // until the channel is empty
    }
  }
}
