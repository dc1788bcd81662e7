package org.flafka.contract;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

/**
 * Turns a Kafka client's security failure (its exception chain) into one line that names the client
 * setting to fix and the kit's template variable that renders it, for the CLI tools' error line and
 * the agents' log. A failure that is not about security gives nothing, so callers keep their own
 * message for it.
 *
 * <p>The Kafka client reports these failures as exceptions whose text comes from the JDK (Kerberos,
 * TLS) or the broker (SASL); the phrases matched here are theirs, and a phrase this class does not
 * know still yields a line naming the setting family (SASL, TLS) and the root cause.
 */
public final class KafkaSecurityFailure {
  private static final Pattern KEYTAB = Pattern.compile("keyTab=\"([^\"]*)\"");
  private static final Pattern PRINCIPAL = Pattern.compile("principal=\"([^\"]*)\"");
  private static final Pattern USERNAME = Pattern.compile("username=\"([^\"]*)\"");

  private KafkaSecurityFailure() {}

  /**
   * One line naming what failed, the setting to fix and how, or empty when {@code failure} is not a
   * security failure.
   *
   * @param client the client's properties (security.protocol, sasl.*, ssl.*), to name files and
   *     users; may be empty
   */
  public static Optional<String> explain(Throwable failure, Map<?, ?> client) {
    String chain = FailureChain.text(failure).toLowerCase(Locale.ROOT);
    String root = FailureChain.rootMessage(failure);
    String jaas = Objects.toString(client.get("sasl.jaas.config"), "");
    String mechanism = Objects.toString(client.get("sasl.mechanism"), "GSSAPI");

    if (chain.contains("could not read properties from file")
        || chain.contains("could not read properties from")) {
      return line(
          "the Kafka secrets file could not be read: " + root,
          "kafka_secrets_file (a ${provider:file:key} reference)",
          "place the file, readable by this user, with the keys the configuration refers to");
    }
    if (mechanism.startsWith("SCRAM") && has(failure, SaslAuthenticationException.class)) {
      return line(
          "Kafka refused the "
              + mechanism
              + " credentials of user '"
              + group(USERNAME, jaas, "?")
              + "'",
          "sasl.jaas.config username/password (template: kafka_sasl_username, sasl.password in"
              + " kafka_secrets_file)",
          "give the user's current password, or create the user on the cluster"
              + " (kafka-configs --alter --add-config 'SCRAM-SHA-512=[password=...]')");
    }
    if (chain.contains("unable to obtain password from user")
        || chain.contains("is being asked for a password")
        || chain.contains("keytab") && chain.contains("not found")) {
      String keytab = group(KEYTAB, jaas, "?");
      String why =
          keytab.equals("?") || Files.isReadable(Path.of(keytab))
              ? "holds no key for principal '" + group(PRINCIPAL, jaas, "?") + "'"
              : "does not exist or is not readable by this user";
      return line(
          "Kerberos login failed: keytab '" + keytab + "' " + why,
          "sasl.jaas.config keyTab (template: kafka_kerberos_keytab)",
          "place the principal's current keytab there, owned by the agent user (mode 0400)");
    }
    if (chain.contains("client not found in kerberos database")) {
      return line(
          "Kerberos login failed: the KDC does not know principal '"
              + group(PRINCIPAL, jaas, "?")
              + "'",
          "sasl.jaas.config principal (template: kafka_kerberos_principal)",
          "name the principal the keytab was made for, with its realm");
    }
    if (chain.contains("pre-authentication information was invalid")
        || chain.contains("checksum failed")
        || chain.contains("integrity check on decrypted field failed")
        || chain.contains("clients credentials have been revoked")
        || chain.contains("client's entry in database has expired")
        || chain.contains("password has expired")) {
      return line(
          "Kerberos login failed for principal '"
              + group(PRINCIPAL, jaas, "?")
              + "': its keytab is out of date or the principal expired ("
              + root
              + ")",
          "sasl.jaas.config keyTab (template: kafka_kerberos_keytab)",
          "export a new keytab for the principal (its keys changed) or renew the principal");
    }
    if (chain.contains("server not found in kerberos database")) {
      return line(
          "Kerberos has no service principal for the broker",
          "sasl.kerberos.service.name (template: kafka_sasl_kerberos_service_name) and the"
              + " bootstrap host names",
          "use the brokers' service name (the first part of kafka/host@REALM) and their"
              + " fully qualified host names");
    }
    if (chain.contains("pkix path building failed")
        || chain.contains("unable to find valid certification path")) {
      return line(
          "the broker's certificate is not trusted",
          "ssl.truststore.location (template: kafka_ssl_truststore_location)",
          "use a trust store holding the CA that signed the brokers' certificates");
    }
    if (chain.contains("no subject alternative")
        || chain.contains("no name matching")
        || chain.contains("doesn't match any of the subject alternative names")) {
      return line(
          "the broker's certificate does not name the host it was reached at (" + root + ")",
          "bootstrap servers (template: kafka_bootstrap_servers)",
          "reach the brokers by a name their certificates hold");
    }
    if (chain.contains("keystore password was incorrect")
        || chain.contains("password verification failed")
        || chain.contains("failed to load ssl keystore")) {
      String truststore = String.valueOf(client.get("ssl.truststore.location"));
      boolean trust = chain.contains(truststore.toLowerCase(Locale.ROOT));
      return line(
          "the " + (trust ? "trust" : "key") + " store could not be opened (" + root + ")",
          trust
              ? "ssl.truststore.location/ssl.truststore.password (template:"
                  + " kafka_ssl_truststore_location, ssl.truststore.password in kafka_secrets_file)"
              : "ssl.keystore.location/ssl.keystore.password (template: kafka_ssl_keystore_location,"
                  + " ssl.keystore.password in kafka_secrets_file)",
          "point at the store and give its password");
    }
    if (has(failure, SslAuthenticationException.class)) {
      return line(
          "the TLS handshake with the broker failed (" + root + ")",
          "ssl.keystore.location (template: kafka_ssl_keystore_location) when the broker requires a"
              + " client certificate, else ssl.truststore.location",
          "give a client certificate signed by a CA the brokers trust");
    }
    if (has(failure, SaslAuthenticationException.class)) {
      return line(
          "Kafka refused the " + mechanism + " login (" + root + ")",
          "sasl.mechanism and sasl.jaas.config (template: kafka_sasl_mechanism)",
          "use a mechanism the broker's listener offers, with valid credentials");
    }
    return Optional.empty();
  }

  private static Optional<String> line(String what, String setting, String fix) {
    return Optional.of(what + "; setting: " + setting + ". Fix: " + fix + ".");
  }

  private static String group(Pattern pattern, String text, String otherwise) {
    Matcher matcher = pattern.matcher(text);
    return matcher.find() ? matcher.group(1) : otherwise;
  }

  private static boolean has(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
