package org.flafka.sweep.space;

import java.util.List;

/**
 * One swept knob and the values the space gives it, in the file's order; {@code line} is where it
 * is written.
 */
public record Dimension(Knob knob, List<Object> values, int line) {
  public Dimension {
    values = List.copyOf(values);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("a dimension needs at least one value");
    }
  }

  public String name() {
    return knob.name();
  }
}
