package org.flafka.sweep.layeringfixture;

import org.flafka.cli.Flafka;

/** Deliberately bad, for LayeringTest only: the sweep depending on the CLI. */
public final class BadSweep {
  private BadSweep() {}

  public static Class<?> cli() {
    return Flafka.class;
  }
}
