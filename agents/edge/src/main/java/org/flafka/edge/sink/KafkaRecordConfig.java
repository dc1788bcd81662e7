package org.flafka.edge.sink;

import static org.flafka.config.ConfigDef.NO_DEFAULT;
import static org.flafka.config.ConfigDef.atLeast;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flume.conf.ConfigurationException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;
import org.flafka.contract.KafkaRecordEncoder;
import org.flafka.edge.channel.KafkaRecordChannel;

/**
 * Every configuration key of the two components that write the edge's Kafka records, {@link
 * KafkaRecordSink} and {@link KafkaRecordChannel}, in one place, and the producer properties they
 * derive from them. The two share every key but one: the sink's {@code batchSize} (events taken per
 * transaction), the channel's {@code transactionCapacity} (events put per transaction). {@link
 * #main} writes each one's key table into its reference ({@code docs/reference/edge-sink.md},
 * {@code docs/reference/edge-kafka-channel.md}). The key names follow Flume's own Kafka sink and
 * channel where the meaning is the same ({@code kafka.bootstrap.servers}, {@code kafka.topic},
 * {@code kafka.producer.*}), so switching a template between ours and Flume's changes the type and
 * the header keys only.
 */
public final class KafkaRecordConfig {

  /** Which component a configuration is for. */
  public enum Role {
    SINK("Kafka record sink", Kind.SINK, "docs/reference/edge-sink.md"),
    CHANNEL("Kafka record channel", Kind.CHANNEL, "docs/reference/edge-kafka-channel.md");

    /** How error messages name the component, before its name. */
    final String title;

    /** The kind of Flume component, whose own keys (type, channel) the definition accepts. */
    final Kind kind;

    final String noun;
    final String reference;

    Role(String title, Kind kind, String reference) {
      this.title = title;
      this.kind = kind;
      this.noun = kind.noun();
      this.reference = reference;
    }
  }

  /**
   * Room a Kafka record needs beyond its body: the contract's ~14 headers (names and values, a host
   * name up to 255 bytes) come to a few KiB at most, record and batch framing to under 100 bytes.
   * 16 KiB covers both. The sink's topic-limit check skips bodies this far under the limit; {@code
   * flafka lint} asks this much room of max.request.size.
   */
  public static final int RECORD_HEADROOM_BYTES = 16_384;

  public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to connect to first, host:port[,host:port]; "
          + "the producer finds the rest of the cluster from them.";

  public static final String TOPIC = "kafka.topic";
  private static final String TOPIC_DOC =
      "Topic every event is written to. Headers never reroute an event "
          + "(Flume's sink does that for a header named 'topic' unless allowTopicOverride=false).";

  public static final String BATCH_SIZE = "batchSize";
  public static final int DEFAULT_BATCH_SIZE = 1000;
  private static final String BATCH_SIZE_DOC =
      "Most events taken from the channel in one transaction. The "
          + "transaction commits once Kafka has acknowledged every event of it; the channel's transactionCapacity must "
          + "be at least this (Flume checks it at start-up).";

  public static final String BATCH_DURATION_MILLIS = "batchDurationMillis";
  public static final int DEFAULT_BATCH_DURATION_MILLIS = 1000;
  private static final String BATCH_DURATION_MILLIS_DOC =
      "Most milliseconds a batch keeps taking events before "
          + "it is flushed and committed with what it holds, so that at a quiet site the drain counters move and a "
          + "batch Kafka fails is small. Events are sent to Kafka as they are taken either way. A take waiting for an "
          + "event ends at this time in flafka's memory channel; in Flume's it may wait out the keep-alive (Flume's file "
          + "channel never waits).";

  public static final String ACK_TIMEOUT_MILLIS = "ackTimeoutMillis";

  /** What ackTimeoutMillis adds to the producer's delivery.timeout.ms unless it is set. */
  static final int ACK_TIMEOUT_MARGIN_MILLIS = 10_000;

  private static final String ACK_TIMEOUT_MILLIS_DOC =
      "Most milliseconds a batch (the sink) or a put's commit (the channel) waits for Kafka's "
          + "acknowledgements of its events once it has sent the last. One not acknowledged in time "
          + "fails (the sink rolls the batch back into its channel, the channel refuses the put to its "
          + "source, which keeps the events and tries again) and the producer is replaced (closing the old "
          + "one abandons the records it still holds): nothing is lost, but Kafka may have written some of "
          + "the events already, which the retry writes again (duplicates, removable by event id). The "
          + "default leaves the producer's own delivery.timeout.ms to end a wait first, so that this bound "
          + "only ends the wait on a producer that no longer completes its records (as a Kafka 4.4 producer "
          + "does after refused logins); below delivery.timeout.ms it also gives up events Kafka is still "
          + "retrying.";

