package org.flafka.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.flume.channel.file.FileChannelConfiguration;
import org.apache.flume.sink.kafka.KafkaSinkConstants;
import org.apache.flume.source.SyslogSourceConfigurationConstants;
import org.apache.flume.source.kafka.KafkaSourceConstants;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.flafka.core.HdfsBucketSinkConfig;
import org.flafka.core.KafkaRecordChannelConfig;
import org.flafka.core.KafkaRecordSourceConfig;
import org.flafka.edge.channel.BatchMemoryChannelConfig;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.source.SyslogSourceConfig;
import org.flafka.lint.FlumeAgentConfig.Component;
import org.flafka.lint.FlumeAgentConfig.Kind;

/**
 * The scaling and safety rules {@code flafka lint} checks, one method each. An absent key still has
 * a value, so each rule knows the defaults of Flume 1.11.0, Kafka and our plugins.
 */
public final class Rules {

  /** A rule: its id as printed, what it checks, and the check. */
  public record Rule(String id, String summary, Check check) {}

  /** Checks one agent; {@code partitions} is the topic's partition count when the user gave it. */
  @FunctionalInterface
  public interface Check {
    List<Finding> apply(FlumeAgentConfig agent, OptionalInt partitions);
  }

  static final String KAFKA_SINK = "org.apache.flume.sink.kafka.KafkaSink";
  static final String KAFKA_RECORD_SINK = "org.flafka.edge.sink.KafkaRecordSink";
  static final String HDFS_BUCKET_SINK = "org.flafka.core.HdfsBucketSink";
  static final String KAFKA_SOURCE = "org.apache.flume.source.kafka.KafkaSource";
  static final String KAFKA_RECORD_SOURCE = "org.flafka.core.KafkaRecordSource";
  static final String KAFKA_CHANNEL = "org.apache.flume.channel.kafka.KafkaChannel";
  static final String KAFKA_RECORD_CHANNEL = "org.flafka.edge.channel.KafkaRecordChannel";
  static final String CORE_KAFKA_CHANNEL = "org.flafka.core.KafkaRecordChannel";
  static final String FLAFKA_SYSLOG_SOURCE = "org.flafka.edge.source.SyslogSource";
  static final String BATCH_MEMORY_CHANNEL = "org.flafka.edge.channel.BatchMemoryChannel";

  /*
   * Defaults are read from the classes that own them: our plugins' configuration classes (whose cross-field rules
   * the plugin-keys rule runs by parsing each plugin's properties with its class), and Flume's own classes where
   * they are compile-time constants, which javac copies in (the CLI's classpath has Flume's configuration classes
   * only). The few written here are private in Flume or not constants; Flume is pinned at 1.11.0.
   */

  /** Flume's MemoryChannel.defaultTransCapacity and defaultCapacity (private there). */
  static final long MEMORY_CHANNEL_DEFAULT_CAPACITY = 100;

  /** HDFSEventSink.defaultBatchSize, private in Flume like the memory channel's. */
  static final long HDFS_SINK_DEFAULT_BATCH_SIZE = 100;

  /**
   * SyslogUtils.DEFAULT_SIZE, the stock TCP syslog sources' eventSize: an Integer, which would load
   * Flume.
   */
  static final long STOCK_SYSLOG_DEFAULT_EVENT_SIZE = 2500;

