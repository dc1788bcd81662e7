package org.flafka.edge.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flume.Channel;
import org.apache.flume.ChannelException;
import org.apache.flume.ChannelFullException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.flafka.edge.sink.TakeDeadline;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BatchMemoryChannelTest {

  private final List<BatchMemoryChannel> started = new ArrayList<>();

  @AfterEach
  void stopChannels() {
    started.forEach(BatchMemoryChannel::stop);
  }

  private BatchMemoryChannel channel(String... keyValues) {
    Map<String, String> props = new HashMap<>(Map.of("keep-alive", "0"));
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    BatchMemoryChannel channel = new BatchMemoryChannel();
    channel.setName("ch" + started.size());
    channel.configure(new Context(props));
    channel.start();
    started.add(channel);
    return channel;
  }

  private static Event event(int id) {
    return EventBuilder.withBody(Integer.toString(id), StandardCharsets.UTF_8);
  }

  private static int id(Event event) {
    return Integer.parseInt(new String(event.getBody(), StandardCharsets.UTF_8));
  }

  /**
   * Puts events {@code from} to {@code to} - 1 in one transaction, as a source does: rolled back if
   * refused.
   */
  private static void put(Channel channel, int from, int to) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    try {
      for (int id = from; id < to; id++) {
        channel.put(event(id));
      }
      tx.commit();
    } catch (RuntimeException e) {
      tx.rollback();
      throw e;
    } finally {
      tx.close();
    }
  }

  /**
   * Takes up to {@code max} events in one transaction and commits (or rolls back) it; returns their
   * ids.
   */
  private static List<Integer> take(Channel channel, int max, boolean commit) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    List<Integer> ids = new ArrayList<>();
    Event event;
    while (ids.size() < max && (event = channel.take()) != null) {
      ids.add(id(event));
    }
    if (commit) {
      tx.commit();
    } else {
      tx.rollback();
    }
    tx.close();
    return ids;
  }

  private static BatchMemoryChannelCounter counter(BatchMemoryChannel channel) throws Exception {
    var field = BatchMemoryChannel.class.getDeclaredField("counter");
    field.setAccessible(true);
    return (BatchMemoryChannelCounter) field.get(channel);
  }

  @Test
  void committedPutsAreTakenInOrderAndUncommittedOnesAreInvisible() {
    BatchMemoryChannel channel = channel();
    put(channel, 0, 5);
    Transaction open = channel.getTransaction();
    open.begin();
    channel.put(event(99));
    // another thread's take sees only the committed events
    List<Integer> seen = CompletableFuture.supplyAsync(() -> take(channel, 100, true)).join();
    assertEquals(List.of(0, 1, 2, 3, 4), seen);
    open.rollback();
    open.close();
    assertEquals(List.of(), take(channel, 100, true), "a rolled-back put is gone");
  }

  @Test
  void rolledBackTakesReturnToTheHeadInTheirOrder() {
    BatchMemoryChannel channel = channel();
    put(channel, 0, 10);
    assertEquals(List.of(0, 1, 2, 3), take(channel, 4, false));
    assertEquals(List.of(0, 1, 2, 3, 4, 5), take(channel, 6, true));
    assertEquals(List.of(6, 7, 8, 9), take(channel, 100, true));
  }

  @Test
  void aTransactionBeyondTransactionCapacityFailsNamingTheKey() {
    BatchMemoryChannel channel = channel("capacity", "100", "transactionCapacity", "3");
    Transaction tx = channel.getTransaction();
    tx.begin();
    for (int i = 0; i < 3; i++) {
      channel.put(event(i));
    }
    ChannelException e = assertThrows(ChannelException.class, () -> channel.put(event(3)));
    assertTrue(e.getMessage().contains("transactionCapacity = 3"), e.getMessage());
    tx.rollback();
    tx.close();
    put(channel, 0, 3);
    put(channel, 3, 6);
    Transaction taking = channel.getTransaction();
    taking.begin();
    for (int i = 0; i < 3; i++) {
      channel.take();
    }
    assertThrows(ChannelException.class, channel::take);
    taking.rollback();
    taking.close();
  }

  @Test
  void aFullChannelRefusesTheCommitAndTakenEventsStillCount() {
    BatchMemoryChannel channel = channel("capacity", "10", "transactionCapacity", "10");
    put(channel, 0, 8);
    ChannelFullException full = assertThrows(ChannelFullException.class, () -> put(channel, 8, 11));
    assertTrue(full.getMessage().contains("capacity = 10"), full.getMessage());
    // taken but not committed: still held, so there is room for only 2 more
    Transaction taking = channel.getTransaction();
    taking.begin();
    channel.take();
    channel.take();
    CompletionException refused =
        assertThrows(
            CompletionException.class,
            () -> CompletableFuture.runAsync(() -> put(channel, 8, 11)).join());
    assertInstanceOf(ChannelFullException.class, refused.getCause());
    taking.commit();
    taking.close();
    put(channel, 8, 12);
    assertEquals(List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11), take(channel, 10, true));
  }

  @Test
  @Timeout(20)
  void aCommitWaitsUpToKeepAliveForTakesToMakeRoom() throws Exception {
    BatchMemoryChannel channel =
        channel("capacity", "4", "transactionCapacity", "4", "keep-alive", "10");
    put(channel, 0, 4);
    CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> put(channel, 4, 6));
    TimeUnit.MILLISECONDS.sleep(200);
    assertFalse(blocked.isDone(), "the commit waits for room");
    assertEquals(List.of(0, 1), take(channel, 2, true));
    blocked.get(5, TimeUnit.SECONDS);
    assertEquals(List.of(2, 3, 4, 5), take(channel, 4, true));
  }

  @Test
  @Timeout(20)
  void aTakeWaitsUpToKeepAliveForAnEvent() throws Exception {
    BatchMemoryChannel channel = channel("keep-alive", "10");
    CompletableFuture<List<Integer>> taking =
        CompletableFuture.supplyAsync(() -> take(channel, 1, true));
    TimeUnit.MILLISECONDS.sleep(200);
    assertFalse(taking.isDone(), "the take waits for an event");
    put(channel, 7, 8);
    assertEquals(List.of(7), taking.get(5, TimeUnit.SECONDS));
    BatchMemoryChannel impatient = channel("keep-alive", "0");
    assertEquals(List.of(), take(impatient, 1, true), "keep-alive 0: no wait");
  }

  @Test
  @Timeout(20)
  void aTakeDeadlineEndsTheWaitBeforeKeepAliveButNotATakeOfAQueuedEvent() {
    BatchMemoryChannel channel = channel("keep-alive", "10");
    put(channel, 0, 2);
    Transaction tx = channel.getTransaction();
    tx.begin();
    long started = System.nanoTime();
    assertInstanceOf(TakeDeadline.class, tx).takeNoLaterThan(started - 1);
    assertEquals(0, id(channel.take()), "a queued event is taken past the deadline");
    assertEquals(1, id(channel.take()));
    ((TakeDeadline) tx).takeNoLaterThan(started + TimeUnit.MILLISECONDS.toNanos(300));
    assertEquals(null, channel.take(), "the empty channel's take ends at the deadline");
    long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    tx.commit();
    tx.close();
    assertTrue(
        waitedMillis >= 300 && waitedMillis < 5_000,
        "the take waited "
            + waitedMillis
            + " ms: until the deadline (300 ms), not keep-alive (10 s)");
    CompletableFuture<Void> putLater =
        CompletableFuture.runAsync(
            () -> put(channel, 2, 3),
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
    assertEquals(
        List.of(2), take(channel, 1, true), "the thread's next transaction waits keep-alive again");
    putLater.join();
  }

  @Test
  void byteCapacityBoundsTheBodiesHeldInFlumesSlots() {
    // 1000 bytes less the 20% buffer: 8 slots of 100 bytes; a 250-byte body takes 3
    BatchMemoryChannel channel = channel("capacity", "100", "byteCapacity", "1000");
    Event big = EventBuilder.withBody(new byte[250]);
    Transaction tx = channel.getTransaction();
    tx.begin();
    channel.put(big);
    channel.put(big);
    tx.commit();
    tx.close();
    Transaction third = channel.getTransaction();
    third.begin();
    channel.put(big);
    ChannelFullException full = assertThrows(ChannelFullException.class, third::commit);
    assertTrue(full.getMessage().contains("byteCapacity (800 bytes"), full.getMessage());
    third.rollback();
    third.close();
    Transaction taking = channel.getTransaction();
    taking.begin();
    channel.take();
    taking.commit();
    taking.close();
    put(channel, 0, 1); // a 1-byte body: 1 slot, fits beside the 250 bytes left
  }

  @Test
  void countersAreFlumesChannelCounters() throws Exception {
    BatchMemoryChannel channel = channel("capacity", "50", "transactionCapacity", "20");
    put(channel, 0, 20);
    take(channel, 5, false);
    take(channel, 8, true);
    BatchMemoryChannelCounter counter = counter(channel);
    assertEquals(20, counter.getEventPutAttemptCount());
    assertEquals(20, counter.getEventPutSuccessCount());
    assertEquals(13, counter.getEventTakeAttemptCount());
    assertEquals(8, counter.getEventTakeSuccessCount());
    assertEquals(12, counter.getChannelSize());
    assertEquals(50, counter.getChannelCapacity());
    assertEquals(24.0, counter.getChannelFillPercentage(), 1e-9);
    take(channel, 100, true); // 12 events, then one attempt that finds none
    assertEquals(26, counter.getEventTakeAttemptCount());
    assertEquals(0, counter.getChannelSize());
  }

  /**
   * Two sources and two sinks at once, with random batch sizes, random take rollbacks and a small
   * channel that is often full: every event arrives exactly once. (Order is not checked here: a
   * rollback puts events back behind what the other sink has already taken, in Flume's memory
   * channel too.)
   */
  @Test
  @Timeout(60)
  void concurrentSourcesAndSinksDeliverEveryEventExactlyOnce() throws Exception {
    BatchMemoryChannel channel =
        channel("capacity", "300", "transactionCapacity", "100", "keep-alive", "1");
    int perSource = 60_000;
    AtomicInteger delivered = new AtomicInteger();
    ConcurrentLinkedQueue<Integer> taken = new ConcurrentLinkedQueue<>();
    List<CompletableFuture<Void>> sources = new ArrayList<>();
    for (int s = 0; s < 2; s++) {
      int base = s * perSource;
      sources.add(
          CompletableFuture.runAsync(
              () -> {
                Random random = new Random(base);
                int next = base;
                while (next < base + perSource) {
                  int batch = Math.min(1 + random.nextInt(100), base + perSource - next);
                  try {
                    put(channel, next, next + batch);
                    next += batch;
                  } catch (ChannelFullException e) {
                    // refused whole: put the same batch again
                  }
                }
              }));
    }
    List<CompletableFuture<Void>> sinks = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      int seed = 100 + k;
      sinks.add(
          CompletableFuture.runAsync(
              () -> {
                Random random = new Random(seed);
                while (delivered.get() < 2 * perSource) {
                  boolean commit = random.nextInt(5) > 0;
                  List<Integer> ids = take(channel, 1 + random.nextInt(100), commit);
                  if (!commit) {
                    continue;
                  }
                  taken.addAll(ids);
                  delivered.addAndGet(ids.size());
                }
              }));
    }
    CompletableFuture.allOf(sources.toArray(new CompletableFuture[0])).get(50, TimeUnit.SECONDS);
    CompletableFuture.allOf(sinks.toArray(new CompletableFuture[0])).get(50, TimeUnit.SECONDS);
    BitSet seen = new BitSet(2 * perSource);
    for (int id : taken) {
      assertFalse(seen.get(id), "event " + id + " delivered twice");
      seen.set(id);
    }
    assertEquals(2 * perSource, seen.cardinality(), "every event delivered");
  }

  @Test
  void badSettingsAreErrorsNamingTheKeyAndTheFix() {
    String tooBig =
        assertThrows(
                ConfigurationException.class,
                () ->
                    BatchMemoryChannelConfig.parse(
                        "memory channel ch0",
                        Map.of("capacity", "10", "transactionCapacity", "20")))
            .getMessage();
    assertEquals(
        "memory channel ch0: transactionCapacity = 20 is larger than capacity = 10, so a full "
            + "transaction could never commit. Fix: raise capacity or lower transactionCapacity.",
        tooBig);
    String notANumber =
        assertThrows(
                ConfigurationException.class,
                () ->
                    BatchMemoryChannelConfig.parse("memory channel ch0", Map.of("capacity", "10k")))
            .getMessage();
    assertTrue(
        notANumber.startsWith("memory channel ch0: invalid value '10k' for key 'capacity'"),
        notANumber);
    String percentage =
        assertThrows(
                ConfigurationException.class,
                () ->
                    BatchMemoryChannelConfig.parse(
                        "memory channel ch0", Map.of("byteCapacityBufferPercentage", "100")))
            .getMessage();
    assertTrue(
        percentage.endsWith("Fix: set byteCapacityBufferPercentage to between 0 and 99."),
        percentage);
    assertEquals(
        "memory channel ch0: unknown key 'Capacity' (did you mean 'capacity'?). Fix: remove it or use one of "
            + "capacity, transactionCapacity, keep-alive, byteCapacity, byteCapacityBufferPercentage, buffer.dir, buffer.maxBytes, buffer.segmentBytes, buffer.spillAfterMillis, buffer.fsync.",
        assertThrows(
                ConfigurationException.class,
                () -> BatchMemoryChannelConfig.parse("memory channel ch0", Map.of("Capacity", "5")))
            .getMessage());
    BatchMemoryChannelConfig.parse(
        "memory channel ch0", Map.of("type", "memory")); // Flume's own key
  }

  @Test
  void byteCapacityDefaultsToFlumesShareOfTheHeapAndZeroMeansNoLimit() {
    long heap = 1_000_000_000L;
    // 80% of the heap, less the 20% buffer, in 100-byte slots
    assertEquals(6_400_000L, BatchMemoryChannelConfig.parse("c", Map.of(), heap).byteSlots());
    assertEquals(
        Long.MAX_VALUE,
        BatchMemoryChannelConfig.parse("c", Map.of("byteCapacity", "0"), heap).byteSlots());
    assertEquals(
        3L,
        BatchMemoryChannelConfig.parse(
                "c", Map.of("byteCapacity", "300", "byteCapacityBufferPercentage", "0"), heap)
            .byteSlots());
  }

  @Test
  void theReferenceDocIsUpToDate() throws Exception {
    String text =
        Files.readString(Path.of("../../docs/reference/edge-channel.md"), StandardCharsets.UTF_8);
    assertEquals(
        BatchMemoryChannelConfig.withGeneratedDoc(text),
        text,
        "docs/reference/edge-channel.md is out of date: regenerate it with the command in its Reference section");
  }
}
