package org.flafka.core;

import java.util.List;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/**
 * The settings of {@link KafkaRecordSource}: every key, its default, rule and meaning, and the
 * consumer properties derived from them. The key names are those of Flume's {@code KafkaSource}
 * where the meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topics}, {@code
 * kafka.consumer.*}, {@code batchSize}, {@code batchDurationMillis}), so the core template switches
 * between the two sources by type and header keys.
 */
public final class KafkaRecordSourceConfig {

  public static final String BOOTSTRAP_SERVERS_CONFIG = RecordReading.BOOTSTRAP_SERVERS_CONFIG;

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

  public static final String RECORD_HEADERS_CONFIG = RecordReading.RECORD_HEADERS_CONFIG;

  public static final String DERIVE_FACTS_CONFIG = RecordReading.DERIVE_FACTS_CONFIG;

  public static final String PARSER_PREFIX = RecordReading.PARSER_PREFIX;

  public static final String CONSUMER_PREFIX = RecordReading.CONSUMER_PREFIX;

  public static final String DEFAULT_GROUP_ID = RecordReading.DEFAULT_GROUP_ID;

  /** How errors name the source when its name is not known. */
  static final String COMPONENT = "Kafka record source";

  public static final ConfigDef DEFINITION =
      RecordReading.delegateConsumerAndParser(
          RecordReading.defineRecordKeys(
              RecordReading.defineBootstrapServers(new ConfigDef(Kind.SOURCE))
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
                      BATCH_DURATION_DOC)));

  private final RecordReading reading;
  private final List<String> topics;
  private final int batchSize;
  private final int batchDurationMillis;

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
    reading = new RecordReading(component, "source", values, settings);
    @SuppressWarnings("unchecked")
    List<String> topicList = (List<String>) values.required(TOPICS_CONFIG, TOPICS_EXAMPLE);
    topics = topicList;
    batchSize = values.getInt(BATCH_SIZE_CONFIG);
    batchDurationMillis = values.getInt(BATCH_DURATION_CONFIG);
  }

  /** Where Kafka is and how a record becomes an event. */
  RecordReading reading() {
    return reading;
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

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
