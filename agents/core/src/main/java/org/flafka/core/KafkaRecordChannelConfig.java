package org.flafka.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.flume.conf.ConfigurationException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;

/**
 * The settings of {@link KafkaRecordChannel}: every key, its default, rule and meaning, and the
 * consumer properties derived from them. Key names follow Flume's {@code KafkaChannel} where the
 * meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topic}, {@code
 * kafka.consumer.*}, {@code pollTimeout}) and {@link KafkaRecordSourceConfig} for the record
 * headers.
 */
public final class KafkaRecordChannelConfig {

  public static final String BOOTSTRAP_SERVERS_CONFIG = RecordReading.BOOTSTRAP_SERVERS_CONFIG;

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

  public static final String RECORD_HEADERS_CONFIG = RecordReading.RECORD_HEADERS_CONFIG;

  public static final String DERIVE_FACTS_CONFIG = RecordReading.DERIVE_FACTS_CONFIG;

  public static final String PARSER_PREFIX = RecordReading.PARSER_PREFIX;

  public static final String STATIC_MEMBERSHIP_CONFIG = "staticMembership";
  private static final String STATIC_MEMBERSHIP_DOC =
      "true: join the group as a static member, group.instance.id <group>-<host>-<channel> unless "
          + "kafka.consumer.group.instance.id names one, so a restarted agent takes its partitions "
          + "back at once instead of after the session timeout (a member that never comes back holds "
          + "its partitions until session.timeout.ms). false: dynamic membership.";

  public static final String BUCKET_PREFIX = "bucket.";

  public static final String CONSUMER_PREFIX = RecordReading.CONSUMER_PREFIX;

  public static final String DEFAULT_GROUP_ID = RecordReading.DEFAULT_GROUP_ID;

  /** Kafka's own default max.poll.records, named for the channel's capacity counter. */
  static final int KAFKA_DEFAULT_MAX_POLL_RECORDS = 500;

  /** How errors name the channel when its name is not known. */
  static final String COMPONENT = "Kafka record channel";

  public static final ConfigDef DEFINITION =
      RecordReading.delegateConsumerAndParser(
          RecordReading.defineRecordKeys(
                  RecordReading.defineBootstrapServers(new ConfigDef(Kind.CHANNEL))
                      .define(
                          TOPIC_CONFIG,
                          Type.STRING,
                          ConfigDef.NO_DEFAULT,
                          ConfigDef.example(TOPIC_EXAMPLE),
                          TOPIC_DOC)
                      .define(
                          POLL_TIMEOUT_CONFIG,
                          Type.INT,
                          500,
                          ConfigDef.between(1, 60_000),
                          POLL_TIMEOUT_DOC))
              .define(STATIC_MEMBERSHIP_CONFIG, Type.BOOLEAN, true, null, STATIC_MEMBERSHIP_DOC),
          BUCKET_PREFIX);

  private final String component;
  private final RecordReading reading;
  private final String topic;
  private final int pollTimeoutMillis;
  private final boolean staticMembership;
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
    reading = new RecordReading(component, "channel", values, settings);
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      if (entry.getKey().startsWith(BUCKET_PREFIX)) {
        bucketSettings.put(entry.getKey().substring(BUCKET_PREFIX.length()), entry.getValue());
      }
    }
    topic = ((String) values.required(TOPIC_CONFIG, TOPIC_EXAMPLE)).trim();
    pollTimeoutMillis = values.getInt(POLL_TIMEOUT_CONFIG);
    staticMembership = values.getBoolean(STATIC_MEMBERSHIP_CONFIG);
    // The guard's own class checks its keys, so a bad bucket.* setting fails here, named.
    new BucketHeadersInterceptorConfig(bucketSettings);
  }

  /**
   * The consumer's properties: the shared reader's ({@link RecordReading#consumerProperties()})
   * with the static membership id when none is given.
   *
   * @param channelName the channel's name in the agent, part of the derived group.instance.id
   */
  Properties consumerProperties(String channelName) {
    Properties props = reading.consumerProperties();
    if (staticMembership && !props.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)) {
      props.put(
          ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
          groupInstanceId(
              props.getProperty(ConsumerConfig.GROUP_ID_CONFIG), localHostName(), channelName));
    }
    if (!staticMembership) {
      props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }
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

  /** Where Kafka is and how a record becomes an event. */
  RecordReading reading() {
    return reading;
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

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
