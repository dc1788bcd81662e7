package org.flafka.lint;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.flafka.lint.FlumeAgentConfig.Component;
import org.flafka.lint.FlumeAgentConfig.Kind;

/**
 * Findings about the template variables a user set, for {@code flafka lint --tier}: a variable the
 * rendering does not use is a warning, so a setting tuned for one core shape is not believed to
 * apply to another, and a Kerberos, SCRAM or TLS setting is not believed to secure a protocol that
 * ignores it.
 */
public final class TemplateVariables {

  static final String RULE = "unused-variable";

  /** The core's variables that only shape Kafka sources and the channels they fill. */
  private static final Set<String> SOURCE_SIDE =
      Set.of(
          "core_kafka_sources",
          "core_source_impl",
          "core_source_batch_size",
          "core_source_batch_duration_millis",
          "core_fanout",
          "core_channel_capacity",
          "core_channel_transaction_capacity",
          "core_data_dir");

  static final String SECURITY_RULE = "kafka-security";

  /** Kafka variables the templates render only with SASL_SSL or SASL_PLAINTEXT. */
  private static final Set<String> SASL_SIDE =
      Set.of(
          "kafka_sasl_mechanism",
          "kafka_sasl_kerberos_service_name",
          "kafka_kerberos_principal",
          "kafka_kerberos_keytab",
          "kafka_sasl_username");

  /** Kafka variables the templates render only with SSL or SASL_SSL. */
  private static final Set<String> TLS_SIDE =
      Set.of(
          "kafka_ssl_truststore_location",
          "kafka_ssl_truststore_type",
          "kafka_ssl_keystore_location",
          "kafka_ssl_keystore_type");

  private TemplateVariables() {}

  /**
   * Warns of each variable in {@code set} that the rendering ignores: with Kafka channels (an agent
   * without sources whose channels are Kafka consumers) the core's source-side variables; and the
   * Kafka security variables the protocol ignores ({@link #ignoredSecurity}).
   */
  public static List<Finding> unused(Properties rendered, Set<String> set) {
    List<Finding> findings = new ArrayList<>();
    for (FlumeAgentConfig agent : FlumeAgentConfig.parse(rendered)) {
      List<Component> channels = agent.active(Kind.CHANNEL);
      boolean kafkaChannels =
          agent.active(Kind.SOURCE).isEmpty()
              && !channels.isEmpty()
              && channels.stream()
                  .allMatch(c -> c.isType(Rules.CORE_KAFKA_CHANNEL, Rules.KAFKA_CHANNEL));
      if (!kafkaChannels) {
        continue;
      }
      for (String variable : new TreeSet<>(set)) {
        if (SOURCE_SIDE.contains(variable)) {
          findings.add(
              Finding.warning(
                  RULE,
                  variable,
                  "does not apply with core_channel_type kafka (no Kafka sources: each Kafka channel is "
                      + "a consumer drained by its HDFS sink)",
                  "remove it, or set core_channel_type to memory or file to use Kafka sources"));
        }
      }
    }
    findings.addAll(ignoredSecurity(rendered, set));
    return findings;
  }

  /**
   * Warns of each Kerberos, SCRAM or TLS variable the protocol the rendering speaks ignores: set,
   * it says the cluster is secure, but with PLAINTEXT the agent's Kafka clients connect
   * unauthenticated and in clear, with SSL they never log in, with SASL_PLAINTEXT they never
   * encrypt. The protocol is read from the rendering (every Kafka client gets the same one; none
   * rendered is PLAINTEXT), so the template's default is not repeated here.
   */
  static List<Finding> ignoredSecurity(Properties rendered, Set<String> set) {
    String protocol =
        rendered.stringPropertyNames().stream()
            .filter(key -> key.endsWith(".security.protocol"))
            .map(key -> rendered.getProperty(key).strip())
            .findFirst()
            .orElse("PLAINTEXT");
    boolean sasl = protocol.startsWith("SASL_");
    boolean tls = protocol.equals("SSL") || protocol.equals("SASL_SSL");
    List<Finding> findings = new ArrayList<>();
    for (String variable : new TreeSet<>(set)) {
      boolean ignored =
          (SASL_SIDE.contains(variable) && !sasl) || (TLS_SIDE.contains(variable) && !tls);
      if (!ignored) {
        continue;
      }
      String effect =
          switch (protocol) {
            case "PLAINTEXT" -> "the agent's Kafka clients connect unauthenticated and unencrypted";
            case "SSL" -> "the agent's Kafka clients encrypt but never log in with SASL";
            default ->
                "the agent's Kafka clients log in, but their records cross the network"
                    + " unencrypted (across sites, from an edge)";
          };
      findings.add(
          Finding.warning(
              SECURITY_RULE,
              variable,
              "is set, but kafka_security_protocol is "
                  + protocol
                  + ", which ignores it: "
                  + effect,
              "set kafka_security_protocol to SASL_SSL (Kerberos or SCRAM over TLS) or SSL (client"
                  + " certificates), or remove "
                  + variable));
    }
    return findings;
  }
}
