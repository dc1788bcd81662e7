package org.flafka.sweep.space;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.render.Tier;

/**
 * The knob values of one trial: the space's fixed settings overlaid by the trial's point in the
 * dimensions. Template variables left out keep the template's defaults; the topic and the load fall
 * back to their knobs' defaults.
 */
public record Settings(Map<String, Object> values) {
  public Settings {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * The template variables for {@code tier}: edge or core knobs of that tier, and the shared
   * kafka_* ones.
   */
  public Map<String, Object> templateVariables(Tier tier) {
    Map<String, Object> variables = new LinkedHashMap<>();
    values.forEach(
        (name, value) -> {
          Knob.Kind kind = Knobs.find(name).map(Knob::kind).orElseThrow();
          if (kind == Knob.Kind.SHARED
              || (kind == Knob.Kind.EDGE && tier == Tier.EDGE)
              || (kind == Knob.Kind.CORE && tier == Tier.CORE)) {
            variables.put(name, value);
          }
        });
    return variables;
  }

  /** The topic's partition count for this trial. */
  public int topicPartitions() {
    return ((Number) get(Knobs.TOPIC_PARTITIONS)).intValue();
  }

  /** A knob's value here, or its default. */
  public Object get(String knob) {
    Object value = values.get(knob);
    return value != null ? value : Knobs.find(knob).orElseThrow().defaultValue();
  }
}
