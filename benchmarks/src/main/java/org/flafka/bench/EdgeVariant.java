package org.flafka.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flafka.lint.Finding;
import org.flafka.load.Protocol;

/**
 * A variant as {@code --variants} names it: one of the built-in {@link Variant}s, and for ours and
 * the ours-* variants template variables of its own, written {@code
 * ours+edge_kafka_linger_ms=50+edge_kafka_batch_size=1048576}. They apply on top of {@code --set},
 * so two settings of one knob can be measured side by side in one run, where {@code --set} changes
 * every variant alike; what makes a built-in variant itself (ours-memory's {@code
 * edge_buffer_max_bytes: 0}) still wins.
 *
 * @param base the built-in variant
 * @param variables its own template variables, in the order written; empty for the plain variant
 */
public record EdgeVariant(Variant base, Map<String, Object> variables) {

  /** What separates the built-in variant and each of its own variables on the command line. */
  static final String SEPARATOR = "+";

  public EdgeVariant {
    variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    if (!variables.isEmpty() && !base.usesPlugins()) {
      throw new IllegalArgumentException(
          "--variants "
              + base.flagName()
              + SEPARATOR
              + String.join(SEPARATOR, variables.keySet())
              + ": template variables change only ours and the ours-* variants; "
              + base.flagName()
              + " is a fixed configuration");
    }
    for (String name : variables.keySet()) {
      if (Variant.BENCH_OWNED_VARIABLES.contains(name)) {
        throw new IllegalArgumentException(
            "--variants ..."
                + SEPARATOR
                + name
                + ": the bench sets this itself (its broker, topic, listener and --sinks); set any"
                + " other edge template variable");
      }
    }
  }

  /** The built-in variant with nothing of its own. */
  public static EdgeVariant of(Variant base) {
    return new EdgeVariant(base, Map.of());
  }

  /**
   * The variant {@code spec} names ({@code ours} or {@code ours+NAME=VALUE+...}), or null when its
   * built-in part names none. A value is read as {@code --set} reads it.
   */
  public static EdgeVariant parse(String spec) {
    String[] parts = spec.strip().split("\\+", -1);
    Variant base = Variant.byFlagName(parts[0].strip());
    if (base == null) {
      return null;
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      String assignment = parts[i].strip();
      int equals = assignment.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(
            "--variants "
                + spec.strip()
                + ": '"
                + assignment
                + "' is not NAME=VALUE; write a variant's own template variables as "
                + base.flagName()
                + "+NAME=VALUE+NAME=VALUE");
      }
      String name = assignment.substring(0, equals).strip();
      if (variables.put(name, assignment.substring(equals + 1).strip()) != null) {
        throw new IllegalArgumentException(
            "--variants " + spec.strip() + ": sets " + name + " twice");
      }
    }
    return new EdgeVariant(base, variables);
  }

  /**
   * The name the report and the work directories show: the built-in variant's, then its own
   * variables as written.
   */
  public String flagName() {
    StringBuilder name = new StringBuilder(base.flagName());
    variables.forEach((key, value) -> name.append(SEPARATOR).append(key).append('=').append(value));
    return name.toString();
  }

  /** {@link #flagName()} with what a file name should not hold replaced. */
  public String fileName() {
    return flagName().replaceAll("[^A-Za-z0-9._=-]", "_");
  }

  /**
   * The agent's Flume properties: the built-in variant's, with {@code templateVariables} ({@code
   * --set}) and then this variant's own variables.
   */
  public String properties(
      Variant.Target target, int sinks, Map<String, Object> templateVariables) {
    return base.properties(target, sinks, withOwn(templateVariables));
  }

  /** As {@link Variant#lintErrors}, with this variant's own variables. */
  public List<Finding> lintErrors(
      Protocol protocol, int sinks, Map<String, Object> templateVariables, int partitions) {
    return base.lintErrors(protocol, sinks, withOwn(templateVariables), partitions);
  }

  private Map<String, Object> withOwn(Map<String, Object> templateVariables) {
    Map<String, Object> all = new LinkedHashMap<>(templateVariables);
    all.putAll(variables);
    return all;
  }

  RsyslogEdge.Body rsyslogBody() {
    return base.rsyslogBody();
  }

  boolean isFlumeAgent() {
    return base.isFlumeAgent();
  }

  boolean choosesItsPort() {
    return base.choosesItsPort();
  }

  public boolean usesPlugins() {
    return base.usesPlugins();
  }

  @Override
  public String toString() {
    return flagName();
  }
}
