package org.flafka.edge.sink;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.record.internal.AbstractRecords;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Utils;
import org.flafka.edge.channel.KafkaRecordChannel;

/**
 * The Kafka producer of a {@link KafkaRecordSink} or {@link KafkaRecordChannel}, the limit of the
 * topic it writes ({@link TopicMessageLimit}) and its own {@code max.request.size}, opened and
 * closed together, so that a writer can judge a record against both before sending it ({@link
 * #oversize}). Thread-safe: the producer is, and the topic's limit is read under this object's
 * lock, once per batch (a channel's source puts from several threads).
 */
public final class KafkaRecordProducer implements AutoCloseable {
  /** How long closing waits for records still being sent. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

  private final KafkaProducer<String, byte[]> producer;
  private final TopicMessageLimit topicLimit;
  private final int maxRequestBytes;
  private final String topic;

  /** Runs {@link #flushInBackground()}'s flushes; made at the first, ended by closing. */
  private ThreadPoolExecutor flusher;

  /** Whether a flush is queued on {@link #flusher} and has not begun. */
  private final AtomicBoolean flushQueued = new AtomicBoolean();

  private final String flusherName;

  /** Guards {@link #flusher}: not this object's lock, which a first topic-limit lookup holds. */
  private final Object flusherLock = new Object();

  public KafkaRecordProducer(KafkaRecordConfig config) {
    Properties producerProperties = config.producerProperties();
    producer = new KafkaProducer<>(producerProperties);
    topic = config.topic();
    // The benchmarks count a thread by its name's start (ThreadCpu): a sink's flushes with its
    // runner, a channel's (its sources' puts) with the producer's own threads
    flusherName =
        (config.role() == KafkaRecordConfig.Role.SINK ? "SinkRunner" : "kafka-producer")
            + "-flush-"
            + config.component();
    topicLimit = new TopicMessageLimit(config.component(), config.topic(), producerProperties);
    // the producer has just accepted the value, so it parses
    maxRequestBytes =
        (Integer)
            org.apache.kafka.common.config.ConfigDef.parseType(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                producerProperties.getOrDefault(
                    ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                    ProducerConfig.configDef()
                        .defaultValues()
                        .get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)),
                org.apache.kafka.common.config.ConfigDef.Type.INT);
  }

  /**
   * Whether Kafka would refuse {@code record} as too large ({@link Oversize#judge}), against the
   * topic's limit {@code topicLimitBytes} (from {@link #topicLimitBytes()}, read once per batch)
   * and this producer's {@code max.request.size}: null if it would not.
   */
  public Oversize oversize(ProducerRecord<String, byte[]> record, int topicLimitBytes) {
    return Oversize.judge(record, topic, topicLimitBytes, maxRequestBytes);
  }

  /**
   * The producer's estimate of {@code record}'s size, which it compares with {@code
   * max.request.size}.
   */
  static int requestBytes(ProducerRecord<String, byte[]> record) {
    byte[] key = record.key() == null ? null : Utils.utf8(record.key());
    return AbstractRecords.estimateSizeInBytesUpperBound(
        RecordBatch.CURRENT_MAGIC_VALUE,
        CompressionType.NONE,
        key,
        record.value(),
        record.headers().toArray());
  }

  /** The topic's {@code max.message.bytes}, or {@link TopicMessageLimit#UNKNOWN}. */
  public synchronized int topicLimitBytes() {
    return topicLimit.bytes();
  }

  /**
   * The producer's own total {@code name} of its {@code producer-metrics} group (e.g. {@code
   * connection-close-total}), 0 when it has none; since this producer started.
   */
  public long total(String name) {
    return valueOf(metric(name));
  }

  /**
   * The producer's own metric {@code name} of its {@code producer-metrics} group, or null while it
   * has none: for a writer that reads one often, since each lookup walks every metric.
   */
  public Metric metric(String name) {
    for (Map.Entry<MetricName, ? extends Metric> metric : producer.metrics().entrySet()) {
      if (metric.getKey().name().equals(name)
          && metric.getKey().group().equals("producer-metrics")) {
        return metric.getValue();
      }
    }
    return null;
  }

  /** A metric's value as a whole number, 0 for a missing metric or one that is not a number. */
  public static long valueOf(Metric metric) {
    return metric != null && metric.metricValue() instanceof Number value ? value.longValue() : 0;
  }

  public void send(ProducerRecord<String, byte[]> record, Callback callback) {
    producer.send(record, callback);
  }

  /** Returns once every record sent so far is acknowledged or failed, their callbacks run. */
  public void flush() {
    producer.flush();
  }

  /**
   * Has the producer send every record it holds now, as {@link #flush()} does, without waiting for
   * the acknowledgements: a flush that never returns (a producer that no longer completes its
   * records) then holds a thread of this producer's own, which closing ends, instead of the caller.
   * Thread-safe: a channel's sources commit from several threads.
   *
   * <p>A caller that finds a flush queued and not yet begun adds none: that flush begins after the
   * caller's records are in the producer, so it sends them too. Without this, commits arriving
   * faster than Kafka acknowledges (a distant cluster) would queue flushes without bound.
   */
  public void flushInBackground() {
    if (!flushQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      synchronized (flusherLock) {
        flushInBackgroundLocked();
      }
    } catch (RuntimeException e) {
      flushQueued.set(false);
      throw e;
    }
  }

  /**
   * Asks Kafka for the topic's partitions on this producer's background thread (as {@link
   * #flushInBackground()} runs its flushes): done once the producer has the topic's metadata, or
   * failed as {@code partitionsFor} fails (after {@code max.block.ms}, or at once when the producer
   * is closed). A writer that waits for it with a bound of its own never blocks in a send for
   * metadata; a send of a producer without it would wait out {@code max.block.ms}.
   */
  public CompletableFuture<Void> fetchMetadataInBackground() {
    CompletableFuture<Void> fetched = new CompletableFuture<>();
    synchronized (flusherLock) {
      try {
        background()
            .execute(
                () -> {
                  try {
                    producer.partitionsFor(topic);
                    fetched.complete(null);
                  } catch (RuntimeException e) {
                    fetched.completeExceptionally(e);
                  }
                });
      } catch (RuntimeException e) {
        fetched.completeExceptionally(e);
      }
    }
    return fetched;
  }

  /** How many tasks wait for the background thread, the one it runs not counted. */
  int queuedInBackground() {
    synchronized (flusherLock) {
      return flusher == null ? 0 : flusher.getQueue().size();
    }
  }

  /** The background thread's executor, made at its first use. Under {@link #flusherLock}. */
  private ExecutorService background() {
    if (flusher == null) {
      flusher =
          new ThreadPoolExecutor(
              1,
              1,
              0,
              TimeUnit.MILLISECONDS,
              new LinkedBlockingQueue<>(),
              runnable -> {
                Thread thread = new Thread(runnable, flusherName);
                thread.setDaemon(true);
                return thread;
              });
    }
    return flusher;
  }

  private void flushInBackgroundLocked() {
    background()
        .execute(
            () -> {
              flushQueued.set(false);
              try {
                producer.flush();
              } catch (RuntimeException e) {
                // closed or interrupted under the flush: the writer learns of its records from
                // their callbacks
              }
            });
  }

  @Override
  public void close() {
    close(CLOSE_WAIT);
  }

  /**
   * Closes within about {@code wait}: records still unsent then are abandoned, their callbacks
   * failed.
   */
  public void close(Duration wait) {
    try {
      producer.close(wait);
    } finally {
      topicLimit.close();
      synchronized (flusherLock) {
        if (flusher != null) {
          flusher.shutdownNow();
        }
      }
    }
  }
}
