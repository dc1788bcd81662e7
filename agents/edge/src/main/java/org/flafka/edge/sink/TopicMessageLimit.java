package org.flafka.edge.sink;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.internal.DefaultRecord;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.utils.Utils;
import org.flafka.edge.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The largest record batch the sink's topic accepts ({@code max.message.bytes}, the broker's {@code
 * message.max.bytes} unless the topic sets its own), read from the cluster, so that the sink can
 * drop and count a record over it instead of sending it.
 *
 * <p>Why not let Kafka refuse it: the broker refuses the whole batch the record is in, and Kafka
 * 4.3.1's producer then splits that batch and sends the parts again, and again. Measured
 * (KafkaRecordSinkTest, an 8,000-byte record between two small ones, topic limit 4,096): 59,000
 * splits in 26 s, then a {@code StackOverflowError} that killed the producer's I/O thread, so the
 * sink's {@code flush()} never returned and the edge stopped delivering anything (the symptoms of
 * KAFKA-8350 and KAFKA-8202, which Kafka fixed for other cases). The producer's own {@code
 * max.request.size} check does not have this problem: it refuses one record before batching.
 *
 * <p>The size judged is the record's size in an uncompressed batch of its own, to the byte. The
 * broker compares the compressed batch, so a record that compression would have shrunk under the
 * limit is dropped too, as the producer's {@code max.request.size} check does for its own limit.
 *
 * <p>The first lookup waits up to {@link #FIRST_LOOKUP_WAIT_MILLIS} (a sink cannot judge its first
 * batch without it); later ones run in the background every {@link #REFRESH_NANOS}, or {@link
 * #RETRY_NANOS} after a failure (a principal without DescribeConfigs on the topic, an unreachable
 * cluster), during which the last known limit holds, or none. Not thread-safe (KafkaRecordProducer
 * locks around it).
 */
public final class TopicMessageLimit implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TopicMessageLimit.class);

  /** No limit known. */
  static final int UNKNOWN = Integer.MAX_VALUE;

  static final long FIRST_LOOKUP_WAIT_MILLIS = 5_000;
  static final long REFRESH_NANOS = TimeUnit.MINUTES.toNanos(5);
  static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final String component;
  private final String topic;
  private final Properties adminProperties = new Properties();

  /** Null between a failed lookup and the next one. */
  private Admin admin;

  private final LongSupplier nanoClock;
  private final RateLimitedLog failureLog = new RateLimitedLog(LOG, 5, TimeUnit.MINUTES);
  private int bytes = UNKNOWN;
  private boolean looked;
  private KafkaFuture<Config> pending;
  private long nextLookupNanos;

  TopicMessageLimit(String component, String topic, Properties producerProperties) {
    this(component, topic, producerProperties, System::nanoTime);
  }

  /** With the clock that times the lookups (tests move it on). */
  TopicMessageLimit(
      String component, String topic, Properties producerProperties, LongSupplier nanoClock) {
    this.component = component;
    this.topic = topic;
    this.nanoClock = nanoClock;
    this.nextLookupNanos = nanoClock.getAsLong();
    for (String name : AdminClientConfig.configNames()) {
      if (producerProperties.containsKey(name)) {
        adminProperties.put(name, producerProperties.get(name));
      }
    }
    // A secure cluster's passwords are ${provider:file:key} references (docs/guides/security.md):
    // the admin client resolves them only with the providers' own settings, which are not config
    // names of their own
    for (String name : producerProperties.stringPropertyNames()) {
      if (name.startsWith(AdminClientConfig.CONFIG_PROVIDERS_CONFIG + ".")) {
        adminProperties.put(name, producerProperties.get(name));
      }
    }
    admin = Admin.create(adminProperties);
  }

  /** The topic's limit in bytes, or {@link #UNKNOWN}. */
  int bytes() {
    long now = nanoClock.getAsLong();
    if (pending == null && now - nextLookupNanos >= 0) {
      if (admin == null) {
        admin = Admin.create(adminProperties);
      }
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      pending = admin.describeConfigs(List.of(resource)).values().get(resource);
    }
    if (pending != null && (pending.isDone() || !looked)) {
      collect(now);
    }
    return bytes;
  }

  private void collect(long now) {
    try {
      Config config =
          looked
              ? pending.getNow(null)
              : pending.get(FIRST_LOOKUP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      ConfigEntry entry = config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
      bytes = Integer.parseInt(entry.value());
      nextLookupNanos = now + REFRESH_NANOS;
    } catch (TimeoutException | ExecutionException | RuntimeException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      failureLog.warn(
          () ->
              component
                  + ": could not read topic "
                  + topic
                  + "'s "
                  + TopicConfig.MAX_MESSAGE_BYTES_CONFIG
                  + " ("
                  + cause
                  + "); until it can, a record over that limit stalls the sink. If this persists, check "
                  + "that the topic exists, that the cluster is reachable and that the sink's principal may "
                  + "DescribeConfigs on the topic");
      nextLookupNanos = now + RETRY_NANOS;
      // Closed until the retry: a Kafka 4.4 admin client whose login the broker refused
      // rebootstraps in a loop without pause, each time an INFO line in the agent's log
      admin.close(Duration.ZERO);
      admin = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      nextLookupNanos = now;
    }
    looked = true;
    pending = null;
  }

  /**
   * The record's uncompressed size in a batch of its own, by Kafka's own arithmetic: the batch
   * header, then the record as DefaultRecord writes it, its offset and timestamp deltas 0 in a
   * batch of one.
   */
  static int batchBytes(ProducerRecord<String, byte[]> record) {
    int keyBytes = record.key() == null ? -1 : Utils.utf8Length(record.key());
    return DefaultRecordBatch.RECORD_BATCH_OVERHEAD
        + DefaultRecord.sizeInBytes(
            0, 0L, keyBytes, record.value().length, record.headers().toArray());
  }

  /** At once: a lookup still waiting for an unreachable cluster is abandoned. */
  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ZERO);
    }
  }
}
