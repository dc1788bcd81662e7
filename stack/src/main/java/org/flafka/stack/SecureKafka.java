package org.flafka.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

/**
 * A real KRaft broker as a secure cluster has it, in this JVM: besides the PLAINTEXT listener the
 * stack's own helpers use ({@link #bootstrapServers()}, {@link #admin()}), a {@code SASL_SSL}
 * listener offering GSSAPI (Kerberos, through the JVM's {@link Kdc}) and SCRAM-SHA-512 ({@link
 * #saslSslBootstrapServers()}), and an {@code SSL} listener that requires a client certificate
 * signed by the test's {@link CertificateAuthority} ({@link #sslBootstrapServers()}). Both secure
 * listeners are reached as {@code localhost}: the broker's service principal is {@code
 * kafka/localhost} and its certificate names {@code localhost}.
 *
 * <p>The client settings ({@link #gssapiClient}, {@link #scramClient}, {@link #sslClient}) are
 * plain Kafka client properties, as a user writes them in a {@code --kafka-config} file or as the
 * templates render them under {@code kafka.producer.}/{@code kafka.consumer.}.
 */
public final class SecureKafka implements KafkaCluster, AutoCloseable {
  public static final String SASL_SSL_LISTENER = "SASL_SSL_CLIENTS";
  public static final String SSL_LISTENER = "SSL_CLIENTS";
  public static final String SERVICE_NAME = "kafka";
  public static final String BROKER_PRINCIPAL = SERVICE_NAME + "/localhost";
  public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

  private final KafkaBroker broker;
  private final Kdc kdc;
  private final CertificateAuthority ca;

  private SecureKafka(KafkaBroker broker, Kdc kdc, CertificateAuthority ca) {
    this.broker = broker;
    this.kdc = kdc;
    this.ca = ca;
  }

  /**
   * Starts the JVM's KDC if need be, a CA in {@code dir/ca} and the broker with its data in {@code
   * dir/kafka}.
   */
  public static SecureKafka start(Path dir) {
    return start(dir, Map.of());
  }

  /**
   * Starts a cluster as {@link #start(Path)} does, with {@code overrides} applied over the broker's
   * settings (e.g. {@code connections.max.reauth.ms}, which makes clients log in again on their
   * open connections).
   */
  public static SecureKafka start(Path dir, Map<String, String> overrides) {
    Kdc kdc = Kdc.jvmWide();
    CertificateAuthority ca = CertificateAuthority.create(dir.resolve("ca"), "Flafka test CA");
    CertificateAuthority.Store brokerStore = ca.issue("localhost");
    Path brokerKeytab = kdc.createPrincipal(BROKER_PRINCIPAL);

    String sasl = "listener.name." + SASL_SSL_LISTENER.toLowerCase(java.util.Locale.ROOT) + ".";
    String ssl = "listener.name." + SSL_LISTENER.toLowerCase(java.util.Locale.ROOT) + ".";
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(sasl + "sasl.enabled.mechanisms", "GSSAPI," + SCRAM_MECHANISM);
    settings.put(sasl + "sasl.kerberos.service.name", SERVICE_NAME);
    settings.put(
        sasl + "gssapi.sasl.jaas.config",
        krb5LoginModule(brokerKeytab, Kdc.qualified(BROKER_PRINCIPAL)));
    settings.put(
        sasl + "scram-sha-512.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    settings.put(ssl + "ssl.client.auth", "required");
    settings.put("ssl.keystore.type", "PKCS12");
    settings.put("ssl.keystore.location", brokerStore.path().toString());
    settings.put("ssl.keystore.password", brokerStore.password());
    settings.put("ssl.truststore.type", "PKCS12");
    settings.put("ssl.truststore.location", ca.trustStore().path().toString());
    settings.put("ssl.truststore.password", ca.trustStore().password());
    settings.putAll(overrides);
    KafkaBroker broker =
        KafkaBroker.start(
            dir.resolve("kafka"),
            settings,
            Duration.ZERO,
            Map.of(SASL_SSL_LISTENER, "SASL_SSL", SSL_LISTENER, "SSL"));
    return new SecureKafka(broker, kdc, ca);
  }

  /** The JAAS entry that logs {@code principal} in from {@code keytab}, no ticket cache. */
  public static String krb5LoginModule(Path keytab, String principal) {
    return "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true"
        + " useTicketCache=false keyTab=\""
        + keytab
        + "\" principal=\""
        + principal
        + "\";";
  }

  /** The PLAINTEXT listener, for the stack's own helpers (topics, admin). */
  @Override
  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  /** The SASL_SSL listener (GSSAPI and SCRAM-SHA-512). */
  public String saslSslBootstrapServers() {
    return "localhost:" + broker.boundPort(SASL_SSL_LISTENER);
  }

  /** The SSL listener, which requires a client certificate. */
  public String sslBootstrapServers() {
    return "localhost:" + broker.boundPort(SSL_LISTENER);
  }

  public Kdc kdc() {
    return kdc;
  }

  public CertificateAuthority ca() {
    return ca;
  }

  /** Creates SCRAM-SHA-512 credentials for {@code user} through the Admin API. */
  public void addScramUser(String user, String password) {
    try (Admin admin = admin()) {
      admin
          .alterUserScramCredentials(
              List.of(
                  new UserScramCredentialUpsertion(
                      user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)))
          .all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new StackException(
          "could not create SCRAM credentials for " + user + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new StackException("could not create SCRAM credentials for " + user + " in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while creating SCRAM credentials", e);
    }
  }

  /** Client properties for SASL_SSL with GSSAPI as {@code principal} (no realm) from its keytab. */
  public Map<String, String> gssapiClient(String principal, Path keytab) {
    Map<String, String> client = trustingClient("SASL_SSL", saslSslBootstrapServers());
    client.put("sasl.mechanism", "GSSAPI");
    client.put("sasl.kerberos.service.name", SERVICE_NAME);
    client.put("sasl.jaas.config", krb5LoginModule(keytab, Kdc.qualified(principal)));
    return client;
  }

  /** Client properties for SASL_SSL with SCRAM-SHA-512. */
  public Map<String, String> scramClient(String user, String password) {
    Map<String, String> client = trustingClient("SASL_SSL", saslSslBootstrapServers());
    client.put("sasl.mechanism", SCRAM_MECHANISM);
    client.put(
        "sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
            + user
            + "\" password=\""
            + password
            + "\";");
    return client;
  }

  /** Client properties for SSL with the client certificate in {@code keyStore}. */
  public Map<String, String> sslClient(CertificateAuthority.Store keyStore) {
    Map<String, String> client = trustingClient("SSL", sslBootstrapServers());
    client.put("ssl.keystore.type", "PKCS12");
    client.put("ssl.keystore.location", keyStore.path().toString());
    client.put("ssl.keystore.password", keyStore.password());
    return client;
  }

  private Map<String, String> trustingClient(String protocol, String bootstrap) {
    Map<String, String> client = new LinkedHashMap<>();
    client.put("bootstrap.servers", bootstrap);
    client.put("security.protocol", protocol);
    client.put("ssl.truststore.type", "PKCS12");
    client.put("ssl.truststore.location", ca.trustStore().path().toString());
    client.put("ssl.truststore.password", ca.trustStore().password());
    return client;
  }

  /** What a JVM started for a test (an agent) needs to reach this cluster's KDC. */
  public List<String> jvmOptions() {
    return kdc.jvmOptions();
  }

  @Override
  public void close() {
    broker.close();
  }

  @Override
  public String toString() {
    return "SecureKafka[" + saslSslBootstrapServers() + ", " + sslBootstrapServers() + "]";
  }
}
