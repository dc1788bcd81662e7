package org.flafka.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AgentTemplatesTest {

  @Test
  void misspeltVariableIsAnErrorThatSuggestsTheRightNameAndListsTheValidOnes() {
    TemplateVariableException e =
        assertThrows(
            TemplateVariableException.class,
            () -> AgentTemplates.render(Tier.EDGE, Map.of("edge_kafka_sink", 4)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Unknown variable 'edge_kafka_sink' for the edge template. Did you mean edge_kafka_sinks?"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("Valid variables: agent_name, site, kafka_bootstrap_servers"),
        e.getMessage());
  }

  @Test
  void variableOfTheOtherTierIsUnknown() {
    TemplateVariableException e =
        assertThrows(
            TemplateVariableException.class,
            () -> AgentTemplates.render(Tier.CORE, Map.of("edge_kafka_sinks", 2)));
    assertTrue(
        e.getMessage().startsWith("Unknown variable 'edge_kafka_sinks' for the core template."),
        e.getMessage());
  }

  @Test
  void stringsFromTheCommandLineBecomeTheDefaultsType() {
    Map<String, Object> resolved =
        AgentTemplates.resolve(
            Tier.EDGE,
            Map.of(
                "edge_kafka_sinks", "3",
                "kafka_flume_event_format", "TRUE",
                "edge_listeners", "tls, udp",
                "edge_extra_properties", "{sinks.kafka0.kafka.producer.buffer.memory: 67108864}"));
    assertEquals(3L, resolved.get("edge_kafka_sinks"));
    assertEquals(true, resolved.get("kafka_flume_event_format"));
    assertEquals(List.of("tls", "udp"), resolved.get("edge_listeners"));
    assertEquals(
        Map.of("sinks.kafka0.kafka.producer.buffer.memory", "67108864"),
        resolved.get("edge_extra_properties"));
  }

  @Test
  void listsAcceptYamlFlowSyntaxToo() {
    assertEquals(
        List.of("udp"),
        AgentTemplates.resolve(Tier.EDGE, Map.of("edge_listeners", "[udp]")).get("edge_listeners"));
  }

  @Test
  void invalidValuesNameTheVariableTheValueAndTheRule() {
    assertMessage(
        "Invalid value 'four' for variable edge_kafka_sinks: must be an integer.",
        Tier.EDGE,
        "edge_kafka_sinks",
        "four");
    assertMessage(
        "Invalid value '0' for variable edge_kafka_sinks: must be at least 1.",
        Tier.EDGE,
        "edge_kafka_sinks",
        "0");
    assertMessage(
        "Invalid value 'disk' for variable edge_channel_type: must be one of memory, file, kafka.",
        Tier.EDGE,
        "edge_channel_type",
        "disk");
    assertMessage(
        "Invalid value 'udp,sctp' for variable edge_listeners: may contain only udp, tcp, tls,"
            + " not 'sctp'.",
        Tier.EDGE,
        "edge_listeners",
        "udp,sctp");
    assertMessage(
        "Invalid value 'udp,udp' for variable edge_listeners: names 'udp' twice.",
        Tier.EDGE,
        "edge_listeners",
        "udp,udp");
    assertMessage(
        "Invalid value '' for variable edge_listeners: must name at least one of udp, tcp, tls.",
        Tier.EDGE,
        "edge_listeners",
        "");
    assertMessage(
        "Invalid value 'yes' for variable kafka_flume_event_format: must be true or false.",
        Tier.CORE,
        "kafka_flume_event_format",
        "yes");
    assertMessage(
        "Invalid value true for variable site: must be a string; quote it if it looks like a boolean.",
        Tier.EDGE,
        "site",
        true);
    assertMessage(
        "Invalid value {a=true} for variable core_extra_properties: contains true, which is a boolean;"
            + " write it as a quoted string.",
        Tier.CORE,
        "core_extra_properties",
        Map.of("a", true));
  }

  private static void assertMessage(String expected, Tier tier, String name, Object value) {
    TemplateVariableException e =
        assertThrows(
            TemplateVariableException.class,
            () -> AgentTemplates.resolve(tier, Map.of(name, value)));
    assertEquals(expected, e.getMessage());
  }

  @Test
  void undefinedVariableInsideATemplateIsAnError() {
    TemplateRenderException e =
        assertThrows(
            TemplateRenderException.class,
            () ->
                AgentTemplates.renderText(
                    "t.j2", "a = {{ defined }}\nb = {{ not_defined }}\n", Map.of("defined", "x")));
    assertTrue(e.getMessage().startsWith("t.j2 failed to render: line 2: "), e.getMessage());
    assertTrue(e.getMessage().contains("not_defined"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Tier.class)
  void everyVariableIsDocumentedAndUsedByItsTemplate(Tier tier) {
    String template = AgentTemplates.templateText(tier);
    for (TemplateVariable variable : AgentTemplates.variables(tier)) {
      assertFalse(variable.doc().isBlank(), variable.name());
      assertTrue(
          Pattern.compile("\\b" + variable.name() + "\\b").matcher(template).find(),
          variable.name()
              + " is declared in "
              + tier.id()
              + "-defaults.yml but unused by the template");
    }
  }

  @ParameterizedTest
  @EnumSource(Tier.class)
  void docsListEveryVariableWithItsDefault(Tier tier) throws IOException {
    String docs =
        java.nio.file.Files.readString(
            java.nio.file.Path.of("../docs/reference/template-variables.md"));
    for (TemplateVariable variable : AgentTemplates.variables(tier)) {
      String row = "| `" + variable.name() + "` | `" + docDefault(variable.defaultValue()) + "` |";
      assertTrue(
          docs.contains(row), "docs/reference/template-variables.md lacks the row starting " + row);
    }
  }

  private static String docDefault(Object value) {
    if (value instanceof List<?> list) {
      return "[" + String.join(", ", list.stream().map(String::valueOf).toList()) + "]";
    }
    if (value instanceof Map<?, ?> map) {
      return map.isEmpty() ? "{}" : map.toString();
    }
    return String.valueOf(value);
  }

  @Test
  void sharedVariablesHaveTheSameDefaultsInBothTiers() {
    Map<String, Object> edge = AgentTemplates.defaults(Tier.EDGE);
    Map<String, Object> core = AgentTemplates.defaults(Tier.CORE);
    for (String shared :
        List.of(
            "kafka_bootstrap_servers",
            "kafka_topic",
            "syslog_parser_options",
            "kafka_flume_event_format")) {
      assertEquals(edge.get(shared), core.get(shared), shared);
    }
  }

  @Test
  void documentedRulesAreParsedFromTheComments() {
    TemplateVariable listeners = variable(Tier.EDGE, "edge_listeners");
    assertEquals(List.of("udp", "tcp", "tls"), listeners.allowedValues());
    assertEquals(TemplateVariable.Type.LIST, listeners.type());
    assertEquals(1L, variable(Tier.CORE, "core_hdfs_sinks").minimum().getAsLong());
    assertEquals(
        List.of("all", "-1", "1", "0"), variable(Tier.EDGE, "edge_kafka_acks").allowedValues());
  }

  private static TemplateVariable variable(Tier tier, String name) {
    return AgentTemplates.variables(tier).stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void edgeDefaultsCarryHeadersAsRecordHeadersWithTheRightBatchKey() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.EDGE, Map.of()));
    assertEquals("syslog_udp syslog_tcp", p.getProperty("edge.sources"));
    assertEquals("kafka0 kafka1", p.getProperty("edge.sinks"));
    for (String sink : List.of("kafka0", "kafka1")) {
      String prefix = "edge.sinks." + sink + ".";
      assertEquals("org.flafka.edge.sink.KafkaRecordSink", p.getProperty(prefix + "type"));
      assertEquals("5000", p.getProperty(prefix + "batchSize"));
      assertEquals("snappy", p.getProperty(prefix + "kafka.producer.compression.type"));
      assertEquals("all", p.getProperty(prefix + "kafka.producer.acks"));
      // the facts the body cannot give back, by name (the contract's Headers.CARRIED)
      assertEquals("carried", p.getProperty(prefix + "recordHeaders"));
    }
    assertEquals("ch0", p.getProperty("edge.sinks.kafka0.channel"));
    assertEquals("ch1", p.getProperty("edge.sinks.kafka1.channel"));
  }

  @Test
  void stockSinksMapEachHeaderWithTheirOwnBatchKey() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.EDGE, Map.of("edge_sink_impl", "stock")));
    String prefix = "edge.sinks.kafka0.";
    assertEquals("org.apache.flume.sink.kafka.KafkaSink", p.getProperty(prefix + "type"));
    assertEquals("5000", p.getProperty(prefix + "flumeBatchSize"));
    assertNull(p.getProperty(prefix + "kafka.flumeBatchSize"));
    assertNull(p.getProperty(prefix + "recordHeaders"));
    assertEquals("false", p.getProperty(prefix + "allowTopicOverride"));
    assertEquals("all", p.getProperty(prefix + "kafka.producer.acks"));
    assertEquals("host", p.getProperty(prefix + "header.host"));
    assertEquals("id", p.getProperty(prefix + "header.id"));
  }

  @Test
  void theFlumeEventFormatAlwaysGetsFlumesSink() throws IOException {
    Properties p =
        properties(AgentTemplates.render(Tier.EDGE, Map.of("kafka_flume_event_format", true)));
    assertEquals("org.apache.flume.sink.kafka.KafkaSink", p.getProperty("edge.sinks.kafka0.type"));
    assertEquals("true", p.getProperty("edge.sinks.kafka0.useFlumeEventFormat"));
    assertNull(p.getProperty("edge.sinks.kafka0.header.host"));
  }

  @Test
  void severalLanesFanOutWholeBatchesThroughTheMultiplexingSelector() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.EDGE, Map.of("edge_kafka_sinks", 3)));
    String source = "edge.sources.syslog_tcp.";
    assertEquals("ch0 ch1 ch2", p.getProperty(source + "channels"));
    assertEquals("multiplexing", p.getProperty(source + "selector.type"));
    assertEquals("fanout", p.getProperty(source + "selector.header"));
    assertEquals("ch2", p.getProperty(source + "selector.mapping.2"));
    assertEquals("syslog eventid fanout", p.getProperty(source + "interceptors"));
    assertEquals("3", p.getProperty(source + "interceptors.fanout.lanes"));
    assertEquals("fanout", p.getProperty(source + "interceptors.fanout.header"));
  }

  @Test
  void oneLaneNeedsNoSelector() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.EDGE, Map.of("edge_kafka_sinks", 1)));
    assertNull(p.getProperty("edge.sources.syslog_udp.selector.type"));
    assertEquals("syslog eventid", p.getProperty("edge.sources.syslog_udp.interceptors"));
  }

  @Test
  void stockSourcesKeepTheWholeLineAndTellTheInterceptorTheSender() throws IOException {
    Properties p =
        properties(
            AgentTemplates.render(
                Tier.EDGE,
                Map.of("edge_source_impl", "stock", "edge_listeners", List.of("udp", "tcp"))));
    assertEquals("syslogudp", p.getProperty("edge.sources.syslog_udp.type"));
    assertEquals("multiport_syslogtcp", p.getProperty("edge.sources.syslog_tcp.type"));
    for (String source : List.of("syslog_udp", "syslog_tcp")) {
      assertEquals("all", p.getProperty("edge.sources." + source + ".keepFields"));
      assertEquals("peer", p.getProperty("edge.sources." + source + ".clientIPHeader"));
    }
  }

  @Test
  void kafkaChannelWritesTheTopicItselfWithoutSinks() throws IOException {
    Properties ours =
        properties(AgentTemplates.render(Tier.EDGE, Map.of("edge_channel_type", "kafka")));
    assertNull(ours.getProperty("edge.sinks"));
    assertEquals(
        "org.flafka.edge.channel.KafkaRecordChannel", ours.getProperty("edge.channels.ch1.type"));
    assertEquals(
        AgentTemplates.defaults(Tier.EDGE).get("kafka_record_facts"),
        ours.getProperty("edge.channels.ch1.recordHeaders"));
    assertEquals("all", ours.getProperty("edge.channels.ch1.kafka.producer.acks"));
    assertNull(ours.getProperty("edge.channels.ch1.parseAsFlumeEvent"));

    for (Map<String, Object> flumes :
        List.<Map<String, Object>>of(
            Map.of("edge_channel_type", "kafka", "kafka_flume_event_format", true),
            Map.of("edge_channel_type", "kafka", "edge_channel_impl", "stock"))) {
      Properties p = properties(AgentTemplates.render(Tier.EDGE, flumes));
      assertNull(p.getProperty("edge.sinks"));
      assertEquals(
          "org.apache.flume.channel.kafka.KafkaChannel", p.getProperty("edge.channels.ch0.type"));
      assertEquals(
          String.valueOf(flumes.containsKey("kafka_flume_event_format")),
          p.getProperty("edge.channels.ch0.parseAsFlumeEvent"));
      assertEquals("syslog", p.getProperty("edge.channels.ch1.kafka.topic"));
      assertEquals("all", p.getProperty("edge.channels.ch1.kafka.producer.acks"));
    }
  }

  @Test
  void extraPropertiesComeLastAndOverride() throws IOException {
    String text =
        AgentTemplates.render(
            Tier.EDGE,
            Map.of("edge_extra_properties", Map.of("sinks.kafka0.flumeBatchSize", "50")));
    assertTrue(text.endsWith("edge.sinks.kafka0.flumeBatchSize = 50\n"), text);
    assertEquals("50", properties(text).getProperty("edge.sinks.kafka0.flumeBatchSize"));
  }

  @Test
  void coreReadsWithOurKafkaChannelsByDefaultAndHasNoSources() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.CORE, Map.of()));
    assertNull(p.getProperty("core.sources"));
    assertEquals("ch0 ch1 ch2 ch3", p.getProperty("core.channels"));
    assertEquals("org.flafka.core.KafkaRecordChannel", p.getProperty("core.channels.ch2.type"));
    assertEquals("syslog", p.getProperty("core.channels.ch2.kafka.topic"));
    assertEquals("flafka-core", p.getProperty("core.channels.ch2.kafka.consumer.group.id"));
    assertEquals("ch2", p.getProperty("core.sinks.hdfs2.channel"));
  }

  @Test
  void coreReadsWithOurKafkaSourceAndWritesTextWithOurBucketSinkUnderTheRoot() throws IOException {
    Properties p =
        properties(
            AgentTemplates.render(
                Tier.CORE,
                Map.of("core_hdfs_root", "hdfs://nn/syslog", "core_channel_type", "memory")));
    assertEquals("hdfs0 hdfs1 hdfs2 hdfs3", p.getProperty("core.sinks"));
    String sink = "core.sinks.hdfs3.";
    assertEquals("org.flafka.core.HdfsBucketSink", p.getProperty(sink + "type"));
    assertEquals("hdfs://nn/syslog", p.getProperty(sink + "hdfs.root"));
    assertEquals("UTC", p.getProperty(sink + "hdfs.timeZone"));
    assertEquals("core-%[localhost]-hdfs3", p.getProperty(sink + "hdfs.filePrefix"));
    assertEquals("snappy", p.getProperty(sink + "hdfs.codeC"));
    assertEquals("10000", p.getProperty(sink + "hdfs.batchSize"));
    assertEquals("ch3", p.getProperty(sink + "channel"));
    // Only our sink's own keys: it refuses any other
    assertNull(p.getProperty(sink + "hdfs.path"));
    assertNull(p.getProperty(sink + "hdfs.fileType"));
    // Our Kafka source: for text, only the headers the layout reads (the contract's
    // Headers.BUCKET), none of Flume's header.<name> keys; text needs no derived facts, so it
    // parses nothing
    String source = "core.sources.kafka1.";
    assertEquals("org.flafka.core.KafkaRecordSource", p.getProperty(source + "type"));
    assertEquals("bucket", p.getProperty(source + "recordHeaders"));
    assertNull(p.getProperty(source + "deriveFacts"));
    assertNull(p.getProperty(source + "header.timestamp"));
    assertNull(p.getProperty(source + "setTopicHeader"));
    assertEquals("flafka-core", p.getProperty(source + "kafka.consumer.group.id"));
  }

  @Test
  void coreStockSourceAndSinkBucketByEventTimeAndHostWithAFilePrefixPerAgentHostAndSink()
      throws IOException {
    Properties p =
        properties(
            AgentTemplates.render(
                Tier.CORE,
                Map.of(
                    "core_hdfs_root",
                    "hdfs://nn/syslog",
                    "core_sink_impl",
                    "stock",
                    "core_source_impl",
                    "stock",
                    "core_channel_type",
                    "file")));
    assertEquals("kafka0 kafka1", p.getProperty("core.sources"));
    assertEquals("hdfs0 hdfs1 hdfs2 hdfs3", p.getProperty("core.sinks"));
    String sink = "core.sinks.hdfs3.";
    assertEquals("hdfs", p.getProperty(sink + "type"));
    assertEquals("hdfs://nn/syslog/dt=%Y-%m-%d/host=%{host}", p.getProperty(sink + "hdfs.path"));
    assertEquals("false", p.getProperty(sink + "hdfs.useLocalTimeStamp"));
    assertEquals("UTC", p.getProperty(sink + "hdfs.timeZone"));
    assertEquals("core-%[localhost]-hdfs3", p.getProperty(sink + "hdfs.filePrefix"));
    assertEquals("CompressedStream", p.getProperty(sink + "hdfs.fileType"));
    assertEquals("snappy", p.getProperty(sink + "hdfs.codeC"));
    assertEquals("0", p.getProperty(sink + "hdfs.rollCount"));
    assertEquals("ch3", p.getProperty(sink + "channel"));
    assertEquals("flafka-core", p.getProperty("core.sources.kafka1.kafka.consumer.group.id"));
    assertEquals("timestamp", p.getProperty("core.sources.kafka1.header.timestamp"));
    assertEquals("ch0 ch1 ch2 ch3", p.getProperty("core.sources.kafka1.channels"));
    assertEquals("multiplexing", p.getProperty("core.sources.kafka1.selector.type"));
  }

  @Test
  void coreAvroKeepsHeadersInSnappyBlocksAndNeverSetsACodecOnADataStream() throws IOException {
    Properties p = properties(AgentTemplates.render(Tier.CORE, Map.of("core_hdfs_format", "avro")));
    assertEquals("DataStream", p.getProperty("core.sinks.hdfs0.hdfs.fileType"));
    assertEquals("avro_event", p.getProperty("core.sinks.hdfs0.serializer"));
    assertEquals("snappy", p.getProperty("core.sinks.hdfs0.serializer.compressionCodec"));
    assertNull(p.getProperty("core.sinks.hdfs0.hdfs.codeC"));
    assertEquals(
        "hdfs", p.getProperty("core.sinks.hdfs0.type"), "the Avro format is Flume's sink's");
    Properties plain =
        properties(
            AgentTemplates.render(
                Tier.CORE, Map.of("core_hdfs_codec", "none", "core_sink_impl", "stock")));
    assertEquals("DataStream", plain.getProperty("core.sinks.hdfs0.hdfs.fileType"));
    assertNull(plain.getProperty("core.sinks.hdfs0.hdfs.codeC"));
  }

  private static Properties properties(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }

  @Test
  void aSecureClusterGivesEveryKafkaClientTheSameSettingsAndRendersNoPassword() throws IOException {
    Map<String, Object> scram =
        Map.of(
            "kafka_security_protocol", "SASL_SSL",
            "kafka_sasl_mechanism", "SCRAM-SHA-512",
            "kafka_sasl_username", "edge-paris",
            "kafka_ssl_truststore_location", "/etc/flafka/truststore.p12",
            "kafka_ssl_keystore_location", "/etc/flafka/edge.p12",
            "kafka_secrets_file", "/etc/flafka/secrets.properties",
            "edge_kafka_sinks", 2);
    Properties edge = properties(AgentTemplates.render(Tier.EDGE, scram));
    String secret = "${flafkasecrets:/etc/flafka/secrets.properties:";
    for (String client :
        List.of("edge.sinks.kafka0.kafka.producer.", "edge.sinks.kafka1.kafka.producer.")) {
      assertEquals("SASL_SSL", edge.getProperty(client + "security.protocol"), client);
      assertEquals("SCRAM-SHA-512", edge.getProperty(client + "sasl.mechanism"), client);
      assertEquals(
          "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"edge-paris\""
              + " password=\""
              + secret
              + "sasl.password}\";",
          edge.getProperty(client + "sasl.jaas.config"));
      assertEquals(
          "org.apache.kafka.common.config.provider.FileConfigProvider",
          edge.getProperty(client + "config.providers.flafkasecrets.class"));
      assertEquals(
          secret + "ssl.truststore.password}",
          edge.getProperty(client + "ssl.truststore.password"));
      assertEquals(
          secret + "ssl.keystore.password}", edge.getProperty(client + "ssl.keystore.password"));
      assertEquals(secret + "ssl.key.password}", edge.getProperty(client + "ssl.key.password"));
    }

    Map<String, Object> kerberos =
        Map.of(
            "kafka_security_protocol", "SASL_SSL",
            "kafka_kerberos_principal", "flafka-core/c1.example.com@EXAMPLE.COM",
            "kafka_kerberos_keytab", "/etc/flafka/core.keytab",
            "kafka_ssl_truststore_location", "/etc/flafka/ca.pem",
            "kafka_ssl_truststore_type", "PEM",
            "core_hdfs_sinks", 2);
    // the default core reads Kafka with one Kafka channel per HDFS sink; the memory and file
    // channels are fed by Kafka sources
    Properties kafkaChannels = properties(AgentTemplates.render(Tier.CORE, kerberos));
    Map<String, Object> withSources = new HashMap<>(kerberos);
    withSources.put("core_channel_type", "memory");
    withSources.put("core_kafka_sources", 2);
    Properties sources = properties(AgentTemplates.render(Tier.CORE, withSources));
    Map<String, Properties> clients =
        Map.of(
            "core.channels.ch0.kafka.consumer.", kafkaChannels,
            "core.channels.ch1.kafka.consumer.", kafkaChannels,
            "core.sources.kafka0.kafka.consumer.", sources,
            "core.sources.kafka1.kafka.consumer.", sources);
    for (Map.Entry<String, Properties> entry : clients.entrySet()) {
      String client = entry.getKey();
      Properties core = entry.getValue();
      assertEquals("GSSAPI", core.getProperty(client + "sasl.mechanism"), client);
      assertEquals("kafka", core.getProperty(client + "sasl.kerberos.service.name"), client);
      assertEquals(
          "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true"
              + " useTicketCache=false keyTab=\"/etc/flafka/core.keytab\""
              + " principal=\"flafka-core/c1.example.com@EXAMPLE.COM\";",
          core.getProperty(client + "sasl.jaas.config"),
          client);
      assertNull(
          core.getProperty(client + "ssl.truststore.password"),
          "a PEM trust store has no password");
      assertNull(core.getProperty(client + "config.providers"), "no secret, no provider");
    }
  }

  @Test
  void theTlsListenerRefersToItsPasswordInTheSecretsFileAndNoPasswordIsRendered()
      throws IOException {
    String rendered =
        AgentTemplates.render(
            Tier.EDGE,
            Map.of(
                "edge_listeners", List.of("tls"),
                "edge_tls_keystore", "/etc/flafka/syslog.p12",
                "kafka_secrets_file", "/etc/flafka/secrets.properties"));
    Properties edge = properties(rendered);
    assertEquals(
        "${flafkasecrets:/etc/flafka/secrets.properties:syslog.tls.keystore.password}",
        edge.getProperty("edge.sources.syslog_tls.tls.keystorePassword"));
    assertEquals(
        "/etc/flafka/syslog.p12", edge.getProperty("edge.sources.syslog_tls.tls.keystore"));
    // the old default password, and any key of a password other than the reference
    assertFalse(rendered.contains("changeit"), rendered);
    assertTrue(
        edge.stringPropertyNames().stream()
            .filter(key -> key.toLowerCase(java.util.Locale.ROOT).contains("password"))
            .allMatch(key -> edge.getProperty(key).startsWith("${flafkasecrets:")),
        rendered);
  }

  @Test
  void stockSourcesWithATlsListenerAreRefusedBecauseTheyWouldNeedThePasswordInClear() {
    TemplateVariableException e =
        assertThrows(
            TemplateVariableException.class,
            () ->
                AgentTemplates.render(
                    Tier.EDGE,
                    Map.of("edge_source_impl", "stock", "edge_listeners", List.of("udp", "tls"))));
    assertEquals(
        "edge_listeners includes tls but edge_source_impl is stock: Flume's syslog source takes"
            + " the key store password only in clear in the configuration, which the kit never"
            + " renders. Fix: set edge_source_impl to flafka (its TLS listener reads the password"
            + " from kafka_secrets_file), or remove tls from edge_listeners.",
        e.getMessage());
  }

  @Test
  void theRetiredKeystorePasswordVariableSaysWhereThePasswordGoesNow() {
    TemplateVariableException e =
        assertThrows(
            TemplateVariableException.class,
            () -> AgentTemplates.render(Tier.EDGE, Map.of("edge_tls_keystore_password", "x")));
    assertEquals(
        "Variable 'edge_tls_keystore_password' of the edge template is no longer read: the edge no"
            + " longer renders the TLS listener's key store password into its configuration. Fix:"
            + " remove it, and put the password in kafka_secrets_file as"
            + " syslog.tls.keystore.password (with Ansible: set"
            + " flafka_agent_edge_tls_keystore_password, from Vault).",
        e.getMessage());
  }

  @Test
  void plaintextKafkaRendersNoSecuritySettings() throws IOException {
    for (Tier tier : Tier.values()) {
      String rendered = AgentTemplates.render(tier, Map.of());
      assertFalse(rendered.contains("security.protocol"), rendered);
      assertFalse(rendered.contains("sasl."), rendered);
    }
  }
}