  public static final String RECORD_HEADERS = "recordHeaders";
  private static final String RECORD_HEADERS_DOC =
      "Flume headers written as Kafka record headers of the same "
          + "name (values as UTF-8): carried (the facts the body cannot give back: timestamp, host, received, peer, "
          + "site, id, timestamp_rejected when set and timestamp_source when not the message's own time; the rest is "
          + "derived from the body, docs/guides/edge.md), all (every fact of the contract), a comma-separated list, "
          + "* (every header the event has) or an empty value (none). "
          + "Each record header costs about 0.13 CPU-s per million events in the agent, mostly in Kafka's record "
          + "encoding, and 0.04 in the broker (docs/benchmarks.md).";

  public static final String TRANSACTION_CAPACITY = "transactionCapacity";
  public static final int DEFAULT_TRANSACTION_CAPACITY = 10_000;
  private static final String TRANSACTION_CAPACITY_DOC =
      "Most events put in one transaction: a put beyond it "
          + "fails the transaction. Must be at least the batch size of every source that puts into the channel (Flume "
          + "checks it at start-up); the transaction holds its events until the commit writes them.";

  public static final String KEY_HEADER = "keyHeader";
  private static final String KEY_HEADER_DOC =
      "Header whose value becomes the record key (what Kafka's and "
          + "flafka's partitioners hash); an event without it gets no key. Empty: never a key. Flume's sink uses "
          + "'key' too.";

  public static final String PRODUCER_PREFIX = "kafka.producer.";

  static final ConfigDef SINK_DEFINITION =
      withAckTimeout(
          writerKeys(Kind.SINK)
              .define(BATCH_SIZE, Type.INT, DEFAULT_BATCH_SIZE, null, atLeast(1), BATCH_SIZE_DOC)
              .define(
                  BATCH_DURATION_MILLIS,
                  Type.INT,
                  DEFAULT_BATCH_DURATION_MILLIS,
                  null,
                  atLeast(1),
                  BATCH_DURATION_MILLIS_DOC));

  static final ConfigDef CHANNEL_DEFINITION =
      withAckTimeout(
          writerKeys(Kind.CHANNEL)
              .define(
                  TRANSACTION_CAPACITY,
                  Type.INT,
                  DEFAULT_TRANSACTION_CAPACITY,
                  null,
                  atLeast(1),
                  TRANSACTION_CAPACITY_DOC));

  /** The keys of both roles; the producer's own keys go to the producer. */
  private static ConfigDef writerKeys(Kind kind) {
    return new ConfigDef(kind)
        .delegate(PRODUCER_PREFIX)
        .define(BOOTSTRAP_SERVERS, Type.STRING, NO_DEFAULT, null, null, BOOTSTRAP_SERVERS_DOC)
        .define(TOPIC, Type.STRING, NO_DEFAULT, null, null, TOPIC_DOC)
        .define(RECORD_HEADERS, Type.STRING, "*", null, null, RECORD_HEADERS_DOC)
        .define(KEY_HEADER, Type.STRING, Headers.KEY, null, null, KEY_HEADER_DOC);
  }

  /** Both roles' ackTimeoutMillis, after each one's own keys. */
  private static ConfigDef withAckTimeout(ConfigDef keys) {
    return keys.define(
        ACK_TIMEOUT_MILLIS,
        Type.INT,
        NO_DEFAULT,
        "kafka.producer.delivery.timeout.ms + " + ACK_TIMEOUT_MARGIN_MILLIS,
        atLeast(1),
        ACK_TIMEOUT_MILLIS_DOC);
  }

  /**
   * Producer settings both roles choose unless {@code kafka.producer.*} says otherwise: no event is
   * acknowledged before every in-sync replica has it (which also leaves Kafka's idempotent producer
   * on, so a retried send is not written twice), snappy as the edge template's default, and 10 ms
   * for a batch to fill (both flush at the end of each of their own batches anyway).
   */
  static final Map<String, String> PRODUCER_DEFAULTS =
      Map.of(
          ProducerConfig.ACKS_CONFIG, "all",
          ProducerConfig.COMPRESSION_TYPE_CONFIG, "snappy",
          ProducerConfig.LINGER_MS_CONFIG, "10");

