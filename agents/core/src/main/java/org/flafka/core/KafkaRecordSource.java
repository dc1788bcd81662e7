package org.flafka.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.EventDeliveryException;
import org.apache.flume.PollableSource;
import org.apache.flume.conf.BatchSizeSupported;
import org.apache.flume.conf.Configurable;
import org.apache.flume.source.AbstractSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.flafka.contract.KafkaRecordDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Kafka records into Flume events for the core tier: the value as the body, byte for byte,
 * and the record headers as Flume headers of the same name ({@link KafkaRecordDecoder}, the edge's
 * encoding read back). What Flume's {@code KafkaSource} does for the core, without two of its
 * limits: a header with a null value is skipped instead of making Flume's source throw and skip the
 * whole record (counted only in an EventReadFail its MBean does not publish), and values are
 * decoded as UTF-8 whatever the JVM's default charset. It walks a record's headers once (Flume's
 * walks all of them for each of the 15 mapped names) and tracks offsets per run of a partition;
 * that makes its thread 16-28% cheaper, but the agent as a whole measured no faster
 * (docs/benchmarks.md, "Core agent drain").
 *
 * <p>One channel transaction per batch (up to {@code batchSize} events or {@code
 * batchDurationMillis}); offsets are committed only after the channels took the batch, so a crash
 * re-reads, never skips (at least once). A batch the channels refuse (full) is kept and offered
 * again after the runner's back-off, without reading further. When the group takes partitions away,
 * the batch read so far is delivered and committed first, and records already fetched from those
 * partitions are dropped for their next owner to read; when the partitions are lost instead (the
 * group moved on without us) the batch is dropped and the partitions we keep are rewound, so their
 * next owner or this source reads it again.
 *
 * <p>Refused logins ({@link RefusedLogins}), as the core's Kafka channel: one ERROR line naming the
 * setting to fix, the consumer closed and the batch read so far dropped (nothing is put or
 * committed; a new consumer reads it again from the last commit), and a new consumer after a pause
 * of 1 s doubling to 30 s, which reads the secrets file again.
 *
 * <p>Like Flume's source it sets {@code timestamp} to the record's time when the record has no
 * {@code timestamp} header, and {@code key} to the record key when there is one; unlike it, no
 * {@code topic}, {@code partition} or {@code offset} headers (nothing in the core uses them, and
 * each costs a string per event).
 *
 * <p>Metrics ({@link KafkaRecordSourceCounter}) are Flume's Kafka source counters under the same
 * names, so Cloudera Manager, the dashboards and the sweep read either source alike, plus the
 * failure counters Flume's leaves out of JMX ({@code ChannelWriteFail} for a full channel). Keys:
 * {@link KafkaRecordSourceConfig} and docs/reference/core-plugins.md.
 */
