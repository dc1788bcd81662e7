package org.flafka.sweep.space;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One thing a space may set or sweep: a template variable of the edge or core agent (by its own
 * name), the topic's partition count ({@value Knobs#TOPIC_PARTITIONS}), or a setting of the load
 * ({@code load.<name>}).
 *
 * @param coerce converts a value from YAML to the type the rest of the sweep uses, or throws {@link
 *     IllegalArgumentException} with a message naming the rule the value breaks
 */
public record Knob(
    String name, Kind kind, Object defaultValue, String doc, UnaryOperator<Object> coerce) {

  /** Where a knob takes effect. */
  public enum Kind {
    /** A variable of the edge template only. */
    EDGE,
    /** A variable of the core template only. */
    CORE,
    /** A variable both templates declare (kafka_*): set on both, always the same. */
    SHARED,
    /** The topic's partition count, applied through Kafka's AdminClient before the agents start. */
    TOPIC,
    /** A setting of the load generator. */
    LOAD;
  }

  public Knob {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(coerce, "coerce");
  }

  /** The value converted and checked. */
  public Object value(Object raw) {
    return coerce.apply(raw);
  }
}
