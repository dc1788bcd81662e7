package org.flafka.edge.sink;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.EventDeliveryException;
import org.apache.flume.Transaction;
import org.apache.flume.conf.BatchSizeSupported;
import org.apache.flume.conf.Configurable;
import org.apache.flume.sink.AbstractSink;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.flafka.contract.KafkaRecordEncoder;
import org.flafka.contract.KafkaSecurityFailure;
import org.flafka.edge.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each event to Kafka as one record: the body as the value, byte for byte, and the chosen
 * Flume headers as Kafka record headers ({@link KafkaRecordEncoder}). What Flume's {@code
 * KafkaSink} does for the edge, with lighter per-event work: one walk over each event's headers
 * instead of a lookup per configured name, reused encodings of repeated header values, one shared
 * completion callback per batch ({@link BatchAcknowledgements}) instead of a callback and a future
 * per event, and nothing logged per event. Kafka's own sizing, encoding and compression of the
 * headers is most of what is left (docs/benchmarks.md). It is also for failure handling, below.
 *
 * <p>One channel transaction per batch: take up to {@code batchSize} events for at most {@code
 * batchDurationMillis} (a take already waiting for an event ends then only in a channel that
 * supports {@link TakeDeadline}), sending each to Kafka as it is taken; then flush, and commit only
 * when Kafka has acknowledged every one (with {@code acks=all}, every in-sync replica). Any other
 * outcome rolls the whole batch back to the channel and the sink runner retries it after its
 * back-off, so nothing is lost; Kafka's idempotent producer keeps a retried send from being written
 * twice within a producer session. The batch stops taking at its first failed send, since it is
 * lost anyway and each further send could wait out {@code max.block.ms}. A batch refused for the
 * credentials (a refused login, an untrusted certificate) is one rate-limited ERROR line naming the
 * setting to fix ({@code KafkaSecurityFailure}), without Flume's stack trace.
 *
 * <p>The wait for a batch's acknowledgements is bounded ({@code ackTimeoutMillis}, by default past
 * the producer's own {@code delivery.timeout.ms}), not Kafka's {@code flush()}, which has no bound:
 * after refused logins a Kafka 4.4 producer's sender loops without pause and may never complete the
 * records it holds, even once the login succeeds. A batch not acknowledged in time, or refused for
 * the credentials, is rolled back and the sink replaces its producer: the old one is closed at once
 * (which stops its sender), the new one made after a pause that doubles while the replacements go
 * on ({@link ReplacementPause}), and it reads its settings again, so a password fixed in the
 * secrets file is used without a restart. A new producer that logs in takes no batch before the
 * broker has answered its first login, so a login still refused costs a producer made and closed
 * per pause, not a looping sender.
 *
 * <p>The one exception is a record too large for Kafka: over the producer's {@code
 * max.request.size} or over the topic's {@code max.message.bytes}, both of which the sink checks
 * before sending ({@link Oversize}; for the topic's, Kafka's producer would otherwise retry the
 * batch for ever, {@link TopicMessageLimit}), and which a producer's own refusal ({@code
 * RecordTooLargeException}) backs up. Retrying can never succeed, so it would stop the sink for
 * good. Such an event is dropped whole, counted in {@code RecordTooLargeDropCount} and the standard
 * {@code EventWriteFail}, and reported in a rate-limited WARN with its size and the settings to
 * raise. The edge source's {@code maxMessageBytes} and {@code flafka lint} keep this from happening
 * in a consistent configuration.
 *
 * <p>Metrics ({@link KafkaRecordSinkCounter}) are those of Flume's Kafka sink under the same names,
 * so Cloudera Manager, the dashboards and the sweep read either sink alike, plus the failure
 * counters Flume's leaves out of JMX. Keys: {@link KafkaRecordConfig} and
 * docs/reference/edge-sink.md.
 */
