package org.flafka.edge.layeringfixtureb;

import org.flafka.edge.layeringfixturea.BadSource;

/**
 * Deliberately bad, for LayeringTest only: closes a cycle with {@link BadSource} and lower-cases in
 * the default locale.
 */
public final class BadSink {
  private BadSink() {}

  public static String topic(String name) {
    return BadSource.sink() == null ? name.toLowerCase() : name.toUpperCase();
  }
}
