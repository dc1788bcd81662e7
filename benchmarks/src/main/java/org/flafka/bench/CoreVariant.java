package org.flafka.bench;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flafka.lint.Finding;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;

/**
 * A core agent configuration {@code flafka bench core} compares. Every variant is the Flume agent
 * {@value #AGENT} reading one topic from the earliest offset with a consumer group of its own and
 * writing the {@code dt=}/{@code host=} layout under an HDFS root of its own, so each trial drains
 * the same records.
 */
public enum CoreVariant {
  /**
   * The core template with its defaults: no sources, 4 of our Kafka channels ({@code
   * KafkaRecordChannel}, consumers in one group) each drained by one of our HDFS sinks ({@code
   * HdfsBucketSink}), snappy text.
   */
  OURS("ours", true, Map.of()),
  /**
   * The core the template rendered by default before the Kafka channels: 2 of our Kafka sources
   * ({@code KafkaRecordSource}), 4 memory channels (lost when the agent dies) and 4 of our HDFS
   * sinks, lanes by host ({@code core_channel_type: memory}).
   */
  OURS_MEMORY_CHANNEL("ours-memory-channel", true, Map.of("core_channel_type", "memory")),
  /**
   * The template with {@code core_channel_type: file}: Kafka sources into durable file channels,
   * every event written to local disk too.
   */
  OURS_FILE_CHANNEL("ours-file-channel", true, Map.of("core_channel_type", "file")),
  /**
   * The memory-channel template with Flume's Kafka source in place of ours ({@code
   * core_source_impl: stock}).
   */
  OURS_STOCK_SOURCE(
      "ours-stock-source",
      true,
      Map.of("core_source_impl", "stock", "core_channel_type", "memory")),
  /**
   * The default template with Flume's HDFS sink in place of ours ({@code core_sink_impl: stock}).
   */
  OURS_STOCK_SINK("ours-stock-sink", true, Map.of("core_sink_impl", "stock")),
  /**
   * Flume's stock path in the template: Flume's Kafka source, memory channels, Flume's HDFS sink
   * ({@code core_source_impl: stock}, {@code core_sink_impl: stock}), with the template's sizes,
   * rolls, lanes and its bucket interceptor: stock Flume as tuned by the kit.
   */
  STOCK_TUNED(
      "stock-tuned",
      true,
      Map.of(
          "core_source_impl", "stock", "core_sink_impl", "stock", "core_channel_type", "memory")),
  /**
   * What a user gets from Flume's defaults for the same layout: one Kafka source, a memory channel
   * with Flume's default capacity and transaction capacity (100), one HDFS sink with hdfs.batchSize
   * 100 and the default rolls (30 s, 1024 bytes, 10 events), snappy text. Changed from the defaults
   * only to run and to make the same layout: the source's batchSize 100 (Flume refuses a source
   * batch above the channel's transaction capacity), the header mapping of timestamp and host,
   * hdfs.minBlockReplicas 1 (one datanode) and the earliest offset. It drains tens of events per
   * second (a file per 10 events).
   */
  STOCK("stock", false, Map.of()),
  /**
   * {@link #STOCK} with the template's rolls (124 MiB, 3600 s, no count), to tell what Flume's
   * default rolls cost from what the template's batching and lanes gain.
   */
  STOCK_ROLLS("stock-rolls", false, Map.of());

  /** The Flume agent name (-n) of every variant. */
  static final String AGENT = "core";

  /**
   * Template variables the bench sets itself for the template variants: its broker, topic and
   * trial.
   */
  public static final Set<String> BENCH_OWNED_VARIABLES =
      Set.of(
          "agent_name",
          "kafka_bootstrap_servers",
          "kafka_topic",
          "core_consumer_group",
          "core_hdfs_root",
          "core_data_dir");

  private final String flagName;
  private final boolean template;
  private final Map<String, Object> variables;

  CoreVariant(String flagName, boolean template, Map<String, Object> variables) {
    this.flagName = flagName;
    this.template = template;
    this.variables = variables;
  }

  /**
   * Where a trial's agent reads and writes: {@code hdfsRoot} a URI of its own, {@code dataDir} a
   * local directory for file channels.
   */
  public record Target(
      String bootstrapServers, String topic, String consumerGroup, String hdfsRoot, Path dataDir) {}

