package org.flafka.edge;

import static org.flafka.edge.ConfigDef.NO_DEFAULT;
import static org.flafka.edge.ConfigDef.atLeast;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flume.conf.ConfigurationException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.flafka.edge.ConfigDef.Type;

/**
 * Every configuration key of {@link KafkaRecordSink} in one place, and the producer properties it derives from
 * them. {@link #main} writes the key table into {@code docs/edge-sink.md}. The key names follow Flume's own Kafka
 * sink where the meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topic},
 * {@code kafka.producer.*}), so switching a template between the two sinks changes the type and the header keys
 * only.
 */
public final class KafkaRecordSinkConfig {

  /**
   * Room a Kafka record needs beyond its body: the contract's ~14 headers (names and values, a host name up to 255
   * bytes) come to a few KiB at most, record and batch framing to under 100 bytes. 16 KiB covers both. The sink's
   * topic-limit check skips bodies this far under the limit; {@code flafka lint} asks this much room of
   * max.request.size.
   */
  public static final int RECORD_HEADROOM_BYTES = 16_384;

  public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC = "Kafka brokers to connect to first, host:port[,host:port]; "
      + "the producer finds the rest of the cluster from them.";

  public static final String TOPIC = "kafka.topic";
  private static final String TOPIC_DOC = "Topic every event is written to. Headers never reroute an event "
      + "(Flume's sink does that for a header named 'topic' unless allowTopicOverride=false).";

  public static final String BATCH_SIZE = "batchSize";
  public static final int DEFAULT_BATCH_SIZE = 1000;
  private static final String BATCH_SIZE_DOC = "Most events taken from the channel in one transaction. The "
      + "transaction commits once Kafka has acknowledged every event of it; the channel's transactionCapacity must "
      + "be at least this (Flume checks it at start-up).";

  public static final String RECORD_HEADERS = "recordHeaders";
  private static final String RECORD_HEADERS_DOC = "Flume headers written as Kafka record headers of the same "
      + "name (values as UTF-8), comma-separated; * writes every header the event has; an empty value none. "
      + "Each record header costs about 0.13 CPU-s per million events in the agent, mostly in Kafka's record "
      + "encoding, and 0.04 in the broker (docs/benchmarks.md).";

  public static final String KEY_HEADER = "keyHeader";
  private static final String KEY_HEADER_DOC = "Header whose value becomes the record key (what Kafka's and "
      + "flafka's partitioners hash); an event without it gets no key. Empty: never a key. Flume's sink uses "
      + "'key' too.";

  public static final String PRODUCER_PREFIX = "kafka.producer.";

  static final ConfigDef DEFINITION = new ConfigDef()
      .define(BOOTSTRAP_SERVERS, Type.STRING, NO_DEFAULT, null, null, BOOTSTRAP_SERVERS_DOC)
      .define(TOPIC, Type.STRING, NO_DEFAULT, null, null, TOPIC_DOC)
      .define(BATCH_SIZE, Type.INT, DEFAULT_BATCH_SIZE, null, atLeast(1), BATCH_SIZE_DOC)
      .define(RECORD_HEADERS, Type.STRING, "*", null, null, RECORD_HEADERS_DOC)
      .define(KEY_HEADER, Type.STRING, "key", null, null, KEY_HEADER_DOC);

  /**
   * Producer settings this sink chooses unless {@code kafka.producer.*} says otherwise: no event is acknowledged
   * before every in-sync replica has it (which also leaves Kafka's idempotent producer on, so a retried send is
   * not written twice), snappy as the edge template's default, and 10 ms for a batch to fill (the sink flushes at
   * the end of its own batch anyway).
   */
  static final Map<String, String> PRODUCER_DEFAULTS = Map.of(
      ProducerConfig.ACKS_CONFIG, "all",
      ProducerConfig.COMPRESSION_TYPE_CONFIG, "snappy",
      ProducerConfig.LINGER_MS_CONFIG, "10");