  /** ProducerConfig max.request.size default. */
  static final long KAFKA_DEFAULT_MAX_REQUEST_SIZE =
      ((Number)
              ProducerConfig.configDef()
                  .defaultValues()
                  .get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG))
          .longValue();

  private Rules() {}

  /** Every rule, in the order findings are printed. */
  public static List<Rule> all() {
    return List.of(
        new Rule(
            "undefined-component",
            "every listed source, channel and sink has a type; every defined one is listed",
            Rules::undefinedComponents),
        new Rule(
            "missing-channel",
            "every source and sink names channels the agent has",
            Rules::missingChannels),
        new Rule(
            "one-channel-per-sink",
            "each channel is drained by exactly one sink",
            Rules::oneChannelPerSink),
        new Rule(
            "transaction-capacity",
            "each channel's transactionCapacity covers every batch put or taken, within its capacity",
            Rules::transactionCapacity),
        new Rule(
            "kafka-sources-vs-partitions",
            "Kafka sources of one group do not outnumber partitions",
            Rules::kafkaSourcesVersusPartitions),
        new Rule(
            "max-request-size",
            "producers accept the largest message the sources let in",
            Rules::maxRequestSize),
        new Rule(
            "byte-capacity",
            "a memory channel's byteCapacity holds the largest batch a source can put",
            Rules::byteCapacity),
        new Rule(
            "ignored-key",
            "no key Flume 1.11 silently ignores (kafka.flumeBatchSize)",
            Rules::ignoredKeys),
        new Rule(
            "zookeeper",
            "no zookeeperConnect (Kafka 4 clients have no ZooKeeper)",
            Rules::zookeeper),
        new Rule(
            "load-balancing-selector",
            "no load_balancing selector (Flume 1.11 drops the source)",
            Rules::loadBalancingSelector),
        new Rule(
            "selector-mapping",
            "multiplexing selectors map only to the source's own channels",
            Rules::selectorMapping),
        new Rule(
            "kafka-headers",
            "Flume headers cross Kafka and a `topic` header cannot reroute events",
            Rules::kafkaHeaders),
        new Rule(
            "udp-kafka-channel",
            "no UDP syslog source puts into a Kafka channel",
            Rules::udpKafkaChannel),
        new Rule(
            "kafka-security",
            "no Kafka client left in plaintext beside secure ones or with ignored security settings;"
                + " no SASL_PLAINTEXT from an edge across sites",
            Rules::kafkaSecurity),
        new Rule(
            "hdfs-security",
            "no HDFS sink on simple authentication when the agent's other settings say the cluster"
                + " is secure",
            Rules::hdfsSecurity),
        new Rule(
            "plugin-keys",
            "the kit's own plugins accept their keys and values, as they would at start",
            PluginKeys::check));
  }

  static List<Finding> undefinedComponents(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      String list = agent.agent() + "." + kind.plural();
      for (String name : agent.listed(kind)) {
        Component component = agent.defined(kind).get(name);
        if (component == null || component.type().isEmpty()) {
          findings.add(
              Finding.error(
                  "undefined-component",
                  list + "." + name,
                  kind.singular()
                      + " "
                      + name
                      + " is listed in "
                      + list
                      + " but has no type, so Flume"
                      + " drops it",
                  "set " + list + "." + name + ".type, or remove " + name + " from " + list));
        }
      }
      for (Component component : agent.defined(kind).values()) {
        if (!agent.listed(kind).contains(component.name())) {
          findings.add(
              Finding.warning(
                  "undefined-component",
                  component.id(),
                  component.describe()
                      + " has properties but is not listed in "
                      + list
                      + ", so Flume ignores it",
                  "add " + component.name() + " to " + list + ", or delete its properties"));
        }
      }
    }
    return findings;
  }

  static List<Finding> missingChannels(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    List<String> channels = agent.listed(Kind.CHANNEL);
    String channelList = agent.agent() + ".channels";
    for (Component source : agent.active(Kind.SOURCE)) {
      List<String> named = FlumeAgentConfig.channelsOf(source);
      if (named.isEmpty()) {
        findings.add(
            Finding.error(
                "missing-channel",
                source.key("channels"),
                "source " + source.name() + " has no channels, so Flume drops it",
                "set "
                    + source.key("channels")
                    + " to one or more of: "
                    + String.join(" ", channels)));
      }
      for (String channel : named) {
        if (!channels.contains(channel)) {
          findings.add(
              Finding.error(
                  "missing-channel",
                  source.key("channels"),
                  "source "
                      + source.name()
                      + " puts into channel "
                      + channel
                      + ", which is not in "
                      + channelList,
                  "add " + channel + " to " + channelList + " and define it, or fix the name"));
        }
      }
    }
    for (Component sink : agent.active(Kind.SINK)) {
      Optional<String> channel = sink.get("channel").filter(name -> !name.isEmpty());
      if (channel.isEmpty()) {
        findings.add(
            Finding.error(
                "missing-channel",
                sink.key("channel"),
                "sink " + sink.name() + " has no channel, so Flume drops it",
                "set " + sink.key("channel") + " to one of: " + String.join(" ", channels)));
      } else if (!channels.contains(channel.get())) {
        findings.add(
            Finding.error(
                "missing-channel",
                sink.key("channel"),
                "sink "
                    + sink.name()
                    + " takes from channel "
                    + channel.get()
                    + ", which is not in "
                    + channelList,
                "add " + channel.get() + " to " + channelList + " and define it, or fix the name"));
      }
    }
    return findings;
  }

  static List<Finding> oneChannelPerSink(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component channel : agent.active(Kind.CHANNEL)) {
      List<Component> sinks = agent.sinksDraining(channel.name());
      if (sinks.size() > 1) {
        findings.add(
            Finding.warning(
                "one-channel-per-sink",
                channel.id(),
                sinks.size()
                    + " sinks ("
                    + names(sinks)
                    + ") take from channel "
                    + channel.name()
                    + " and contend for it instead of scaling",
                "give each sink its own channel and let the sources fan out to them"));
      } else if (sinks.isEmpty()
          && !channel.isType(KAFKA_CHANNEL, KAFKA_RECORD_CHANNEL)
          && !agent.sourcesFeeding(channel.name()).isEmpty()) {
        findings.add(
            Finding.error(
                "one-channel-per-sink",
                channel.id(),
                "no sink takes from channel "
                    + channel.name()
                    + ": it fills up and then the sources"
                    + " putting into it fail",
                "add a sink with channel = " + channel.name() + ", or remove the channel"));
      }
    }
    return findings;
  }

  static List<Finding> transactionCapacity(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component channel : agent.active(Kind.CHANNEL)) {
      Optional<long[]> limits;
      try {
        limits = channelLimits(channel);
      } catch (NumberFormatException e) {
        findings.add(notANumber("transaction-capacity", channel, e));
        continue;
      }
      if (limits.isEmpty()) {
        continue;
      }
      long transactionCapacity = limits.get()[0];
      long capacity = limits.get()[1];
      // the edge's memory channel checks this itself (BatchMemoryChannelConfig.checkCapacities):
      // plugin-keys reports its error
      if (transactionCapacity > capacity && !channel.isType(BATCH_MEMORY_CHANNEL)) {
        findings.add(
            Finding.error(
                "transaction-capacity",
                channel.key("transactionCapacity"),
                "transactionCapacity "
                    + transactionCapacity
                    + " exceeds capacity "
                    + capacity
                    + ", which Flume rejects",
                "set " + channel.key("capacity") + " to at least " + transactionCapacity));
      }
      List<Component> attached = new ArrayList<>(agent.sourcesFeeding(channel.name()));
      attached.addAll(agent.sinksDraining(channel.name()));
      for (Component component : attached) {
        Optional<BatchSize> batch;
        try {
          batch = batchSize(component);
        } catch (NumberFormatException e) {
          findings.add(notANumber("transaction-capacity", component, e));
          continue;
        }
        if (batch.isPresent() && batch.get().size > transactionCapacity) {
          findings.add(
              Finding.error(
                  "transaction-capacity",
                  channel.key("transactionCapacity"),
                  "transactionCapacity "
                      + transactionCapacity
                      + " is below the batch size "
                      + batch.get().size
                      + " of "
                      + component.describe()
                      + " ("
                      + batch.get().key
                      + "), so its transactions fail",
                  "set "
                      + channel.key("transactionCapacity")
                      + " to at least "
                      + batch.get().size
                      + ", or lower "
                      + component.key(batch.get().key)));
        }
      }
    }
    return findings;
  }

  /**
   * A channel's transactionCapacity and capacity, defaults included; empty for channels without
   * them. The edge's BatchMemoryChannel has Flume's memory channel's keys and defaults.
   */
  private static Optional<long[]> channelLimits(Component channel) {
    if (channel.isType(BATCH_MEMORY_CHANNEL)) {
      return Optional.of(
          new long[] {
            longValue(
                channel,
                BatchMemoryChannelConfig.TRANSACTION_CAPACITY,
                BatchMemoryChannelConfig.DEFAULT_TRANSACTION_CAPACITY),
            longValue(
                channel,
                BatchMemoryChannelConfig.CAPACITY,
                BatchMemoryChannelConfig.DEFAULT_CAPACITY)
          });
    }
    if (isMemoryChannel(channel)) {
      return Optional.of(
          new long[] {
            longValue(channel, "transactionCapacity", MEMORY_CHANNEL_DEFAULT_CAPACITY),
            longValue(channel, "capacity", MEMORY_CHANNEL_DEFAULT_CAPACITY)
          });
    }
    if (channel.isType("file", "org.apache.flume.channel.file.FileChannel")) {
      return Optional.of(
          new long[] {
            longValue(
                channel,
                "transactionCapacity",
                FileChannelConfiguration.DEFAULT_TRANSACTION_CAPACITY),
            longValue(channel, "capacity", FileChannelConfiguration.DEFAULT_CAPACITY)
          });
    }
    if (channel.isType(KAFKA_RECORD_CHANNEL)) {
      return Optional.of(
          new long[] {
            longValue(
                channel,
                KafkaRecordConfig.TRANSACTION_CAPACITY,
                KafkaRecordConfig.DEFAULT_TRANSACTION_CAPACITY),
            Long.MAX_VALUE
          });
    }
    if (channel.get("transactionCapacity").isPresent()) {
      long transactionCapacity = longValue(channel, "transactionCapacity", 0);
      return Optional.of(
          new long[] {transactionCapacity, longValue(channel, "capacity", Long.MAX_VALUE)});
    }
    return Optional.empty();
  }

  /** Flume's memory channel, or the edge's BatchMemoryChannel, which has its keys and defaults. */
  private static boolean isMemoryChannel(Component channel) {
    return channel.isType("memory", "org.apache.flume.channel.MemoryChannel", BATCH_MEMORY_CHANNEL);
  }

  private record BatchSize(long size, String key) {}

  /**
   * Events a source puts or a sink takes per channel transaction, defaults included, when known.
   */
  private static Optional<BatchSize> batchSize(Component component) {
    if (component.kind() == Kind.SINK) {
      if (component.isType(KAFKA_SINK)) {
        // KafkaSink.translateOldProps copies the deprecated batchSize when flumeBatchSize is
        // absent.
        String key =
            component.get("flumeBatchSize").isEmpty() && component.get("batchSize").isPresent()
                ? "batchSize"
                : "flumeBatchSize";
        return Optional.of(
            new BatchSize(longValue(component, key, KafkaSinkConstants.DEFAULT_BATCH_SIZE), key));
      }
      if (component.isType(KAFKA_RECORD_SINK)) {
        return Optional.of(
            new BatchSize(
                longValue(
                    component, KafkaRecordConfig.BATCH_SIZE, KafkaRecordConfig.DEFAULT_BATCH_SIZE),
                KafkaRecordConfig.BATCH_SIZE));
      }
      if (component.isType("hdfs", "org.apache.flume.sink.hdfs.HDFSEventSink")) {
        return Optional.of(
            new BatchSize(
                longValue(component, "hdfs.batchSize", HDFS_SINK_DEFAULT_BATCH_SIZE),
                "hdfs.batchSize"));
      }
      if (component.isType(HDFS_BUCKET_SINK)) {
        return Optional.of(
            new BatchSize(
                longValue(
                    component,
                    HdfsBucketSinkConfig.BATCH_SIZE_CONFIG,
                    HdfsBucketSinkConfig.DEFAULT_BATCH_SIZE),
                HdfsBucketSinkConfig.BATCH_SIZE_CONFIG));
      }
    } else {
      if (component.isType(KAFKA_SOURCE)) {
        return Optional.of(
            new BatchSize(
                longValue(component, "batchSize", KafkaSourceConstants.DEFAULT_BATCH_SIZE),
                "batchSize"));
      }
      if (component.isType(KAFKA_RECORD_SOURCE)) {
        return Optional.of(
            new BatchSize(
                longValue(
                    component,
                    KafkaRecordSourceConfig.BATCH_SIZE_CONFIG,
                    KafkaRecordSourceConfig.DEFAULT_BATCH_SIZE),
                KafkaRecordSourceConfig.BATCH_SIZE_CONFIG));
      }
      if (component.isType(FLAFKA_SYSLOG_SOURCE)) {
        return Optional.of(
            new BatchSize(
                longValue(
                    component,
                    SyslogSourceConfig.BATCH_SIZE,
                    SyslogSourceConfig.DEFAULT_BATCH_SIZE),
                SyslogSourceConfig.BATCH_SIZE));
      }
      if (component.isType(
          "multiport_syslogtcp", "org.apache.flume.source.MultiportSyslogTCPSource")) {
        return Optional.of(
            new BatchSize(
                longValue(
                    component, "batchSize", SyslogSourceConfigurationConstants.DEFAULT_BATCHSIZE),
                "batchSize"));
      }
    }
    if (component.get("batchSize").isPresent()) {
      return Optional.of(new BatchSize(longValue(component, "batchSize", 0), "batchSize"));
    }
    return Optional.empty();
  }

  static List<Finding> kafkaSourcesVersusPartitions(
      FlumeAgentConfig agent, OptionalInt partitions) {
    if (partitions.isEmpty()) {
      return List.of();
    }
    Map<String, List<Component>> byGroupAndTopics = new LinkedHashMap<>();
    for (Component source : agent.active(Kind.SOURCE)) {
      if (source.isType(KAFKA_SOURCE, KAFKA_RECORD_SOURCE)) {
        String group =
            source
                .get("kafka.consumer.group.id")
                .orElse(
                    source.isType(KAFKA_SOURCE)
                        ? KafkaSourceConstants.DEFAULT_GROUP_ID
                        : KafkaRecordSourceConfig.DEFAULT_GROUP_ID);
        String topics =
            source.get("kafka.topics").or(() -> source.get("kafka.topics.regex")).orElse("");
        byGroupAndTopics
            .computeIfAbsent(group + " on " + topics, key -> new ArrayList<>())
            .add(source);
      }
    }
    Map<String, List<Component>> channelsByGroupAndTopic = new LinkedHashMap<>();
    for (Component channel : agent.active(Kind.CHANNEL)) {
      if (channel.isType(CORE_KAFKA_CHANNEL)) {
        String group =
            channel
                .get("kafka.consumer.group.id")
                .orElse(KafkaRecordChannelConfig.DEFAULT_GROUP_ID);
        channelsByGroupAndTopic
            .computeIfAbsent(
                group + " on " + channel.get("kafka.topic").orElse(""), key -> new ArrayList<>())
            .add(channel);
      }
    }
    List<Finding> findings = new ArrayList<>();
    channelsByGroupAndTopic.forEach(
        (groupAndTopic, channels) -> {
          if (channels.size() > partitions.getAsInt()) {
            findings.add(
                Finding.warning(
                    "kafka-sources-vs-partitions",
                    agent.agent() + ".channels",
                    channels.size()
                        + " Kafka channels in group "
                        + groupAndTopic
                        + " share "
                        + partitions.getAsInt()
                        + " partitions; "
                        + (channels.size() - partitions.getAsInt())
                        + " get no partition and their sinks sit idle",
                    "use at most "
                        + partitions.getAsInt()
                        + " channel and sink pairs (core_hdfs_sinks), or add partitions to the topic"));
          }
        });
    byGroupAndTopics.forEach(
        (groupAndTopics, sources) -> {
          if (sources.size() > partitions.getAsInt()) {
            findings.add(
                Finding.warning(
                    "kafka-sources-vs-partitions",
                    agent.agent() + ".sources",
                    sources.size()
                        + " Kafka sources in group "
                        + groupAndTopics
                        + " share "
                        + partitions.getAsInt()
                        + " partitions; "
                        + (sources.size() - partitions.getAsInt())
                        + " get no partition and sit idle",
                    "use at most "
                        + partitions.getAsInt()
                        + " sources, or add partitions to the topic"));
          }
        });
    return findings;
  }

  static List<Finding> maxRequestSize(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    List<Component> producers = new ArrayList<>();
    for (Component sink : agent.active(Kind.SINK)) {
      if (sink.isType(KAFKA_SINK, KAFKA_RECORD_SINK)) {
        producers.add(sink);
      }
    }
    for (Component channel : agent.active(Kind.CHANNEL)) {
      if (channel.isType(KAFKA_CHANNEL, KAFKA_RECORD_CHANNEL)) {
        producers.add(channel);
      }
    }
    for (Component producer : producers) {
      String channel =
          producer.kind() == Kind.SINK ? producer.get("channel").orElse("") : producer.name();
      String key = "kafka.producer.max.request.size";
      long maxRequestSize;
      try {
        maxRequestSize = longValue(producer, key, KAFKA_DEFAULT_MAX_REQUEST_SIZE);
      } catch (NumberFormatException e) {
        findings.add(notANumber("max-request-size", producer, e));
        continue;
      }
      for (Component source : agent.sourcesFeeding(channel)) {
        Optional<BatchSize> largest;
        try {
          largest = maxMessageBytes(source);
        } catch (NumberFormatException e) {
          findings.add(notANumber("max-request-size", source, e));
          continue;
        }
        if (largest.isEmpty()) {
          continue;
        }
        long needed = largest.get().size + KafkaRecordConfig.RECORD_HEADROOM_BYTES;
        if (needed > maxRequestSize) {
          findings.add(
              Finding.error(
                  "max-request-size",
                  producer.key(key),
                  key
                      + " "
                      + maxRequestSize
                      + " is below "
                      + source.describe()
                      + "'s largest message ("
                      + largest.get().key
                      + " "
                      + largest.get().size
                      + ") plus "
                      + KafkaRecordConfig.RECORD_HEADROOM_BYTES
                      + " bytes for headers; "
                      + tooLargeOutcome(producer),
                  "set "
                      + producer.key(key)
                      + " to at least "
                      + needed
                      + " (and the topic's"
                      + " max.message.bytes with it), or lower "
                      + source.key(largest.get().key)));
        }
      }
    }
    return findings;
  }

  /**
   * A memory channel commits a transaction only when its bodies fit in {@code byteCapacity} (less
   * the {@code byteCapacityBufferPercentage} kept for headers, in 100-byte slots): a batch that can
   * never fit is refused every time, so TCP senders stay held back for good and UDP drops. Only an
   * explicit {@code byteCapacity} is judged: the default is 80% of the agent's heap, which the
   * configuration does not say.
   */
  static List<Finding> byteCapacity(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component channel : agent.active(Kind.CHANNEL)) {
      if (!isMemoryChannel(channel) || channel.get("byteCapacity").isEmpty()) {
        continue;
      }
      long usable;
      long bufferPercentage;
      try {
        long byteCapacity = longValue(channel, BatchMemoryChannelConfig.BYTE_CAPACITY, 0);
        bufferPercentage =
            longValue(
                channel,
                BatchMemoryChannelConfig.BYTE_CAPACITY_BUFFER_PERCENTAGE,
                BatchMemoryChannelConfig.DEFAULT_BYTE_CAPACITY_BUFFER_PERCENTAGE);
        // as Flume's MemoryChannel and BatchMemoryChannelConfig count
        long slots = BatchMemoryChannelConfig.byteSlots(byteCapacity, bufferPercentage);
        if (slots == Long.MAX_VALUE) {
          continue; // as in Flume: no limit
        }
        usable = slots * BatchMemoryChannelConfig.BYTES_PER_SLOT;
      } catch (NumberFormatException e) {
        findings.add(notANumber("byte-capacity", channel, e));
        continue;
      }
      for (Component source : agent.sourcesFeeding(channel.name())) {
        Optional<BatchSize> largest;
        Optional<BatchSize> batch;
        try {
          largest = maxMessageBytes(source);
          batch = batchSize(source);
        } catch (NumberFormatException e) {
          findings.add(notANumber("byte-capacity", source, e));
          continue;
        }
        if (largest.isEmpty()) {
          continue;
        }
        long message = largest.get().size;
        long batchSize = batch.map(BatchSize::size).orElse(1L);
        long needed = (long) Math.ceil(message * batchSize / (1 - bufferPercentage / 100.0));
        String fix =
            "set "
                + channel.key("byteCapacity")
                + " to at least "
                + needed
                + ", or lower "
                + source.key(largest.get().key)
                + (batch.isPresent() ? " or " + source.key(batch.get().key) : "");
        if (message > usable) {
          findings.add(
              Finding.error(
                  "byte-capacity",
                  channel.key("byteCapacity"),
                  "byteCapacity leaves "
                      + usable
                      + " bytes for bodies, less than one message of "
                      + source.describe()
                      + " ("
                      + largest.get().key
                      + " "
                      + message
                      + "): such a"
                      + " message is refused for good, and the sender with it",
                  fix));
        } else if (message * batchSize > usable) {
          findings.add(
              Finding.warning(
                  "byte-capacity",
                  channel.key("byteCapacity"),
                  "byteCapacity leaves "
                      + usable
                      + " bytes for bodies, less than a batch of "
                      + source.describe()
                      + " at its largest ("
                      + batch.get().key
                      + " "
                      + batchSize
                      + " × "
                      + largest.get().key
                      + " "
                      + message
                      + "): such a batch is refused"
                      + " every time, holding TCP senders back for good",
                  fix));
        }
      }
    }
    return findings;
  }

  /** The largest message a source accepts, when it has such a limit. */
  private static Optional<BatchSize> maxMessageBytes(Component source) {
    if (source.isType(FLAFKA_SYSLOG_SOURCE)) {
      return Optional.of(
          new BatchSize(
              longValue(
                  source,
                  SyslogSourceConfig.MAX_MESSAGE_BYTES,
                  SyslogSourceConfig.DEFAULT_MAX_MESSAGE_BYTES),
              SyslogSourceConfig.MAX_MESSAGE_BYTES));
    }
    if (source.isType(
        "multiport_syslogtcp",
        "syslogtcp",
        "org.apache.flume.source.MultiportSyslogTCPSource",
        "org.apache.flume.source.SyslogTcpSource")) {
      return Optional.of(
          new BatchSize(
              longValue(source, "eventSize", STOCK_SYSLOG_DEFAULT_EVENT_SIZE), "eventSize"));
    }
    return Optional.empty();
  }

  static List<Finding> ignoredKeys(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component sink : agent.active(Kind.SINK)) {
      // the kit's own Kafka sink reports it as an unknown key (plugin-keys): its batch key is
      // batchSize
      if (sink.isType(KAFKA_SINK) && sink.get("kafka.flumeBatchSize").isPresent()) {
        findings.add(
            Finding.error(
                "ignored-key",
                sink.key("kafka.flumeBatchSize"),
                "Flume 1.11's Kafka sink silently ignores kafka.flumeBatchSize (the user guide is wrong),"
                    + " so the batch stays at "
                    + KafkaSinkConstants.DEFAULT_BATCH_SIZE,
                "rename it to " + sink.key("flumeBatchSize")));
      }
    }
    return findings;
  }

  static List<Finding> zookeeper(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Component component : agent.active(kind)) {
        if (component.get("zookeeperConnect").isPresent()) {
          findings.add(
              Finding.error(
                  "zookeeper",
                  component.key("zookeeperConnect"),
                  component.describe()
                      + " sets zookeeperConnect, which makes Flume call ZooKeeper code"
                      + " that Kafka 4 clients no longer have",
                  "remove it and set " + component.key("kafka.bootstrap.servers")));
        }
      }
    }
    return findings;
  }

  static List<Finding> loadBalancingSelector(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component source : agent.active(Kind.SOURCE)) {
      if (source
          .get("selector.type")
          .filter(
              type ->
                  type.equalsIgnoreCase("load_balancing")
                      || type.equalsIgnoreCase(
                          "org.apache.flume.channel.LoadBalancingChannelSelector"))
          .isPresent()) {
        findings.add(
            Finding.error(
                "load-balancing-selector",
                source.key("selector.type"),
                "Flume 1.11 fails to validate the load_balancing selector and drops source "
                    + source.name()
                    + " with only a warning: the agent runs with no input",
                "use selector.type = multiplexing on the header of a FanOutInterceptor (what flafka"
                    + " render writes), or a single channel"));
      }
    }
    return findings;
  }

  static List<Finding> selectorMapping(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component source : agent.active(Kind.SOURCE)) {
      if (!source.get("selector.type").map("multiplexing"::equalsIgnoreCase).orElse(false)) {
        continue;
      }
      List<String> own = FlumeAgentConfig.channelsOf(source);
      source
          .properties()
          .forEach(
              (key, value) -> {
                if (key.startsWith("selector.mapping.") || key.equals("selector.default")) {
                  for (String channel : FlumeAgentConfig.splitNames(value)) {
                    if (!own.contains(channel)) {
                      findings.add(
                          Finding.error(
                              "selector-mapping",
                              source.key(key),
                              "maps to channel "
                                  + channel
                                  + ", which is not among source "
                                  + source.name()
                                  + "'s channels ("
                                  + String.join(" ", own)
                                  + "), so Flume drops the source",
                              "add "
                                  + channel
                                  + " to "
                                  + source.key("channels")
                                  + ", or map to one of them"));
                    }
                  }
                }
              });
    }
    return findings;
  }

  /** What happens to a message over {@code producer}'s max.request.size. */
  private static String tooLargeOutcome(Component producer) {
    if (producer.isType(KAFKA_RECORD_SINK)) {
      return "such a message is dropped (counted in EventWriteFail)";
    }
    if (producer.isType(KAFKA_RECORD_CHANNEL)) {
      return "such a message is dropped (counted in the source's RecordTooLargeDropCount)";
    }
    if (producer.kind() == Kind.CHANNEL) {
      return "such a message is dropped (counted in the source's RecordTooLargeDropCount) and the other"
          + " events of its batch arrive twice";
    }
    return "such a message fails every retry and blocks " + producer.describe();
  }

  /**
   * A put into a Kafka channel returns once Kafka has acknowledged it, and the UDP thread that puts
   * reads no datagram meanwhile: those arriving wait in the socket's receive buffer and are dropped
   * when it fills. Measured with a 20 ms round trip to Kafka, 100,000 datagrams/s: 60% lost with
   * our Kafka record channel and one UDP thread, none with the memory channel, and 0.0-0.1% with
   * four UDP threads, whose puts wait at once (docs/benchmarks.md, "Edge agent over UDP"); near the
   * brokers 1% against 0.2%. So our source with udp.receiveThreads above 1 is taken as the fix
   * applied. TCP senders are held back instead.
   */
  static List<Finding> udpKafkaChannel(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Component source : agent.active(Kind.SOURCE)) {
      boolean ours = source.isType(FLAFKA_SYSLOG_SOURCE);
      boolean udp =
          ours
              ? source.get(SyslogSourceConfig.PROTOCOL).map("udp"::equalsIgnoreCase).orElse(false)
              : source.isType("syslogudp", "org.apache.flume.source.SyslogUDPSource");
      boolean oneThread =
          !ours
              || source
                  .get(SyslogSourceConfig.UDP_RECEIVE_THREADS)
                  .map(threads -> threads.trim().equals("1"))
                  .orElse(true);
      if (!udp || !oneThread) {
        continue;
      }
      for (String name : FlumeAgentConfig.channelsOf(source)) {
        Component channel = agent.defined(Kind.CHANNEL).get(name);
        if (channel != null && channel.isType(KAFKA_RECORD_CHANNEL, KAFKA_CHANNEL)) {
          findings.add(
              Finding.warning(
                  "udp-kafka-channel",
                  channel.id(),
                  "UDP source "
                      + source.name()
                      + " puts into "
                      + channel.describe()
                      + ", which answers"
                      + " only once Kafka has acknowledged each batch; datagrams that arrive meanwhile"
                      + " wait in the kernel's receive buffer and are dropped when it fills (counted in"
                      + " UdpSocketDropCount)",
                  "give the UDP source a memory channel with Kafka sinks (the template: edge_channel_type:"
                      + " memory, or udp out of edge_listeners), or, if this channel must stay, "
                      + (ours
                          ? "raise udp.receiveThreads (edge_udp_receive_threads) so that several"
                              + " puts wait at once, and "
                          : "raise ")
                      + "udp.receiveBufferBytes (edge_udp_receive_buffer_bytes) for the bursts"));
        }
      }
    }
    return findings;
  }

  /** Where a Kafka client of one component takes its client properties. */
  private record KafkaClient(Component component, String prefix, boolean producer) {
    String protocol() {
      return component
          .get(prefix + "security.protocol")
          .map(p -> p.trim().toUpperCase(Locale.ROOT))
          .orElse("PLAINTEXT");
    }

    String key() {
      return component.key(prefix + "security.protocol");
    }

    /** A SASL or TLS setting, which only a secure protocol uses. */
    Optional<String> securitySetting() {
      return component.properties().keySet().stream()
          .filter(k -> k.startsWith(prefix + "sasl.") || k.startsWith(prefix + "ssl."))
          .sorted()
          .findFirst();
    }
  }

  private static List<KafkaClient> kafkaClients(FlumeAgentConfig agent) {
    List<KafkaClient> clients = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Component component : agent.active(kind)) {
        if (component.isType(KAFKA_SINK, KAFKA_RECORD_SINK, KAFKA_RECORD_CHANNEL)) {
          clients.add(new KafkaClient(component, "kafka.producer.", true));
        } else if (component.isType(KAFKA_CHANNEL)) {
          clients.add(new KafkaClient(component, "kafka.producer.", true));
          clients.add(new KafkaClient(component, "kafka.consumer.", false));
        } else if (component.isType(KAFKA_SOURCE, KAFKA_RECORD_SOURCE)) {
          clients.add(new KafkaClient(component, "kafka.consumer.", false));
        }
      }
    }
    return clients;
  }

  static List<Finding> kafkaSecurity(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    List<KafkaClient> clients = kafkaClients(agent);
    Optional<KafkaClient> secure =
        clients.stream().filter(c -> !c.protocol().equals("PLAINTEXT")).findFirst();
    for (KafkaClient client : clients) {
      if (client.protocol().equals("PLAINTEXT")) {
        Optional<String> setting = client.securitySetting();
        if (setting.isPresent()) {
          findings.add(
              Finding.warning(
                  "kafka-security",
                  client.key(),
                  client.component().describe()
                      + " talks PLAINTEXT to Kafka although "
                      + client.component().key(setting.get())
                      + " is set: a plaintext client ignores every SASL and TLS setting",
                  "set kafka_security_protocol (this key) to the protocol the brokers' listener"
                      + " speaks: SASL_SSL, SSL or SASL_PLAINTEXT"));
        } else if (secure.isPresent()) {
          findings.add(
              Finding.warning(
                  "kafka-security",
                  client.key(),
                  client.component().describe()
                      + " talks PLAINTEXT to Kafka while "
                      + secure.get().component().describe()
                      + " of the same agent uses "
                      + secure.get().protocol()
                      + ": the cluster is secure, this client's records cross the network in"
                      + " clear (or it is refused)",
                  "give every Kafka client the same kafka_security_protocol"));
        }
      } else if (client.protocol().equals("SASL_PLAINTEXT") && client.producer()) {
        findings.add(
            Finding.warning(
                "kafka-security",
                client.key(),
                client.component().describe()
                    + " writes to Kafka with SASL_PLAINTEXT: it authenticates, but an edge's"
                    + " records cross the network from its site to the cluster unencrypted",
                "use SASL_SSL (kafka_security_protocol: SASL_SSL, with"
                    + " kafka_ssl_truststore_location) unless the edge and the brokers share a"
                    + " trusted network"));
      }
    }
    return findings;
  }

  static List<Finding> hdfsSecurity(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    String principalKey = HdfsBucketSinkConfig.KERBEROS_PRINCIPAL_CONFIG;
    List<Component> sinks =
        agent.active(Kind.SINK).stream()
            .filter(
                c -> c.isType(HDFS_BUCKET_SINK, "hdfs", "org.apache.flume.sink.hdfs.HDFSEventSink"))
            .toList();
    Optional<Component> kerberized =
        sinks.stream()
            .filter(c -> c.get(principalKey).map(p -> !p.isBlank()).orElse(false))
            .findFirst();
    Optional<KafkaClient> secureKafka =
        kafkaClients(agent).stream().filter(c -> !c.protocol().equals("PLAINTEXT")).findFirst();
    String fix =
        "set "
            + principalKey
            + " and "
            + HdfsBucketSinkConfig.KERBEROS_KEYTAB_CONFIG
            + " (the template: hdfs_kerberos_principal, hdfs_kerberos_keytab;"
            + " docs/guides/security.md)";
    for (Component sink : sinks) {
      if (sink.get(principalKey).map(p -> !p.isBlank()).orElse(false)) {
        continue;
      }
      if (kerberized.isPresent()) {
        findings.add(
            Finding.warning(
                "hdfs-security",
                sink.key(principalKey),
                sink.describe()
                    + " uses simple authentication to HDFS while "
                    + kerberized.get().describe()
                    + " of the same agent logs in with Kerberos: a Kerberized cluster refuses it",
                fix));
      } else if (secureKafka.isPresent()) {
        findings.add(
            Finding.warning(
                "hdfs-security",
                sink.key(principalKey),
                sink.describe()
                    + " uses simple authentication to HDFS while "
                    + secureKafka.get().component().describe()
                    + " reaches Kafka with "
                    + secureKafka.get().protocol()
                    + ": a cluster secured for Kafka is usually Kerberized for HDFS too, and then"
                    + " refuses simple authentication",
                fix + ", unless this HDFS really runs without Kerberos"));
      }
    }
    return findings;
  }

  static List<Finding> kafkaHeaders(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    List<Component> recordWriters = new ArrayList<>(agent.active(Kind.SINK));
    recordWriters.addAll(agent.active(Kind.CHANNEL));
    for (Component writer : recordWriters) {
      if (writer.isType(KAFKA_RECORD_SINK, KAFKA_RECORD_CHANNEL)
          && writer.get("recordHeaders").map(String::isBlank).orElse(false)) {
        findings.add(
            Finding.warning(
                "kafka-headers",
                writer.key("recordHeaders"),
                writer.describe()
                    + " writes no Flume header as a Kafka record header, so only the"
                    + " body reaches Kafka",
                "set " + writer.key("recordHeaders") + " to the headers to carry, or * for all"));
      }
    }
    for (Component sink : agent.active(Kind.SINK)) {

      if (!sink.isType(KAFKA_SINK)) {
        continue;
      }
      if (!isTrue(sink, "useFlumeEventFormat") && !hasHeaderMapping(sink)) {
        findings.add(
            Finding.warning(
                "kafka-headers",
                sink.id(),
                "sink "
                    + sink.name()
                    + " maps no Flume header to a Kafka record header, so only the body"
                    + " reaches Kafka",
                "add " + sink.key("header.<name>") + " = <name> for each header to carry"));
      }
      if (!sink.get("allowTopicOverride").map("false"::equalsIgnoreCase).orElse(false)) {
        findings.add(
            Finding.warning(
                "kafka-headers",
                sink.key("allowTopicOverride"),
                "an event with a header named topic goes to that topic instead of "
                    + sink.get("kafka.topic").orElse("the sink's topic"),
                "set " + sink.key("allowTopicOverride") + " = false"));
      }
    }
    for (Component source : agent.active(Kind.SOURCE)) {
      if (source.isType(KAFKA_SOURCE)
          && !isTrue(source, "useFlumeEventFormat")
          && !hasHeaderMapping(source)) {
        findings.add(
            Finding.warning(
                "kafka-headers",
                source.id(),
                "source "
                    + source.name()
                    + " maps no Kafka record header to a Flume header, so events"
                    + " arrive without host or timestamp and land in the wrong bucket",
                "add "
                    + source.key("header.<name>")
                    + " = <name> for each header the edge carries"));
      }
      if (source.isType(KAFKA_RECORD_SOURCE)
          && source.get("recordHeaders").map(String::isBlank).orElse(false)) {
        findings.add(
            Finding.warning(
                "kafka-headers",
                source.key("recordHeaders"),
                "source "
                    + source.name()
                    + " copies no Kafka record header to a Flume header, so events"
                    + " arrive without host or timestamp and land in the wrong bucket",
                "set "
                    + source.key("recordHeaders")
                    + " to the headers the edge carries, or * for all"));
      }
    }
    for (Component channel : agent.active(Kind.CHANNEL)) {
      if (channel.isType(KAFKA_CHANNEL)
          && channel.get("parseAsFlumeEvent").map("false"::equalsIgnoreCase).orElse(false)) {
        findings.add(
            Finding.error(
                "kafka-headers",
                channel.key("parseAsFlumeEvent"),
                "Flume 1.11's Kafka channel writes no record headers, so parseAsFlumeEvent = false drops"
                    + " every header",
                "set it to true and read the topic with useFlumeEventFormat = true, or use "
                    + KAFKA_RECORD_CHANNEL
                    + ", which writes record headers"));
      }
    }
    return findings;
  }

  private static boolean hasHeaderMapping(Component component) {
    return component.properties().keySet().stream().anyMatch(key -> key.startsWith("header."));
  }

  private static boolean isTrue(Component component, String key) {
    return component.get(key).map("true"::equalsIgnoreCase).orElse(false);
  }

  private static long longValue(Component component, String key, long defaultValue) {
    Optional<String> value = component.get(key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.get());
    } catch (NumberFormatException e) {
      throw new NumberFormatException(key);
    }
  }

  private static Finding notANumber(String rule, Component component, NumberFormatException e) {
    String key = e.getMessage();
    return Finding.error(
        rule,
        component.key(key),
        key
            + " is '"
            + component.get(key).orElse("")
            + "', not a whole number, so Flume fails to configure "
            + component.describe(),
        "write a whole number");
  }

  private static String names(List<Component> components) {
    return String.join(", ", components.stream().map(Component::name).toList());
  }
}
