package org.flafka.edge.source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.channel.ReplicatingChannelSelector;
import org.apache.flume.conf.Configurables;

/**
 * A real Flume channel (a memory channel unless the test gives another) and channel processor
 * around a {@link SyslogSource}, as an agent wires them, minus the agent. The memory channel counts
 * its transactions so tests can see batching.
 */
final class SourceHarness implements AutoCloseable {

  /**
   * A memory channel that counts the transactions it creates (one per put batch, one per take
   * batch).
   */
  static class CountingMemoryChannel extends MemoryChannel {
    final AtomicInteger transactions = new AtomicInteger();

    @Override
    protected BasicTransactionSemantics createTransaction() {
      transactions.incrementAndGet();
      return super.createTransaction();
    }
  }

  final Channel channel;
  final SyslogSource source = new SyslogSource();
  private final int takeBatch;

  /**
   * Starts a source named r1 with {@code sourceProps} on a channel c1 with {@code channelProps}.
   */
  SourceHarness(Map<String, String> sourceProps, Map<String, String> channelProps) {
    this(sourceProps, channelProps, new CountingMemoryChannel());
  }

  /**
   * The same on {@code channel}, any channel: named c1, configured with {@code channelProps} and
   * started here.
   */
  SourceHarness(
      Map<String, String> sourceProps, Map<String, String> channelProps, Channel channel) {
    this.channel = channel;
    takeBatch =
        Math.min(100, Integer.parseInt(channelProps.getOrDefault("transactionCapacity", "100")));
    channel.setName("c1");
    Configurables.configure(channel, new Context(channelProps));
    channel.start();
    ReplicatingChannelSelector selector = new ReplicatingChannelSelector();
    selector.setChannels(List.of(channel));
    ChannelProcessor processor = new ChannelProcessor(selector);
    processor.configure(new Context(sourceProps));
    processor.initialize();
    source.setName("r1");
    source.setChannelProcessor(processor);
    try {
      Configurables.configure(source, new Context(sourceProps));
      source.start();
    } catch (RuntimeException e) {
      channel.stop();
      throw e;
    }
  }

  SyslogSourceCounter counter() {
    return source.getCounter();
  }

  /**
   * Takes events until {@code count} have been taken or {@code timeout} passed; returns those
   * taken.
   */
  List<Event> take(int count, Duration timeout) throws InterruptedException {
    List<Event> events = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (events.size() < count && System.nanoTime() < deadline) {
      int before = events.size();
      Transaction tx = channel.getTransaction();
      tx.begin();
      Event event;
      while (events.size() < count
          && events.size() - before < takeBatch
          && (event = channel.take()) != null) {
        events.add(event);
      }
      tx.commit();
      tx.close();
      if (events.size() == before) {
        Thread.sleep(5);
      }
    }
    return events;
  }

  /** Waits up to {@code timeout} for {@code condition}; returns whether it became true. */
  static boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  @Override
  public void close() {
    source.stop();
    channel.stop();
  }
}
