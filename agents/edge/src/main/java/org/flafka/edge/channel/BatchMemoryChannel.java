package org.flafka.edge.channel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.flume.ChannelException;
import org.apache.flume.ChannelFullException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.channel.BasicChannelSemantics;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.conf.TransactionCapacitySupported;
import org.flafka.edge.RateLimitedLog;
import org.flafka.edge.channel.DiskBuffer.BufferedEvent;
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
 *
 * <p>With {@code buffer.dir} set, a commit that finds no room in memory for {@code
 * buffer.spillAfterMillis} (sinks that are only busy make room sooner, and the disk stays out of a
 * saturated edge's way), or finds that events have waited that long without the sinks taking any
 * (Kafka away: the sinks wait on a batch that will not be acknowledged), has its batch appended to
 * a disk buffer ({@link DiskBuffer}), and while batches wait there every later commit goes there
 * too, behind them; a take that finds the memory queue empty reads the oldest batch back. Events
 * therefore leave in the order they were committed, and a channel whose sinks keep up never touches
 * the disk. The disk buffer holds up to {@code buffer.maxBytes}; when it is full, or the disk fails
 * (full, read-only, directory gone: one rate-limited ERROR, counted in {@code
 * BufferDiskErrorCount}, writes tried again a second later), a commit waits for room as it would
 * without one, and only in memory when no batch waits on disk, to keep the order. The first batch
 * to spill takes the events waiting in memory to disk with it. Durability: what is on disk survives
 * the agent's death (and with {@code buffer.fsync = batch} the host's) and is sent after the
 * restart, duplicates possible for a batch that was being sent; what is in memory (while the sinks
 * keep up, what they have not taken yet; during an outage, the batches the sinks hold
 * unacknowledged) is lost when the agent is killed, and written to disk when it stops cleanly.
 */
