package org.flafka.edge.channel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.flume.ChannelException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.channel.BasicChannelSemantics;
import org.apache.flume.channel.BasicTransactionSemantics;
import org.apache.flume.conf.TransactionCapacitySupported;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.flafka.contract.KafkaRecordEncoder;
import org.flafka.contract.KafkaSecurityFailure;
import org.flafka.edge.RateLimitedLog;
import org.flafka.edge.sink.BatchAcknowledgements;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.sink.KafkaRecordProducer;
import org.flafka.edge.sink.KafkaRecordSink;
import org.flafka.edge.sink.Oversize;
import org.flafka.edge.sink.RefusedProducerLogins;
import org.flafka.edge.sink.ReplacementPause;
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
 * <p>A commit that fails throws {@link ChannelException}; the transaction rolls back and the source
 * does what it does with a full channel: it keeps the batch and puts it again (TCP and TLS senders
 * are held back meanwhile; UDP drops what waits past its {@code udp.channelFullTimeoutMillis},
 * counted). Kafka may already hold some of its events then, so they can arrive twice: at least
 * once, as with Flume's Kafka channel (the {@code id} header tells copies apart). A commit fails
 * when Kafka fails a record (unreachable past the producer's {@code delivery.timeout.ms}), and when
 * the wait for the acknowledgements passes {@code ackTimeoutMillis}: not Kafka's {@code flush()},
 * which has no bound (after refused logins a Kafka 4.4 producer may never complete the records it
 * holds), so a put never holds its source's thread for ever.
 *
 * <p>A refused login (a wrong password, a missing keytab, an untrusted certificate: recognised from
 * the failure or from the producer's login counters, {@link RefusedProducerLogins}) fails the
 * commit at once with one ERROR line naming the setting to fix, at most once a minute, in the
 * sink's words. The producer is then replaced, as one not acknowledging within {@code
 * ackTimeoutMillis} is: closed at once, its successor made after a pause that doubles from 1 s to
 * 30 s, reading its settings again, so that a password fixed in the secrets file is used without a
 * restart. A new producer is given no record before it has the topic's metadata (so its login was
 * accepted), which it fetches on a thread of its own: a put waits for that at most 5 s, so no send
 * waits out {@code max.block.ms} for metadata on the source's thread. The producer is shared by the
 * sources' threads, so it is swapped under a lock, and each commit keeps the one it started with:
 * the commits still waiting on a retired producer fail (closing it fails their records) and their
 * sources put the events again through the successor. {@link #stop()} closes the producer within
 * {@link #STOP_WAIT}, reachable brokers or not.
 *
 * <p>A record over the topic's {@code max.message.bytes} ({@link TopicMessageLimit}) or over the
 * producer's {@code max.request.size} (by the producer's own estimate) fails its commit before
 * anything of it is sent, with a {@link RecordTooLargeException} as the cause: the edge source then
 * puts the batch around that event, drops it and counts it (docs/reference/edge-source.md), and no
 * event is written twice. Should the producer still refuse one after sending the others, the commit
 * fails the same way and those others arrive twice.
 *
 * <p>Several sources' threads put at once: each has its own transaction (Flume's {@link
 * BasicChannelSemantics}) and its own encoder; the producer is shared. Metrics: Flume's Kafka
 * channel's ({@link KafkaRecordChannelCounter}). Keys: {@link KafkaRecordConfig} and
 * docs/reference/edge-kafka-channel.md.
 */
