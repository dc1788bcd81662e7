package org.flafka.lint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/**
 * One agent of a Flume properties file, read the way Flume reads it: {@code <agent>.sources = a b}
 * lists the components, {@code <agent>.sources.a.<property> = value} configures them, and a later
 * line wins over an earlier one with the same key ({@link Properties} semantics).
 */
public final class FlumeAgentConfig {

  /** The component kinds the scaling rules look at (sink groups are left to Flume). */
  public enum Kind {
    SOURCE("sources"),
    CHANNEL("channels"),
    SINK("sinks");

    private final String plural;

    Kind(String plural) {
      this.plural = plural;
    }

    /** The word in property keys: sources, channels, sinks. */
    public String plural() {
      return plural;
    }

    String singular() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A source, channel or sink with its own properties (keys relative to the component). */
  public record Component(Kind kind, String agent, String name, Map<String, String> properties) {

    /** The full key of one of this component's properties. */
    public String key(String property) {
      return agent + "." + kind.plural() + "." + name + "." + property;
    }

    /** The component's own key prefix, used to name it in findings: {@code edge.channels.ch0}. */
    public String id() {
      return agent + "." + kind.plural() + "." + name;
    }

    public String type() {
      return properties.getOrDefault("type", "").trim();
    }

    public Optional<String> get(String property) {
      return Optional.ofNullable(properties.get(property)).map(String::trim);
    }

    /**
     * Whether the type is any of the given names, ignoring case as Flume does for its short names.
     */
    public boolean isType(String... names) {
      return Arrays.stream(names).anyMatch(type()::equalsIgnoreCase);
    }

    /** A short description for messages: "source syslog_tcp". */
    public String describe() {
      return kind.singular() + " " + name;
    }
  }

  private final String agent;
  private final Map<Kind, List<String>> listed;
  private final Map<Kind, Map<String, Component>> defined;

  private FlumeAgentConfig(
      String agent, Map<Kind, List<String>> listed, Map<Kind, Map<String, Component>> defined) {
    this.agent = agent;
    this.listed = listed;
    this.defined = defined;
  }

  /** Every agent in the properties, in name order. */
  public static List<FlumeAgentConfig> parse(Properties properties) {
    TreeSet<String> agents = new TreeSet<>();
    for (String key : properties.stringPropertyNames()) {
      String[] parts = key.split("\\.", 4);
      if (parts.length >= 2
          && kindOf(parts[1]) != null
          && (parts.length == 2 || parts.length == 4)) {
        agents.add(parts[0]);
      }
    }
    List<FlumeAgentConfig> result = new ArrayList<>();
    for (String agent : agents) {
      result.add(parseAgent(agent, properties));
    }
    return result;
  }

  private static FlumeAgentConfig parseAgent(String agent, Properties properties) {
    Map<Kind, List<String>> listed = new EnumMap<>(Kind.class);
    Map<Kind, Map<String, Map<String, String>>> props = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      props.put(kind, new LinkedHashMap<>());
      String list = properties.getProperty(agent + "." + kind.plural());
      if (list != null) {
        listed.put(kind, splitNames(list));
      }
    }
    for (String key : new TreeSet<>(properties.stringPropertyNames())) {
      String[] parts = key.split("\\.", 4);
      if (parts.length == 4 && parts[0].equals(agent) && kindOf(parts[1]) != null) {
        props
            .get(kindOf(parts[1]))
            .computeIfAbsent(parts[2], name -> new LinkedHashMap<>())
            .put(parts[3], properties.getProperty(key));
      }
    }
    Map<Kind, Map<String, Component>> defined = new EnumMap<>(Kind.class);
    props.forEach(
        (kind, byName) -> {
          Map<String, Component> components = new LinkedHashMap<>();
          byName.forEach(
              (name, componentProps) ->
                  components.put(
                      name,
                      new Component(
                          kind, agent, name, Collections.unmodifiableMap(componentProps))));
          defined.put(kind, Collections.unmodifiableMap(components));
        });
    return new FlumeAgentConfig(agent, listed, defined);
  }

  private static Kind kindOf(String word) {
    for (Kind kind : Kind.values()) {
      if (kind.plural().equals(word)) {
        return kind;
      }
    }
    return null;
  }

  static List<String> splitNames(String list) {
    String trimmed = list.trim();
    return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("\\s+"));
  }

  public String agent() {
    return agent;
  }

  /** The names in {@code <agent>.<kind plural>}, empty when that key is absent. */
  public List<String> listed(Kind kind) {
    return listed.getOrDefault(kind, List.of());
  }

  /** The components of a kind that have at least one property, listed or not. */
  public Map<String, Component> defined(Kind kind) {
    return defined.get(kind);
  }

  /** The listed components that are also defined: what Flume would try to start. */
  public List<Component> active(Kind kind) {
    List<Component> result = new ArrayList<>();
    for (String name : listed(kind)) {
      Component component = defined(kind).get(name);
      if (component != null) {
        result.add(component);
      }
    }
    return result;
  }

  /** The channel names a source puts into ({@code channels}). */
  public static List<String> channelsOf(Component source) {
    return source.get("channels").map(FlumeAgentConfig::splitNames).orElse(List.of());
  }

  /** The active sources that put into {@code channel}. */
  public List<Component> sourcesFeeding(String channel) {
    return active(Kind.SOURCE).stream()
        .filter(source -> channelsOf(source).contains(channel))
        .toList();
  }

  /** The active sinks that take from {@code channel}. */
  public List<Component> sinksDraining(String channel) {
    return active(Kind.SINK).stream()
        .filter(sink -> sink.get("channel").map(channel::equals).orElse(false))
        .toList();
  }
}
