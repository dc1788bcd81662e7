package org.flafka.edge.source;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Promise;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flume.ChannelException;
import org.apache.flume.Event;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.event.SimpleEvent;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.flafka.contract.Headers;
import org.flafka.edge.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the messages of every connection served by one event loop into events and puts them to the
 * channel in batches, one transaction per batch. Confined to its event loop: no lock and no shared
 * write per event (counters are published once per batch).
 *
 * <p>A batch goes out when {@code batchSize} events wait (on the read path) or when the oldest
 * waiting event is {@code batchDurationMillis} old (a timer on the loop). The put runs on the loop
 * thread, so while a channel blocks (a memory channel waits up to its keep-alive for space) the
 * loop reads nothing: the first line of backpressure.
 *
 * <p>When the channel refuses a batch ({@link ChannelException}):
 *
 * <ol>
 *   <li>the loop stops reading: AUTO_READ off on every channel it serves, so TCP senders are held
 *       back by their socket buffers instead of losing data (Netty's HexDumpProxy pattern).
 *       Messages framed from bytes already read keep queueing behind the refused batch; nothing new
 *       is read, so the queue stays bounded;
 *   <li>the batch is retried on the loop with backoff, 10 ms doubling to 1 s while nothing goes in
 *       (10 ms again after a try that put a batch). Each try runs the interceptors again, which is
 *       what makes the retry safe and useful with several sinks: the fan-out gives the whole batch
 *       one channel (so a refusal leaves nothing of it committed elsewhere: Flume commits channel
 *       by channel) and a later try the lane next in turn, so one full channel does not hold the
 *       batch back from the others; the event id is kept and the parse gives the same headers;
 *   <li>when it is accepted, everything queued is put, then reading resumes;
 *   <li>with a drop deadline (UDP, which cannot push back), whatever is queued when the channel
 *       still refuses after the deadline is dropped, counted in ChannelFullDropCount and logged,
 *       and reading resumes.
 * </ol>
 *
 * Two refusals cannot succeed by retrying. A Kafka channel (ours or Flume's) refuses a batch
 * holding an event Kafka finds too large: only that event is dropped ({@link #putAroundTooLarge}).
 * A put that fails with anything else (an interceptor threw): the batch is dropped, counted in
 * GenericProcessingFail and ProcessingErrorDropCount, and logged.
 */
public final class EventBatcher {
  /** Room for the contract's 15 headers, a partition key and a fan-out lane without growing. */
  public static final int EVENT_HEADER_CAPACITY = 18;

  private static final Logger LOG = LoggerFactory.getLogger(EventBatcher.class);
  private static final long FIRST_BACKOFF_MILLIS = 10;
  private static final long MAX_BACKOFF_MILLIS = 1000;

  private final EventLoop loop;
  private final ChannelProcessor processor;
  private final SyslogSourceCounter counter;
  private final RateLimitedLog channelFullLog;
  private final RateLimitedLog dropLog;
  private final String component;
  private final int batchSize;
  private final long batchDurationNanos;
  private final long dropAfterNanos;

  /**
   * Set when a {@link DatagramQueue} feeds this batcher: what a refusal pauses is the feeding, not
   * the sockets' reading, and this resumes it.
   */
  private Runnable resumeFeeding;

  private final List<Channel> readers = new ArrayList<>();

  private final ArrayList<Event> queue;
  private long oldestNanos;
  private boolean timerArmed;
  private boolean paused;
  private long pausedSinceNanos;
  private long resumedNanos = System.nanoTime();
  private long backoffMillis;
  private boolean stopped;

  /** Events queued since the received counter was last published. */
  private long unpublishedReceived;

  /**
   * Why the channel last refused a put (a memory channel is full, a Kafka channel cannot write,
   * ...): the WARN's.
   */
  private String lastRefusal = "";

  /**
   * The received header of the last event, reused while the clock stays in the same millisecond.
   */
  private long lastReceivedMillis = Long.MIN_VALUE;

  private String receivedText;

  /**
   * @param dropAfterMillis how long a refused batch is retried before it is dropped; negative:
   *     retried until accepted (TCP, TLS)
   */
  EventBatcher(
      EventLoop loop,
      ChannelProcessor processor,
      SyslogSourceCounter counter,
      RateLimitedLog channelFullLog,
      RateLimitedLog dropLog,
      String component,
      int batchSize,
      long batchDurationMillis,
      long dropAfterMillis) {
    this.loop = loop;
    this.processor = processor;
    this.counter = counter;
    this.channelFullLog = channelFullLog;
    this.dropLog = dropLog;
    this.component = component;
    this.batchSize = batchSize;
    this.batchDurationNanos = TimeUnit.MILLISECONDS.toNanos(batchDurationMillis);
    this.dropAfterNanos = dropAfterMillis < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(dropAfterMillis);
    this.queue = new ArrayList<>(batchSize);
  }

  /**
   * A channel served by this loop starts feeding events; it reads only while the batcher is not
   * paused.
   */
  void register(Channel channel) {
    readers.add(channel);
    if (paused && resumeFeeding == null) {
      channel.config().setAutoRead(false);
    }
  }

  /**
   * This batcher is fed from a {@link DatagramQueue}, which stops feeding while the batcher is
   * paused and runs {@code resumeFeeding} when it resumes. A refused batch then stops no socket's
   * reading (the queue holds what arrives meanwhile; such a batcher is made with no drop deadline,
   * see {@link Listener}). Called before the first event.
   */
  void feedFromQueue(Runnable resumeFeeding) {
    this.resumeFeeding = resumeFeeding;
  }

  void unregister(Channel channel) {
    readers.remove(channel);
  }

  /** True while the channel refuses batches and reading is paused. */
  boolean isPaused() {
    return paused;
  }

  /** When reading last resumed after a pause ({@link System#nanoTime}), or when this was made. */
  long resumedNanos() {
    return resumedNanos;
  }

  /**
   * Queues one message, received now, as an event with the {@code received} and {@code peer}
   * headers.
   */
  void add(byte[] body, String peer) {
    add(body, peer, System.currentTimeMillis());
  }

  /**
   * Queues one message as an event with the {@code received} and {@code peer} headers; {@code
   * receivedMillis} is when it was read, which for a datagram that waited in a {@link
   * DatagramQueue} is before now.
   */
  void add(byte[] body, String peer, long receivedMillis) {
    if (stopped) {
      // stop() has drained this batcher; a straggler still counts: never dropped silently
      counter.addToEventReceivedCount(1);
      counter.addChannelFullDrops(1);
      return;
    }
    SimpleEvent event = new SimpleEvent();
    event.setBody(body);
    Map<String, String> headers = new EventHeaders(EVENT_HEADER_CAPACITY);
    event.setHeaders(headers);
    headers.put(Headers.RECEIVED, receivedText(receivedMillis));
    headers.put(Headers.PEER, peer);
    if (queue.isEmpty()) {
      oldestNanos = System.nanoTime();
      armTimer(batchDurationNanos);
    }
    queue.add(event);
    unpublishedReceived++;
    if (!paused && queue.size() >= batchSize) {
      putQueued(false);
    }
  }

  private String receivedText(long millis) {
    if (millis != lastReceivedMillis) {
      lastReceivedMillis = millis;
      receivedText = Long.toString(millis);
    }
    return receivedText;
  }

  private void armTimer(long delayNanos) {
    if (!timerArmed) {
      timerArmed = true;
      loop.schedule(this::onTimer, delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void onTimer() {
    timerArmed = false;
    if (stopped || paused || queue.isEmpty()) {
      return; // when paused, the retry owns the queue and drains it completely
    }
    long age = System.nanoTime() - oldestNanos;
    if (age >= batchDurationNanos) {
      putQueued(true);
    } else {
      armTimer(batchDurationNanos - age);
    }
  }

  /**
   * Puts full batches (and with {@code partial} the last, smaller one) until the queue is drained
   * or refused.
   */
  private void putQueued(boolean partial) {
    while (!paused && !queue.isEmpty() && (partial || queue.size() >= batchSize)) {
      if (!put()) {
        refused(false);
      }
    }
  }

  /**
   * Tries to put the head of the queue; removes what was put or dropped. Returns false when the
   * channel refused part of it (full), which then stays at the head of the queue.
   */
  private boolean put() {
    int size = Math.min(queue.size(), batchSize);
    publishReceived();
    int settled = putOrSplit(queue.subList(0, size), true);
    queue.subList(0, settled).clear();
    return settled == size;
  }

  /**
   * Puts {@code events} in one transaction. Returns how many of them, from the first, are settled:
   * put, or dropped and counted. A batch with an event Kafka refuses as too large is put in parts
   * ({@link #putAroundTooLarge}).
   */
  private int putOrSplit(List<Event> events, boolean largestFirst) {
    counter.incrementAppendBatchReceivedCount();
    try {
      // a copy: interceptors may change the list they are given, and the queue must survive a
      // refused put
      processor.processEventBatch(new ArrayList<>(events));
      counter.incrementAppendBatchAcceptedCount();
      counter.addToEventAcceptedCount(events.size());
      return events.size();
    } catch (ChannelException e) {
      if (isTooLargeForKafka(e)) {
        return putAroundTooLarge(events, largestFirst, e);
      }
      counter.incrementChannelWriteFail();
      Throwable cause = rootCause(e);
      lastRefusal = e.getMessage() + (cause == e ? "" : " (" + cause + ")");
      return 0;
    } catch (RuntimeException e) {
      counter.incrementGenericProcessingFail();
      counter.addProcessingErrorDrops(events.size());
      LOG.error(
          "{}: dropped a batch of {} events: putting it failed with something other than a full channel "
              + "(counted in ProcessingErrorDropCount); check the interceptors and channel selector",
          component,
          events.size(),
          e);
      return events.size();
    }
  }

  /**
   * The channel writes to Kafka (a Kafka channel, ours or Flume's) and Kafka refused the batch
   * because an event in it is larger than the topic's {@code max.message.bytes} or the producer's
   * {@code max.request.size}. Retrying the batch would fail the same way for ever, holding every
   * connection of this loop; so the events Kafka refuses are found, dropped whole and counted in
   * RecordTooLargeDropCount, and the rest put.
   *
   * <p>Kafka has already written the batch's other events (its producer splits a refused batch and
   * sends the parts again), but the channel cannot say which, so every put again writes them again:
   * at least once, never lost. To keep those copies few, the usual case comes first: one event too
   * large, the largest, put alone (moved to the front, so that what is settled stays a prefix),
   * then the rest in one put: three puts in all, each other event twice in Kafka. If the rest is
   * refused too, it is put in halves, a half still refused in halves again, until the refused
   * events stand alone: about two puts per halving. A part the channel refuses for another reason
   * ends the split; what is settled stays settled and the rest is retried as a refused batch.
   */
  private int putAroundTooLarge(
      List<Event> events, boolean largestFirst, ChannelException refusal) {
    if (events.size() == 1) {
      counter.addRecordTooLargeDrop();
      int bytes = events.get(0).getBody().length;
      dropLog.warn(
          () ->
              component
                  + ": dropped an event of "
                  + bytes
                  + " bytes that Kafka refuses as too large ("
                  + rootCause(refusal).getMessage()
                  + "), counted in RecordTooLargeDropCount. Fix: raise the topic's "
                  + "max.message.bytes and the channel's kafka.producer.max.request.size above this source's "
                  + "maxMessageBytes plus the headers, or lower maxMessageBytes");
      return 1;
    }
    int first;
    if (largestFirst) {
      Collections.rotate(events.subList(0, indexOfLargest(events) + 1), 1);
      first = 1;
    } else {
      first = events.size() / 2;
    }
    int settled = putOrSplit(events.subList(0, first), false);
    if (settled < first) {
      return settled;
    }
    return first + putOrSplit(events.subList(first, events.size()), false);
  }

  private static int indexOfLargest(List<Event> events) {
    int largest = 0;
    for (int i = 1; i < events.size(); i++) {
      if (events.get(i).getBody().length > events.get(largest).getBody().length) {
        largest = i;
      }
    }
    return largest;
  }

  private static boolean isTooLargeForKafka(Throwable refusal) {
    for (Throwable cause = refusal; cause != null; cause = cause.getCause()) {
      if (cause instanceof RecordTooLargeException) {
        return true;
      }
    }
    return false;
  }

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private void publishReceived() {
    if (unpublishedReceived > 0) {
      counter.addToEventReceivedCount(unpublishedReceived);
      unpublishedReceived = 0;
    }
  }

  /**
   * The channel refused the head batch: pause reading, then retry later or, past the deadline,
   * drop. The retries back off while the channel takes nothing; {@code progressed} (it took a batch
   * since the last try) starts the backoff over, so a queue of many batches drains as fast as the
   * channel frees room, not one batch a second.
   */
  private void refused(boolean progressed) {
    long now = System.nanoTime();
    if (!paused) {
      paused = true;
      pausedSinceNanos = now;
      backoffMillis = FIRST_BACKOFF_MILLIS;
      counter.addReadPause();
      setAutoRead(false);
      String fate =
          dropAfterNanos < 0
              ? ""
              : " (dropped if still full after "
                  + TimeUnit.NANOSECONDS.toMillis(dropAfterNanos)
                  + " ms)";
      String reason = lastRefusal;
      String stopped =
          resumeFeeding == null
              ? "stopped reading " + readers.size() + " socket(s) on this thread"
              : "datagrams wait in the socket's queue (udp.queueBytes)";
      channelFullLog.warn(
          () ->
              component
                  + ": the channel refused a batch ("
                  + reason
                  + "); "
                  + stopped
                  + " until it takes the "
                  + queue.size()
                  + " events waiting"
                  + fate);
    } else {
      backoffMillis =
          progressed ? FIRST_BACKOFF_MILLIS : Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    }
    if (dropAfterNanos >= 0 && now - pausedSinceNanos >= dropAfterNanos) {
      publishReceived();
      int dropped = queue.size();
      counter.addChannelFullDrops(dropped);
      queue.clear();
      dropLog.warn(
          () ->
              component
                  + ": dropped "
                  + dropped
                  + " events: the channel stayed full for "
                  + TimeUnit.NANOSECONDS.toMillis(now - pausedSinceNanos)
                  + " ms (counted in ChannelFullDropCount)");
      resume();
      return;
    }
    loop.schedule(this::retry, backoffMillis, TimeUnit.MILLISECONDS);
  }

  private void retry() {
    if (stopped) {
      return;
    }
    boolean progressed = false;
    while (!queue.isEmpty()) {
      if (!put()) {
        refused(progressed);
        return;
      }
      progressed = true;
    }
    LOG.debug(
        "{}: the channel takes events again after {} ms; reading resumes",
        component,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedSinceNanos));
    resume();
  }

  private void resume() {
    paused = false;
    resumedNanos = System.nanoTime();
    setAutoRead(true);
    if (resumeFeeding != null) {
      resumeFeeding.run();
    }
  }

  private void setAutoRead(boolean autoRead) {
    if (resumeFeeding != null) {
      return; // the queue's reader never stops for the channel: the queue holds what it reads
    }
    for (Channel channel : readers) {
      channel.config().setAutoRead(autoRead);
    }
  }

  /**
   * For stop(): once every channel of this loop has closed (their last messages are then queued) or
   * the deadline passed, {@link #drain}s and completes {@code done}. Runs on the loop.
   */
  void drainAfterClose(long deadlineNanos, Promise<Void> done) {
    if (!readers.isEmpty() && System.nanoTime() - deadlineNanos < 0) {
      loop.schedule(() -> drainAfterClose(deadlineNanos, done), 1, TimeUnit.MILLISECONDS);
      return;
    }
    drain(deadlineNanos);
    done.setSuccess(null);
  }

  /**
   * Runs on the loop after its connections closed. Puts everything queued, retrying a refusing
   * channel until {@code deadlineNanos} (or the drop deadline, if sooner), then drops and counts
   * what is left. Blocking here is fine: the loop is shutting down.
   */
  void drain(long deadlineNanos) {
    stopped = true;
    if (dropAfterNanos >= 0 && System.nanoTime() + dropAfterNanos - deadlineNanos < 0) {
      deadlineNanos =
          System.nanoTime() + dropAfterNanos; // UDP waits for a full channel no longer than usual
    }
    long backoff = FIRST_BACKOFF_MILLIS;
    while (!queue.isEmpty()) {
      if (put()) {
        backoff = FIRST_BACKOFF_MILLIS;
        continue;
      }
      if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) - deadlineNanos > 0) {
        publishReceived();
        int dropped = queue.size();
        counter.addChannelFullDrops(dropped);
        queue.clear();
        LOG.error(
            "{}: stopping with {} events the channel would not take; they are dropped (counted in "
                + "ChannelFullDropCount)",
            component,
            dropped);
        break;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
    }
    publishReceived();
  }
}
