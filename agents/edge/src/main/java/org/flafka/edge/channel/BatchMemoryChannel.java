package org.flafka.edge.channel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.flume.ChannelException;
import org.apache.flume.ChannelFullException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.channel.BasicChannelSemantics;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.conf.TransactionCapacitySupported;
import org.flafka.edge.sink.TakeDeadline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A memory channel that does Flume's {@code MemoryChannel}'s job with the shared queue touched once
 * per put transaction and once per take. Same keys, limits, blocking and metrics
 * (docs/reference/edge-channel.md); like Flume's, it loses the events it holds when the agent dies.
 *
 * <p>Why: Flume's memory channel takes about eight locks and atomic updates per event (a bounded
 * deque for the transaction's puts, another for its takes, a semaphore and the shared deque on each
 * side, a counter per attempt), and the source's and sink's threads pass the shared ones between
 * two cores: a tenth of the edge agent's profile samples. Here a transaction collects its puts in a
 * list and hands them over in one locked step at commit; a take is one short locked poll; the
 * metrics are published once per transaction. Events pass 2.3 times as fast (ChannelBenchmark,
 * docs/benchmarks.md).
 *
 * <p>Capacity counts what the queue holds plus what transactions took and have not committed, as
 * Flume's does, so a rollback always has room to put its takes back (at the head, in their order).
 * A commit that would exceed {@code capacity} or {@code byteCapacity} waits up to {@code
 * keep-alive} seconds for takes to make room, then fails with {@link ChannelFullException} and the
 * transaction rolls back; a take waits as long for an event, or less when the taker set an earlier
 * time ({@link TakeDeadline}: the Kafka record sink's {@code batchDurationMillis}).
 */
public class BatchMemoryChannel extends BasicChannelSemantics
    implements TransactionCapacitySupported {
  private static final Logger LOG = LoggerFactory.getLogger(BatchMemoryChannel.class);

  /** The queue's first allocation; it grows as needed up to the capacity. */
  private static final int INITIAL_QUEUE_SLOTS = 1 << 12;

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when events were committed or rolled back into the queue. */
  private final Condition eventsQueued = lock.newCondition();

  /** Signalled when committed takes made room. */
  private final Condition roomMade = lock.newCondition();

  /** Committed events not yet taken. Guarded by {@link #lock}. */
  private final ArrayDeque<Event> queue = new ArrayDeque<>(INITIAL_QUEUE_SLOTS);

  /**
   * Events taken by open transactions: they still count against the capacity. Guarded by {@link
   * #lock}.
   */
  private int takenUncommitted;

  /** Body slots of the queued and taken events. Guarded by {@link #lock}. */
  private long slotsHeld;

  private volatile BatchMemoryChannelConfig config;
  private BatchMemoryChannelCounter counter;

  @Override
  public void configure(Context context) {
    BatchMemoryChannelConfig parsed =
        BatchMemoryChannelConfig.parse("memory channel " + getName(), context.getParameters());
    lock.lock();
    try {
      config = parsed;
      roomMade.signalAll(); // on a reconfiguration the limits may have grown
    } finally {
      lock.unlock();
    }
    if (counter == null) {
      counter = new BatchMemoryChannelCounter(getName());
    }
    counter.setChannelCapacity(parsed.capacity());
  }

  /**
   * Lets Flume refuse, at start-up, a source or sink whose batch is larger than a transaction may
   * hold: it would otherwise fail every batch at run time.
   */
  @Override
  public long getTransactionCapacity() {
    return config.transactionCapacity();
  }

  @Override
  public synchronized void start() {
    counter.start();
    counter.setChannelCapacity(config.capacity());
    counter.setChannelSize(queuedEvents());
    super.start();
  }

  @Override
  public synchronized void stop() {
    int left = queuedEvents();
    if (left > 0) {
      LOG.warn(
          "memory channel {}: stopping with {} events not yet taken; a memory channel loses them (a file or "
              + "Kafka channel keeps them)",
          getName(),
          left);
    }
    counter.stop();
    super.stop();
  }

  @Override
  protected BasicTransactionSemantics createTransaction() {
    return new Transaction(config);
  }

  private int queuedEvents() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Flume's measure of an event's size: its body in 100-byte slots, rounded up. */
  private static long slots(Event event) {
    byte[] body = event.getBody();
    int length = body == null ? 0 : body.length;
    return (length + BatchMemoryChannelConfig.BYTES_PER_SLOT - 1)
        / BatchMemoryChannelConfig.BYTES_PER_SLOT;
  }

  /** Confined to the thread that opened it, which {@link BasicTransactionSemantics} checks. */
  private final class Transaction extends BasicTransactionSemantics implements TakeDeadline {
    private final BatchMemoryChannelConfig limits;
    private final List<Event> puts;
    private final List<Event> takes;
    private long putSlots;
    private long takeSlots;
    private long putAttempts;
    private long takeAttempts;
    private boolean hasTakeDeadline;

    /** Set by {@link #takeNoLaterThan}: the System.nanoTime after which a take waits no more. */
    private long takeDeadline;

    Transaction(BatchMemoryChannelConfig limits) {
      this.limits = limits;
      int expected = Math.min(limits.transactionCapacity(), INITIAL_QUEUE_SLOTS);
      this.puts = new ArrayList<>(expected);
      this.takes = new ArrayList<>(expected);
    }

    @Override
    public void takeNoLaterThan(long nanoTime) {
      hasTakeDeadline = true;
      takeDeadline = nanoTime;
    }

    @Override
    protected void doPut(Event event) {
      putAttempts++;
      if (puts.size() >= limits.transactionCapacity()) {
        throw new ChannelException(
            "memory channel "
                + getName()
                + ": a transaction put more than "
                + BatchMemoryChannelConfig.TRANSACTION_CAPACITY
                + " = "
                + limits.transactionCapacity()
                + " events. "
                + "Fix: raise it to at least the batch size of every source on the channel.");
      }
      puts.add(event);
      putSlots += slots(event);
    }

    @Override
    protected Event doTake() throws InterruptedException {
      takeAttempts++;
      if (takes.size() >= limits.transactionCapacity()) {
        throw new ChannelException(
            "memory channel "
                + getName()
                + ": a transaction took more than "
                + BatchMemoryChannelConfig.TRANSACTION_CAPACITY
                + " = "
                + limits.transactionCapacity()
                + " events. "
                + "Fix: raise it to at least the batch size of every sink on the channel.");
      }
      Event event;
      lock.lock();
      try {
        event = queue.pollFirst();
        long waitNanos = limits.keepAliveNanos();
        if (event == null && hasTakeDeadline) {
          waitNanos = Math.min(waitNanos, takeDeadline - System.nanoTime());
        }
        while (event == null) {
          if (waitNanos <= 0) {
            return null;
          }
          waitNanos = eventsQueued.awaitNanos(waitNanos);
          event = queue.pollFirst();
        }
        takenUncommitted++;
      } finally {
        lock.unlock();
      }
      takes.add(event);
      takeSlots += slots(event);
      return event;
    }

    @Override
    protected void doCommit() throws InterruptedException {
      int queued;
      lock.lock();
      try {
        if (!puts.isEmpty()) {
          awaitRoomForPuts();
          queue.addAll(puts);
          eventsQueued.signalAll();
        }
        takenUncommitted -= takes.size();
        slotsHeld += putSlots - takeSlots;
        if (!takes.isEmpty()) {
          roomMade.signalAll();
        }
        queued = queue.size();
      } finally {
        lock.unlock();
      }
      publish(queued, puts.size(), takes.size());
    }

    /**
     * Waits up to keep-alive until this transaction's puts fit once its takes are gone. Holds
     * {@link #lock}.
     */
    private void awaitRoomForPuts() throws InterruptedException {
      long waitNanos = limits.keepAliveNanos();
      while (true) {
        long eventsAfter = queue.size() + (long) takenUncommitted - takes.size() + puts.size();
        long slotsAfter = slotsHeld - takeSlots + putSlots;
        BatchMemoryChannelConfig now = config;
        boolean eventsFit = eventsAfter <= now.capacity();
        boolean bytesFit = slotsAfter <= now.byteSlots();
        if (eventsFit && bytesFit) {
          return;
        }
        if (waitNanos <= 0) {
          throw new ChannelFullException(
              "memory channel "
                  + getName()
                  + " is full: "
                  + (eventsFit
                      ? "its bodies would exceed "
                          + BatchMemoryChannelConfig.BYTE_CAPACITY
                          + " ("
                          + now.byteSlots() * BatchMemoryChannelConfig.BYTES_PER_SLOT
                          + " bytes after the headers' share)"
                      : "committing "
                          + puts.size()
                          + " events would exceed "
                          + BatchMemoryChannelConfig.CAPACITY
                          + " = "
                          + now.capacity())
                  + " for "
                  + now.keepAliveNanos() / 1_000_000_000L
                  + " s. The sinks are not keeping up with the "
                  + "sources: check the sinks, or add sinks or capacity.");
        }
        waitNanos = roomMade.awaitNanos(waitNanos);
      }
    }

    @Override
    protected void doRollback() {
      int queued;
      lock.lock();
      try {
        for (int i = takes.size() - 1; i >= 0; i--) {
          queue.addFirst(takes.get(i));
        }
        takenUncommitted -= takes.size();
        if (!takes.isEmpty()) {
          eventsQueued.signalAll();
        }
        queued = queue.size();
      } finally {
        lock.unlock();
      }
      publish(queued, 0, 0);
    }

    /**
     * Publishes the transaction's counts once, and lets go of its events: Flume keeps a closed
     * transaction in its thread-local until the thread's next one.
     */
    private void publish(int queued, int committedPuts, int committedTakes) {
      counter.addToEventPutAttemptCount(putAttempts);
      counter.addToEventTakeAttemptCount(takeAttempts);
      if (committedPuts > 0) {
        counter.addToEventPutSuccessCount(committedPuts);
      }
      if (committedTakes > 0) {
        counter.addToEventTakeSuccessCount(committedTakes);
      }
      counter.setChannelSize(queued);
      puts.clear();
      takes.clear();
      putSlots = 0;
      takeSlots = 0;
      putAttempts = 0;
      takeAttempts = 0;
    }
  }
}
