package org.flafka.edge;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.EventDeliveryException;
import org.apache.flume.Transaction;
import org.apache.flume.conf.Configurable;
import org.apache.flume.sink.AbstractSink;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each event to Kafka as one record: the body as the value, byte for byte, and the chosen Flume headers as
 * Kafka record headers. What Flume's {@code KafkaSink} does for the edge, with lighter per-event work: it walks
 * each event's headers once instead of looking every configured name up in the event's map, reuses the encoded
 * record header of a value it has just sent ({@link EncodedHeaders}), sends a batch with one shared completion
 * callback instead of a callback and a future per event, and logs nothing per event. Kafka's own sizing, encoding
 * and compression of the headers is most of what is left (docs/benchmarks.md). It is also for failure handling,
 * below.
 *
 * <p>One channel transaction per batch: take up to {@code batchSize} events, send them, flush, and commit only
 * when Kafka has acknowledged every one (with {@code acks=all}, every in-sync replica). Any other outcome rolls
 * the whole batch back to the channel and the sink runner retries it after its back-off, so nothing is lost;
 * Kafka's idempotent producer keeps a retried send from being written twice within a producer session.
 *
 * <p>The one exception is a record too large for Kafka: over the producer's {@code max.request.size} (Kafka
 * refuses it, {@link RecordTooLargeException}) or over the topic's {@code max.message.bytes}, which the sink
 * checks before sending ({@link TopicMessageLimit}: Kafka's producer would retry the batch for ever). Retrying can
 * never succeed, so it would stop the sink for good. Such an event is dropped whole, counted in
 * {@code RecordTooLargeDropCount} and the standard {@code EventWriteFail}, and reported in a rate-limited WARN with
 * its size and the settings to raise. The edge source's {@code maxMessageBytes} and {@code flafka lint} keep this
 * from happening in a consistent configuration.
 *
 * <p>Metrics ({@link KafkaRecordSinkCounter}) are those of Flume's Kafka sink under the same names, so Cloudera
 * Manager, the dashboards and the sweep read either sink alike, plus the failure counters Flume's leaves out of
 * JMX. Keys: {@link KafkaRecordSinkConfig} and
 * docs/edge-sink.md.
 */
public class KafkaRecordSink extends AbstractSink implements Configurable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordSink.class);

  private final RateLimitedLog tooLargeLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
  private final RateLimitedLog failureLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);

  private KafkaRecordSinkConfig config;
  private Set<String> recordHeaders;
  private KafkaRecordSinkCounter counter;
  private KafkaProducer<String, byte[]> producer;
  private TopicMessageLimit topicLimit;
  private EncodedHeaders encodedHeaders;

  @Override
  public void configure(Context context) {
    config = KafkaRecordSinkConfig.parse("Kafka record sink " + getName(), context.getParameters());
    config.unknownKeyWarnings().forEach(LOG::warn);
    recordHeaders = config.allRecordHeaders() ? null : new HashSet<>(config.recordHeaders());
    encodedHeaders = new EncodedHeaders(); // it remembers which names are record headers
    if (counter == null) {
      counter = new KafkaRecordSinkCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    Properties producerProperties = config.producerProperties();
    producer = new KafkaProducer<>(producerProperties);
    topicLimit = new TopicMessageLimit(config.component(), config.topic(), producerProperties);
    counter.incrementConnectionCreatedCount();
    counter.start();
    LOG.info("{}: writing to topic {} at {} in batches of up to {} events, record headers: {}", config.component(),
        config.topic(), config.bootstrapServers(), config.batchSize(),
        config.allRecordHeaders() ? "all" : config.recordHeaders());
    super.start();
  }

  @Override
  public synchronized void stop() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(30));
      producer = null;
      topicLimit.close();
      topicLimit = null;
      counter.incrementConnectionClosedCount();
    }
    counter.stop();
    LOG.info("{}: stopped; {}", config == null ? getName() : config.component(), counter);
    super.stop();
  }

  @Override
  public Status process() throws EventDeliveryException {
    Channel channel = getChannel();
    Transaction transaction = channel.getTransaction();
    transaction.begin();
    try {
      long started = System.nanoTime();
      // A new one per batch: a send that fails synchronously leaves earlier ones to complete after the rollback.
      BatchAcknowledgements acks = new BatchAcknowledgements();
      int topicLimitBytes = topicLimit.bytes();
      int taken = 0;
      while (taken < config.batchSize()) {
        Event event = channel.take();
        if (event == null) {
          break;
        }
        taken++;
        ProducerRecord<String, byte[]> record = toRecord(event);
        if (TopicMessageLimit.exceeds(record, topicLimitBytes)) {
          acks.refusedBeforeSending(TopicMessageLimit.batchBytes(record));
        } else {
          producer.send(record, acks);
        }
      }
      if (taken == 0) {
        transaction.commit();
        counter.incrementBatchEmptyCount();
        return Status.BACKOFF;
      }
      counter.addToEventDrainAttemptCount(taken);
      // flush() returns once every record sent so far is acknowledged or failed, their callbacks run.
      producer.flush();
      acks.throwIfFailed();
      transaction.commit();
      int tooLarge = acks.tooLarge();
      counter.addToEventDrainSuccessCount(taken - tooLarge);
      for (int i = 0; i < tooLarge; i++) {
        counter.incrementRecordTooLargeDropCount();
      }
      if (tooLarge > 0) {
        tooLargeLog.warn(() -> config.component() + ": dropped " + tooLarge + " event(s) too large for Kafka (the "
            + "last " + acks.lastTooLargeBytes() + " bytes; topic " + config.topic() + "'s max.message.bytes "
            + (topicLimitBytes == TopicMessageLimit.UNKNOWN ? "unknown" : topicLimitBytes) + "), counted in "
            + "RecordTooLargeDropCount. Fix: raise kafka.producer.max.request.size and the topic's "
            + "max.message.bytes above the source's maxMessageBytes plus the record headers");
      }
      if (taken < config.batchSize()) {
        counter.incrementBatchUnderflowCount();
      } else {
        counter.incrementBatchCompleteCount();
      }
      counter.addToKafkaEventSendTimer(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      return Status.READY;
    } catch (EventDeliveryException e) {
      rollBack(transaction, e);
      throw e;
    } catch (RuntimeException | Error e) {
      rollBack(transaction, e);
      if (e instanceof Error error) {
        throw error;
      }
      throw new EventDeliveryException(config.component() + ": could not write a batch to Kafka", e);
    } finally {
      transaction.close();
    }
  }

  private void rollBack(Transaction transaction, Throwable cause) {
    counter.incrementEventWriteOrChannelFail(cause);
    try {
      transaction.rollback();
      counter.incrementRollbackCount();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
    failureLog.warn(() -> config.component() + ": batch rolled back to the channel and retried: " + cause
        + (cause.getCause() == null ? "" : " (" + cause.getCause() + ")")
        + ". If it persists, check that " + config.bootstrapServers() + " is reachable and topic "
        + config.topic() + " exists");
  }

  ProducerRecord<String, byte[]> toRecord(Event event) {
    Map<String, String> headers = event.getHeaders();
    String key = config.keyHeader() == null ? null : headers.get(config.keyHeader());
    return new ProducerRecord<>(config.topic(), null, null, key, event.getBody(), recordHeaders(headers));
  }

  /**
   * The event's headers that are record headers, in the event's order; one walk, no lookups in its map, and
   * through {@code forEach} no entry objects ({@link EventHeaders}, the edge source's map, walks its arrays).
   */
  private List<Header> recordHeaders(Map<String, String> headers) {
    if (headers.isEmpty()) {
      return List.of();
    }
    // Sized to the event's headers; Kafka 4.3's RecordHeaders copies any list other than its own class entry by entry.
    List<Header> found = new ArrayList<>(headers.size());
    headers.forEach((name, value) -> encodedHeaders.add(name, value, found));
    return found;
  }

  private boolean isRecordHeader(String name) {
    return recordHeaders == null || recordHeaders.contains(name);
  }

  private static Header encode(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The last record header built for each header name, with the value it encodes. Most header values of edge events
   * are the very same String from event to event (site, format, parse, facility, severity, the connection's peer,
   * the receive millisecond), so their {@code RecordHeader} is reused (Kafka only reads it) instead of encoded and
   * allocated again; a value that is another String, even an equal one, is encoded anew. Whether a name is a
   * record header is decided once per name. A small open-addressing table, since the edge's names are a few
   * constants; a name that finds no slot is simply not cached. Confined to the sink runner's thread.
   */
  private final class EncodedHeaders {
    /** A power of two, several times the contract's 15 names. */
    private static final int SLOTS = 64;
    private static final int MAX_PROBES = 8;

    private final String[] names = new String[SLOTS];
    private final boolean[] selected = new boolean[SLOTS];
    private final String[] values = new String[SLOTS];
    private final Header[] encoded = new Header[SLOTS];

    /** Adds the record header of one Flume header to {@code found}, unless it is not a record header or null. */
    void add(String name, String value, List<Header> found) {
      if (value == null) {
        return;
      }
      int slot = slotOf(name);
      if (slot < 0) {
        if (isRecordHeader(name)) {
          found.add(encode(name, value));
        }
      } else if (selected[slot]) {
        if (values[slot] != value) {
          values[slot] = value;
          encoded[slot] = encode(name, value);
        }
        found.add(encoded[slot]);
      }
    }

    /** The name's slot, claimed and its selection decided on first sight; -1 when its neighbourhood is full. */
    private int slotOf(String name) {
      int slot = name.hashCode() & (SLOTS - 1);
      for (int probe = 0; probe < MAX_PROBES; probe++, slot = (slot + 1) & (SLOTS - 1)) {
        String held = names[slot];
        if (held == null) {
          names[slot] = name;
          selected[slot] = isRecordHeader(name);
          return slot;
        }
        if (held == name || held.equals(name)) {
          return slot;
        }
      }
      return -1;
    }
  }

  /**
   * The one callback of every record of a batch. Failures other than a too-large record fail the batch;
   * the first one is kept as the cause. Callbacks run on the producer's I/O thread; {@code flush()} makes their
   * effects visible to the sink's thread.
   */
  private static final class BatchAcknowledgements implements Callback {
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicInteger tooLarge = new AtomicInteger();
    private volatile int lastTooLargeBytes;

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
      if (exception == null) {
        return;
      }
      if (exception instanceof RecordTooLargeException) {
        tooLarge.incrementAndGet();
        lastTooLargeBytes = metadata == null ? -1 : Math.max(0, metadata.serializedValueSize());
      } else {
        failure.compareAndSet(null, exception);
      }
    }

    void throwIfFailed() throws EventDeliveryException {
      Exception e = failure.get();
      if (e != null) {
        throw new EventDeliveryException("Kafka did not acknowledge every event of the batch: " + e, e);
      }
    }

    int tooLarge() {
      return tooLarge.get();
    }

    /** An event the sink did not send because the topic would refuse it ({@link TopicMessageLimit}). */
    void refusedBeforeSending(int bytes) {
      tooLarge.incrementAndGet();
      lastTooLargeBytes = bytes;
    }

    int lastTooLargeBytes() {
      return lastTooLargeBytes;
    }
  }
}
