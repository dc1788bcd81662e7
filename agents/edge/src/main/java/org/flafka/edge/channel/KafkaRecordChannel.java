package org.flafka.edge.channel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.channel.BasicChannelSemantics;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.conf.TransactionCapacitySupported;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.flafka.contract.KafkaRecordEncoder;
import org.flafka.edge.sink.BatchAcknowledgements;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.sink.KafkaRecordProducer;
import org.flafka.edge.sink.KafkaRecordSink;
import org.flafka.edge.sink.Oversize;
import org.flafka.edge.sink.TopicMessageLimit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel that is a Kafka topic: each put transaction's events are written to Kafka when it
 * commits, as the records {@link KafkaRecordSink} writes (the body as the value, byte for byte, the
 * chosen Flume headers as Kafka record headers, {@link KafkaRecordEncoder}), and the commit returns
 * only once Kafka has acknowledged every one (with {@code acks=all}, every in-sync replica).
 * Nothing takes from it: the edge needs no sink behind it.
 *
 * <p>Why: it is durable where the memory channel is not (an event whose put committed is in Kafka;
 * one whose put failed was refused to the source, which retries it or, for TCP, holds the sender
 * back), keeps the edge-core contract's record headers where Flume's Kafka channel cannot write
 * them (Flume 1.11 puts the headers inside an Avro envelope only Flume reads), and costs less than
 * either the memory channel with a Kafka sink (no hand-over between a source's thread and a sink's)
 * or the file channel (docs/benchmarks.md).
 *
 * <p>A commit that fails (Kafka unreachable, not acknowledged within the producer's {@code
 * delivery.timeout.ms}) throws {@link ChannelException}; the transaction rolls back and the source
 * puts the batch again. Kafka may already hold some of its events then, so they can arrive twice:
 * at least once, as with Flume's Kafka channel (the {@code id} header tells copies apart). A record
 * over the topic's {@code max.message.bytes} ({@link TopicMessageLimit}) or over the producer's
 * {@code max.request.size} (by the producer's own estimate) fails its commit before anything of it
 * is sent, with a {@link RecordTooLargeException} as the cause: the edge source then puts the batch
 * around that event, drops it and counts it (docs/reference/edge-source.md), and no event is
 * written twice. Should the producer still refuse one after sending the others, the commit fails
 * the same way and those others arrive twice.
 *
 * <p>Several sources' threads put at once: each has its own transaction (Flume's {@link
 * BasicChannelSemantics}) and its own encoder; the producer is shared. Metrics: Flume's Kafka
 * channel's ({@link KafkaRecordChannelCounter}). Keys: {@link KafkaRecordConfig} and
 * docs/reference/edge-kafka-channel.md.
 */
public class KafkaRecordChannel extends BasicChannelSemantics
    implements TransactionCapacitySupported {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordChannel.class);

  private final AtomicBoolean takeWarned = new AtomicBoolean();
  private KafkaRecordConfig config;
  private KafkaRecordChannelCounter counter;
  private KafkaRecordProducer producer;
  private ThreadLocal<KafkaRecordEncoder> encoders;

  @Override
  public void configure(Context context) {
    config =
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, getName(), context.getParameters());
    if (counter == null) {
      counter = new KafkaRecordChannelCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    producer = new KafkaRecordProducer(config);
    encoders = ThreadLocal.withInitial(config::newEncoder);
    counter.start();
    LOG.info(
        "{}: writing each committed put to topic {} at {}, record headers: {}",
        config.component(),
        config.topic(),
        config.bootstrapServers(),
        config.allRecordHeaders() ? "all" : config.recordHeaders());
    super.start();
  }

  @Override
  public synchronized void stop() {
    if (producer != null) {
      producer.close();
      producer = null;
    }
    counter.stop();
    LOG.info("{}: stopped; {}", config == null ? getName() : config.component(), counter);
    super.stop();
  }

  @Override
  public long getTransactionCapacity() {
    return config.transactionCapacity();
  }

  @Override
  protected BasicTransactionSemantics createTransaction() {
    return new RecordTransaction(encoders.get());
  }

  /** Confined to the thread that opened it, which {@link BasicTransactionSemantics} checks. */
  private final class RecordTransaction extends BasicTransactionSemantics {
    private final KafkaRecordEncoder encoder;
    private final List<ProducerRecord<String, byte[]>> puts = new ArrayList<>();

    RecordTransaction(KafkaRecordEncoder encoder) {
      this.encoder = encoder;
    }

    @Override
    protected void doPut(Event event) {
      if (puts.size() >= config.transactionCapacity()) {
        throw new ChannelException(
            config.component()
                + ": a transaction put more than "
                + KafkaRecordConfig.TRANSACTION_CAPACITY
                + " ("
                + config.transactionCapacity()
                + ") events. Fix: raise "
                + KafkaRecordConfig.TRANSACTION_CAPACITY
                + " to at least the batch size of every source that puts "
                + "into it");
      }
      puts.add(encoder.toRecord(event));
    }

    @Override
    protected Event doTake() {
      if (takeWarned.compareAndSet(false, true)) {
        LOG.warn(
            "{}: something takes from this channel, but it writes to Kafka itself and never has an event to "
                + "give. Fix: remove the sink, or use a memory or file channel in front of it",
            config.component());
      }
      return null;
    }

    @Override
    protected void doCommit() {
      if (puts.isEmpty()) {
        return;
      }
      counter.addToEventPutAttemptCount(puts.size());
      long started = System.nanoTime();
      int topicLimitBytes = producer.topicLimitBytes();
      // Kafka would refuse such a record after sending the others of the transaction, which the
      // source then puts
      // again: refused here, before anything is sent, every other event arrives once.
      for (ProducerRecord<String, byte[]> record : puts) {
        Oversize oversize = producer.oversize(record, topicLimitBytes);
        if (oversize != null) {
          throw new ChannelException(
              config.component()
                  + ": an event of "
                  + oversize
                  + "; nothing of this "
                  + "transaction was written",
              oversize.exception());
        }
      }
      BatchAcknowledgements acks = new BatchAcknowledgements();
      for (ProducerRecord<String, byte[]> record : puts) {
        producer.send(record, acks);
      }
      // flush() returns once every record sent so far is acknowledged or failed, their callbacks
      // run.
      producer.flush();
      if (acks.failure() != null) {
        throw new ChannelException(
            config.component()
                + ": Kafka did not acknowledge every event of the "
                + "transaction: "
                + acks.failure()
                + ". If it persists, check that "
                + config.bootstrapServers()
                + " is reachable and topic "
                + config.topic()
                + " exists",
            acks.failure());
      }
      if (acks.tooLarge() > 0) {
        throw new ChannelException(
            config.component()
                + ": Kafka refused "
                + acks.tooLarge()
                + " event(s) as over "
                + "the producer's max.request.size (the last "
                + acks.lastTooLargeBytes()
                + " bytes)",
            new RecordTooLargeException("a record of " + acks.lastTooLargeBytes() + " bytes"));
      }
      counter.addToKafkaEventSendTimer(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      counter.addToEventPutSuccessCount(puts.size());
      puts.clear();
    }

    @Override
    protected void doRollback() {
      if (!puts.isEmpty()) {
        counter.addToRollbackCounter(1);
        puts.clear();
      }
    }
  }
}