public class KafkaRecordSink extends AbstractSink implements Configurable, BatchSizeSupported {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRecordSink.class);

  private static final String FAILED_LOGINS = RefusedProducerLogins.FAILED_LOGINS;
  private static final String LOGINS = RefusedProducerLogins.LOGINS;

  /**
   * How long a producer being replaced may take to send what it still holds: short, since it is
   * replaced for not completing its records, and its sender may be looping without pause.
   */
  private static final Duration RETIRE_WAIT = Duration.ofSeconds(1);

  /** How long one call of the sink waits for a new producer's first login before backing off. */
  private static final long LOGIN_POLL_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** How often the sink looks at a new producer's logins while it waits for the first. */
  private static final long LOGIN_POLL_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** How often a batch waiting for acknowledgements looks at the producer's refused logins. */
  private static final long LOGIN_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final RateLimitedLog tooLargeLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
  private final RateLimitedLog failureLog = new RateLimitedLog(LOG, 10, TimeUnit.SECONDS);
  private final RateLimitedLog credentialsLog = new RateLimitedLog(LOG, 1, TimeUnit.MINUTES);

  private KafkaRecordConfig config;
  private KafkaRecordSinkCounter counter;
  private KafkaRecordProducer producer;

  /** The producer's settings, to name the one to fix when Kafka refuses them. */
  private Properties producerProperties = new Properties();

  /** Confined to the sink runner's thread. */
  private KafkaRecordEncoder encoder;

  /** The producer's failed logins when its last batch was delivered; the sink runner's thread. */
  private long failedLoginsAtLastDelivery;

  // The producer's replacement, all confined to the sink runner's thread (and start/stop).

  /** The pause before a replaced producer's successor. */
  private final ReplacementPause pause = new ReplacementPause();

  /** When the producer was made, while the sink waits for its first login; else -1. */
  private long awaitingLoginSinceNanos = -1;

  @Override
  public void configure(Context context) {
    config =
        KafkaRecordConfig.parse(KafkaRecordConfig.Role.SINK, getName(), context.getParameters());
    encoder = config.newEncoder();
    if (counter == null) {
      counter = new KafkaRecordSinkCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    producerProperties = config.producerProperties();
    pause.reset();
    try {
      openProducer();
    } catch (RuntimeException e) {
      if (KafkaSecurityFailure.explain(e, producerProperties).isEmpty()) {
        // Flume retries the start and logs the exception
        throw e;
      }
      // Credentials that refuse the producer at once (a missing keytab, a principal the KDC does
      // not know) stay wrong until someone fixes them: the sink starts without a producer, so the
      // agent runs and its channel keeps the events, and process() makes one after the pause,
      // reading the settings again. Flume would otherwise log a stack trace at every retry.
      cannotMakeProducer(e);
    }
    counter.start();
    LOG.info(
        "{}: writing to topic {} at {} in batches of up to {} events or {} ms, record headers: {}",
        config.component(),
        config.topic(),
        config.bootstrapServers(),
        config.batchSize(),
        TimeUnit.NANOSECONDS.toMillis(config.batchDurationNanos()),
        config.allRecordHeaders() ? "all" : config.recordHeaders());
    super.start();
  }

  @Override
  public synchronized void stop() {
    if (producer != null) {
      counter.readProducerTotalsFrom(name -> 0);
      producer.close();
      producer = null;
      counter.incrementConnectionClosedCount();
    }
    counter.stop();
    LOG.info("{}: stopped; {}", config == null ? getName() : config.component(), counter);
    super.stop();
  }

  /** Makes the producer; its logins are awaited before its first batch ({@link #loggedIn()}). */
  private void openProducer() {
    KafkaRecordProducer opened = new KafkaRecordProducer(config);
    producer = opened;
    failedLoginsAtLastDelivery = 0;
    awaitingLoginSinceNanos = config.logsIn() ? System.nanoTime() : -1;
    counter.readProducerTotalsFrom(opened::total);
    counter.incrementConnectionCreatedCount();
  }

  /**
   * Closes a producer that no longer completes its records or whose login the broker refused, at
   * once (a Kafka 4.4 producer whose login was refused loops without pause, and may never send its
   * records even once the login succeeds), and lets its successor be made after a pause that
   * doubles with each replacement until a batch is delivered. The successor reads its settings
   * again, the secrets file's passwords included.
   */
  private void retireProducer() {
    KafkaRecordProducer retired = producer;
    producer = null;
    awaitingLoginSinceNanos = -1;
    counter.readProducerTotalsFrom(name -> 0);
    try {
      retired.close(RETIRE_WAIT);
    } catch (RuntimeException e) {
      LOG.warn("{}: could not close its Kafka producer: {}", config.component(), e.toString());
    }
    counter.incrementConnectionClosedCount();
    pause.start();
  }

  /**
   * Makes the successor of a retired producer once its pause is over: whether the sink has a
   * producer now.
   */
  private boolean replaceProducer() {
    if (pause.remainingNanos() > 0) {
      return false;
    }
    try {
      openProducer();
    } catch (RuntimeException e) {
      cannotMakeProducer(e);
      return false;
    }
    counter.incrementProducerReplacementCount();
    LOG.info("{}: made a new Kafka producer", config.component());
    return true;
  }

  /**
   * No producer could be made: the next is tried after a pause that doubles each time, and the line
   * saying why (naming the setting to fix, for credentials) at most once a minute.
   */
  private void cannotMakeProducer(RuntimeException e) {
    producer = null;
    pause.start();
    String why =
        KafkaSecurityFailure.explain(e, producerProperties)
            .orElse("could not make a Kafka producer: " + e);
    credentialsLog.error(
        () ->
            config.component()
                + ": "
                + why
                + " The events stay in the channel; trying again in "
                + TimeUnit.NANOSECONDS.toSeconds(pause.nextNanos())
                + " s at most.");
  }

  /**
   * Whether the producer may take a batch: it does not log in, or the broker accepted its first
   * login, or none was answered within max.block.ms (its sends will then say why). A producer whose
   * first login is refused is retired before it holds any event: a send would otherwise wait out
   * max.block.ms while its sender loops.
   */
  private boolean loggedIn() {
    if (awaitingLoginSinceNanos < 0) {
      return true;
    }
    long giveUp = awaitingLoginSinceNanos + TimeUnit.MILLISECONDS.toNanos(config.maxBlockMillis());
    // Polled here rather than once per call: between calls the sink runner backs off for seconds,
    // and a refused producer's sender loops all that time
    long until = Math.min(giveUp, System.nanoTime() + LOGIN_POLL_NANOS);
    while (true) {
      long refused = producer.total(FAILED_LOGINS);
      if (refused > 0) {
        String why = explainRefusedLogins(refused, null).orElse("the broker refused its login");
        retireProducer();
        logCredentials(why);
        return false;
      }
      if (producer.total(LOGINS) > 0 || System.nanoTime() - giveUp >= 0) {
        awaitingLoginSinceNanos = -1;
        return true;
      }
      if (System.nanoTime() - until >= 0) {
        return false;
      }
      LockSupport.parkNanos(LOGIN_POLL_SLICE_NANOS);
    }
  }

  /**
   * Lets Flume refuse the sink at start-up when its batch is larger than its channel's
   * transactionCapacity: every batch would otherwise fail at run time, its first events sent to
   * Kafka again and again.
   */
  @Override
  public long getBatchSize() {
    return config.batchSize();
  }

  @Override
  public Status process() throws EventDeliveryException {
    if (producer == null && !replaceProducer()) {
      return Status.BACKOFF;
    }
    if (!loggedIn()) {
      return Status.BACKOFF;
    }
    KafkaRecordProducer producer = this.producer;
    Channel channel = getChannel();
    Transaction transaction = channel.getTransaction();
    transaction.begin();
    try {
      long started = System.nanoTime();
      // A new one per batch: a send that fails synchronously leaves earlier ones to complete after
      // the rollback.
      BatchAcknowledgements acks = new BatchAcknowledgements();
      // The first batch's lookup of the limit may wait; the batch's time to take events starts
      // after it.
      int topicLimitBytes = producer.topicLimitBytes();
      long deadline = System.nanoTime() + config.batchDurationNanos();
      // flafka's memory channel ends the batch's takes at the deadline itself: past it, the first
      // take that finds the queue empty returns none, and while the queue is never empty the batch
      // fills at the sink's own pace. Other channels need the sink's clock, read once per take (4%
      // of the sink runners' CPU in the A/B of docs/benchmarks/history/2026-11-21-to-27-edge.md,
      // "The sink's time bound").
      boolean channelEndsTakes = transaction instanceof TakeDeadline;
      if (channelEndsTakes) {
        ((TakeDeadline) transaction).takeNoLaterThan(deadline);
      }
      int taken = 0;
      boolean awaiting = false;
      while (taken < config.batchSize() && (channelEndsTakes || System.nanoTime() - deadline < 0)) {
        Event event = channel.take();
        if (event == null) {
          break;
        }
        taken++;
        ProducerRecord<String, byte[]> record = toRecord(event);
        Oversize oversize = producer.oversize(record, topicLimitBytes);
        if (oversize != null) {
          acks.refusedBeforeSending(oversize.bytes());
        } else {
          if (!awaiting) {
            counter.awaitingKafkaSince(System.nanoTime());
            awaiting = true;
          }
          acks.sending();
          producer.send(record, acks);
          if (acks.failure() != null) {
            // The batch is lost already; taking more would hold the sink for each one's
            // max.block.ms (a refused login or a missing topic fails each send only then)
            break;
          }
        }
      }
      if (taken == 0) {
        transaction.commit();
        counter.incrementBatchEmptyCount();
        return Status.BACKOFF;
      }
      counter.addToEventDrainAttemptCount(taken);
      EventDeliveryException waited = awaitAcknowledgements(producer, acks);
      if (waited != null) {
        Optional<String> security = explainSecurity(waited);
        retireProducer();
        if (security.isPresent()) {
          return keepForCredentials(transaction, waited, security.get());
        }
        throw waited;
      }
      if (acks.failure() != null) {
        Optional<String> security = explainSecurity(acks.failure());
        if (security.isPresent()) {
          retireProducer();
          return keepForCredentials(transaction, acks.failure(), security.get());
        }
        throw new EventDeliveryException(
            config.component()
                + ": Kafka did not acknowledge every event of the batch: "
                + acks.failure(),
            acks.failure());
      }
      transaction.commit();
      failedLoginsAtLastDelivery = producer.total(FAILED_LOGINS);
      pause.reset();
      int tooLarge = acks.tooLarge();
      counter.addToEventDrainSuccessCount(taken - tooLarge);
      for (int i = 0; i < tooLarge; i++) {
        counter.incrementRecordTooLargeDropCount();
      }
      if (tooLarge > 0) {
        tooLargeLog.warn(
            () ->
                config.component()
                    + ": dropped "
                    + tooLarge
                    + " event(s) too large for Kafka (the "
                    + "last "
                    + acks.lastTooLargeBytes()
                    + " bytes; topic "
                    + config.topic()
                    + "'s max.message.bytes "
                    + (topicLimitBytes == TopicMessageLimit.UNKNOWN ? "unknown" : topicLimitBytes)
                    + "), counted in "
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
      Optional<String> security =
          e instanceof RuntimeException ? explainSecurity(e) : Optional.empty();
      if (security.isPresent()) {
        if (this.producer != null) {
          retireProducer();
        }
        return keepForCredentials(transaction, e, security.get());
      }
      rollBack(transaction, e);
      if (e instanceof Error error) {
        throw error;
      }
      throw new EventDeliveryException(
          config.component() + ": could not write a batch to Kafka", e);
    } finally {
      counter.notAwaitingKafka();
      transaction.close();
    }
  }

  /**
   * The line naming the setting to fix when {@code failure} is a security failure, or when the
   * broker refused the producer's login since its last delivered batch: a Kafka 4 producer whose
   * login is refused does not fail the send with the refusal but logs it and waits for metadata
   * until {@code max.block.ms}, so the batch fails with a timeout that says nothing of the login.
   */
  private Optional<String> explainSecurity(Throwable failure) {
    Optional<String> why = KafkaSecurityFailure.explain(failure, producerProperties);
    if (why.isPresent() || producer == null) {
      return why;
    }
    return explainRefusedLogins(
        producer.total(FAILED_LOGINS) - failedLoginsAtLastDelivery, failure);
  }

  /**
   * The line naming the setting to fix for {@code refused} logins the broker refused, if any;
   * {@code failure} is what the batch met meanwhile, or null.
   */
  private Optional<String> explainRefusedLogins(long refused, Throwable failure) {
    return RefusedProducerLogins.explain(refused, failure, producerProperties);
  }

  /**
   * Has the producer send the batch's records now and waits for their acknowledgements, up to
   * ackTimeoutMillis: null once every record has completed (delivered or failed, {@code acks}
   * says), else why the wait ended early. A refused login ends it at once, the batch given up: a
   * Kafka 4.4 producer whose login was refused may never complete the records it holds.
   */
  private EventDeliveryException awaitAcknowledgements(
      KafkaRecordProducer producer, BatchAcknowledgements acks) {
    producer.flushInBackground();
    long deadline = System.nanoTime() + config.ackTimeoutNanos();
    while (!acks.awaitAll(Math.min(deadline, System.nanoTime() + LOGIN_CHECK_NANOS))) {
      long refused = producer.total(FAILED_LOGINS) - failedLoginsAtLastDelivery;
      if (refused > 0) {
        return new EventDeliveryException(
            config.component()
                + ": the broker refused the producer's login while the batch waited for Kafka");
      }
      if (System.nanoTime() - deadline >= 0) {
        return new EventDeliveryException(
            config.component()
                + ": Kafka did not acknowledge every event of the batch within "
                + KafkaRecordConfig.ACK_TIMEOUT_MILLIS
                + " ("
                + TimeUnit.NANOSECONDS.toMillis(config.ackTimeoutNanos())
                + " ms); the batch is rolled back and the producer replaced");
      }
    }
    return null;
  }

  /**
   * A batch Kafka refused for the credentials: rolled back, and one ERROR line naming the setting
   * to fix (no stack trace, which Flume's sink runner would print for a thrown failure), then the
   * runner's back-off before the next try. The line repeats at most once a minute while it lasts.
   */
  private Status keepForCredentials(Transaction transaction, Throwable cause, String why) {
    counter.incrementEventWriteOrChannelFail(cause);
    try {
      transaction.rollback();
      counter.incrementRollbackCount();
    } catch (RuntimeException e) {
      LOG.warn("{}: could not roll the batch back: {}", config.component(), e.toString());
    }
    logCredentials(why);
    return Status.BACKOFF;
  }

  /** The line naming the setting to fix, at most once a minute while the refusals last. */
  private void logCredentials(String why) {
    credentialsLog.error(
        () ->
            RefusedProducerLogins.line(config.component(), why, "The batch stays in the channel"));
  }

  private void rollBack(Transaction transaction, Throwable cause) {
    counter.incrementEventWriteOrChannelFail(cause);
    try {
      transaction.rollback();
      counter.incrementRollbackCount();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
    failureLog.warn(
        () ->
            config.component()
                + ": batch rolled back to the channel and retried: "
                + cause
                + (cause.getCause() == null ? "" : " (" + cause.getCause() + ")")
                + ". If it persists, check that "
                + config.bootstrapServers()
                + " is reachable and topic "
                + config.topic()
                + " exists");
  }

  public ProducerRecord<String, byte[]> toRecord(Event event) {
    return encoder.toRecord(event);
  }
}
