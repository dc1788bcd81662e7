package org.flafka.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.flafka.core.HdfsBucketSinkConfig;
import org.flafka.core.KafkaRecordChannelConfig;
import org.flafka.core.KafkaRecordSourceConfig;
import org.flafka.edge.channel.BatchMemoryChannelConfig;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.source.SyslogSourceConfig;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;
import org.flafka.interceptors.EventIdInterceptorConfig;
import org.flafka.interceptors.FanOutInterceptorConfig;
import org.flafka.interceptors.HostLaneInterceptorConfig;
import org.flafka.interceptors.SyslogInterceptorConfig;
import org.flafka.lint.FlumeAgentConfig.Component;
import org.flafka.lint.FlumeAgentConfig.Kind;

/**
 * The {@code plugin-keys} rule: every component and interceptor of the kit's own is given to the
 * configuration class it parses its keys with when the agent starts, with the properties Flume
 * gives it. So what the agent would refuse (a value out of range, a missing required key, a key the
 * plugin does not know, a cross-field rule of the plugin's own) is an ERROR here, before the
 * rollout, in the plugin's own words.
 */
final class PluginKeys {

  /**
   * How a plugin parses its properties: it throws what the agent would refuse, naming the
   * component.
   */
  @FunctionalInterface
  private interface Parse {
    void parse(String name, Map<String, String> properties);
  }

  private static final Map<String, Parse> COMPONENTS =
      Map.of(
          Rules.FLAFKA_SYSLOG_SOURCE,
          (name, props) -> SyslogSourceConfig.parse("syslog source " + name, props),
          Rules.KAFKA_RECORD_SINK,
          (name, props) -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.SINK, name, props),
          Rules.KAFKA_RECORD_CHANNEL,
          (name, props) -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, name, props),
          Rules.BATCH_MEMORY_CHANNEL,
          (name, props) -> BatchMemoryChannelConfig.parse("memory channel " + name, props),
          Rules.KAFKA_RECORD_SOURCE,
          named(KafkaRecordSourceConfig::new, "Kafka record source "),
          Rules.HDFS_BUCKET_SINK,
          named(HdfsBucketSinkConfig::new, "HDFS bucket sink "),
          Rules.CORE_KAFKA_CHANNEL,
          named(KafkaRecordChannelConfig::new, "Kafka record channel "));

  /**
   * By the builder class an interceptor's {@code type} names; an interceptor does not know its
   * name.
   */
  private static final Map<String, Parse> INTERCEPTORS =
      Map.of(
          "org.flafka.interceptors.SyslogInterceptor$Builder",
              unnamed(SyslogInterceptorConfig::new),
          "org.flafka.interceptors.EventIdInterceptor$Builder",
              unnamed(EventIdInterceptorConfig::new),
          "org.flafka.interceptors.FanOutInterceptor$Builder",
              unnamed(FanOutInterceptorConfig::new),
          "org.flafka.interceptors.BucketHeadersInterceptor$Builder",
              unnamed(BucketHeadersInterceptorConfig::new),
          "org.flafka.interceptors.HostLaneInterceptor$Builder",
              unnamed(HostLaneInterceptorConfig::new));

  private PluginKeys() {}

  private static Parse named(BiConsumer<String, Map<String, String>> parse, String title) {
    return (name, props) -> parse.accept(title + name, props);
  }

  private static Parse unnamed(Consumer<Map<String, String>> parse) {
    return (name, props) -> parse.accept(props);
  }

  /**
   * The rule: the active components of the kit's own types, and the interceptors of every active
   * source.
   */
  static List<Finding> check(FlumeAgentConfig agent, OptionalInt partitions) {
    List<Finding> findings = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Component component : agent.active(kind)) {
        Parse parse = COMPONENTS.get(component.type());
        if (parse != null) {
          findings.addAll(
              findings(
                  component.id(),
                  component.describe(),
                  () -> parse.parse(component.name(), component.properties())));
        }
        if (kind == Kind.SOURCE) {
          findings.addAll(interceptors(component));
        }
      }
    }
    return findings;
  }

  /**
   * Flume configures each interceptor of a source with its {@code interceptors.<name>.} properties.
   */
  private static List<Finding> interceptors(Component source) {
    List<Finding> findings = new ArrayList<>();
    for (String interceptor : FlumeAgentConfig.splitNames(source.get("interceptors").orElse(""))) {
      String prefix = "interceptors." + interceptor + ".";
      Map<String, String> props = new LinkedHashMap<>();
      source
          .properties()
          .forEach(
              (key, value) -> {
                if (key.startsWith(prefix)) {
                  props.put(key.substring(prefix.length()), value);
                }
              });
      Parse parse = INTERCEPTORS.get(props.getOrDefault("type", ""));
      if (parse != null) {
        findings.addAll(
            findings(
                source.key("interceptors." + interceptor),
                "interceptor " + interceptor + " of " + source.describe(),
                () -> parse.parse(interceptor, props)));
      }
    }
    return findings;
  }

  /**
   * The ERROR the plugin would stop at, if any, split into problem and fix at the message's "Fix:".
   */
  private static List<Finding> findings(String where, String what, Runnable parse) {
    List<Finding> findings = new ArrayList<>();
    try {
      parse.run();
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      int fix = message.lastIndexOf(" Fix: ");
      findings.add(
          Finding.error(
              "plugin-keys",
              where,
              what
                  + " is refused at start: "
                  + trimEnd(fix < 0 ? message : message.substring(0, fix)),
              fix < 0
                  ? "correct the key or value it names (each plugin's keys: docs/reference/edge-source.md,"
                      + " docs/reference/edge-sink.md, docs/tools/parser.md, docs/reference/core-plugins.md)"
                  : trimEnd(message.substring(fix + 6))));
    }
    return findings;
  }

  private static String trimEnd(String sentence) {
    String trimmed = sentence.trim();
    return trimmed.endsWith(".") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }
}
