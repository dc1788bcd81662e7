package org.flafka.lint;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;

/** Runs every rule of {@link Rules} over every agent in a Flume properties file. */
public final class Linter {

  private Linter() {}

  /**
   * The findings for {@code properties}, rule by rule.
   *
   * @param partitions the topic's partition count, when known (enables the
   *     sources-versus-partitions rule)
   */
  public static List<Finding> lint(Properties properties, OptionalInt partitions) {
    List<FlumeAgentConfig> agents = FlumeAgentConfig.parse(properties);
    List<Finding> findings = new ArrayList<>();
    if (agents.isEmpty()) {
      findings.add(
          Finding.error(
              "undefined-component",
              "(file)",
              "no agent found: no key of the form <agent>.sources, <agent>.channels or <agent>.sinks",
              "lint a Flume agent properties file, e.g. one written by flafka render"));
    }
    for (Rules.Rule rule : Rules.all()) {
      for (FlumeAgentConfig agent : agents) {
        findings.addAll(rule.check().apply(agent, partitions));
      }
    }
    return findings;
  }
}
