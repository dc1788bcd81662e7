package org.flafka.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A template variable the rendering ignores is a warning: the core's source-side variables with
 * Kafka channels; the same variables with Kafka sources are silent. Kerberos, SCRAM and TLS
 * variables beside a protocol that ignores them warn; beside SASL_SSL they are silent.
 */
class TemplateVariablesTest {

  private static final String KAFKA_CHANNELS =
      """
            core.channels = ch0
            core.sinks = hdfs0
            core.channels.ch0.type = org.flafka.core.KafkaRecordChannel
            core.channels.ch0.kafka.bootstrap.servers = localhost:9092
            core.channels.ch0.kafka.topic = syslog
            core.sinks.hdfs0.type = org.flafka.core.HdfsBucketSink
            core.sinks.hdfs0.channel = ch0
            core.sinks.hdfs0.hdfs.root = /data/syslog
            core.sinks.hdfs0.hdfs.filePrefix = core-%[localhost]-hdfs0
            """;

  private static final String KAFKA_SOURCES =
      """
            core.sources = kafka0
            core.channels = ch0
            core.sinks = hdfs0
            core.sources.kafka0.type = org.flafka.core.KafkaRecordSource
            core.sources.kafka0.kafka.bootstrap.servers = localhost:9092
            core.sources.kafka0.kafka.topics = syslog
            core.sources.kafka0.channels = ch0
            core.channels.ch0.type = memory
            core.sinks.hdfs0.type = org.flafka.core.HdfsBucketSink
            core.sinks.hdfs0.channel = ch0
            core.sinks.hdfs0.hdfs.root = /data/syslog
            core.sinks.hdfs0.hdfs.filePrefix = core-%[localhost]-hdfs0
            """;

  private static Properties properties(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }

  @Test
  void sourceSideVariablesWarnWithKafkaChannelsOnly() throws IOException {
    Set<String> set = Set.of("core_kafka_sources", "core_hdfs_sinks", "core_fanout");
    assertEquals(
        List.of(
            "WARNING [unused-variable] core_fanout: does not apply with core_channel_type kafka (no "
                + "Kafka sources: each Kafka channel is a consumer drained by its HDFS sink). Fix: "
                + "remove it, or set core_channel_type to memory or file to use Kafka sources.",
            "WARNING [unused-variable] core_kafka_sources: does not apply with core_channel_type kafka "
                + "(no Kafka sources: each Kafka channel is a consumer drained by its HDFS sink). Fix: "
                + "remove it, or set core_channel_type to memory or file to use Kafka sources."),
        TemplateVariables.unused(properties(KAFKA_CHANNELS), set).stream()
            .map(Finding::toString)
            .toList());
    assertEquals(List.of(), TemplateVariables.unused(properties(KAFKA_SOURCES), set));
  }

  @Test
  void theKafkaChannelCoreHasNoLintFindings() throws IOException {
    assertEquals(List.of(), Linter.lint(properties(KAFKA_CHANNELS), OptionalInt.of(4)));
  }

  private static Properties withProtocol(String protocol) throws IOException {
    Properties rendered = properties(KAFKA_SOURCES);
    rendered.setProperty("core.sources.kafka0.kafka.consumer.security.protocol", protocol);
    return rendered;
  }

  @Test
  void kerberosSettingsBesideAPlaintextProtocolWarnThatTheClientsConnectUnauthenticated()
      throws IOException {
    Set<String> set = Set.of("kafka_kerberos_principal", "kafka_topic");
    assertEquals(
        List.of(
            "WARNING [kafka-security] kafka_kerberos_principal: is set, but kafka_security_protocol"
                + " is PLAINTEXT, which ignores it: the agent's Kafka clients connect"
                + " unauthenticated and unencrypted. Fix: set kafka_security_protocol to SASL_SSL"
                + " (Kerberos or SCRAM over TLS) or SSL (client certificates), or remove"
                + " kafka_kerberos_principal."),
        TemplateVariables.unused(properties(KAFKA_SOURCES), set).stream()
            .map(Finding::toString)
            .toList());
  }

  @Test
  void scramAndTrustStoreSettingsBesideSaslPlaintextWarnOnlyOfTheTrustStore() throws IOException {
    List<Finding> findings =
        TemplateVariables.unused(
            withProtocol("SASL_PLAINTEXT"),
            Set.of("kafka_sasl_username", "kafka_ssl_truststore_location"));
    assertEquals(
        List.of("kafka_ssl_truststore_location"), findings.stream().map(Finding::where).toList());
    assertEquals(
        "is set, but kafka_security_protocol is SASL_PLAINTEXT, which ignores it: the agent's"
            + " Kafka clients log in, but their records cross the network unencrypted (across"
            + " sites, from an edge)",
        findings.get(0).problem());
  }

  @Test
  void saslSettingsBesideSslWarnAndEverySecuritySettingBesideSaslSslIsSilent() throws IOException {
    Set<String> set =
        Set.of("kafka_sasl_mechanism", "kafka_kerberos_keytab", "kafka_ssl_keystore_location");
    assertEquals(
        List.of("kafka_kerberos_keytab", "kafka_sasl_mechanism"),
        TemplateVariables.unused(withProtocol("SSL"), set).stream().map(Finding::where).toList());
    assertEquals(List.of(), TemplateVariables.unused(withProtocol("SASL_SSL"), set));
  }
}