  /** Producer settings the writer owns: a user value would break how it writes records. */
  private static final Set<String> PRODUCER_OWNED =
      Set.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);

  private final Role role;
  private final ConfigDef definition;
  private final String component;
  private final String bootstrapServers;
  private final String topic;

  /** The sink's batchSize or the channel's transactionCapacity: most events in one transaction. */
  private final int transactionEvents;

  /** The sink's batchDurationMillis in nanoseconds; 0 for the channel. */
  private final long batchDurationNanos;

  /** ackTimeoutMillis in nanoseconds, its default computed. */
  private final long ackTimeoutNanos;

  /** The producer's max.block.ms: how long a send may wait for the topic's metadata. */
  private final long maxBlockMillis;

  private final List<String> recordHeaders;
  private final boolean allRecordHeaders;

  /** recordHeaders is the named set carried: leave off the values the reader derives. */
  private final boolean carried;

  private final String keyHeader;
  private final Map<String, String> producerOverrides;

  private KafkaRecordConfig(Role role, String componentName, Map<String, String> props) {
    this.role = role;
    this.definition = role == Role.SINK ? SINK_DEFINITION : CHANNEL_DEFINITION;
    this.component = role.title + " " + componentName;
    ConfigDef.Values v = definition.parse(component, props);
    bootstrapServers = (String) v.required(BOOTSTRAP_SERVERS, "broker1:9092,broker2:9092");
    topic = (String) v.required(TOPIC, "syslog");
    transactionEvents = (Integer) v.get(role == Role.SINK ? BATCH_SIZE : TRANSACTION_CAPACITY);
    batchDurationNanos =
        role == Role.SINK
            ? TimeUnit.MILLISECONDS.toNanos((Integer) v.get(BATCH_DURATION_MILLIS))
            : 0;
    // a blank value is the empty string: no header, no key
    String headers = v.getString(RECORD_HEADERS);
    allRecordHeaders = headers.equals("*");
    List<String> named = Headers.named(headers.trim());
    carried = Headers.CARRIED_NAME.equals(headers.trim());
    recordHeaders =
        allRecordHeaders ? List.of() : named != null ? named : ConfigDef.splitList(headers);
    if (recordHeaders.contains("*")) {
      throw ConfigDef.invalid(
          component,
          RECORD_HEADERS,
          headers,
          "* stands alone (every header)",
          "set " + RECORD_HEADERS + " to * or to a list of header names");
    }
    String key = v.getString(KEY_HEADER);
    keyHeader = key.isEmpty() ? null : key;

    producerOverrides = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : props.entrySet()) {
      String name = entry.getKey();
      if (name.startsWith(PRODUCER_PREFIX)) {
        String producerKey = name.substring(PRODUCER_PREFIX.length());
        if (PRODUCER_OWNED.contains(producerKey)) {
          throw ConfigDef.error(
              component,
              "key '" + name + "' is set by the " + role.noun + " itself",
              "remove it"
                  + (producerKey.equals(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
                      ? " and set " + BOOTSTRAP_SERVERS + " instead"
                      : ""));
        }
        producerOverrides.put(producerKey, entry.getValue().trim());
      }
    }
    maxBlockMillis = producerMillis(ProducerConfig.MAX_BLOCK_MS_CONFIG);
    if (v.isSet(ACK_TIMEOUT_MILLIS)) {
      ackTimeoutNanos = TimeUnit.MILLISECONDS.toNanos((Integer) v.get(ACK_TIMEOUT_MILLIS));
    } else {
      ackTimeoutNanos =
          TimeUnit.MILLISECONDS.toNanos(
              producerMillis(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)
                  + ACK_TIMEOUT_MARGIN_MILLIS);
    }
  }

  /**
   * A producer setting in milliseconds, {@code kafka.producer.<name>} or Kafka's default: one the
   * sink times its own waits by.
   */
  private long producerMillis(String name) {
    String raw = producerOverrides.get(name);
    if (raw == null) {
      return ((Number) ProducerConfig.configDef().defaultValues().get(name)).longValue();
    }
    try {
      return Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw ConfigDef.invalid(
          component,
          PRODUCER_PREFIX + name,
          raw,
          "a whole number of milliseconds",
          "set " + PRODUCER_PREFIX + name + " to a number such as 60000");
    }
  }

  /**
   * Validates a sink's or channel's Flume context; error messages name it by its role and {@code
   * name}, e.g. "Kafka record sink kafka0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public static KafkaRecordConfig parse(Role role, String name, Map<String, String> props) {
    return new KafkaRecordConfig(role, name, props);
  }

  /**
   * The producer's properties: the defaults, then {@code kafka.producer.*}, then what the writer
   * owns.
   */
  public Properties producerProperties() {
    Properties props = new Properties();
    props.putAll(PRODUCER_DEFAULTS);
    props.putAll(producerOverrides);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return props;
  }

  public String component() {
    return component;
  }

  Role role() {
    return role;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String topic() {
    return topic;
  }

  /** The sink's batchSize: events taken from the channel per transaction. */
  public int batchSize() {
    return transactionEvents;
  }

  /** The sink's batchDurationMillis, in nanoseconds. */
  long batchDurationNanos() {
    return batchDurationNanos;
  }

  /** ackTimeoutMillis, in nanoseconds: how long a batch or a commit waits for acknowledgements. */
  public long ackTimeoutNanos() {
    return ackTimeoutNanos;
  }

  /** The producer's max.block.ms. */
  public long maxBlockMillis() {
    return maxBlockMillis;
  }

  /**
   * Whether the producer logs in (SASL, or TLS whose handshake Kafka counts as a login): only then
   * do its login counters move.
   */
  public boolean logsIn() {
    String protocol = producerOverrides.getOrDefault("security.protocol", "PLAINTEXT");
    return !protocol.trim().equalsIgnoreCase("PLAINTEXT");
  }

  /** The channel's transactionCapacity. */
  public int transactionCapacity() {
    return transactionEvents;
  }

  /** The headers to write; empty with {@link #allRecordHeaders()}. */
  public List<String> recordHeaders() {
    return recordHeaders;
  }

  public boolean allRecordHeaders() {
    return allRecordHeaders;
  }

  /** A new encoder of the records these settings describe; one per thread that writes. */
  public KafkaRecordEncoder newEncoder() {
    return new KafkaRecordEncoder(
        topic,
        keyHeader,
        allRecordHeaders ? null : Set.copyOf(recordHeaders),
        carried ? KafkaRecordEncoder.CARRIED_IMPLIED : Map.of());
  }

  /** The header holding the record key, or null for none. */
  String keyHeader() {
    return keyHeader;
  }

  // ---- documentation ----

  static final String DOC_END = "<!-- END GENERATED -->";

  static String docBegin(Role role) {
    return "<!-- BEGIN GENERATED by org.flafka.edge.sink.KafkaRecordConfig "
        + role.name().toLowerCase(Locale.ROOT)
        + ": do not edit -->";
  }

  /** The generated part of the role's reference: the key table and the producer defaults. */
  static String generatedDoc(Role role) {
    StringBuilder sb = new StringBuilder();
    sb.append(docBegin(role))
        .append("\n\n### Configuration keys\n\n")
        .append((role == Role.SINK ? SINK_DEFINITION : CHANNEL_DEFINITION).keyTable(false));
    sb.append("| `")
        .append(PRODUCER_PREFIX)
        .append("*` | | | | Any Kafka producer setting, e.g. ")
        .append("`kafka.producer.batch.size`. Set by the ")
        .append(role.noun)
        .append(", not here: ")
        .append(String.join(", ", PRODUCER_OWNED.stream().sorted().toList()))
        .append(" (the serializers are the ")
        .append(role.noun)
        .append("'s own). |\n");
    sb.append(
        "\n### Producer defaults\n\nUnless `kafka.producer.*` sets them:\n\n| producer setting | default |\n"
            + "|---|---|\n");
    PRODUCER_DEFAULTS.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                sb.append("| `")
                    .append(e.getKey())
                    .append("` | `")
                    .append(e.getValue())
                    .append("` |\n"));
    sb.append("\n").append(DOC_END);
    return sb.toString();
  }

  static String withGeneratedDoc(Role role, String doc) {
    return ConfigDef.withGeneratedRegion(doc, docBegin(role), DOC_END, generatedDoc(role));
  }

  /**
   * Prints the generated documentation of a role ({@code sink} or {@code channel}), or with {@code
   * --write FILE} rewrites its region in FILE in place.
   */
  public static void main(String[] args) throws IOException {
    String usage = "KafkaRecordConfig sink|channel";
    Role role =
        args.length == 0
            ? null
            : switch (args[0]) {
              case "sink" -> Role.SINK;
              case "channel" -> Role.CHANNEL;
              default -> null;
            };
    if (role == null) {
      System.err.println("usage: " + usage + " [--write FILE]");
      throw new IllegalArgumentException("the first argument must be sink or channel");
    }
    ConfigDef.writeDocs(
        Arrays.copyOfRange(args, 1, args.length),
        usage,
        docBegin(role),
        DOC_END,
        generatedDoc(role));
  }
}
