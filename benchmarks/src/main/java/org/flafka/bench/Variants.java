package org.flafka.bench;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.function.Function;
import org.flafka.lint.Finding;
import org.flafka.lint.Linter;

/** What the benches' variants ({@link Variant}, {@link CoreVariant}) do alike. */
final class Variants {
  private Variants() {}

  /** The variant of {@code variants} named {@code name} on the command line, or null. */
  static <V> V byFlagName(V[] variants, Function<V, String> flagName, String name) {
    for (V variant : variants) {
      if (flagName.apply(variant).equals(name)) {
        return variant;
      }
    }
    return null;
  }

  /** The flag names of {@code variants}, in their order. */
  static <V> Iterator<String> flagNames(V[] variants, Function<V, String> flagName) {
    return Arrays.stream(variants).map(flagName).iterator();
  }

  /**
   * The errors {@code flafka lint} finds in an agent's Flume {@code properties} on a topic of
   * {@code partitions}.
   */
  static List<Finding> lintErrors(String properties, int partitions) {
    Properties rendered = new Properties();
    try {
      rendered.load(new StringReader(properties));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Linter.lint(rendered, OptionalInt.of(partitions)).stream()
        .filter(finding -> finding.severity() == Finding.Severity.ERROR)
        .toList();
  }
}
