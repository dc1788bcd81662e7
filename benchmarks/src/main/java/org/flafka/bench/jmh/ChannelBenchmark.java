package org.flafka.bench.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.channel.AbstractChannel;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.event.SimpleEvent;
import org.flafka.edge.channel.BatchMemoryChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A memory channel between two threads, as in the edge agent: one puts batches of {@link #BATCH}
 * events (the source), the other takes them in batches (the sink), each batch one transaction.
 * Flume's {@code MemoryChannel} against {@link BatchMemoryChannel}, with the template's capacities.
 * Reports the time per event of each side; with the two threads on two cores the slower side sets
 * the pace. Nothing else happens to the events: this is the channel's own cost, which in the agent
 * comes on top of the parser, the interceptors and Kafka's producer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(ChannelBenchmark.BATCH)
@State(Scope.Group)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChannelBenchmark {
  static final int BATCH = 1000;

  @Param({"flume", "flafka"})
  public String channel;

  private AbstractChannel memory;
  private final Event[] events = new Event[BATCH];

  @Setup(Level.Trial)
  public void setUp() {
    memory = channel.equals("flume") ? new MemoryChannel() : new BatchMemoryChannel();
    memory.setName("ch0");
    memory.configure(
        new Context(
            Map.of("capacity", "20000", "transactionCapacity", "10000", "keep-alive", "1")));
    memory.start();
    for (int i = 0; i < BATCH; i++) {
      SimpleEvent event = new SimpleEvent();
      event.setBody(new byte[200]);
      events[i] = event;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    memory.stop();
  }

  /**
   * The source's side: one transaction of {@link #BATCH} puts; a full channel waits up to
   * keep-alive, then refuses.
   */
  @Benchmark
  @Group("channel")
  @GroupThreads(1)
  public boolean put() {
    Transaction tx = memory.getTransaction();
    tx.begin();
    try {
      for (Event event : events) {
        memory.put(event);
      }
      tx.commit();
      return true;
    } catch (ChannelException e) {
      tx.rollback();
      return false;
    } finally {
      tx.close();
    }
  }

  /** The sink's side: one transaction taking up to {@link #BATCH} events. */
  @Benchmark
  @Group("channel")
  @GroupThreads(1)
  public int take() {
    Transaction tx = memory.getTransaction();
    tx.begin();
    int taken = 0;
    try {
      while (taken < BATCH && memory.take() != null) {
        taken++;
      }
      tx.commit();
    } finally {
      tx.close();
    }
    return taken;
  }
}
