package org.flafka.sweep.space;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.flafka.load.FormatMix;
import org.flafka.load.Framing;
import org.flafka.load.Mark;
import org.flafka.load.Protocol;
import org.flafka.load.SizeSpec;
import org.flafka.render.AgentTemplates;
import org.flafka.render.TemplateVariable;
import org.flafka.render.Tier;

/**
 * Every knob a space may name, in one place: the variables of the agent templates (read from their
 * defaults files, so a new variable is sweepable at once and a renamed one is rejected), {@value
 * #TOPIC_PARTITIONS}, and the load's settings under {@value #LOAD_PREFIX}. Variables that describe
 * where things run (bootstrap servers, ports, paths, topic, agent names) belong to the target and
 * cannot be set by a space: the best configuration must not carry this machine's ports into
 * production.
 */
public final class Knobs {
  /**
   * The only knob that is not a template variable: Kafka partitions of the topic, set through
   * AdminClient.
   */
  public static final String TOPIC_PARTITIONS = "topic_partitions";

  /**
   * Partitions when a space does not choose: enough for the templates' default two Kafka sources
   * and room to add sources, few enough for a single local broker.
   */
  public static final long DEFAULT_TOPIC_PARTITIONS = 4;

  /** Load settings are named {@code load.<flag>}, after the flags of {@code flafka load}. */
  public static final String LOAD_PREFIX = "load.";

  /** Template variables the target sets for its own environment; a space may not set them. */
  public static final Set<String> TARGET_OWNED =
      Set.of(
          "agent_name",
          "site",
          "kafka_bootstrap_servers",
          "kafka_topic",
          "edge_listeners",
          "edge_bind_address",
          "edge_udp_port",
          "edge_tcp_port",
          "edge_tls_port",
          "edge_tls_keystore",
          "edge_tls_keystore_type",
          "edge_data_dir",
          "core_consumer_group",
          "core_hdfs_root",
          "core_data_dir");

  private static final int MAX_SUGGESTION_DISTANCE = 3;
  private static final Map<String, Knob> ALL = build();

  private Knobs() {}

  /** Every knob, template variables first (edge, shared, core), then the topic and the load. */
  public static Map<String, Knob> all() {
    return ALL;
  }

  /** The knob called {@code name}, if a space may set it. */
  public static Optional<Knob> find(String name) {
    return Optional.ofNullable(ALL.get(name));
  }

  /** Why {@code name} is not a knob, with the nearest valid name when one is close. */
  public static String whyUnknown(String name) {
    if (TARGET_OWNED.contains(name)) {
      return "'"
          + name
          + "' is set by the target for the machines it runs on (ports, paths, servers), so a"
          + " space cannot set or sweep it; remove it";
    }
    String suggestion =
        ALL.keySet().stream()
            .min(Comparator.comparingInt(candidate -> AgentTemplates.editDistance(name, candidate)))
            .filter(
                candidate ->
                    AgentTemplates.editDistance(name, candidate) <= MAX_SUGGESTION_DISTANCE)
            .map(candidate -> "did you mean " + candidate + "? ")
            .orElse("");
    return "unknown dimension '"
        + name
        + "': not a variable of the edge or core template, nor "
        + TOPIC_PARTITIONS
        + " or "
        + LOAD_PREFIX
        + "<setting>; "
        + suggestion
        + "`flafka sweep --list-knobs` lists them all";
  }

  private static Map<String, Knob> build() {
    Map<String, TemplateVariable> edge = byName(Tier.EDGE);
    Map<String, TemplateVariable> core = byName(Tier.CORE);
    Map<String, Knob> knobs = new LinkedHashMap<>();
    for (TemplateVariable variable : edge.values()) {
      if (!TARGET_OWNED.contains(variable.name())) {
        Knob.Kind kind = core.containsKey(variable.name()) ? Knob.Kind.SHARED : Knob.Kind.EDGE;
        knobs.put(variable.name(), templateKnob(variable, kind));
      }
    }
    for (TemplateVariable variable : core.values()) {
      if (!TARGET_OWNED.contains(variable.name()) && !knobs.containsKey(variable.name())) {
        knobs.put(variable.name(), templateKnob(variable, Knob.Kind.CORE));
      }
    }
    knobs.put(
        TOPIC_PARTITIONS,
        new Knob(
            TOPIC_PARTITIONS,
            Knob.Kind.TOPIC,
            DEFAULT_TOPIC_PARTITIONS,
            "Partitions of the topic between edge and core (created through Kafka's AdminClient for each trial)."
                + " At least 1.",
            value -> atLeast(TOPIC_PARTITIONS, value, 1, 100_000)));
    for (Knob knob : loadKnobs()) {
      knobs.put(knob.name(), knob);
    }
    return Collections.unmodifiableMap(knobs);
  }

  private static Knob templateKnob(TemplateVariable variable, Knob.Kind kind) {
    return new Knob(
        variable.name(),
        kind,
        variable.coerce(variable.defaultValue()),
        variable.doc(),
        variable::coerce);
  }

