package org.flafka.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;
import org.flafka.contract.KafkaRecordDecoder;
import org.flafka.syslog.InvalidOptionException;
import org.flafka.syslog.SyslogParserOptions;

/**
 * What the core's two Kafka readers, {@link KafkaRecordSource} and {@link KafkaRecordChannel},
 * share: the keys that say where Kafka is and how a record becomes an event, declared once, and the
 * consumer properties built from them. Each reader's config class adds its own keys around these.
 */
final class RecordReading {

  static final String BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to connect to first, host:port[,host:port]; "
          + "the consumer finds the rest of the cluster from them.";
  private static final String BOOTSTRAP_SERVERS_EXAMPLE = "broker1:9092,broker2:9092";

  static final String RECORD_HEADERS_CONFIG = "recordHeaders";
  private static final String RECORD_HEADERS_DOC =
      "Kafka record headers copied into Flume headers of the same "
          + "name, values decoded as UTF-8; * copies every one, empty none; carried, all and bucket name the "
          + "contract's sets (Headers.CARRIED, Headers.ALL, and Headers.BUCKET: timestamp, host, received, peer, "
          + "what the dt=/host= layout reads). Null values are skipped.";

  static final String DERIVE_FACTS_CONFIG = "deriveFacts";
  private static final String DERIVE_FACTS_DOC =
      "Derive the facts a record does not carry (facility, severity, app, procid, msgid, format, parse, "
          + "timestamp_source) from its body, with the parser options under parser.* (the edge's leniency switches and "
          + "zone abbreviations; the templates render both from syslog_parser_options). Costs a parse per event: only "
          + "for outputs that keep them (Avro).";

  /** Prefix of the parser's options ({@link SyslogParserOptions#keys()}) used by deriveFacts. */
  static final String PARSER_PREFIX = "parser.";

  static final String CONSUMER_PREFIX = "kafka.consumer.";

  /** The consumer group unless kafka.consumer.group.id says otherwise: Flume's Kafka readers'. */
  static final String DEFAULT_GROUP_ID = "flume";

