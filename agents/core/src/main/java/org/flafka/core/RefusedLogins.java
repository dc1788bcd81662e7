package org.flafka.core;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.flafka.contract.KafkaSecurityFailure;
import org.slf4j.Logger;

/**
 * What the core's Kafka readers do when Kafka refuses their consumer's login (a wrong SCRAM
 * password, a missing keytab, an untrusted certificate, an unreadable secrets file): one ERROR line
 * naming the setting to fix, in {@link KafkaSecurityFailure}'s words (the edge's Kafka sink and
 * {@code flafka audit} say the same), at most once a minute while it lasts; the consumer closed, so
 * nothing is read or committed meanwhile; and a new consumer after a pause that doubles from 1 s to
 * 30 s. A new consumer reads its settings again, so a password fixed in the secrets file (Kafka's
 * {@code FileConfigProvider}) or a keytab put in place is picked up without a restart.
 *
 * <p>A refused login is recognised from an {@link AuthenticationException} out of the consumer, or
 * from the consumer's count of refused logins ({@value #FAILED_LOGINS}) having grown since it last
 * read records, for a poll that came back empty: a Kafka 4 client whose login is refused may log
 * Kafka's own line (which names no setting) and go on returning nothing instead.
 *
 * <p>Confined to the reader's thread.
 */
final class RefusedLogins {
  /** The consumer's count of logins the broker refused (SASL, and TLS handshakes). */
  static final String FAILED_LOGINS = "failed-authentication-total";

  private static final long FIRST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long MAX_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String component;
  private final Properties consumerProperties;
  private final Logger log;

  private long pauseNanos = FIRST_PAUSE_NANOS;
  private long nextConsumerNanos = System.nanoTime();
  private long lastLogNanos;
  private boolean logged;

  /** The consumer's refused logins when it last read records (or was made). */
  private long failedAtLastRead;

  /**
   * The consumer whose {@value #FAILED_LOGINS} metric {@link #failedLoginsMetric} is, so the metric
   * is looked up once per consumer (until found) rather than on every poll ({@code metrics()}
   * builds a map of every metric the consumer has).
   */
  private Consumer<?, ?> metricsOf;

  private Metric failedLoginsMetric;

  RefusedLogins(String component, Properties consumerProperties, Logger log) {
    this.component = component;
    this.consumerProperties = consumerProperties;
    this.log = log;
  }

  /**
   * A new consumer of the reader's settings, or empty when making it failed for its security
   * settings (the line naming the setting to fix logged); any other failure is thrown.
   */
  Optional<KafkaConsumer<byte[], byte[]>> newConsumer() {
    KafkaConsumer<byte[], byte[]> consumer;
    try {
      consumer = new KafkaConsumer<>(consumerProperties);
    } catch (KafkaException e) {
      refused(explain(e).orElseThrow(() -> e));
      return Optional.empty();
    }
    failedAtLastRead = 0; // a new consumer's refused logins count from zero
    return Optional.of(consumer);
  }

  /** Whether the pause after the last refused consumer is over. */
  boolean newConsumerDue() {
    return System.nanoTime() - nextConsumerNanos >= 0;
  }

  /** The consumer read records: its login is accepted, and the pause starts again at 1 s. */
  void read(Consumer<?, ?> consumer) {
    failedAtLastRead = failedLogins(consumer);
    pauseNanos = FIRST_PAUSE_NANOS;
  }

  /**
   * For a poll that came back empty: the line naming the setting to fix when the broker refused the
   * consumer's login since it last read records, else empty.
   */
  Optional<String> refusedSinceLastRead(Consumer<?, ?> consumer) {
    long refused = failedLogins(consumer) - failedAtLastRead;
    if (refused <= 0) {
      return Optional.empty();
    }
    String detail =
        "the broker refused this consumer's login " + refused + " time(s) since it last read";
    boolean ssl = "SSL".equals(consumerProperties.getProperty("security.protocol"));
    return KafkaSecurityFailure.explain(
        ssl ? new SslAuthenticationException(detail) : new SaslAuthenticationException(detail),
        consumerProperties);
  }

  /**
   * The line naming the setting to fix when {@code failure} (out of making or polling a consumer)
   * is a security failure, else empty.
   */
  Optional<String> explain(KafkaException failure) {
    return KafkaSecurityFailure.explain(failure, consumerProperties);
  }

  /** Closes {@code consumer}, whose login was refused for {@code why}, and {@link #refused} it. */
  void retire(Consumer<?, ?> consumer, String why) {
    try {
      consumer.close(Duration.ofSeconds(1));
    } catch (KafkaException e) {
      log.debug("{}: closing the refused consumer: {}", component, e.toString());
    }
    refused(why);
  }

  /**
   * Logs {@code why} (at most once a minute) and schedules the next consumer after the pause, which
   * doubles up to 30 s while the logins are refused; no consumer is open.
   */
  private void refused(String why) {
    long now = System.nanoTime();
    nextConsumerNanos = now + pauseNanos;
    if (!logged || now - lastLogNanos >= LOG_INTERVAL_NANOS) {
      logged = true;
      lastLogNanos = now;
      log.error(
          "{}: {} Nothing is read or committed meanwhile (the events wait in Kafka); retrying with a"
              + " new consumer, which reads the secrets file again, until Kafka accepts the login.",
          component,
          why);
    }
    pauseNanos = Math.min(2 * pauseNanos, MAX_PAUSE_NANOS);
  }

  private long failedLogins(Consumer<?, ?> consumer) {
    if (consumer != metricsOf || failedLoginsMetric == null) {
      metricsOf = consumer;
      failedLoginsMetric = null;
      for (Map.Entry<MetricName, ? extends Metric> metric : consumer.metrics().entrySet()) {
        if (metric.getKey().name().equals(FAILED_LOGINS)
            && metric.getKey().group().equals("consumer-metrics")) {
          failedLoginsMetric = metric.getValue();
          break;
        }
      }
    }
    return failedLoginsMetric != null && failedLoginsMetric.metricValue() instanceof Number value
        ? value.longValue()
        : 0;
  }
}