  private static Map<String, TemplateVariable> byName(Tier tier) {
    Map<String, TemplateVariable> variables = new LinkedHashMap<>();
    for (TemplateVariable variable : AgentTemplates.variables(tier)) {
      variables.put(variable.name(), variable);
    }
    return variables;
  }

  private static List<Knob> loadKnobs() {
    List<Knob> knobs = new ArrayList<>();
    knobs.add(
        new Knob(
            "load.protocol",
            Knob.Kind.LOAD,
            "tcp",
            "Transport of the load: tcp or udp (UDP loses what the kernel drops; TCP must lose nothing).",
            value -> {
              String text = string("load.protocol", value);
              if (!text.equals("tcp") && !text.equals("udp")) {
                throw new IllegalArgumentException(
                    "must be tcp or udp (the sweep does not set up TLS keys)");
              }
              return text;
            }));
    knobs.add(
        new Knob(
            "load.framing",
            Knob.Kind.LOAD,
            "newline",
            "TCP framing: newline or octet-counting (RFC 6587); ignored for udp.",
            value -> {
              String text = string("load.framing", value);
              Framing framing = Framing.byFlagName(text);
              if (framing == null || framing == Framing.NONE) {
                throw new IllegalArgumentException("must be newline or octet-counting");
              }
              return text;
            }));
    knobs.add(
        new Knob(
            "load.rate",
            Knob.Kind.LOAD,
            "max",
            "Events per second over all connections, or max (as fast as the pipeline accepts).",
            value -> {
              if ("max".equals(value)) {
                return "max";
              }
              double rate =
                  value instanceof Number number ? number.doubleValue() : parseDouble(value);
              if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException(
                    "must be max or a number of events per second above 0");
              }
              return value instanceof Number ? value : rate;
            }));
    knobs.add(
        new Knob(
            "load.connections",
            Knob.Kind.LOAD,
            2L,
            "Parallel connections of the load generator, one thread each. At least 1.",
            value -> atLeast("load.connections", value, 1, 10_000)));
    knobs.add(
        new Knob(
            "load.devices",
            Knob.Kind.LOAD,
            100L,
            "Simulated devices (host names); each sends on one connection. At least load.connections.",
            value -> atLeast("load.devices", value, 1, Mark.MAX_DEVICE + 1)));
    knobs.add(
        new Knob(
            "load.sizes",
            Knob.Kind.LOAD,
            "200",
            "Message sizes in bytes: one size (200), a range (100-400) or weights (200:90,4096:9,1m:1).",
            value -> {
              String text = scalarText("load.sizes", value);
              sizeSpec(text);
              return text;
            }));
    knobs.add(
        new Knob(
            "load.mix",
            Knob.Kind.LOAD,
            FormatMix.DEFAULT,
            "Message formats by weight: rfc5424, rfc3164, asa, pix, ios, junk.",
            value -> {
              String text = string("load.mix", value);
              FormatMix.parse("load.mix", text);
              return text;
            }));
    knobs.add(
        new Knob(
            "load.seed",
            Knob.Kind.LOAD,
            1L,
            "Seed of the format and size schedule, so every trial sends the same messages.",
            value -> atLeast("load.seed", value, 0, Long.MAX_VALUE)));
    return knobs;
  }

  /**
   * Parses a size specification as {@code flafka load} does: weights if it has a colon, else
   * --size.
   */
  public static SizeSpec sizeSpec(String text) {
    return text.contains(":")
        ? SizeSpec.parseWeighted("load.sizes", text)
        : SizeSpec.parseSize("load.sizes", text);
  }

  /** The protocol enum of a coerced load.protocol value. */
  public static Protocol protocol(Object value) {
    return Protocol.byFlagName(String.valueOf(value));
  }

  private static String string(String name, Object value) {
    if (!(value instanceof String text)) {
      throw new IllegalArgumentException("must be a string");
    }
    return text.trim();
  }

  private static String scalarText(String name, Object value) {
    if (value instanceof String || value instanceof Long || value instanceof Integer) {
      return value.toString().trim();
    }
    throw new IllegalArgumentException("must be a size or a size specification string");
  }

  private static double parseDouble(Object value) {
    try {
      return Double.parseDouble(String.valueOf(value).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be max or a number of events per second above 0");
    }
  }

  private static Long atLeast(String name, Object value, long minimum, long maximum) {
    long number;
    if (value instanceof Integer || value instanceof Long) {
      number = ((Number) value).longValue();
    } else if (value instanceof String text) {
      try {
        number = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("must be a whole number");
      }
    } else {
      throw new IllegalArgumentException("must be a whole number");
    }
    if (number < minimum || number > maximum) {
      throw new IllegalArgumentException(
          "must be "
              + (maximum == Long.MAX_VALUE
                  ? "at least " + minimum
                  : "between " + minimum + " and " + maximum)
              + ", not "
              + number);
    }
    return number;
  }
}