  /** What the reader sets on the consumer itself; a user value would break how it reads. */
  private static final Set<String> CONSUMER_OWNED =
      Set.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);

  /**
   * Consumer settings the reader chooses unless {@code kafka.consumer.*} says otherwise: Flume's
   * group name, and a new group starts at the beginning of the topic (Flume's KafkaSource starts at
   * the latest offset, so a new core agent would skip everything already waiting).
   */
  static final Map<String, String> CONSUMER_DEFAULTS =
      Map.of(
          ConsumerConfig.GROUP_ID_CONFIG,
          DEFAULT_GROUP_ID,
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
          "earliest");

  /** Declares where Kafka is; the reader's config class declares its topic key after it. */
  static ConfigDef defineBootstrapServers(ConfigDef definition) {
    return definition.define(
        BOOTSTRAP_SERVERS_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT,
        ConfigDef.example(BOOTSTRAP_SERVERS_EXAMPLE),
        BOOTSTRAP_SERVERS_DOC);
  }

  /** Declares how a record becomes an event: its headers and the facts derived from its body. */
  static ConfigDef defineRecordKeys(ConfigDef definition) {
    return definition
        .define(RECORD_HEADERS_CONFIG, Type.LIST, List.of("*"), null, RECORD_HEADERS_DOC)
        .define(DERIVE_FACTS_CONFIG, Type.BOOLEAN, false, null, DERIVE_FACTS_DOC);
  }

  /** Passes {@code kafka.consumer.*} and {@code parser.*} through to the reader. */
  static ConfigDef delegateConsumerAndParser(ConfigDef definition, String... otherPrefixes) {
    String[] prefixes = new String[otherPrefixes.length + 1];
    prefixes[0] = CONSUMER_PREFIX;
    System.arraycopy(otherPrefixes, 0, prefixes, 1, otherPrefixes.length);
    return definition
        .delegate(prefixes)
        .delegate(SyslogParserOptions.keys().stream().map(key -> PARSER_PREFIX + key).toList());
  }

  private final String bootstrapServers;
  private final List<String> recordHeaders;
  private final boolean allRecordHeaders;
  private final SyslogParserOptions deriveWith;
  private final Map<String, String> consumerOverrides = new LinkedHashMap<>();

  /**
   * Reads the shared keys of a reader's settings, already parsed into {@code values}.
   *
   * @param component names the reader in errors, e.g. "Kafka record channel ch0"
   * @param reader what the reader is, in errors: "source" or "channel"
   */
  RecordReading(
      String component, String reader, ConfigDef.Values values, Map<String, String> settings) {
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      String name = entry.getKey();
      if (!name.startsWith(CONSUMER_PREFIX)) {
        continue;
      }
      String consumerKey = name.substring(CONSUMER_PREFIX.length());
      if (CONSUMER_OWNED.contains(consumerKey)) {
        throw ConfigDef.error(
            component,
            "key '" + name + "' is set by the " + reader + " itself",
            "remove it"
                + (consumerKey.equals(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)
                    ? " and set " + BOOTSTRAP_SERVERS_CONFIG + " instead"
                    : ""));
      }
      // Verbatim: security settings (sasl.jaas.config and the like) must reach the consumer as
      // written.
      consumerOverrides.put(consumerKey, entry.getValue());
    }
    bootstrapServers =
        (String) values.required(BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP_SERVERS_EXAMPLE);
    List<String> headers = values.getList(RECORD_HEADERS_CONFIG);
    allRecordHeaders = headers.equals(List.of("*"));
    recordHeaders = recordHeaders(component, headers);
    deriveWith = deriveWith(component, values, settings);
  }

  /**
   * The record header names {@code recordHeaders} asks for: empty for * (every one), a named set of
   * the contract (carried, all) or the names listed.
   */
  private static List<String> recordHeaders(String component, List<String> headers) {
    if (headers.equals(List.of("*"))) {
      return List.of();
    }
    if (headers.contains("*")) {
      throw ConfigDef.invalid(
          component,
          RECORD_HEADERS_CONFIG,
          String.join(",", headers),
          "* stands alone (every header)",
          "set " + RECORD_HEADERS_CONFIG + " to * or to a list of header names");
    }
    List<String> named = headers.size() == 1 ? Headers.named(headers.get(0)) : null;
    return named != null ? named : headers;
  }

  /** The parser options of {@code deriveFacts} and {@code parser.*}, or null when it is off. */
  private static SyslogParserOptions deriveWith(
      String component, ConfigDef.Values values, Map<String, String> settings) {
    Map<String, String> parserSettings = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      if (entry.getKey().startsWith(PARSER_PREFIX)) {
        parserSettings.put(entry.getKey().substring(PARSER_PREFIX.length()), entry.getValue());
      }
    }
    SyslogParserOptions options;
    try {
      options = SyslogParserOptions.from(parserSettings);
    } catch (InvalidOptionException e) {
      // the parser (JDK only) words its rule as "...: expected <rule>"; say it as every plugin does
      String message = e.getMessage();
      int at = message.lastIndexOf(": expected ");
      throw ConfigDef.invalid(
          component,
          PARSER_PREFIX + e.key(),
          e.value(),
          at < 0 ? message : "must be " + message.substring(at + ": expected ".length()),
          "set "
              + PARSER_PREFIX
              + e.key()
              + " as the edge's syslog interceptor has it (template variable syslog_parser_options)");
    }
    return values.getBoolean(DERIVE_FACTS_CONFIG) ? options : null;
  }

  /**
   * The consumer's properties: the reader's defaults, then {@code kafka.consumer.*}, then what the
   * reader owns: offsets are committed when the reader's transaction commits, never in the
   * background.
   */
  Properties consumerProperties() {
    Properties props = new Properties();
    props.putAll(CONSUMER_DEFAULTS);
    props.putAll(consumerOverrides);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return props;
  }

  /** The decoder that turns this reader's records into events. */
  KafkaRecordDecoder decoder() {
    return new KafkaRecordDecoder(allRecordHeaders ? null : Set.copyOf(recordHeaders), deriveWith);
  }

  /** How the start line describes what a record becomes. */
  String describe() {
    return "record headers: "
        + (allRecordHeaders ? "all" : recordHeaders)
        + ", "
        + (deriveWith != null
            ? "deriving the facts not carried with " + deriveWith
            : "deriving nothing");
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  /** The headers to copy; empty with {@link #allRecordHeaders()}. */
  List<String> recordHeaders() {
    return recordHeaders;
  }

  boolean allRecordHeaders() {
    return allRecordHeaders;
  }

  /** The parser options facts are derived with, or null when deriveFacts is off. */
  SyslogParserOptions deriveWith() {
    return deriveWith;
  }
}
