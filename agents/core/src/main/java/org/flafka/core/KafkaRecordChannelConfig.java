package org.flafka.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flume.conf.ConfigurationException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;
import org.flafka.syslog.SyslogParserOptions;

/**
 * The settings of {@link KafkaRecordChannel}: every key, its default, rule and meaning, and the
 * consumer properties derived from them. Key names follow Flume's {@code KafkaChannel} where the
 * meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topic}, {@code
 * kafka.consumer.*}, {@code pollTimeout}) and {@link KafkaRecordSourceConfig} for the record
 * headers.
 */
public final class KafkaRecordChannelConfig {

  public static final String BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to connect to first, host:port[,host:port]; "
          + "the consumer finds the rest of the cluster from them.";
  private static final String BOOTSTRAP_SERVERS_EXAMPLE = "broker1:9092,broker2:9092";

  public static final String TOPIC_CONFIG = "kafka.topic";
  private static final String TOPIC_DOC =
      "Topic to read. Every channel of the same kafka.consumer.group.id shares its partitions, so "
          + "each partition (and, with the edge partitioning by host, each dt/host bucket) has one "
          + "channel and one HDFS sink writing it.";
  private static final String TOPIC_EXAMPLE = "syslog";

  public static final String POLL_TIMEOUT_CONFIG = "pollTimeout";
  private static final String POLL_TIMEOUT_DOC =
      "Longest a take waits for Kafka when nothing fetched is left, in milliseconds; a take that "
          + "finds nothing ends the sink's batch.";

  public static final String RECORD_HEADERS_CONFIG = KafkaRecordSourceConfig.RECORD_HEADERS_CONFIG;
  private static final String RECORD_HEADERS_DOC = KafkaRecordSourceConfig.RECORD_HEADERS_DOC;

  public static final String DERIVE_FACTS_CONFIG = KafkaRecordSourceConfig.DERIVE_FACTS_CONFIG;
  private static final String DERIVE_FACTS_DOC = KafkaRecordSourceConfig.DERIVE_FACTS_DOC;

  /** Prefix of the parser's options used by deriveFacts, as the Kafka record source's. */
  public static final String PARSER_PREFIX = KafkaRecordSourceConfig.PARSER_PREFIX;

  public static final String STATIC_MEMBERSHIP_CONFIG = "staticMembership";
  private static final String STATIC_MEMBERSHIP_DOC =
      "true: join the group as a static member, group.instance.id <group>-<host>-<channel> unless "
          + "kafka.consumer.group.instance.id names one, so a restarted agent takes its partitions "
          + "back at once instead of after the session timeout (a member that never comes back holds "
          + "its partitions until session.timeout.ms). false: dynamic membership.";

  public static final String BUCKET_PREFIX = "bucket.";

  public static final String CONSUMER_PREFIX = "kafka.consumer.";

  /** The consumer group unless kafka.consumer.group.id says otherwise: Flume's KafkaChannel's. */
  public static final String DEFAULT_GROUP_ID = "flume";

  /** Kafka's own default max.poll.records, named for the channel's capacity counter. */
  static final int KAFKA_DEFAULT_MAX_POLL_RECORDS = 500;