public class KafkaRecordSource extends AbstractSource
    implements PollableSource, Configurable, BatchSizeSupported {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordSource.class);

  private static final long BACKOFF_SLEEP_INCREMENT_MILLIS = 1000;
  private static final long MAX_BACKOFF_SLEEP_MILLIS = 5000;

  private KafkaRecordSourceConfig config;
  private KafkaRecordDecoder decoder;
  private KafkaRecordSourceCounter counter;
  private KafkaConsumer<byte[], byte[]> consumer;
  private Properties consumerProperties;
  private RefusedLogins refusedLogins;

  /** Events read and not yet taken by the channels. */
  private final List<Event> batch = new ArrayList<>();

  /**
   * The offset after the last record of {@link #batch} per partition: what to commit once it is
   * delivered.
   */
  private final Map<TopicPartition, OffsetAndMetadata> nextOffsets = new HashMap<>();

  /**
   * The offset of the first record of {@link #batch} per partition: where to rewind if it is
   * dropped.
   */
  private final Map<TopicPartition, Long> firstOffsets = new HashMap<>();

  /** Records fetched and not yet in the batch. */
  private Iterator<ConsumerRecord<byte[], byte[]>> fetched = Collections.emptyIterator();

  /** The partition of the run of records being added, and its last offset (-1 before the first). */
  private TopicPartition runPartition;

  private long runLastOffset = -1;

  @Override
  public void configure(Context context) {
    config =
        new KafkaRecordSourceConfig(
            KafkaRecordSourceConfig.COMPONENT + " " + getName(), context.getParameters());
    decoder = config.reading().decoder();
    if (counter == null) {
      counter = new KafkaRecordSourceCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    consumerProperties = config.reading().consumerProperties();
    refusedLogins =
        new RefusedLogins(
            KafkaRecordSourceConfig.COMPONENT + " " + getName(), consumerProperties, LOG);
    // A consumer refused at once (e.g. its keytab is missing) leaves the source started but
    // reading nothing; process() makes a new one after the pause.
    makeConsumer();
    counter.start();
    LOG.info(
        "{}: reading {} at {} as group member of {}, batches of up to {} events or {} ms, {}",
        getName(),
        config.topics(),
        config.reading().bootstrapServers(),
        consumerProperties.getProperty(ConsumerConfig.GROUP_ID_CONFIG),
        config.batchSize(),
        config.batchDurationMillis(),
        config.reading().describe());
    super.start();
  }

  @Override
  public synchronized void stop() {
    if (consumer != null) {
      // The runner thread has stopped; whatever was read and not delivered is read again after a
      // restart.
      consumer.close(Duration.ofSeconds(30));
      consumer = null;
    }
    counter.stop();
    LOG.info("{}: stopped; {}", getName(), counter);
    super.stop();
  }

  /**
   * Makes and subscribes a consumer; on a security failure logs the line naming the setting to fix
   * and leaves {@link #consumer} null.
   */
  private boolean makeConsumer() {
    consumer = refusedLogins.newConsumer().orElse(null);
    if (consumer == null) {
      return false;
    }
    consumer.subscribe(config.topics(), new Rebalance());
    return true;
  }

  /**
   * Closes a consumer whose login was refused, dropping what it read and did not deliver (the next
   * consumer reads it again from the last commit), and says so.
   */
  private void retireConsumer(String why) {
    KafkaConsumer<byte[], byte[]> refused = consumer;
    consumer = null;
    batch.clear();
    firstOffsets.clear();
    nextOffsets.clear();
    fetched = Collections.emptyIterator();
    runPartition = null;
    runLastOffset = -1;
    refusedLogins.retire(refused, why);
  }

  @Override
  public Status process() throws EventDeliveryException {
    if (consumer == null && !(refusedLogins.newConsumerDue() && makeConsumer())) {
      return Status.BACKOFF;
    }
    try {
      if (batch.size() < config.batchSize()) {
        read();
      }
      if (batch.isEmpty()) {
        return Status.BACKOFF;
      }
      deliver();
      return Status.READY;
    } catch (WakeupException | InterruptException e) {
      // Stopping: the runner interrupts its thread. The batch is re-read after a restart.
      Thread.currentThread().interrupt();
      return Status.BACKOFF;
    } catch (org.apache.flume.ChannelException e) {
      // The channels are full: keep the batch and offer it again after the runner's back-off.
      counter.incrementChannelWriteFail();
      return Status.BACKOFF;
    } catch (RuntimeException e) {
      counter.incrementEventReadOrChannelFail(e);
      throw new EventDeliveryException(getName() + ": could not read from Kafka: " + e, e);
    }
  }

  /** Adds fetched records to the batch until it is full or its time is up. */
  private void read() {
    long started = System.nanoTime();
    long deadline = System.currentTimeMillis() + config.batchDurationMillis();
    int before = batch.size();
    while (batch.size() < config.batchSize()) {
      if (!fetched.hasNext()) {
        long wait = deadline - System.currentTimeMillis();
        if (wait <= 0) {
          break;
        }
        ConsumerRecords<byte[], byte[]> records;
        try {
          records = consumer.poll(Duration.ofMillis(wait));
        } catch (AuthenticationException e) {
          retireConsumer(refusedLogins.explain(e).orElseThrow(() -> e));
          return;
        }
        if (records.isEmpty()) {
          Optional<String> refused = refusedLogins.refusedSinceLastRead(consumer);
          if (refused.isPresent()) {
            retireConsumer(refused.get());
            return;
          }
          if (batch.isEmpty()) {
            counter.incrementKafkaEmptyCount();
          }
          break;
        }
        refusedLogins.read(consumer);
        fetched = records.iterator();
        continue;
      }
      add(fetched.next());
    }
    endRun();
    int read = batch.size() - before;
    if (read > 0) {
      counter.addToKafkaEventGetTimer(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      counter.addToEventReceivedCount(read);
    }
  }

  private void add(ConsumerRecord<byte[], byte[]> record) {
    // Records come partition by partition, so one offset entry per run instead of per record.
    if (runPartition == null
        || record.partition() != runPartition.partition()
        || !record.topic().equals(runPartition.topic())) {
      endRun();
      runPartition = new TopicPartition(record.topic(), record.partition());
      firstOffsets.putIfAbsent(runPartition, record.offset());
    }
    runLastOffset = record.offset();
    batch.add(decoder.toEvent(record));
  }

  private void endRun() {
    if (runPartition != null && runLastOffset >= 0) {
      nextOffsets.put(runPartition, new OffsetAndMetadata(runLastOffset + 1));
    }
    runPartition = null;
    runLastOffset = -1;
  }

  /** Puts the batch into the channels, then commits its offsets. */
  private void deliver() {
    getChannelProcessor().processEventBatch(batch);
    counter.addToEventAcceptedCount(batch.size());
    batch.clear();
    firstOffsets.clear();
    if (!nextOffsets.isEmpty()) {
      long started = System.nanoTime();
      try {
        consumer.commitSync(nextOffsets);
      } catch (org.apache.kafka.common.KafkaException e) {
        // The events are in the channels; their offsets will be read again, so they arrive twice.
        counter.incrementGenericProcessingFail();
        LOG.warn(
            "{}: could not commit offsets {} after the channels took their events; they will be read "
                + "again (duplicates): {}",
            getName(),
            nextOffsets,
            e.toString());
      }
      counter.addToKafkaCommitTimer(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      nextOffsets.clear();
    }
  }

  /**
   * Forgets the batch and the fetched records without delivering them, and rewinds the partitions
   * still ours to the first of them, so they are read again; the partitions in {@code gone} are
   * read by their next owner from the committed offsets.
   */
  private void dropBatch(Collection<TopicPartition> gone) {
    Map<TopicPartition, Long> rewindTo = new HashMap<>(firstOffsets);
    // Fetched records come after the batch's in each partition, so a batch offset wins.
    fetched.forEachRemaining(
        r -> rewindTo.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset()));
    fetched = Collections.emptyIterator();
    rewindTo.forEach(
        (partition, offset) -> {
          if (!gone.contains(partition)) {
            consumer.seek(partition, offset);
          }
        });
    batch.clear();
    firstOffsets.clear();
    nextOffsets.clear();
  }

  /**
   * Keeps only the fetched records of partitions still ours; their consumer positions are past
   * them.
   */
  private void dropFetched(Collection<TopicPartition> gone) {
    List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>();
    fetched.forEachRemaining(
        r -> {
          if (!gone.contains(new TopicPartition(r.topic(), r.partition()))) {
            kept.add(r);
          }
        });
    fetched = kept.iterator();
  }

  @Override
  public long getBatchSize() {
    return config.batchSize();
  }

  @Override
  public long getBackOffSleepIncrement() {
    return BACKOFF_SLEEP_INCREMENT_MILLIS;
  }

  @Override
  public long getMaxBackOffSleepInterval() {
    return MAX_BACKOFF_SLEEP_MILLIS;
  }

  /** Runs inside {@code poll()}, on the source's own thread. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      endRun();
      if (!batch.isEmpty()) {
        try {
          deliver();
        } catch (RuntimeException e) {
          LOG.warn(
              "{}: partitions {} are being reassigned and the channels did not take the {} events "
                  + "read so far ({}); they will be read again",
              getName(),
              partitions,
              batch.size(),
              e.toString());
          counter.incrementChannelWriteFail();
          dropBatch(partitions);
          return;
        }
      }
      dropFetched(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      endRun();
      dropBatch(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      LOG.info("{}: assigned {}", getName(), partitions);
    }
  }
}