public class KafkaRecordChannel extends BasicChannelSemantics
    implements TransactionCapacitySupported {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordChannel.class);

  /** Where a refused put's events wait: the ERROR line's words. */
  private static final String KEPT =
      "The source keeps the events of every refused put (TCP and TLS senders are held back; UDP"
          + " drops what waits longer than its udp.channelFullTimeoutMillis, counted in"
          + " ChannelFullDropCount)";

  /**
   * How long a producer being replaced may take to send what it still holds: short, since it is
   * replaced for not completing its records, and its sender may be looping without pause.
   */
  private static final Duration RETIRE_WAIT = Duration.ofSeconds(1);

  /**
   * How long stop() lets the producer send what it still holds: the sources have stopped, so every
   * put that could still succeed has committed; a longer wait only delays the agent's stop when the
   * brokers are gone.
   */
  static final Duration STOP_WAIT = Duration.ofSeconds(5);

  /** How long one commit waits for a new producer's metadata before refusing its put. */
  private static final long READY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** How often a commit waiting for a new producer's metadata looks at it and at its logins. */
  private static final long READY_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  /** How often a commit looks at the producer's logins while it waits. */
  private static final long LOGIN_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final AtomicBoolean takeWarned = new AtomicBoolean();
  private final RateLimitedLog credentialsLog = new RateLimitedLog(LOG, 1, TimeUnit.MINUTES);
  private final RateLimitedLog replacedLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
  private KafkaRecordConfig config;

  /** Whether the producer logs in (SASL or TLS): only then are its login counters read. */
  private boolean logsIn;

  private KafkaRecordChannelCounter counter;
  private ThreadLocal<KafkaRecordEncoder> encoders;

  /** The producer's settings, to name the one to fix when Kafka refuses them. */
  private Properties producerProperties = new Properties();

  /**
   * The producer every commit uses, or null while a replaced one's successor is not made yet.
   * Swapped under {@link #producerLock}; read without it.
   */
  private volatile Session session;

  /** Guards the producer's replacement: {@link #session}'s swaps and the fields below. */
  private final Object producerLock = new Object();

  /** The pause before a replaced producer's successor; under {@link #producerLock}. */
  private final ReplacementPause pause = new ReplacementPause();

  /** Set by stop(): no producer is made any more. */
  private boolean stopped;

  /**
   * One producer and what the channel knows of its logins. Replaced whole: a commit holds the
   * session it started with, so a commit on a retired producer fails (its records abandoned by the
   * close) and its source puts the events again through the successor.
   */
  private final class Session {
    final KafkaRecordProducer producer;

    /**
     * Done once the producer has the topic's metadata (so its login, if any, was accepted), failed
     * if it could not get it within max.block.ms: fetched in the background, so that no put waits
     * in a send for metadata.
     */
    final CompletableFuture<Void> ready;

    /** Whether {@link #ready} is done: puts go ahead without looking at it again. */
    volatile boolean readyKnown;

    /** Its refused logins when a commit last delivered, or when it was made. */
    volatile long failedLoginsAtLastDelivery;

    /** Whether a commit delivered through it: then the next pause starts at the first again. */
    volatile boolean delivered;

    private volatile Metric failedLogins;

    Session(KafkaRecordProducer producer) {
      this.producer = producer;
      this.ready = producer.fetchMetadataInBackground();
    }

    /** Its refused logins so far; 0 for a producer that does not log in. */
    long failedLogins() {
      if (!logsIn) {
        return 0;
      }
      Metric metric = failedLogins;
      if (metric == null) {
        metric = producer.metric(RefusedProducerLogins.FAILED_LOGINS);
        failedLogins = metric;
      }
      return KafkaRecordProducer.valueOf(metric);
    }

    /** The line naming the setting to fix when the broker refused its login since it delivered. */
    Optional<String> refusedSinceDelivery(Throwable failure) {
      return RefusedProducerLogins.explain(
          failedLogins() - failedLoginsAtLastDelivery, failure, producerProperties);
    }
  }

  @Override
  public void configure(Context context) {
    config =
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, getName(), context.getParameters());
    logsIn = config.logsIn();
    if (counter == null) {
      counter = new KafkaRecordChannelCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    producerProperties = config.producerProperties();
    synchronized (producerLock) {
      stopped = false;
      pause.reset();
      try {
        session = new Session(new KafkaRecordProducer(config));
      } catch (RuntimeException e) {
        // A producer refused for its credentials (a missing keytab fails Kafka's login while the
        // producer is built) leaves the channel started, refusing puts until a successor logs in:
        // the agent starts, and fixing the credentials is enough. Anything else fails the start.
        String why = KafkaSecurityFailure.explain(e, producerProperties).orElseThrow(() -> e);
        session = null;
        pause.start();
        logCredentials(why);
      }
    }
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

  /**
   * Closes the producer within {@link #STOP_WAIT}: records it could not send by then are abandoned,
   * their commits failed. Flume stops the sources first; a put still waiting here is one whose
   * source's stop gave up on it, and it fails now rather than at ackTimeoutMillis.
   */
  @Override
  public synchronized void stop() {
    Session closing;
    synchronized (producerLock) {
      stopped = true;
      closing = session;
      session = null;
    }
    if (closing != null) {
      try {
        closing.producer.close(STOP_WAIT);
      } catch (RuntimeException e) {
        LOG.warn("{}: could not close its Kafka producer: {}", config.component(), e.toString());
      }
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

  /**
   * The session commits use, made now when the last was retired and its pause is over; refuses the
   * put (ChannelException) while there is none.
   */
  private Session currentSession() {
    Session current = session;
    if (current != null) {
      return current;
    }
    synchronized (producerLock) {
      if (session != null) {
        return session;
      }
      if (stopped) {
        throw new ChannelException(config.component() + ": stopped");
      }
      long wait = pause.remainingNanos();
      if (wait > 0) {
        throw new ChannelException(
            config.component()
                + ": its Kafka producer was replaced; the next is made in "
                + TimeUnit.NANOSECONDS.toMillis(wait)
                + " ms");
      }
      try {
        session = new Session(new KafkaRecordProducer(config));
      } catch (RuntimeException e) {
        pause.start();
        String why =
            KafkaSecurityFailure.explain(e, producerProperties)
                .orElse("could not make a Kafka producer: " + e);
        logCredentials(why);
        throw new ChannelException(
            config.component() + ": could not make a Kafka producer (see the ERROR line)", e);
      }
      LOG.info("{}: made a new Kafka producer", config.component());
      return session;
    }
  }

  /**
   * Closes {@code retiring}'s producer at once, unless another commit has already replaced it, and
   * lets its successor be made after a pause that doubles with each replacement until a commit
   * delivers. The successor reads its settings again, the secrets file's passwords included.
   * Commits still waiting on the retired producer fail: closing it fails their records.
   */
  private void retire(Session retiring) {
    synchronized (producerLock) {
      if (session != retiring) {
        return;
      }
      session = null;
      if (retiring.delivered) {
        pause.reset();
      }
      pause.start();
    }
    try {
      retiring.producer.close(RETIRE_WAIT);
    } catch (RuntimeException e) {
      LOG.warn("{}: could not close its Kafka producer: {}", config.component(), e.toString());
    }
  }

  /** The line naming the setting to fix, at most once a minute while the refusals last. */
  private void logCredentials(String why) {
    credentialsLog.error(() -> RefusedProducerLogins.line(config.component(), why, KEPT));
  }

  /**
   * A put refused for the credentials: the producer replaced, one ERROR line naming the setting
   * (rate-limited), and a ChannelException that does not repeat it (the source's own WARN quotes
   * it).
   */
  private ChannelException refusedForCredentials(Session refused, String why, Throwable cause) {
    retire(refused);
    logCredentials(why);
    return new ChannelException(
        config.component()
            + ": Kafka refused the producer's login (the ERROR line names the setting to fix);"
            + " nothing of this transaction is known to be written",
        cause);
  }

  /**
   * Waits, at most {@link #READY_WAIT_NANOS}, until a new producer has the topic's metadata (its
   * login, if any, accepted), so that no record is handed to a producer whose login is refused (it
   * would hold it) and no send waits out max.block.ms for metadata on the source's thread. A login
   * refused meanwhile, or metadata not had within max.block.ms, replaces the producer; either way
   * the put is refused, and the source puts it again.
   */
  private void awaitReady(Session current) {
    if (current.readyKnown) {
      return;
    }
    long until = System.nanoTime() + READY_WAIT_NANOS;
    while (true) {
      if (session != current) {
        throw new ChannelException(
            config.component() + ": its Kafka producer was replaced while the put waited");
      }
      if (current.failedLogins() > 0) {
        String why =
            current.refusedSinceDelivery(null).orElse("the broker refused the producer's login");
        throw refusedForCredentials(current, why, null);
      }
      if (current.ready.isDone()) {
        try {
          current.ready.join();
          current.readyKnown = true;
          return;
        } catch (CompletionException | CancellationException e) {
          Throwable failure = e.getCause() == null ? e : e.getCause();
          Optional<String> security = explainSecurity(current, failure);
          if (security.isPresent()) {
            throw refusedForCredentials(current, security.get(), failure);
          }
          retire(current);
          throw new ChannelException(
              config.component()
                  + ": Kafka did not give the producer topic "
                  + config.topic()
                  + "'s metadata: "
                  + failure
                  + ". If it persists, check that "
                  + config.bootstrapServers()
                  + " is reachable and topic "
                  + config.topic()
                  + " exists",
              failure);
        }
      }
      if (System.nanoTime() - until >= 0) {
        throw new ChannelException(
            config.component()
                + ": Kafka has not answered the producer yet; if it persists, check that "
                + config.bootstrapServers()
                + " is reachable");
      }
      LockSupport.parkNanos(READY_CHECK_NANOS);
    }
  }

  /**
   * The line naming the setting to fix when {@code failure} is a security failure, or when the
   * broker refused {@code current}'s login since it last delivered (a Kafka 4 producer fails a send
   * whose login was refused with a timeout that says nothing of the login).
   */
  private Optional<String> explainSecurity(Session current, Throwable failure) {
    Optional<String> why = KafkaSecurityFailure.explain(failure, producerProperties);
    return why.isPresent() ? why : current.refusedSinceDelivery(failure);
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
      Session current = currentSession();
      awaitReady(current);
      KafkaRecordProducer producer = current.producer;
      int topicLimitBytes = producer.topicLimitBytes();
      // Kafka would refuse such a record after sending the others of the transaction, which the
      // source then puts again: refused here, before anything is sent, every other event arrives
      // once.
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
      try {
        for (ProducerRecord<String, byte[]> record : puts) {
          acks.sending();
          producer.send(record, acks);
          if (acks.failure() != null) {
            // The put is refused anyway; each further send could wait out max.block.ms (a refused
            // login or a missing topic fails a send only then)
            break;
          }
        }
        // Sent now rather than after linger.ms, without waiting in Kafka's flush(), which has no
        // bound: the acknowledgements are awaited below, up to ackTimeoutMillis.
        producer.flushInBackground();
      } catch (RuntimeException e) {
        // a send refused at once: the producer closed under it (replaced or stopped), a login
        // refused while it waited for metadata, or metadata not found within max.block.ms
        Optional<String> security = explainSecurity(current, e);
        if (security.isPresent()) {
          throw refusedForCredentials(current, security.get(), e);
        }
        throw new ChannelException(
            config.component() + ": could not send the transaction's events to Kafka: " + e, e);
      }
      awaitAcknowledgements(current, acks);
      if (acks.failure() != null) {
        Optional<String> security = explainSecurity(current, acks.failure());
        if (security.isPresent()) {
          throw refusedForCredentials(current, security.get(), acks.failure());
        }
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
      if (logsIn) {
        current.failedLoginsAtLastDelivery = current.failedLogins();
      }
      if (!current.delivered) {
        current.delivered = true;
        synchronized (producerLock) {
          pause.reset();
        }
      }
      counter.addToKafkaEventSendTimer(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      counter.addToEventPutSuccessCount(puts.size());
      puts.clear();
    }

    /**
     * Waits for the transaction's acknowledgements up to ackTimeoutMillis; returns once every
     * record has completed (delivered or failed: {@code acks} says). A refused login ends the wait
     * at once, and so does the bound; both replace the producer and refuse the put.
     */
    private void awaitAcknowledgements(Session current, BatchAcknowledgements acks) {
      long deadline = System.nanoTime() + config.ackTimeoutNanos();
      while (!acks.awaitAll(Math.min(deadline, System.nanoTime() + LOGIN_CHECK_NANOS))) {
        Optional<String> refused = current.refusedSinceDelivery(null);
        if (refused.isPresent()) {
          throw refusedForCredentials(current, refused.get(), null);
        }
        if (System.nanoTime() - deadline >= 0) {
          retire(current);
          replacedLog.warn(
              () ->
                  config.component()
                      + ": Kafka did not acknowledge a transaction's events within "
                      + KafkaRecordConfig.ACK_TIMEOUT_MILLIS
                      + " ("
                      + TimeUnit.NANOSECONDS.toMillis(config.ackTimeoutNanos())
                      + " ms); the put is refused to the source, which keeps its events, and the"
                      + " producer replaced. If it persists, check that "
                      + config.bootstrapServers()
                      + " is reachable");
          throw new ChannelException(
              config.component()
                  + ": Kafka did not acknowledge every event of the transaction within "
                  + KafkaRecordConfig.ACK_TIMEOUT_MILLIS
                  + " ("
                  + TimeUnit.NANOSECONDS.toMillis(config.ackTimeoutNanos())
                  + " ms)");
        }
      }
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