  /** Producer settings the sink owns: a user value would break how it writes records. */
  private static final Set<String> PRODUCER_OWNED = Set.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
      ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);

  /** Keys Flume itself reads from a sink's context; they are not typos. */
  private static final List<String> FLUME_KEYS = List.of("type", "channel");

  private final String component;
  private final String bootstrapServers;
  private final String topic;
  private final int batchSize;
  private final List<String> recordHeaders;
  private final boolean allRecordHeaders;
  private final String keyHeader;
  private final Map<String, String> producerOverrides;
  private final List<String> unknownKeys;

  private KafkaRecordSinkConfig(String component, Map<String, String> props) {
    this.component = component;
    Map<String, Object> v = DEFINITION.parse(component, props);
    bootstrapServers = required(v, BOOTSTRAP_SERVERS, "broker1:9092,broker2:9092");
    topic = required(v, TOPIC, "syslog");
    batchSize = (Integer) v.get(BATCH_SIZE);
    String headers = emptyMeansNone(props, v, RECORD_HEADERS);
    allRecordHeaders = headers.equals("*");
    recordHeaders = allRecordHeaders ? List.of() : ConfigDef.splitList(headers);
    if (recordHeaders.contains("*")) {
      throw new ConfigurationException(component + ": invalid value '" + headers + "' for key '"
          + RECORD_HEADERS + "': * stands alone (every header). Fix: set " + RECORD_HEADERS
          + " to * or to a list of header names.");
    }
    String key = emptyMeansNone(props, v, KEY_HEADER);
    keyHeader = key.isEmpty() ? null : key;

    producerOverrides = new LinkedHashMap<>();
    unknownKeys = new ArrayList<>();
    for (Map.Entry<String, String> entry : props.entrySet()) {
      String name = entry.getKey();
      if (name.startsWith(PRODUCER_PREFIX)) {
        String producerKey = name.substring(PRODUCER_PREFIX.length());
        if (PRODUCER_OWNED.contains(producerKey)) {
          throw new ConfigurationException(component + ": key '" + name + "' is set by the sink itself. Fix: "
              + "remove it" + (producerKey.equals(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
              ? " and set " + BOOTSTRAP_SERVERS + " instead." : "."));
        }
        producerOverrides.put(producerKey, entry.getValue().trim());
      } else if (DEFINITION.key(name) == null && FLUME_KEYS.stream().noneMatch(name::equals)) {
        unknownKeys.add(name);
      }
    }
  }

  /** The value of a key whose empty value means "none" (ConfigDef gives the default for an empty value). */
  private static String emptyMeansNone(Map<String, String> props, Map<String, Object> values, String key) {
    String raw = props.get(key);
    return raw == null ? (String) values.get(key) : raw.trim();
  }

  private String required(Map<String, Object> values, String key, String example) {
    Object value = values.get(key);
    if (value == NO_DEFAULT) {
      throw new ConfigurationException(component + ": missing required key '" + key + "'. Fix: add " + key
          + " = " + example + " to the sink.");
    }
    return (String) value;
  }

  /**
   * Validates a sink's Flume context. {@code component} names the sink in error messages, e.g.
   * "Kafka record sink kafka0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public static KafkaRecordSinkConfig parse(String component, Map<String, String> props) {
    return new KafkaRecordSinkConfig(component, props);
  }

  /** The producer's properties: the sink's defaults, then {@code kafka.producer.*}, then what the sink owns. */
  Properties producerProperties() {
    Properties props = new Properties();
    props.putAll(PRODUCER_DEFAULTS);
    props.putAll(producerOverrides);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return props;
  }

  /** Keys given that neither this definition, the producer prefix nor Flume knows, with a hint for a case slip. */
  List<String> unknownKeyWarnings() {
    return DEFINITION.unknownKeyWarnings(component, unknownKeys);
  }

  String component() {
    return component;
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  String topic() {
    return topic;
  }

  int batchSize() {
    return batchSize;
  }

  /** The headers to write; empty with {@link #allRecordHeaders()}. */
  List<String> recordHeaders() {
    return recordHeaders;
  }

  boolean allRecordHeaders() {
    return allRecordHeaders;
  }

  /** The header holding the record key, or null for none. */
  String keyHeader() {
    return keyHeader;
  }

  // ---- documentation ----

  static final String DOC_BEGIN = "<!-- BEGIN GENERATED by org.flafka.edge.KafkaRecordSinkConfig: do not edit -->";
  static final String DOC_END = "<!-- END GENERATED -->";

  /** The generated part of docs/edge-sink.md: the key table and the producer defaults. */
  static String generatedDoc() {
    StringBuilder sb = new StringBuilder();
    sb.append(DOC_BEGIN).append("\n\n### Configuration keys\n\n").append(DEFINITION.keyTable(false));
    sb.append("| `").append(PRODUCER_PREFIX).append("*` | | | | Any Kafka producer setting, e.g. ")
        .append("`kafka.producer.batch.size`. Set by the sink, not here: ")
        .append(String.join(", ", PRODUCER_OWNED.stream().sorted().toList()))
        .append(" (the serializers are the sink's own). |\n");
    sb.append("\n### Producer defaults\n\nUnless `kafka.producer.*` sets them:\n\n| producer setting | default |\n"
        + "|---|---|\n");
    PRODUCER_DEFAULTS.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(e -> sb.append("| `").append(e.getKey()).append("` | `").append(e.getValue()).append("` |\n"));
    sb.append("\n").append(DOC_END);
    return sb.toString();
  }

  static String withGeneratedDoc(String doc) {
    return ConfigDef.withGeneratedRegion(doc, DOC_BEGIN, DOC_END, generatedDoc());
  }

  /** Prints the generated documentation, or with {@code --write FILE} rewrites its region in FILE in place. */
  public static void main(String[] args) throws IOException {
    ConfigDef.writeDocs(args, "KafkaRecordSinkConfig", DOC_BEGIN, DOC_END, generatedDoc());
  }
}