  /** What the channel sets on the consumer itself; a user value would break how it reads. */
  private static final Set<String> CONSUMER_OWNED =
      Set.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);

  /**
   * Consumer settings the channel chooses unless {@code kafka.consumer.*} says otherwise: Flume's
   * group name, and a new group starts at the beginning of the topic (nothing already waiting is
   * skipped).
   */
  static final Map<String, String> CONSUMER_DEFAULTS =
      Map.of(
          ConsumerConfig.GROUP_ID_CONFIG,
          DEFAULT_GROUP_ID,
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
          "earliest");

  /** How errors name the channel when its name is not known. */
  static final String COMPONENT = "Kafka record channel";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.CHANNEL)
          .define(
              BOOTSTRAP_SERVERS_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(BOOTSTRAP_SERVERS_EXAMPLE),
              BOOTSTRAP_SERVERS_DOC)
          .define(
              TOPIC_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(TOPIC_EXAMPLE),
              TOPIC_DOC)
          .define(
              POLL_TIMEOUT_CONFIG, Type.INT, 500, ConfigDef.between(1, 60_000), POLL_TIMEOUT_DOC)
          .define(RECORD_HEADERS_CONFIG, Type.LIST, List.of("*"), null, RECORD_HEADERS_DOC)
          .define(DERIVE_FACTS_CONFIG, Type.BOOLEAN, false, null, DERIVE_FACTS_DOC)
          .define(STATIC_MEMBERSHIP_CONFIG, Type.BOOLEAN, true, null, STATIC_MEMBERSHIP_DOC)
          .delegate(CONSUMER_PREFIX, BUCKET_PREFIX)
          .delegate(SyslogParserOptions.keys().stream().map(key -> PARSER_PREFIX + key).toList());

  private final String component;
  private final String bootstrapServers;
  private final String topic;
  private final int pollTimeoutMillis;
  private final List<String> recordHeaders;
  private final boolean allRecordHeaders;
  private final boolean staticMembership;
  private final SyslogParserOptions deriveWith;
  private final Map<String, String> consumerOverrides = new LinkedHashMap<>();
  private final Map<String, String> bucketSettings = new LinkedHashMap<>();

  /**
   * Parses a channel's Flume context; {@code component} names it in errors, e.g. "Kafka record
   * channel ch0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public KafkaRecordChannelConfig(String component, Map<String, String> settings) {
    this.component = component;
    ConfigDef.Values values = DEFINITION.parse(component, settings);
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      String name = entry.getKey();
      if (name.startsWith(CONSUMER_PREFIX)) {
        String consumerKey = name.substring(CONSUMER_PREFIX.length());
        if (CONSUMER_OWNED.contains(consumerKey)) {
          throw ConfigDef.error(
              component,
              "key '" + name + "' is set by the channel itself",
              "remove it"
                  + (consumerKey.equals(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)
                      ? " and set " + BOOTSTRAP_SERVERS_CONFIG + " instead"
                      : ""));
        }
        // Verbatim: security settings (sasl.jaas.config and the like) must reach the consumer as
        // written.
        consumerOverrides.put(consumerKey, entry.getValue());
      } else if (name.startsWith(BUCKET_PREFIX)) {
        bucketSettings.put(name.substring(BUCKET_PREFIX.length()), entry.getValue());
      }
    }
    bootstrapServers =
        (String) values.required(BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP_SERVERS_EXAMPLE);
    topic = ((String) values.required(TOPIC_CONFIG, TOPIC_EXAMPLE)).trim();
    pollTimeoutMillis = values.getInt(POLL_TIMEOUT_CONFIG);
    staticMembership = values.getBoolean(STATIC_MEMBERSHIP_CONFIG);
    List<String> headers = values.getList(RECORD_HEADERS_CONFIG);
    allRecordHeaders = headers.equals(List.of("*"));
    recordHeaders = KafkaRecordSourceConfig.recordHeaders(component, headers);
    deriveWith = KafkaRecordSourceConfig.deriveWith(component, values, settings);
    // The guard's own class checks its keys, so a bad bucket.* setting fails here, named.
    new BucketHeadersInterceptorConfig(bucketSettings);
  }

  /**
   * The consumer's properties: the channel's defaults, then {@code kafka.consumer.*} verbatim, the
   * static membership id when none is given, then what the channel owns.
   *
   * @param channelName the channel's name in the agent, part of the derived group.instance.id
   */
  Properties consumerProperties(String channelName) {
    Properties props = new Properties();
    props.putAll(CONSUMER_DEFAULTS);
    props.putAll(consumerOverrides);
    if (staticMembership && !props.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)) {
      props.put(
          ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
          groupInstanceId(
              props.getProperty(ConsumerConfig.GROUP_ID_CONFIG), localHostName(), channelName));
    }
    if (!staticMembership) {
      props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    // Offsets are committed when the sink commits its take, never in the background.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return props;
  }

  /**
   * The static membership id of a channel: unique per group, host and channel name, and the same
   * after a restart, which is what lets the broker hand the restarted consumer its partitions
   * without a rebalance.
   */
  static String groupInstanceId(String group, String host, String channelName) {
    String id = group + "-" + host + "-" + channelName;
    StringBuilder safe = new StringBuilder(id.length());
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      safe.append(
          (c >= 'a' && c <= 'z')
                  || (c >= 'A' && c <= 'Z')
                  || (c >= '0' && c <= '9')
                  || c == '.'
                  || c == '_'
                  || c == '-'
              ? c
              : '_');
    }
    return safe.toString();
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      String env = System.getenv("HOSTNAME");
      return env == null || env.isBlank() ? "localhost" : env.toLowerCase(Locale.ROOT);
    }
  }

  /** The settings of the bucket guard ({@code bucket.*} without the prefix). */
  Map<String, String> bucketSettings() {
    return bucketSettings;
  }

  String component() {
    return component;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String topic() {
    return topic;
  }

  public int pollTimeoutMillis() {
    return pollTimeoutMillis;
  }

  public boolean staticMembership() {
    return staticMembership;
  }

  /**
   * The parser options to derive the facts a record does not carry with, or null when deriveFacts
   * is off.
   */
  public SyslogParserOptions deriveWith() {
    return deriveWith;
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
