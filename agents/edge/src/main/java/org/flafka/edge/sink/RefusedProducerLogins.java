package org.flafka.edge.sink;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;
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
 * login counters ({@link #FAILED_LOGINS}, {@link #LOGINS}) and explain a refusal from them; with
 * TLS, after a handshake of their own ({@link #tlsHandshakeFailure}), since the counters count a
 * refused TLS handshake as a refused login.
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
    String protocol = producerProperties.getProperty("security.protocol", "PLAINTEXT");
    Exception handshake = protocol.endsWith("SSL") ? tlsHandshakeFailure(producerProperties) : null;
    if (handshake != null) {
      return KafkaSecurityFailure.explain(
          new SslAuthenticationException(detail, handshake), producerProperties);
    }
    return KafkaSecurityFailure.explain(
        protocol.equals("SSL")
            ? new SslAuthenticationException(detail)
            : new SaslAuthenticationException(detail),
        producerProperties);
  }

  /** How long the handshake of {@link #tlsHandshakeFailure} may take, connecting included. */
  private static final int HANDSHAKE_TIMEOUT_MILLIS = 5000;

  /**
   * Why a TLS handshake with the first bootstrap broker fails with the producer's own TLS settings
   * (its trust store, key store and host name check, the secrets file's passwords resolved as the
   * producer resolves them), or null when it succeeds or cannot be tried. The producer's refused
   * logins count TLS handshakes and SASL logins alike, and with SASL_SSL they do not say which
   * failed: this handshake does, so that an untrusted broker certificate is not reported as a wrong
   * password.
   */
  static Exception tlsHandshakeFailure(Properties producerProperties) {
    String first =
        producerProperties.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "").split(",")[0];
    int colon = first.lastIndexOf(':');
    if (colon <= 0) {
      return null;
    }
    String host = first.substring(0, colon).trim();
    int port;
    try {
      port = Integer.parseInt(first.substring(colon + 1).trim());
    } catch (NumberFormatException e) {
      return null;
    }
    DefaultSslEngineFactory factory = new DefaultSslEngineFactory();
    SSLContext context;
    String endpointCheck;
    try {
      ProducerConfig resolved = new ProducerConfig(producerProperties);
      factory.configure(resolved.values());
      context = factory.sslContext();
      endpointCheck = resolved.getString(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG);
    } catch (RuntimeException e) {
      // a store that cannot be opened: the producer itself reports it when it is made
      factory.close();
      return null;
    }
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
      socket.connect(new InetSocketAddress(host, port), HANDSHAKE_TIMEOUT_MILLIS);
      socket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
      if (endpointCheck != null && !endpointCheck.isEmpty()) {
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm(endpointCheck);
        socket.setSSLParameters(parameters);
      }
      socket.startHandshake();
      return null;
    } catch (SSLException e) {
      return e;
    } catch (IOException e) {
      return null; // unreachable: not a login the broker refused
    } finally {
      factory.close();
    }
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