public class BatchMemoryChannel extends BasicChannelSemantics
    implements TransactionCapacitySupported {
  private static final Logger LOG = LoggerFactory.getLogger(BatchMemoryChannel.class);

  /** The queue's first allocation; it grows as needed up to the capacity. */
  private static final int INITIAL_QUEUE_SLOTS = 1 << 12;

  /** How long the disk buffer rests after a failure before a write is tried again. */
  private static final long DISK_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** How often a commit waiting for room tries the disk buffer again. */
  private static final long DISK_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final RateLimitedLog diskLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);

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

  /**
   * The disk buffer, or null without one or while it cannot be opened. Guarded by {@link #lock}.
   */
  private DiskBuffer buffer;

  /** System.nanoTime before which the disk buffer is not tried again. Guarded by {@link #lock}. */
  private long diskRestsUntil;

  private boolean diskResting;

  /**
   * Events read back from disk that are queued or taken and not yet committed: only then does a
   * commit look for them among its takes. Guarded by {@link #lock}.
   */
  private long readBackInMemory;

  /** Events taken so far. Guarded by {@link #lock}. */
  private long takesSoFar;

  /** {@link #takesSoFar} when {@link #sinksStalled} last looked. Guarded by {@link #lock}. */
  private long takesAtLastLook;

  /**
   * System.nanoTime when {@link #sinksStalled} last saw the sinks take, or nothing waiting. Guarded
   * by {@link #lock}.
   */
  private long sinksSeenTakingNanos = System.nanoTime();

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
    if (config.bufferDir() != null) {
      lock.lock();
      try {
        openBuffer();
      } finally {
        lock.unlock();
      }
    }
    super.start();
  }

  /** Opens the disk buffer with what the last run left in it. Holds {@link #lock}. */
  private void openBuffer() {
    BatchMemoryChannelConfig now = config;
    Path dir = now.bufferDir();
    try {
      DiskBuffer opened =
          DiskBuffer.open(
              dir, now.bufferMaxBytes(), now.bufferSegmentBytes(), now.bufferSyncEachBatch());
      DiskBuffer.Recovery found = opened.recover();
      buffer = opened;
      diskResting = false;
      long usable = Files.getFileStore(dir).getUsableSpace();
      LOG.info(
          "memory channel {}: disk buffer in {}, up to {} bytes ({} free), fsync {}; {} events in {} files from "
              + "the last run",
          getName(),
          dir,
          now.bufferMaxBytes(),
          usable,
          now.bufferSyncEachBatch() ? "each batch" : "never",
          found.events(),
          found.segments());
      if (usable + opened.bytes() < now.bufferMaxBytes()) {
        LOG.warn(
            "memory channel {}: invalid value '{}' for key '{}': the file system of {} has {} bytes free, so "
                + "the buffer fills the disk before its limit. Fix: lower {} or free space",
            getName(),
            now.bufferMaxBytes(),
            BatchMemoryChannelConfig.BUFFER_MAX_BYTES,
            dir,
            usable,
            BatchMemoryChannelConfig.BUFFER_MAX_BYTES);
      }
      if (found.tornRecords() > 0) {
        counter.addToCorruptCount(found.tornRecords());
        LOG.warn(
            "memory channel {}: cut {} bytes off the end of {} file(s) in {}: a batch being written when the "
                + "agent stopped (its commit never returned), counted in BufferCorruptCount",
            getName(),
            found.tornBytes(),
            found.tornRecords(),
            dir);
      }
      publishBuffer();
    } catch (IOException | RuntimeException e) {
      diskFailed("cannot open the disk buffer in " + dir, e);
    }
  }

  /**
   * Counts a disk failure, logs it (rate-limited) and rests the disk buffer. Holds {@link #lock}.
   */
  private void diskFailed(String what, Exception e) {
    counter.incrementDiskErrorCount();
    diskResting = true;
    diskRestsUntil = System.nanoTime() + DISK_RETRY_NANOS;
    diskLog.error(
        () ->
            "memory channel "
                + getName()
                + ": "
                + what
                + ": "
                + e
                + "; counted in BufferDiskErrorCount. Batches stay in memory (senders are held back when "
                + "it is full) and the disk is tried again every second. Fix: free space in, or give the "
                + "agent's user write access to, "
                + config.bufferDir());
  }

  /** Whether the disk buffer may be written now. Holds {@link #lock}. */
  private boolean diskUsable() {
    if (diskResting) {
      if (System.nanoTime() - diskRestsUntil < 0) {
        return false;
      }
      diskResting = false;
    }
    if (buffer == null) {
      openBuffer();
    }
    return buffer != null;
  }

  /** Holds {@link #lock}. */
  private void publishBuffer() {
    counter.setBuffered(buffer.unreadEvents(), buffer.bytes(), buffer.oldestUnreadMillis());
  }

  @Override
  public synchronized void stop() {
    saveQueueToDisk();
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

  /**
   * At a clean stop, writes what the memory queue holds to the disk buffer, so the restart sends it
   * first: a put goes to memory only while no batch waits on disk, so these events are older than
   * every batch not yet read back. Events read back from disk are still there.
   */
  private void saveQueueToDisk() {
    lock.lock();
    try {
      if (buffer == null) {
        return;
      }
      List<Event> inMemory = new ArrayList<>();
      for (Event event : queue) {
        if (!(event instanceof BufferedEvent)) {
          inMemory.add(event);
        }
      }
      try {
        if (!inMemory.isEmpty()) {
          buffer.prepend(inMemory, System.currentTimeMillis());
          LOG.info(
              "memory channel {}: wrote the {} events in memory to the disk buffer for the next start",
              getName(),
              inMemory.size());
        }
        queue.removeIf(event -> !(event instanceof BufferedEvent));
      } catch (IOException | RuntimeException e) {
        diskFailed("cannot keep the events in memory at the stop", e);
      }
      queue.removeIf(event -> event instanceof BufferedEvent);
      readBackInMemory = 0;
      slotsHeld = 0;
      for (Event event : queue) {
        slotsHeld += slots(event);
      }
      buffer.close();
      buffer = null;
    } finally {
      lock.unlock();
    }
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

  /**
   * Moves the oldest batch on disk into the memory queue and takes its first event; null when none
   * waits or the read failed. Holds {@link #lock}.
   */
  private Event readBack() {
    if (!buffer.hasUnread()) {
      return null;
    }
    List<Event> batch;
    long corruptBefore = buffer.corruptEvents();
    try {
      batch = buffer.readOldest();
    } catch (IOException | RuntimeException e) {
      diskFailed("cannot read the disk buffer", e);
      return null;
    } finally {
      long corrupt = buffer.corruptEvents() - corruptBefore;
      if (corrupt > 0) {
        counter.addToCorruptCount(corrupt);
        diskLog.error(
            () ->
                "memory channel "
                    + getName()
                    + ": "
                    + corrupt
                    + " events in the disk buffer changed on disk after they were written and "
                    + "are given up, counted in BufferCorruptCount");
      }
    }
    if (batch == null) {
      publishBuffer();
      return null;
    }
    for (Event event : batch) {
      slotsHeld += slots(event);
    }
    readBackInMemory += batch.size();
    queue.addAll(batch);
    counter.addToReadCount(batch.size());
    publishBuffer();
    return queue.pollFirst();
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
        if (event == null && buffer != null) {
          event = readBack();
        }
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
          if (event == null && buffer != null) {
            event = readBack();
          }
        }
        takenUncommitted++;
        takesSoFar++;
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
        boolean inMemory = true;
        if (!puts.isEmpty()) {
          inMemory = placePuts();
          eventsQueued.signalAll();
        }
        if (readBackInMemory > 0 && !takes.isEmpty()) {
          releaseReadBack();
        }
        takenUncommitted -= takes.size();
        slotsHeld += (inMemory ? putSlots : 0) - takeSlots;
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
     * Puts this transaction's events in the memory queue if they fit once its takes are gone and no
     * batch waits on disk, else on disk; waits up to keep-alive for either. Holds {@link #lock}.
     *
     * @return whether they went to memory
     */
    private boolean placePuts() throws InterruptedException {
      long started = System.nanoTime();
      while (true) {
        long eventsAfter = queue.size() + (long) takenUncommitted - takes.size() + puts.size();
        long slotsAfter = slotsHeld - takeSlots + putSlots;
        BatchMemoryChannelConfig now = config;
        boolean eventsFit = eventsAfter <= now.capacity();
        boolean bytesFit = slotsAfter <= now.byteSlots();
        boolean backlog = buffer != null && buffer.hasUnread();
        boolean fits = eventsFit && bytesFit && !backlog;
        boolean stalled =
            fits && now.bufferDir() != null && sinksStalled(now.bufferSpillAfterNanos());
        if (fits && !stalled) {
          queue.addAll(puts);
          return true;
        }
        long waited = System.nanoTime() - started;
        boolean mayUseDisk =
            now.bufferDir() != null
                && (backlog || stalled || waited >= now.bufferSpillAfterNanos());
        if (mayUseDisk && spill()) {
          return false;
        }
        if (fits) {
          queue.addAll(puts); // the sinks are stalled, but the disk could not take the batch
          return true;
        }
        if (waited >= limits.keepAliveNanos() && (now.bufferDir() == null || mayUseDisk)) {
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
                  + " s"
                  + (now.bufferDir() == null
                      ? ""
                      : ", and the disk buffer could not take it (full at "
                          + BatchMemoryChannelConfig.BUFFER_MAX_BYTES
                          + " = "
                          + now.bufferMaxBytes()
                          + ", or failing: see BufferDiskErrorCount)")
                  + ". The sinks are not keeping up with the "
                  + "sources: check the sinks, or add sinks or capacity.");
        }
        long slice = limits.keepAliveNanos() - waited;
        if (now.bufferDir() != null) {
          // room on disk comes without a signal: try it again now and then
          slice =
              Math.min(waited < limits.keepAliveNanos() ? slice : Long.MAX_VALUE, DISK_POLL_NANOS);
          if (!mayUseDisk) {
            slice = Math.min(slice, now.bufferSpillAfterNanos() - waited);
          }
        }
        roomMade.awaitNanos(Math.max(1, slice));
      }
    }

    /**
     * Whether events have waited in memory for {@code spillAfterNanos} while the sinks took none:
     * they are stuck on a batch Kafka does not acknowledge, not merely busy. Batches then go to
     * disk at once, taking what waits in memory with them, so that a kill in the first seconds of
     * an outage loses only what the sinks hold, not the memory queue. Looked at by each commit, not
     * each take, to keep the time out of the per-event path. Holds {@link #lock}.
     */
    private boolean sinksStalled(long spillAfterNanos) {
      long nowNanos = System.nanoTime();
      if (takesSoFar != takesAtLastLook || queue.isEmpty()) {
        takesAtLastLook = takesSoFar;
        sinksSeenTakingNanos = nowNanos;
        return false;
      }
      return nowNanos - sinksSeenTakingNanos >= spillAfterNanos;
    }

    /**
     * Appends this transaction's puts to the disk buffer if it can take them. Holds {@link #lock}.
     */
    private boolean spill() {
      if (!diskUsable()) {
        return false;
      }
      try {
        if (!buffer.hasUnread()) {
          moveQueueToDisk();
        }
        if (!buffer.append(puts, System.currentTimeMillis())) {
          diskLog.warn(
              () ->
                  "memory channel "
                      + getName()
                      + ": the disk buffer is full ("
                      + buffer.bytes()
                      + " bytes, "
                      + BatchMemoryChannelConfig.BUFFER_MAX_BYTES
                      + " = "
                      + config.bufferMaxBytes()
                      + "): senders are held back, UDP datagrams dropped and counted, until the sinks "
                      + "drain it");
          return false;
        }
      } catch (IOException | RuntimeException e) {
        diskFailed("cannot write to the disk buffer", e);
        return false;
      }
      counter.addToSpillCount(puts.size());
      publishBuffer();
      return true;
    }

    /**
     * When the channel begins to spill (Kafka away, most likely), moves the events waiting in
     * memory to disk ahead of the batch that did not fit, so that a kill during the outage loses
     * only what the sinks hold, not a full memory queue. They are older than anything on disk (a
     * put goes to memory only while nothing waits there) and newer than the events read back that
     * the queue may still hold, so the order stays. Holds {@link #lock}.
     */
    private void moveQueueToDisk() throws IOException {
      List<Event> waiting = new ArrayList<>();
      for (Event event : queue) {
        if (!(event instanceof BufferedEvent)) {
          waiting.add(event);
        }
      }
      if (waiting.isEmpty() || !buffer.append(waiting, System.currentTimeMillis())) {
        return;
      }
      queue.removeIf(event -> !(event instanceof BufferedEvent));
      for (Event event : waiting) {
        slotsHeld -= slots(event);
      }
      counter.addToSpillCount(waiting.size());
      roomMade.signalAll();
    }

    /**
     * Tells the disk buffer which of its events this transaction's takes committed, so it deletes
     * the files that are done with. Holds {@link #lock}.
     */
    private void releaseReadBack() {
      if (buffer == null) {
        return; // stopped meanwhile: the files stay for the next start
      }
      DiskBuffer.Segment segment = null;
      int count = 0;
      for (Event event : takes) {
        if (event instanceof BufferedEvent read) {
          if (read.segment != segment) {
            release(segment, count);
            segment = read.segment;
            count = 0;
          }
          count++;
        }
      }
      release(segment, count);
      publishBuffer();
    }

    private void release(DiskBuffer.Segment segment, int count) {
      if (count == 0) {
        return;
      }
      readBackInMemory -= count;
      try {
        buffer.committed(segment, count);
      } catch (IOException e) {
        diskFailed("cannot delete a sent file of the disk buffer, " + segment.path, e);
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
