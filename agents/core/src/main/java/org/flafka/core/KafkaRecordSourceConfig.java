package org.flafka.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flume.conf.ConfigurationException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;
import org.flafka.syslog.InvalidOptionException;
import org.flafka.syslog.SyslogParserOptions;

/**
 * The settings of {@link KafkaRecordSource}: every key, its default, rule and meaning, and the
 * consumer properties derived from them. The key names are those of Flume's {@code KafkaSource}
 * where the meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topics}, {@code
 * kafka.consumer.*}, {@code batchSize}, {@code batchDurationMillis}), so the core template switches
 * between the two sources by type and header keys.
 */
public final class KafkaRecordSourceConfig {

  public static final String BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to connect to first, host:port[,host:port]; "
          + "the consumer finds the rest of the cluster from them.";

  private static final String BOOTSTRAP_SERVERS_EXAMPLE = "broker1:9092,broker2:9092";

  public static final String TOPICS_CONFIG = "kafka.topics";
  private static final String TOPICS_DOC =
      "Topics to read. Every source of the same kafka.consumer.group.id "
          + "shares their partitions.";

  private static final String TOPICS_EXAMPLE = "syslog";

  public static final String BATCH_SIZE_CONFIG = "batchSize";

  /**
   * Flume's KafkaSource's default too (KafkaSourceConstants.DEFAULT_BATCH_SIZE), so either source
   * batches alike.
   */
  public static final int DEFAULT_BATCH_SIZE = 1000;

  private static final String BATCH_SIZE_DOC =
      "Most events put into the channels in one transaction; a batch "
          + "spans as many polls as it needs (kafka.consumer.max.poll.records, Kafka's default 500, bounds one). "
          + "Must not exceed the channels' transactionCapacity.";

  public static final String BATCH_DURATION_CONFIG = "batchDurationMillis";
  private static final String BATCH_DURATION_DOC =
      "Longest time a batch waits to fill before it goes to the " + "channels, in milliseconds.";

  public static final String RECORD_HEADERS_CONFIG = "recordHeaders";
  static final String RECORD_HEADERS_DOC =
      "Kafka record headers copied into Flume headers of the same "
          + "name, values decoded as UTF-8; * copies every one, empty none, carried or all the contract's named "
          + "sets (Headers.CARRIED, Headers.ALL). Null values are skipped.";

  public static final String DERIVE_FACTS_CONFIG = "deriveFacts";
  static final String DERIVE_FACTS_DOC =
      "Derive the facts a record does not carry (facility, severity, app, procid, msgid, format, parse, "
          + "timestamp_source) from its body, with the parser options under parser.* (the edge's leniency switches and "
          + "zone abbreviations; the templates render both from syslog_parser_options). Costs a parse per event: only "
          + "for outputs that keep them (Avro).";

  /** Prefix of the parser's options ({@link SyslogParserOptions#keys()}) used by deriveFacts. */
  public static final String PARSER_PREFIX = "parser.";

  public static final String CONSUMER_PREFIX = "kafka.consumer.";

  /** The consumer group unless kafka.consumer.group.id says otherwise: Flume's KafkaSource's. */
  public static final String DEFAULT_GROUP_ID = "flume";

