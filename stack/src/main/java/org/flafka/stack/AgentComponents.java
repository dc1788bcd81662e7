package org.flafka.stack;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sources, channels and sinks a Flume properties file declares for one agent ({@code
 * <agent>.sources = r1 r2}, {@code <agent>.sources.r1.type = ...}), read without Flume. The runners
 * compare them with what Flume actually started, because Flume drops a component that fails
 * validation or configuration with only a log line (docs/reference/dependencies.md, "Flume drops a
 * component it cannot configure").
 */
public final class AgentComponents {
  /** The kinds of component, with the prefix Flume gives their metrics ({@code SOURCE.r1}). */
  public enum Kind {
    SOURCE("sources"),
    CHANNEL("channels"),
    SINK("sinks");

    private final String key;

    Kind(String key) {
      this.key = key;
    }

    /**
     * The properties key listing components of this kind: {@code sources}, {@code channels}, {@code
     * sinks}.
     */
    public String key() {
      return key;
    }

    /** The name of a component's metrics group: {@code SOURCE.r1}. */
    public String metricName(String component) {
      return name() + "." + component;
    }

    String displayName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Stock Flume 1.11 components that register no metrics counters (netcat and stress sources, null
   * and logger sinks): their start cannot be seen in the metrics, only a failure in the log.
   */
  private static final Map<Kind, Set<String>> TYPES_WITHOUT_METRICS =
      Map.of(
          Kind.SOURCE,
              Set.of(
                  "netcat",
                  "netcatudp",
                  "org.apache.flume.source.NetcatSource",
                  "org.apache.flume.source.NetcatUdpSource",
                  "org.apache.flume.source.StressSource"),
          Kind.CHANNEL, Set.of(),
          Kind.SINK,
              Set.of(
                  "null",
                  "logger",
                  "org.apache.flume.sink.NullSink",
                  "org.apache.flume.sink.LoggerSink"));

  private final String agent;
  private final Map<Kind, Map<String, String>> typesByKind;

  private AgentComponents(String agent, Map<Kind, Map<String, String>> typesByKind) {
    this.agent = agent;
    this.typesByKind = typesByKind;
  }

  /**
   * The components {@code properties} declares for {@code agent}. Fails, naming the agent and the
   * agents that are declared, when the agent declares no channel or neither a source nor a sink.
   */
  public static AgentComponents declaredIn(String agent, String properties) {
    Properties props = load(properties);
    Map<Kind, Map<String, String>> typesByKind = new LinkedHashMap<>();
    for (Kind kind : Kind.values()) {
      Map<String, String> types = new LinkedHashMap<>();
      String list = props.getProperty(agent + "." + kind.key(), "").strip();
      if (!list.isEmpty()) {
        for (String name : list.split("\\s+")) {
          types.put(
              name, props.getProperty(agent + "." + kind.key() + "." + name + ".type", "").strip());
        }
      }
      typesByKind.put(kind, Collections.unmodifiableMap(types));
    }
    AgentComponents components = new AgentComponents(agent, typesByKind);
    if (components.channels().isEmpty()
        || (components.sources().isEmpty() && components.sinks().isEmpty())) {
      throw new IllegalArgumentException(
          "the configuration declares no agent '"
              + agent
              + "' with a channel and a"
              + " source or sink (no "
              + agent
              + ".channels, or neither "
              + agent
              + ".sources nor "
              + agent
              + ".sinks); agents it declares: "
              + agentNames(properties));
    }
    return components;
  }

  /** The agents {@code properties} declares sources, channels or sinks for. */
  public static Set<String> agentNames(String properties) {
    Set<String> agents = new TreeSet<>();
    for (String key : load(properties).stringPropertyNames()) {
      for (Kind kind : Kind.values()) {
        String suffix = "." + kind.key();
        if (key.endsWith(suffix) && key.indexOf('.') == key.length() - suffix.length()) {
          agents.add(key.substring(0, key.length() - suffix.length()));
        }
      }
    }
    return agents;
  }

  private static Properties load(String properties) {
    Properties props = new Properties();
    try {
      props.load(new StringReader(properties));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return props;
  }

  public String agent() {
    return agent;
  }

  public Set<String> sources() {
    return names(Kind.SOURCE);
  }

  public Set<String> channels() {
    return names(Kind.CHANNEL);
  }

  public Set<String> sinks() {
    return names(Kind.SINK);
  }

  /** The names of the declared components of {@code kind}, in declaration order. */
  public Set<String> names(Kind kind) {
    return Collections.unmodifiableSet(new LinkedHashSet<>(typesByKind.get(kind).keySet()));
  }

  /** The {@code type} of a declared component, or "" when the configuration gives none. */
  public String type(Kind kind, String name) {
    String type = typesByKind.get(kind).get(name);
    if (type == null) {
      throw new IllegalArgumentException(
          agent + " declares no " + kind.displayName() + " '" + name + "'");
    }
    return type;
  }

  /**
   * Metric group names ({@code SOURCE.r1}) of every declared component whose type reports metrics.
   */
  public Set<String> metricNames() {
    Set<String> names = new LinkedHashSet<>();
    typesByKind.forEach(
        (kind, types) ->
            types.forEach(
                (name, type) -> {
                  if (!TYPES_WITHOUT_METRICS.get(kind).contains(type)) {
                    names.add(kind.metricName(name));
                  }
                }));
    return names;
  }

  /** "source r1, sink k1": the components among {@code metricNames} for messages. */
  static String describe(Set<String> metricNames) {
    return String.join(
        ", ",
        metricNames.stream()
            .map(
                name -> {
                  int dot = name.indexOf('.');
                  return name.substring(0, dot).toLowerCase(Locale.ROOT)
                      + " "
                      + name.substring(dot + 1);
                })
            .toList());
  }

  @Override
  public String toString() {
    return "AgentComponents["
        + agent
        + ": sources="
        + sources()
        + ", channels="
        + channels()
        + ", sinks="
        + sinks()
        + "]";
  }
}
