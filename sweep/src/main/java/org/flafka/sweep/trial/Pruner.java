package org.flafka.sweep.trial;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import org.flafka.lint.Finding;
import org.flafka.lint.Linter;
import org.flafka.render.AgentTemplates;
import org.flafka.render.TemplateRenderException;
import org.flafka.render.Tier;
import org.flafka.sweep.space.LoadPlan;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.target.Target;

/**
 * Rules a trial out before it runs, with the reason: its settings do not render, its load settings
 * contradict each other, {@code flafka lint}'s scaling rules find an error in either rendered agent
 * (transactionCapacity below a batch size, max.request.size below the largest message, ...) or more
 * Kafka sources than partitions (a lint warning, but a trial whose extra sources sit idle measures
 * nothing new), or the target cannot run it. The rules are lint's own, applied to the very text the
 * agents would get; nothing here restates them.
 */
public final class Pruner {
  /** Lint warnings that rule a trial out besides every error. */
  static final Set<String> PRUNING_WARNINGS = Set.of("kafka-sources-vs-partitions");

  private static final InetSocketAddress NOWHERE =
      InetSocketAddress.createUnresolved("localhost", 514);

  private final Target target;

  public Pruner(Target target) {
    this.target = target;
  }

  /** Why the trial with {@code settings} cannot run, or empty if it can. */
  public Optional<String> reason(Settings settings) {
    try {
      LoadPlan.of(settings).settings(NOWHERE, Duration.ofSeconds(1));
    } catch (IllegalArgumentException e) {
      return Optional.of("load: " + e.getMessage());
    }
    List<String> reasons = new ArrayList<>();
    for (Tier tier : Tier.values()) {
      String properties;
      try {
        properties = AgentTemplates.render(tier, settings.templateVariables(tier));
      } catch (IllegalArgumentException | TemplateRenderException e) {
        return Optional.of(tier.id() + " template: " + e.getMessage());
      }
      OptionalInt partitions =
          tier == Tier.CORE ? OptionalInt.of(settings.topicPartitions()) : OptionalInt.empty();
      // One finding per rule: the same rule broken on every lane says nothing new.
      Map<String, List<Finding>> byRule = new LinkedHashMap<>();
      for (Finding finding : Linter.lint(parse(properties), partitions)) {
        if (finding.severity() == Finding.Severity.ERROR
            || PRUNING_WARNINGS.contains(finding.rule())) {
          byRule.computeIfAbsent(finding.rule(), rule -> new ArrayList<>()).add(finding);
        }
      }
      byRule
          .values()
          .forEach(
              findings ->
                  reasons.add(
                      tier.id()
                          + " lint "
                          + findings.get(0)
                          + (findings.size() == 1
                              ? ""
                              : " (and " + (findings.size() - 1) + " more like it)")));
      target
          .cannotRun(tier, properties)
          .ifPresent(reason -> reasons.add(tier.id() + ": " + reason));
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", reasons));
  }

  /**
   * Renders {@code tier} for this trial with the target's environment variables over the trial's
   * settings.
   */
  public static String render(Tier tier, Settings settings, Map<String, Object> environment) {
    Map<String, Object> variables = new LinkedHashMap<>(settings.templateVariables(tier));
    variables.putAll(environment);
    return AgentTemplates.render(tier, variables);
  }

  private static Properties parse(String text) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties;
  }
}
