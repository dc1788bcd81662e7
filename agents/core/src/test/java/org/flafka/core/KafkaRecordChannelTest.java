package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.conf.Configurables;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.ContractEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KafkaRecordChannel} against a real KRaft broker: takes are the edge's records with their
 * headers, repaired by the bucket guard; offsets are committed when the take commits and not
 * before; a rollback takes the same records again; a channel that replaces a dead one (same name,
 * static membership) reads on from the last commit without waiting for the dead one's session
 * timeout.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class KafkaRecordChannelTest {

  private static final long NOW = System.currentTimeMillis();

  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  private static KafkaRecordChannel channel(String name, String topic, String group) {
    KafkaRecordChannel channel = new KafkaRecordChannel();
    channel.setName(name);
    Map<String, String> settings = new HashMap<>();
    settings.put("type", KafkaRecordChannel.class.getName());
    settings.put("kafka.bootstrap.servers", stack.kafka().bootstrapServers());
    settings.put("kafka.topic", topic);
    settings.put("kafka.consumer.group.id", group);
    settings.put("pollTimeout", "200");
    Configurables.configure(channel, new Context(settings));
    channel.start();
    return channel;
  }

  private static List<ContractEvent> produce(String topic, int from, int count) {
    List<ContractEvent> events = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      events.add(ContractEvent.of("e" + i, "router-1", NOW + i));
    }
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, events);
    return events;
  }

  /** Takes up to {@code max} events in one transaction, waiting up to 60 s for the first. */
  private static List<Event> take(KafkaRecordChannel channel, int max, boolean commit) {
    List<Event> events = new ArrayList<>();
    Transaction tx = channel.getTransaction();
    tx.begin();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (events.size() < max) {
      Event event = channel.take();
      if (event == null) {
        if (!events.isEmpty() || System.nanoTime() > deadline) {
          break;
        }
        continue;
      }
      events.add(event);
    }
    if (commit) {
      tx.commit();
    } else {
      tx.rollback();
    }
    tx.close();
    return events;
  }

  @Test
  void takesAreTheRecordsWithGuardedHeadersAndTheirOffsetsCommitWithTheTake() throws Exception {
    String topic = "record-channel";
    stack.kafka().createTopic(topic, 1);
    List<ContractEvent> sent = new ArrayList<>();
    sent.add(ContractEvent.of("bad-ts", "router-1", NOW).withHeader("timestamp", "yesterday"));
    sent.add(ContractEvent.of("bad-host", "../etc", NOW));
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, sent);
    sent.addAll(produce(topic, 2, 38));
    KafkaRecordChannel channel = channel("ch0", topic, "g-channel");
    try {
      Transaction tx = channel.getTransaction();
      tx.begin();
      List<Event> taken = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (taken.size() < 25 && System.nanoTime() < deadline) {
        Event event = channel.take();
        if (event != null) {
          taken.add(event);
        }
      }
      assertEquals(
          0,
          stack.kafka().committedOffset("g-channel", topic, 0),
          "nothing is committed before the take is");
      tx.commit();
      tx.close();
      assertEquals(
          25,
          stack.kafka().committedOffset("g-channel", topic, 0),
          "the take's offsets, committed with it");

      for (int i = 0; i < taken.size(); i++) {
        assertArrayEquals(sent.get(i).body(), taken.get(i).getBody(), "body " + i);
        assertEquals(sent.get(i).id(), taken.get(i).getHeaders().get("id"));
      }
      // The bucket guard ran: a sane timestamp, a path-safe host, the rejected value kept
      Map<String, String> badTs = taken.get(0).getHeaders();
      assertEquals("yesterday", badTs.get("timestamp_rejected"));
      assertEquals(sent.get(0).headers().get("received"), badTs.get("timestamp"));
      String host = taken.get(1).getHeaders().get("host");
      assertTrue(!host.contains("/") && !host.equals(".."), "path-safe host, got " + host);

      List<Event> rest = take(channel, 100, true);
      assertEquals(15, rest.size());
      assertEquals(40, stack.kafka().committedOffset("g-channel", topic, 0));
      AgentMetrics metrics = AgentMetrics.of(JMXPollUtil.getAllMBeans());
      assertEquals(40, metrics.channel("ch0", "EventTakeSuccessCount"));
      assertEquals(0, metrics.channel("ch0", "EventPutSuccessCount"));
    } finally {
      channel.stop();
    }
  }

  @Test
  void aRolledBackTakeIsTakenAgainAndNotCommitted() throws Exception {
    String topic = "record-channel-rollback";
    stack.kafka().createTopic(topic, 1);
    List<ContractEvent> sent = produce(topic, 0, 30);
    KafkaRecordChannel channel = channel("ch0", topic, "g-rollback");
    try {
      List<Event> first = take(channel, 20, false);
      assertEquals(20, first.size());
      assertEquals(0, stack.kafka().committedOffset("g-rollback", topic, 0));
      List<Event> again = take(channel, 30, true);
      assertEquals(30, again.size(), "the rolled back records and the rest, each once");
      for (int i = 0; i < 30; i++) {
        assertArrayEquals(sent.get(i).body(), again.get(i).getBody(), "body " + i);
      }
      assertEquals(30, stack.kafka().committedOffset("g-rollback", topic, 0));
    } finally {
      channel.stop();
    }
  }

  @Test
  void aChannelReplacingADeadOneReadsOnFromTheLastCommitWithoutWaitingForItsSession()
      throws Exception {
    String topic = "record-channel-restart";
    stack.kafka().createTopic(topic, 1);
    List<ContractEvent> sent = produce(topic, 0, 50);
    // The first channel takes and commits 20, then stops polling without leaving the group, as a
    // killed agent's consumer does
    KafkaRecordChannel dead = channel("ch0", topic, "g-restart");
    assertEquals(20, take(dead, 20, true).size());
    long started = System.nanoTime();
    KafkaRecordChannel restarted = channel("ch0", topic, "g-restart");
    try {
      List<Event> next = take(restarted, 30, true);
      Duration firstRead = Duration.ofNanos(System.nanoTime() - started);
      System.out.println(
          "restart to first read, static membership: " + firstRead.toMillis() + " ms");
      assertNotNull(next);
      assertEquals(30, next.size());
      assertArrayEquals(sent.get(20).body(), next.get(0).getBody(), "on from the last commit");
      // A dynamic member would wait for the dead one's session timeout (45 s by default)
      assertTrue(
          firstRead.compareTo(Duration.ofSeconds(30)) < 0,
          "took its partitions at once, not after the session timeout: " + firstRead);
    } finally {
      restarted.stop();
      try {
        dead.stop();
      } catch (RuntimeException fenced) {
        // Its membership went to the new channel
      }
    }
  }

  @Test
  void aTransactionWhosePartitionsGoToAnotherReaderFailsItsNextTakeSoNothingIsTakenTwice()
      throws Exception {
    String topic = "record-channel-rebalance";
    stack.kafka().createTopic(topic, 2);
    List<ContractEvent> sent = produce(topic, 0, 40);
    KafkaRecordChannel first = channel("ch0", topic, "g-rebalance");
    KafkaRecordChannel second = null;
    ExecutorService reader = Executors.newSingleThreadExecutor();
    List<String> committed = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    try {
      Transaction open = first.getTransaction();
      open.begin();
      for (int taken = 0; taken < 10; ) {
        taken += first.take() == null ? 0 : 1;
      }
      // A second reader joins the group: its join moves partitions the open transaction took from
      KafkaRecordChannel joining = channel("ch1", topic, "g-rebalance");
      second = joining;
      Future<?> secondReads = reader.submit(() -> readUntil(joining, stop, committed));
      PartitionsRevokedException revoked = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (revoked == null && System.nanoTime() < deadline) {
        try {
          first.take();
        } catch (PartitionsRevokedException e) {
          revoked = e;
        }
      }
      assertNotNull(revoked, "the open transaction's next take after the rebalance fails");
      open.rollback();
      open.close();

      // Both read on: each event is committed once, by whichever reader owns its partition now
      readUntil(first, () -> committed.size() >= sent.size(), committed);
      stop.set(true);
      secondReads.get(60, TimeUnit.SECONDS);
      List<String> expected = new ArrayList<>(sent.stream().map(ContractEvent::id).toList());
      List<String> got = new ArrayList<>(committed);
      Collections.sort(expected);
      Collections.sort(got);
      assertEquals(expected, got, "every event committed exactly once across the two readers");
    } finally {
      stop.set(true);
      reader.shutdownNow();
      first.stop();
      if (second != null) {
        second.stop();
      }
    }
  }

  /**
   * Takes and commits transactions of {@code channel} until {@code done}, adding each committed
   * event's id to {@code committed}; a transaction a rebalance revoked is rolled back, as the sink
   * does.
   */
  private static void readUntil(
      KafkaRecordChannel channel, BooleanSupplier done, List<String> committed) {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Transaction tx = channel.getTransaction();
      tx.begin();
      List<String> ids = new ArrayList<>();
      try {
        for (Event event = channel.take(); event != null; event = channel.take()) {
          ids.add(event.getHeaders().get("id"));
        }
        tx.commit();
        committed.addAll(ids);
      } catch (PartitionsRevokedException e) {
        tx.rollback();
      } finally {
        tx.close();
      }
    }
  }

  private static void readUntil(
      KafkaRecordChannel channel, AtomicBoolean stop, List<String> committed) {
    readUntil(channel, stop::get, committed);
  }
}