  /**
   * Everything the consumer is told comes from here; a user value would break how the source reads.
   */
  private static final Set<String> CONSUMER_OWNED =
      Set.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);

  /**
   * Consumer settings this source chooses unless {@code kafka.consumer.*} says otherwise: Flume's
   * group name and reading a new group from the start of the topic (Flume's KafkaSource starts at
   * the latest offset, so a new core agent would skip everything already waiting).
   */
  static final Map<String, String> CONSUMER_DEFAULTS =
      Map.of(
          ConsumerConfig.GROUP_ID_CONFIG,
          KafkaRecordSourceConfig.DEFAULT_GROUP_ID,
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
          "earliest");

  /** How errors name the source when its name is not known. */
  static final String COMPONENT = "Kafka record source";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.SOURCE)
          .define(
              BOOTSTRAP_SERVERS_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(BOOTSTRAP_SERVERS_EXAMPLE),
              BOOTSTRAP_SERVERS_DOC)
          .define(
              TOPICS_CONFIG,
              Type.LIST,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(TOPICS_EXAMPLE),
              TOPICS_DOC)
          .define(
              BATCH_SIZE_CONFIG,
              Type.INT,
              DEFAULT_BATCH_SIZE,
              ConfigDef.between(1, 1_000_000),
              BATCH_SIZE_DOC)
          .define(
              BATCH_DURATION_CONFIG,
              Type.INT,
              1000,
              ConfigDef.between(1, 3_600_000),
              BATCH_DURATION_DOC)
          .define(RECORD_HEADERS_CONFIG, Type.LIST, List.of("*"), null, RECORD_HEADERS_DOC)
          .define(DERIVE_FACTS_CONFIG, Type.BOOLEAN, false, null, DERIVE_FACTS_DOC)
          .delegate(CONSUMER_PREFIX)
          .delegate(SyslogParserOptions.keys().stream().map(key -> PARSER_PREFIX + key).toList());

  private final String bootstrapServers;
  private final List<String> topics;
  private final int batchSize;
  private final int batchDurationMillis;
  private final List<String> recordHeaders;
  private final boolean allRecordHeaders;
  private final SyslogParserOptions deriveWith;
  private final Map<String, String> consumerOverrides = new LinkedHashMap<>();

  /**
   * Parses a source's Flume context.
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public KafkaRecordSourceConfig(Map<String, String> settings) {
    this(COMPONENT, settings);
  }

  /**
   * Parses a source's Flume context; {@code component} names it in errors, e.g. "Kafka record
   * source kafka0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public KafkaRecordSourceConfig(String component, Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(component, settings);
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      String name = entry.getKey();
      if (name.startsWith(CONSUMER_PREFIX)) {
        String consumerKey = name.substring(CONSUMER_PREFIX.length());
        if (CONSUMER_OWNED.contains(consumerKey)) {
          throw ConfigDef.error(
              component,
              "key '" + name + "' is set by the source itself",
              "remove it"
                  + (consumerKey.equals(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)
                      ? " and set " + BOOTSTRAP_SERVERS_CONFIG + " instead"
                      : ""));
        }
        consumerOverrides.put(consumerKey, entry.getValue().trim());
      }
    }
    bootstrapServers =
        (String) values.required(BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP_SERVERS_EXAMPLE);
    @SuppressWarnings("unchecked")
    List<String> topicList = (List<String>) values.required(TOPICS_CONFIG, TOPICS_EXAMPLE);
    topics = topicList;
    batchSize = values.getInt(BATCH_SIZE_CONFIG);
    batchDurationMillis = values.getInt(BATCH_DURATION_CONFIG);
    List<String> headers = values.getList(RECORD_HEADERS_CONFIG);
    allRecordHeaders = headers.equals(List.of("*"));
    recordHeaders = recordHeaders(component, headers);
    deriveWith = deriveWith(component, values, settings);
  }

  /**
   * The record header names {@code recordHeaders} asks for: empty for * (every one), a named set of
   * the contract (carried, all) or the names listed. Shared with {@link KafkaRecordChannelConfig},
   * which takes the same key.
   */
  static List<String> recordHeaders(String component, List<String> headers) {
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

  /**
   * The parser options of {@code deriveFacts} and {@code parser.*}, or null when deriveFacts is
   * off. Shared with {@link KafkaRecordChannelConfig}, which takes the same keys.
   */
  static SyslogParserOptions deriveWith(
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
   * The parser options to derive the facts a record does not carry with, or null when deriveFacts
   * is off.
   */
  public SyslogParserOptions deriveWith() {
    return deriveWith;
  }

  /**
   * The consumer's properties: the source's defaults, then {@code kafka.consumer.*}, then what it
   * owns.
   */
  Properties consumerProperties() {
    Properties props = new Properties();
    props.putAll(CONSUMER_DEFAULTS);
    props.putAll(consumerOverrides);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    // Offsets are committed after the channels took the batch, never in the background.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return props;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public List<String> topics() {
    return topics;
  }

  public int batchSize() {
    return batchSize;
  }

  public int batchDurationMillis() {
    return batchDurationMillis;
  }

  /** The headers to copy; empty with {@link #allRecordHeaders()}. */
  public List<String> recordHeaders() {
    return recordHeaders;
  }

  public boolean allRecordHeaders() {
    return allRecordHeaders;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