  /**
   * The agent's Flume properties. {@code templateVariables} ({@code --set}) change the template
   * variants and nothing else; a variant's own variable wins over them.
   */
  public String properties(Target target, Map<String, Object> templateVariables) {
    if (!template) {
      return stockProperties(
          target,
          this == STOCK_ROLLS
              ? Map.of(
                  "hdfs.rollInterval", "3600", "hdfs.rollSize", "130023424", "hdfs.rollCount", "0")
              : Map.of());
    }
    Map<String, Object> all = new LinkedHashMap<>(templateVariables);
    all.putAll(variables);
    all.put("agent_name", AGENT);
    all.put("kafka_bootstrap_servers", target.bootstrapServers());
    all.put("kafka_topic", target.topic());
    all.put("core_consumer_group", target.consumerGroup());
    all.put("core_hdfs_root", target.hdfsRoot());
    all.put("core_data_dir", target.dataDir().toAbsolutePath().toString());
    return AgentTemplates.render(Tier.CORE, all);
  }

  /**
   * The errors {@code flafka lint} finds in this variant's configuration with {@code
   * templateVariables} on a topic of {@code partitions}: a variant must not measure an agent that
   * loses events or drops headers.
   *
   * @throws org.flafka.render.TemplateVariableException when a variable is unknown or its value
   *     invalid
   */
  public List<Finding> lintErrors(Map<String, Object> templateVariables, int partitions) {
    return Variants.lintErrors(
        properties(
            new Target(
                "127.0.0.1:9092",
                "lint",
                "lint",
                "hdfs://127.0.0.1:8020/lint",
                Path.of("/tmp/lint")),
            templateVariables),
        partitions);
  }

  /**
   * Why this variant cannot run on the secure stack ({@code --secure}), or null when it can: the
   * template's own HDFS sink takes the NameNode's principal and data transfer protection from
   * template variables, Flume's HDFS sink only from an {@code hdfs-site.xml} on the agent's
   * classpath, which the bench does not give its agents; the fixed stock configurations are Flume's
   * defaults, which have no security settings.
   */
  public String whyNotSecure() {
    if (!template) {
      return "it is Flume's default configuration, which has no Kafka or HDFS security settings";
    }
    if ("stock".equals(variables.get("core_sink_impl"))) {
      return "Flume's HDFS sink reads the NameNode's Kerberos principal and the data transfer"
          + " protection from an hdfs-site.xml, which the bench does not give its agents";
    }
    return null;
  }

  /** The flag names of the variants that run with {@code --secure}, comma-separated. */
  public static String secureFlagNames() {
    return String.join(
        ",",
        java.util.Arrays.stream(values())
            .filter(v -> v.whyNotSecure() == null)
            .map(CoreVariant::flagName)
            .toList());
  }

  /**
   * Whether it is rendered from the core template (and so runs our plugins and takes {@code
   * --set}).
   */
  public boolean usesTemplate() {
    return template;
  }

  public String flagName() {
    return flagName;
  }

  /** The variant named {@code name} on the command line, or null. */
  public static CoreVariant byFlagName(String name) {
    return Variants.byFlagName(values(), CoreVariant::flagName, name);
  }

  /** Every variant's flag name, comma-separated, for messages. */
  public static String flagNames() {
    return String.join(", ", new FlagNames());
  }

  /**
   * The flag names in declaration order: the command line's completion candidates and its help's
   * list.
   */
  public static final class FlagNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Variants.flagNames(values(), CoreVariant::flagName);
    }
  }

  /**
   * Flume's stock single-source, single-sink configuration for the same layout (see {@link
   * #STOCK}).
   */
  private static String stockProperties(Target target, Map<String, String> sinkOverrides) {
    Map<String, String> p = new LinkedHashMap<>();
    String a = AGENT;
    p.put(a + ".sources", "kafka0");
    p.put(a + ".channels", "ch0");
    p.put(a + ".sinks", "hdfs0");
    String s = a + ".sources.kafka0.";
    p.put(s + "type", "org.apache.flume.source.kafka.KafkaSource");
    p.put(s + "kafka.bootstrap.servers", target.bootstrapServers());
    p.put(s + "kafka.topics", target.topic());
    p.put(s + "kafka.consumer.group.id", target.consumerGroup());
    p.put(s + "kafka.consumer.auto.offset.reset", "earliest");
    p.put(s + "batchSize", "100");
    p.put(s + "header.timestamp", "timestamp");
    p.put(s + "header.host", "host");
    p.put(s + "channels", "ch0");
    p.put(a + ".channels.ch0.type", "memory");
    String k = a + ".sinks.hdfs0.";
    p.put(k + "type", "hdfs");
    p.put(k + "channel", "ch0");
    p.put(k + "hdfs.path", target.hdfsRoot() + "/dt=%Y-%m-%d/host=%{host}");
    p.put(k + "hdfs.timeZone", "UTC");
    p.put(k + "hdfs.fileType", "CompressedStream");
    p.put(k + "hdfs.codeC", "snappy");
    p.put(k + "hdfs.minBlockReplicas", "1");
    sinkOverrides.forEach((key, value) -> p.put(k + key, value));
    StringBuilder text = new StringBuilder();
    p.forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
    return text.toString();
  }
}
