package org.flafka.edge.layeringfixturea;

import org.flafka.edge.layeringfixtureb.BadSink;
import org.flafka.sweep.SweepResult;

/**
 * Deliberately bad, for LayeringTest only: an edge package that depends on the sweep (a tool) and,
 * with {@link BadSink}, makes a cycle between two edge packages.
 */
public final class BadSource {
  private BadSource() {}

  public static BadSink sink() {
    return null;
  }

  public static SweepResult result() {
    return null;
  }
}
