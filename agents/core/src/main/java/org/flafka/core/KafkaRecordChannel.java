package org.flafka.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.channel.BasicChannelSemantics;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.instrumentation.ChannelCounter;
import org.apache.flume.interceptor.Interceptor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.flafka.contract.KafkaRecordDecoder;
import org.flafka.interceptors.BucketHeadersInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flume channel that is a Kafka consumer: the core's HDFS sink takes the edge's records straight
 * from the topic, and the offsets of what it took are committed only when the sink commits its take
 * transaction, which {@link HdfsBucketSink} does after it has flushed the batch to HDFS. Nothing is
 * held anywhere but Kafka and the files, so an agent that dies loses nothing and writes nothing
 * twice to local disk: a restart reads again from the last commit (at least once; the few events of
 * the batch in flight can land twice).
 *
 * <p>Why not Flume's {@code KafkaChannel}: with {@code parseAsFlumeEvent = false} it builds events
 * from the record value alone and drops the record headers the edge writes ({@code timestamp},
 * {@code host}, {@code id}, ...), which the HDFS layout and the audit need.
 *
 * <p>Shape: one consumer per channel, in the core's consumer group, used by the one sink that
 * drains the channel (Flume drives a sink on one thread; the consumer is not thread-safe). The
 * group divides the partitions among the channels, so with the edge partitioning by host each
 * dt/host bucket has one writer. A take decodes the records of a poll with {@link
 * KafkaRecordDecoder} (the contract's decoder, which also derives the facts the wire leaves out)
 * and passes them through the {@link BucketHeadersInterceptor} (configured by {@code bucket.*}),
 * since there is no source to carry interceptors. A take that finds nothing within {@code
 * pollTimeout} returns null, which ends the sink's batch.
 *
 * <p>Transactions: {@code commit()} commits the taken offsets synchronously; a commit Kafka refuses
 * is logged and the next one covers it (the events are in HDFS already; only a crash before the
 * next commit re-reads them). {@code rollback()} seeks every partition back to the first record the
 * transaction took, so the same records are taken again. {@code put()} is refused: the channel has
 * no sources. When the group takes partitions away in the middle of a transaction that took events
 * from them (another reader joined or left; a rebalance happens only inside a take's poll), the
 * next take throws {@link PartitionsRevokedException}: their next owner reads those events again,
 * so the sink must write none of the transaction ({@link HdfsBucketSink} cuts its files back and
 * rolls back), and nothing is written twice.
 *
 * <p>Static group membership by default ({@link
 * KafkaRecordChannelConfig#STATIC_MEMBERSHIP_CONFIG}): a restarted agent rejoins under the same
 * group.instance.id and gets its partitions back without waiting for the session timeout of its
 * dead consumers.
 *
 * <p>Refused logins ({@link RefusedLogins}): when Kafka refuses the consumer's login (a wrong
 * password, a missing keytab, an untrusted certificate), the channel logs one ERROR line naming the
 * setting to fix, closes the consumer and takes nothing (takes return null, so the sink backs off)
 * until a new consumer, made after a pause of 1 s doubling to 30 s, is let in; each new consumer
 * reads the secrets file again. What the open transaction took before is not committed: the new
 * consumer reads it again from the last commit (duplicates, never a gap).
 *
 * <p>Metrics: Flume's {@link ChannelCounter} (puts stay 0, takes count taken and committed events);
 * {@code ChannelSize} is the consumer lag of the channel's partitions (events waiting in Kafka),
 * refreshed at most once a second, and {@code ChannelCapacity} a nominal 2^31-1 (the topic's
 * retention bounds it). Keys: {@link KafkaRecordChannelConfig} and docs/reference/core-plugins.md.
 */
public class KafkaRecordChannel extends BasicChannelSemantics {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordChannel.class);

  private static final long LAG_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private KafkaRecordChannelConfig config;
  private KafkaRecordDecoder decoder;
  private Interceptor guard;
  private ChannelCounter counter;
  private KafkaConsumer<byte[], byte[]> consumer;
  private Properties consumerProperties;
  private RefusedLogins refusedLogins;

  /** Events of the last poll, decoded and guarded, with their partition and offset. */
  private Event[] fetchedEvents = new Event[0];

  private TopicPartition[] fetchedPartitions = new TopicPartition[0];
  private long[] fetchedOffsets = new long[0];
  private int fetchedCount;

  /** The next of the fetched events to take. */
  private int nextFetched;

  /** Per partition, the first offset the open transaction took: where a rollback seeks to. */
  private final Map<TopicPartition, Long> takenFirst = new HashMap<>();

  /** Per partition, the offset after the last one the open transaction took: what to commit. */
  private final Map<TopicPartition, OffsetAndMetadata> takenNext = new HashMap<>();

  private int takenCount;

  /**
   * Whether the group took away partitions the open transaction had taken events from: every later
   * take of the transaction fails, so that it can only roll back.
   */
  private boolean revokedMidTransaction;

  /** The partitions of {@link #revokedMidTransaction}, for the exception's message. */
  private final List<TopicPartition> revokedInFlight = new ArrayList<>();

  /** The partition of the run of takes in progress, and its last offset. */
  private TopicPartition runPartition;

  private long runLastOffset = -1;

  private long lastLagRefresh;

  @Override
  public void configure(Context context) {
    config =
        new KafkaRecordChannelConfig(
            KafkaRecordChannelConfig.COMPONENT + " " + getName(), context.getParameters());
    decoder = config.reading().decoder();
    BucketHeadersInterceptor.Builder builder = new BucketHeadersInterceptor.Builder();
    builder.configure(new Context(config.bucketSettings()));
    guard = builder.build();
    if (counter == null) {
      counter = new ChannelCounter(getName());
    }
    super.configure(context);
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    consumerProperties = config.consumerProperties(getName());
    refusedLogins =
        new RefusedLogins(
            KafkaRecordChannelConfig.COMPONENT + " " + getName(), consumerProperties, LOG);
    // A consumer whose login is refused at once (e.g. its keytab is missing) leaves the channel
    // started but taking nothing; takes make a new one after the pause.
    makeConsumer();
    guard.initialize();
    // Nominal: the topic's retention bounds what waits. Not Long.MAX_VALUE, whose sum over several
    // channels (what dashboards and the sweep add up) would overflow.
    counter.setChannelCapacity(Integer.MAX_VALUE);
    counter.start();
    LOG.info(
        "{}: reading {} at {} as {} of group {}, {}",
        getName(),
        config.topic(),
        config.reading().bootstrapServers(),
        consumerProperties.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)
            ? "static member "
                + consumerProperties.getProperty(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)
            : "dynamic member",
        consumerProperties.getProperty(ConsumerConfig.GROUP_ID_CONFIG),
        config.reading().describe());
    super.start();
  }

  @Override
  public synchronized void stop() {
    // Flume stops the sinks before the channels, so no take is running. Whatever was taken and not
    // committed is read again after a restart. A static member leaves the group only by its
    // session timeout, which is what lets a restart take its partitions back at once.
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(30));
      consumer = null;
    }
    guard.close();
    counter.stop();
    LOG.info("{}: stopped; {}", getName(), counter);
    super.stop();
  }

  @Override
  protected BasicTransactionSemantics createTransaction() {
    return new Take();
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
    consumer.subscribe(List.of(config.topic()), new Rebalance());
    return true;
  }

  /** Closes a consumer whose login was refused, and says so; a later take makes a new one. */
  private void retireConsumer(String why) {
    dropFetched();
    KafkaConsumer<byte[], byte[]> refused = consumer;
    consumer = null;
    // Partitions revoked on close are released (Rebalance): what the open transaction took is read
    // again by the next consumer from the last commit.
    refusedLogins.retire(refused, why);
  }

  /**
   * Polls once and decodes what came; false when nothing came within the poll timeout, or there is
   * no consumer (refused logins) yet.
   */
  private boolean fetch() {
    if (consumer == null && !(refusedLogins.newConsumerDue() && makeConsumer())) {
      return false;
    }
    ConsumerRecords<byte[], byte[]> records;
    try {
      records = consumer.poll(Duration.ofMillis(config.pollTimeoutMillis()));
    } catch (AuthenticationException e) {
      retireConsumer(refusedLogins.explain(e).orElseThrow(() -> e));
      return false;
    }
    refreshLag();
    int count = records.count();
    if (count == 0) {
      var refused = refusedLogins.refusedSinceLastRead(consumer);
      if (refused.isPresent()) {
        retireConsumer(refused.get());
      }
      return false;
    }
    refusedLogins.read(consumer);
    if (fetchedEvents.length < count) {
      fetchedEvents = new Event[count];
      fetchedPartitions = new TopicPartition[count];
      fetchedOffsets = new long[count];
    }
    int i = 0;
    for (TopicPartition partition : records.partitions()) {
      for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
        fetchedEvents[i] = decoder.toEvent(record);
        fetchedPartitions[i] = partition;
        fetchedOffsets[i] = record.offset();
        i++;
      }
    }
    List<Event> guarded = guard.intercept(Arrays.asList(fetchedEvents).subList(0, count));
    if (guarded.size() != count) {
      throw new IllegalStateException(
          getName() + ": the bucket guard changed the number of events; it must only repair them");
    }
    fetchedCount = count;
    nextFetched = 0;
    return true;
  }

  private void refreshLag() {
    long now = System.nanoTime();
    if (now - lastLagRefresh < LAG_REFRESH_NANOS) {
      return;
    }
    lastLagRefresh = now;
    long lag = 0;
    for (TopicPartition partition : consumer.assignment()) {
      OptionalLong partitionLag = consumer.currentLag(partition);
      if (partitionLag.isPresent()) {
        lag += partitionLag.getAsLong();
      }
    }
    counter.setChannelSize(lag);
  }

  private void endRun() {
    if (runPartition != null) {
      takenNext.put(runPartition, new OffsetAndMetadata(runLastOffset + 1));
      runPartition = null;
      runLastOffset = -1;
    }
  }

  private void forgetTransaction() {
    takenFirst.clear();
    takenNext.clear();
    takenCount = 0;
    revokedMidTransaction = false;
    revokedInFlight.clear();
    runPartition = null;
    runLastOffset = -1;
  }

  /** Forgets the fetched events not taken yet; the consumer's positions are past them. */
  private Map<TopicPartition, Long> dropFetched() {
    Map<TopicPartition, Long> firstUntaken = new HashMap<>();
    for (int i = nextFetched; i < fetchedCount; i++) {
      firstUntaken.putIfAbsent(fetchedPartitions[i], fetchedOffsets[i]);
    }
    Arrays.fill(fetchedEvents, 0, fetchedCount, null);
    fetchedCount = 0;
    nextFetched = 0;
    return firstUntaken;
  }

  /** One sink transaction: takes, then a commit of their offsets or a rewind to them. */
  private final class Take extends BasicTransactionSemantics {

    @Override
    protected void doPut(Event event) {
      throw new ChannelException(
          getName()
              + ": a Kafka record channel has no sources; it reads topic "
              + config.topic()
              + ". Fix: remove it from every source's channels (the edge writes the topic)");
    }

    @Override
    protected Event doTake() {
      counter.incrementEventTakeAttemptCount();
      if (nextFetched == fetchedCount) {
        boolean fetched = fetch();
        // a rebalance runs inside the poll: after it, no take of this transaction may count
        if (revokedMidTransaction) {
          throw new PartitionsRevokedException(
              getName()
                  + ": partitions "
                  + revokedInFlight
                  + " left this channel (another reader took them, or its consumer was closed) in"
                  + " the middle of a transaction that took events from them; roll it back, writing"
                  + " none of it (they are read again)");
        }
        if (!fetched) {
          return null;
        }
      }
      int i = nextFetched++;
      Event event = fetchedEvents[i];
      fetchedEvents[i] = null;
      TopicPartition partition = fetchedPartitions[i];
      long offset = fetchedOffsets[i];
      if (partition != runPartition) {
        endRun();
        runPartition = partition;
        takenFirst.putIfAbsent(partition, offset);
      }
      runLastOffset = offset;
      takenCount++;
      return event;
    }

    @Override
    protected void doCommit() {
      endRun();
      if (!takenNext.isEmpty() && consumer == null) {
        // Closed for a refused login in the middle of the transaction: the sink has written these
        // events, and the next consumer reads them again from the last commit.
        LOG.warn(
            "{}: offsets {} of events already written are not committed (the consumer was closed"
                + " for a refused login); they are read again (duplicates)",
            getName(),
            takenNext);
      } else if (!takenNext.isEmpty()) {
        try {
          consumer.commitSync(takenNext);
        } catch (KafkaException e) {
          // The sink has written these events; the next commit covers their partitions unless they
          // moved, in which case their next owner reads them again (duplicates, not a gap).
          LOG.warn(
              "{}: could not commit offsets {} of events already written; a later commit covers "
                  + "them, or they are read again (duplicates): {}",
              getName(),
              takenNext,
              e.toString());
        }
      }
      counter.addToEventTakeSuccessCount(takenCount);
      forgetTransaction();
    }

    @Override
    protected void doRollback() {
      endRun();
      Map<TopicPartition, Long> rewindTo = new HashMap<>(takenFirst);
      // Fetched events come after the taken ones in each partition, so a taken offset wins.
      dropFetched().forEach(rewindTo::putIfAbsent);
      if (rewindTo.isEmpty() || consumer == null) {
        // Without a consumer (closed for a refused login) the next one starts at the last commit.
        forgetTransaction();
        return;
      }
      Set<TopicPartition> owned = consumer.assignment();
      rewindTo.forEach(
          (partition, offset) -> {
            if (owned.contains(partition)) {
              consumer.seek(partition, offset);
            }
          });
      forgetTransaction();
    }
  }

  /** Runs inside {@code poll()}, on the sink's thread, in the middle of a take. */
  private final class Rebalance implements ConsumerRebalanceListener {

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      release(partitions, "revoked");
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      release(partitions, "lost");
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      LOG.info("{}: assigned {}", getName(), partitions);
    }

    /**
     * Forgets what the open transaction took from partitions no longer ours: their next owner
     * starts at the last commit, and committing or seeking them here could move it.
     */
    private void release(Collection<TopicPartition> partitions, String how) {
      if (partitions.isEmpty()) {
        return;
      }
      endRun();
      List<TopicPartition> inFlight = new ArrayList<>();
      for (TopicPartition partition : partitions) {
        if (takenFirst.remove(partition) != null) {
          inFlight.add(partition);
        }
        takenNext.remove(partition);
      }
      if (inFlight.isEmpty()) {
        LOG.info("{}: partitions {} {}", getName(), partitions, how);
      } else {
        revokedMidTransaction = true;
        revokedInFlight.addAll(inFlight);
        LOG.info(
            "{}: partitions {} {}; the open transaction took events of {}, which their next owner "
                + "reads again: the transaction is rolled back",
            getName(),
            partitions,
            how,
            inFlight);
      }
    }
  }
}
