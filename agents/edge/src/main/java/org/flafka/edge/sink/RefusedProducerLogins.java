package org.flafka.edge.sink;

import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.flafka.contract.KafkaSecurityFailure;
import org.flafka.edge.channel.KafkaRecordChannel;

/**
 * What the edge's two Kafka writers, {@link KafkaRecordSink} and {@link KafkaRecordChannel}, say
 * when Kafka refuses their producer's login, in one place so that both say it alike: the line
 * naming the setting to fix ({@link KafkaSecurityFailure}'s words, as the core and {@code flafka
 * audit} say it) and what the writer does meanwhile.
 *
 * <p>A Kafka 4 producer whose login is refused does not fail its sends with the refusal: it logs
 * Kafka's own line (which names no setting), rebootstraps, and fails a send only when {@code
 * max.block.ms} has passed, with a timeout that says nothing of the login. So the writers read its
 * login counters ({@link #FAILED_LOGINS}, {@link #LOGINS}) and explain a refusal from them.
 */
public final class RefusedProducerLogins {

  /** The producer's count of logins the broker refused (SASL, and TLS handshakes). */
  public static final String FAILED_LOGINS = "failed-authentication-total";

  /** The producer's count of logins the broker accepted. */
  public static final String LOGINS = "successful-authentication-total";

  private RefusedProducerLogins() {}

  /**
   * The line naming the setting to fix for {@code refused} logins the broker refused since the
   * producer last delivered, if any; {@code failure} is what the writer met meanwhile, or null.
   */
  public static Optional<String> explain(
      long refused, Throwable failure, Properties producerProperties) {
    if (refused <= 0) {
      return Optional.empty();
    }
    String detail =
        "the broker refused this producer's login "
            + refused
            + " time(s) since it last delivered"
            + (failure == null ? "" : " (" + failure + ")");
    boolean ssl = "SSL".equals(producerProperties.getProperty("security.protocol"));
    return KafkaSecurityFailure.explain(
        ssl ? new SslAuthenticationException(detail) : new SaslAuthenticationException(detail),
        producerProperties);
  }

  /**
   * The writer's ERROR line: {@code component}, {@code why} (the setting to fix), where the events
   * wait meanwhile ({@code kept}, a sentence without its full stop) and that a new producer reads
   * the secrets file again.
   */
  public static String line(String component, String why, String kept) {
    return component
        + ": "
        + why
        + " "
        + kept
        + "; retrying with a new producer, which reads the secrets file again, until Kafka accepts"
        + " the login.";
  }
}
