package org.flafka.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;
import org.flafka.core.HdfsBucketSinkConfig;
import org.flafka.interceptors.HostLaneInterceptorConfig;
import org.flafka.core.KafkaRecordSourceConfig;
import org.flafka.edge.channel.BatchMemoryChannelConfig;
import org.flafka.edge.sink.KafkaRecordConfig;
import org.flafka.edge.source.SyslogSourceConfig;
import org.flafka.interceptors.EventIdInterceptorConfig;
import org.flafka.interceptors.FanOutInterceptorConfig;
import org.flafka.interceptors.SyslogInterceptorConfig;
import org.flafka.lint.FlumeAgentConfig.Component;
import org.flafka.lint.FlumeAgentConfig.Kind;

/**
 * The {@code plugin-keys} rule: every component and interceptor of the kit's own is given to the configuration class
 * it parses its keys with when the agent starts, with the properties Flume gives it. So what the agent would refuse
 * (a value out of range, a missing required key, a key one of the strict plugins does not know) is an ERROR here,
 * before the rollout, and what it would only log as ignored (an unknown key of the edge plugins) a WARNING.
 */
final class PluginKeys {

    /** How a plugin parses its properties: it throws what the agent would refuse, and returns its warnings. */
    @FunctionalInterface
    private interface Parse {
        List<String> warnings(String name, Map<String, String> properties);
    }

    private static final Map<String, Parse> COMPONENTS = Map.of(
            Rules.FLAFKA_SYSLOG_SOURCE,
            (name, props) -> SyslogSourceConfig.parse("syslog source " + name, props).unknownKeyWarnings(),
            Rules.KAFKA_RECORD_SINK,
            (name, props) -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.SINK, name, props).unknownKeyWarnings(),
            Rules.KAFKA_RECORD_CHANNEL,
            (name, props) -> KafkaRecordConfig.parse(KafkaRecordConfig.Role.CHANNEL, name, props).unknownKeyWarnings(),
            Rules.BATCH_MEMORY_CHANNEL,
            (name, props) -> BatchMemoryChannelConfig.parse("memory channel " + name, props).unknownKeyWarnings(),
            Rules.KAFKA_RECORD_SOURCE, strict(KafkaRecordSourceConfig::new),
            Rules.HDFS_BUCKET_SINK, strict(HdfsBucketSinkConfig::new));

    /** By the builder class an interceptor's {@code type} names. */
    private static final Map<String, Parse> INTERCEPTORS = Map.of(
            "org.flafka.interceptors.SyslogInterceptor$Builder", strict(SyslogInterceptorConfig::new),
            "org.flafka.interceptors.EventIdInterceptor$Builder", strict(EventIdInterceptorConfig::new),
            "org.flafka.interceptors.FanOutInterceptor$Builder", strict(FanOutInterceptorConfig::new),
            "org.flafka.interceptors.BucketHeadersInterceptor$Builder", strict(BucketHeadersInterceptorConfig::new),
            "org.flafka.interceptors.HostLaneInterceptor$Builder", strict(HostLaneInterceptorConfig::new));

    private PluginKeys() {
    }

    /** A plugin whose configuration class throws on an unknown key too, and warns of nothing. */
    private static Parse strict(Consumer<Map<String, String>> parse) {
        return (name, props) -> {
            parse.accept(props);
            return List.of();
        };
    }

    /** The rule: the active components of the kit's own types, and the interceptors of every active source. */
    static List<Finding> check(FlumeAgentConfig agent, OptionalInt partitions) {
        List<Finding> findings = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (Component component : agent.active(kind)) {
                Parse parse = COMPONENTS.get(component.type());
                if (parse != null) {
                    findings.addAll(findings(component.id(), component.describe(),
                            () -> parse.warnings(component.name(), component.properties())));
                }
                if (kind == Kind.SOURCE) {
                    findings.addAll(interceptors(component));
                }
            }
        }
        return findings;
    }

    /** Flume configures each interceptor of a source with its {@code interceptors.<name>.} properties. */
    private static List<Finding> interceptors(Component source) {
        List<Finding> findings = new ArrayList<>();
        for (String interceptor : FlumeAgentConfig.splitNames(source.get("interceptors").orElse(""))) {
            String prefix = "interceptors." + interceptor + ".";
            Map<String, String> props = new LinkedHashMap<>();
            source.properties().forEach((key, value) -> {
                if (key.startsWith(prefix)) {
                    props.put(key.substring(prefix.length()), value);
                }
            });
            Parse parse = INTERCEPTORS.get(props.getOrDefault("type", ""));
            if (parse != null) {
                findings.addAll(findings(source.key("interceptors." + interceptor), "interceptor " + interceptor
                        + " of " + source.describe(), () -> parse.warnings(interceptor, props)));
            }
        }
        return findings;
    }

    /**
     * A WARNING per key the plugin would ignore, or the ERROR it would stop at, split into problem and fix where the
     * plugin's message has a "Fix:" (the strict plugins' messages name the key and the rule, or list the known keys).
     */
    private static List<Finding> findings(String where, String what, Supplier<List<String>> parse) {
        List<Finding> findings = new ArrayList<>();
        try {
            for (String warning : parse.get()) {
                findings.add(Finding.warning("plugin-keys", where, warning,
                        "remove the key or correct its name; the plugin ignores it"));
            }
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            int fix = message.lastIndexOf(" Fix: ");
            findings.add(Finding.error("plugin-keys", where, what + " is refused at start: "
                            + trimEnd(fix < 0 ? message : message.substring(0, fix)),
                    fix < 0 ? "correct the key or value it names (each plugin's keys: docs/reference/edge-source.md,"
                            + " docs/reference/edge-sink.md, docs/tools/parser.md, docs/reference/template-variables.md)"
                            : trimEnd(message.substring(fix + 6))));
        }
        return findings;
    }

    private static String trimEnd(String sentence) {
        String trimmed = sentence.trim();
        return trimmed.endsWith(".") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
