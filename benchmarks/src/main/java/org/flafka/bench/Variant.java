package org.flafka.bench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flafka.lint.Finding;
import org.flafka.load.Protocol;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;

/**
 * An edge agent configuration the bench compares. Every variant names its components the same way
 * (source {@code syslog_tcp} or {@code syslog_udp}, channel {@code ch0}, sinks {@code kafka0..}),
 * so the same counters are read from each.
 */
public enum Variant {
  /**
   * Ours: the edge template as deployed (org.flafka.edge.source.SyslogSource, SyslogInterceptor,
   * EventIdInterceptor, memory channel, Kafka sink with record headers, snappy, acks=all), one
   * listener of the bench's protocol (TCP unless {@code --protocol udp}), on port 0.
   */
  OURS("ours", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      Map<String, Object> variables = new LinkedHashMap<>(templateVariables);
      variables.put("agent_name", AGENT);
      variables.put("site", SITE);
      variables.put("kafka_bootstrap_servers", target.bootstrapServers());
      variables.put("kafka_topic", target.topic());
      variables.put("edge_listeners", List.of(target.protocol().flagName()));
      variables.put("edge_bind_address", "127.0.0.1");
      variables.put("edge_" + target.protocol().flagName() + "_port", 0);
      variables.put("edge_kafka_sinks", sinks);
      return AgentTemplates.render(Tier.EDGE, variables);
    }
  },
  /**
   * Ours without the memory channel's disk buffer ({@code edge_buffer_max_bytes: 0}): the plain
   * memory channel, the default before the buffer. With Kafka keeping up the buffer is never
   * written, so the two should cost the same; this variant checks it in the same run.
   */
  OURS_MEMORY("ours-memory", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return oursWith("edge_buffer_max_bytes", 0, target, sinks, templateVariables);
    }
  },
  /**
   * Ours with Flume's own Kafka sink in place of {@code org.flafka.edge.sink.KafkaRecordSink}
   * ({@code edge_sink_impl: stock}, same record headers and producer settings): what the sink alone
   * is worth, in the same run.
   */
  OURS_STOCK_SINK("ours-stock-sink", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return oursWith("edge_sink_impl", "stock", target, sinks, templateVariables);
    }
  },
  /**
   * Ours with Flume's own memory channel in place of {@code
   * org.flafka.edge.channel.BatchMemoryChannel} ({@code edge_channel_impl: stock}, same
   * capacities): what the channel alone is worth, in the same run.
   */
  OURS_STOCK_CHANNEL("ours-stock-channel", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return oursWith("edge_channel_impl", "stock", target, sinks, templateVariables);
    }
  },
  /**
   * Ours carrying every fact as Kafka record headers ({@code kafka_record_facts: all}) instead of
   * only those the body cannot give back (the default, carried): what the full set on the wire
   * costs, in the same run. Kafka's producer sizes, encodes and compresses every header of every
   * record, and the broker validates them again.
   */
  OURS_ALL_FACTS("ours-all-facts", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return oursWith("kafka_record_facts", "all", target, sinks, templateVariables);
    }
  },
  /**
   * Ours with the host-affinity partitioner ({@code edge_partitioner: host-affinity}), each host in
   * {@value #HOST_AFFINITY_PARTITIONS} of the topic's partitions unless {@code --set
   * edge_host_partitions} says otherwise: what keeping each host in few partitions (so that each
   * core HDFS sink writes only its hosts' files) costs the edge, in the same run as the default
   * partitioner.
   */
  OURS_HOST_AFFINITY("ours-host-affinity", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      Map<String, Object> variables = new LinkedHashMap<>(templateVariables);
      variables.putIfAbsent("edge_host_partitions", HOST_AFFINITY_PARTITIONS);
      return oursWith("edge_partitioner", "host-affinity", target, sinks, variables);
    }
  },
  /**
   * Ours with the Kafka record channel and no sinks ({@code edge_channel_type: kafka}): the
   * source's put writes the records the Kafka sink would, contract headers as Kafka record headers,
   * durably. What the template's durable choice costs, in the same run.
   */
  OURS_KAFKA_CHANNEL("ours-kafka-channel", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return oursWith("edge_channel_type", "kafka", target, sinks, templateVariables);
    }
  },
  /**
   * Ours with Flume's Kafka channel and no sinks ({@code edge_channel_type: kafka}, {@code
   * kafka_flume_event_format: true}): the contract's headers travel inside Flume's Avro envelope in
   * the record's value (which the core unwraps), not as Kafka record headers.
   */
  OURS_FLUME_KAFKA_CHANNEL("ours-flume-kafka-channel", true) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      Map<String, Object> variables = new LinkedHashMap<>(templateVariables);
      variables.put("kafka_flume_event_format", true);
      return oursWith("edge_channel_type", "kafka", target, sinks, variables);
    }
  },
  /**
   * Stock Flume 1.11 with its defaults: {@code multiport_syslogtcp} (batchSize 100, keepFields
   * none: priority, timestamp and host are stripped from the body into headers the Kafka sink then
   * drops; with {@code --protocol udp} {@code syslogudp}: one event per channel transaction, the
   * kernel's default receive buffer), memory channel (capacity 100, transactionCapacity 100), one
   * Kafka sink (flumeBatchSize 100, acks=1, no compression, the producer's own batch.size 16384 and
   * linger.ms 5). Only host, port, topic and bootstrap servers are set.
   */
  STOCK("stock", false) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return stockProperties(target, 1, Map.of(), Map.of(), Map.of());
    }
  },
  /**
   * Stock with Flume's defaults except the memory channel's capacity (10000 instead of 100), the
   * one setting without which {@link #STOCK} stalls: a Kafka sink holds up to flumeBatchSize (100)
   * taken events while it waits (up to keep-alive, 3 s) for more, and those still count against a
   * capacity of 100, so a source batch finds no room until the wait ends. The fairest "defaults"
   * baseline.
   */
  STOCK_CAPACITY("stock-capacity", false) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return stockProperties(target, 1, Map.of(), Map.of("capacity", "10000"), Map.of());
    }
  },
  /**
   * Stock Flume hand-tuned as a careful operator would, with the same knobs our template sets:
   * source batchSize 1000, memory channel capacity 20000 (a larger one costs more in GC than it
   * buys, see docs/benchmarks.md) / transactionCapacity 10000, {@code sinks} Kafka sinks draining
   * the one channel, flumeBatchSize 1000, snappy, linger.ms 10, batch.size 262144. keepFields stays
   * at its default (none), so the body is still only the message part: less to send than ours,
   * which keeps the whole line.
   */
  STOCK_TUNED("stock-tuned", false) {
    @Override
    public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
      return stockProperties(
          target,
          sinks,
          Map.of("batchSize", "1000"),
          Map.of("capacity", "20000", "transactionCapacity", "10000"),
          Map.of(
              "flumeBatchSize",
              "1000",
              "kafka.producer.compression.type",
              "snappy",
              "kafka.producer.linger.ms",
              "10",
              "kafka.producer.batch.size",
              "262144"));
    }
  },
  /**
   * Not Flume: rsyslogd with omkafka ({@link RsyslogEdge}), the C daemon a user could run instead
   * of an edge agent, as the bar to measure ours against. It writes each message as received and no
   * record headers (rsyslog's omkafka writes none per message), and keeps no counters the bench
   * reads.
   */
  RSYSLOG("rsyslog", false) {
    @Override
    RsyslogEdge.Body rsyslogBody() {
      return RsyslogEdge.Body.RAW_MESSAGE;
    }
  },
  /**
   * rsyslog carrying most of what ours carries: 11 of the contract's 14 facts, as rsyslog parses
   * them, with the raw message in a JSON body ({@link RsyslogEdge.Body#CONTRACT_FIELDS_JSON}),
   * since omkafka cannot set record headers per message. What the C daemon costs for the edge's job
   * rather than for forwarding alone.
   */
  RSYSLOG_FIELDS("rsyslog-fields", false) {
    @Override
    RsyslogEdge.Body rsyslogBody() {
      return RsyslogEdge.Body.CONTRACT_FIELDS_JSON;
    }
  };

  /**
   * The site every variant names (ours' {@code site} header, rsyslog-fields' {@code site} field).
   */
  static final String SITE = "bench";

  /** The Flume agent name (-n) of every variant. */
  static final String AGENT = "edge";

  static final String CHANNEL = "ch0";

  private final String flagName;

  /**
   * Rendered from the edge template (ours and the variants made from it), so it runs our plugins.
   */
  private final boolean usesPlugins;

  Variant(String flagName, boolean usesPlugins) {
    this.flagName = flagName;
    this.usesPlugins = usesPlugins;
  }

  /**
   * Where a variant's agent listens and writes. {@code port} 0 lets the agent choose (ours only);
   * {@code protocol} is TCP or UDP.
   */
  public record Target(String bootstrapServers, String topic, int port, Protocol protocol) {
    /** A target on TCP. */
    public Target(String bootstrapServers, String topic, int port) {
      this(bootstrapServers, topic, port, Protocol.TCP);
    }
  }

  /**
   * The name of every variant's source when it listens on {@code protocol}, as the edge template
   * names it.
   */
  static String sourceName(Protocol protocol) {
    return "syslog_" + protocol.flagName();
  }

  /**
   * Template variables the bench sets for {@link #OURS} itself: what the bench's target and load
   * need.
   */
  public static final Set<String> BENCH_OWNED_VARIABLES =
      Set.of(
          "agent_name",
          "site",
          "kafka_bootstrap_servers",
          "kafka_topic",
          "edge_listeners",
          "edge_bind_address",
          "edge_tcp_port",
          "edge_udp_port",
          "edge_kafka_sinks");

  /**
   * The agent's Flume properties: every Flume variant overrides this; the rsyslog ones, which run
   * no Flume agent, do not. {@code templateVariables} (from {@code --set}) change the edge template
   * of {@link #OURS} and the variants made from it and nothing else: the stock variants are fixed
   * configurations.
   */
  public String properties(Target target, int sinks, Map<String, Object> templateVariables) {
    throw new IllegalStateException(
        "the "
            + flagName
            + " variant runs no Flume agent; its configuration is "
            + "RsyslogEdge.config");
  }

  /** The host partitions of {@link #OURS_HOST_AFFINITY}: fewer than the bench topic's 4. */
  static final int HOST_AFFINITY_PARTITIONS = 2;

  /** {@link #OURS} with one template variable set, whatever {@code --set} says of it. */
  private static String oursWith(
      String variable,
      Object value,
      Target target,
      int sinks,
      Map<String, Object> templateVariables) {
    Map<String, Object> variables = new LinkedHashMap<>(templateVariables);
    variables.put(variable, value);
    return OURS.properties(target, sinks, variables);
  }

  /**
   * The errors {@code flafka lint} finds in this variant's configuration with {@code
   * templateVariables}: a variant must not measure an agent that loses events or drops headers (as
   * {@code edge_channel_type=kafka edge_channel_impl=stock} would: Flume's Kafka channel without
   * its envelope writes bodies only).
   */
  public List<Finding> lintErrors(
      Protocol protocol, int sinks, Map<String, Object> templateVariables, int partitions) {
    if (!isFlumeAgent()) {
      return List.of();
    }
    return Variants.lintErrors(
        properties(
            new Target("127.0.0.1:9092", "lint", choosesItsPort() ? 0 : 5140, protocol),
            sinks,
            templateVariables),
        partitions);
  }

  /**
   * Why this variant cannot run on the secure stack ({@code --secure}), or null when it can: ours
   * and the ours-* variants take Kafka's security from the edge template's variables, as a deployed
   * edge does; the stock variants are Flume's configurations as written, without security settings,
   * and the bench configures rsyslog's omkafka without SASL or TLS.
   */
  public String whyNotSecure() {
    if (usesPlugins) {
      return null;
    }
    return isFlumeAgent()
        ? "it is a fixed configuration of Flume's, without Kafka security settings"
        : "the bench configures rsyslog's omkafka without SASL or TLS";
  }

  /** What rsyslogd writes for an rsyslog variant; null for the variants that run a Flume agent. */
  RsyslogEdge.Body rsyslogBody() {
    return null;
  }

  /** Whether the variant runs a Flume agent (the rsyslog variants do not). */
  boolean isFlumeAgent() {
    return rsyslogBody() == null;
  }

  /**
   * Whether the agent can listen on port 0 and report the port (ListenPort); stock needs a fixed
   * port.
   */
  boolean choosesItsPort() {
    return usesPlugins();
  }

  /** Whether the agent runs our plugins (their jars go on its classpath). */
  public boolean usesPlugins() {
    return usesPlugins;
  }

  public String flagName() {
    return flagName;
  }

  /** The variant named {@code name} on the command line, or null. */
  public static Variant byFlagName(String name) {
    return Variants.byFlagName(values(), Variant::flagName, name);
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
      return Variants.flagNames(values(), Variant::flagName);
    }
  }

  static String sinkName(int index) {
    return "kafka" + index;
  }

  private static String stockProperties(
      Target target,
      int sinks,
      Map<String, String> source,
      Map<String, String> channel,
      Map<String, String> sink) {
    List<String> sinkNames = new ArrayList<>();
    for (int i = 0; i < sinks; i++) {
      sinkNames.add(sinkName(i));
    }
    StringBuilder text = new StringBuilder();
    String a = AGENT;
    String sourceName = sourceName(target.protocol());
    text.append(a).append(".sources = ").append(sourceName).append('\n');
    text.append(a).append(".channels = ").append(CHANNEL).append('\n');
    text.append(a).append(".sinks = ").append(String.join(" ", sinkNames)).append('\n');
    String s = a + ".sources." + sourceName;
    if (target.protocol() == Protocol.UDP) {
      text.append(s).append(".type = syslogudp\n");
      text.append(s).append(".host = 127.0.0.1\n");
      text.append(s).append(".port = ").append(target.port()).append('\n');
    } else {
      text.append(s).append(".type = multiport_syslogtcp\n");
      text.append(s).append(".host = 127.0.0.1\n");
      text.append(s).append(".ports = ").append(target.port()).append('\n');
    }
    text.append(s).append(".channels = ").append(CHANNEL).append('\n');
    append(text, s, source);
    String c = a + ".channels." + CHANNEL;
    text.append(c).append(".type = memory\n");
    append(text, c, channel);
    for (String name : sinkNames) {
      String k = a + ".sinks." + name;
      text.append(k).append(".type = org.apache.flume.sink.kafka.KafkaSink\n");
      text.append(k).append(".channel = ").append(CHANNEL).append('\n');
      text.append(k)
          .append(".kafka.bootstrap.servers = ")
          .append(target.bootstrapServers())
          .append('\n');
      text.append(k).append(".kafka.topic = ").append(target.topic()).append('\n');
      append(text, k, sink);
    }
    return text.toString();
  }

  private static void append(StringBuilder text, String prefix, Map<String, String> settings) {
    settings.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                text.append(prefix)
                    .append('.')
                    .append(e.getKey())
                    .append(" = ")
                    .append(e.getValue())
                    .append('\n'));
  }
}
