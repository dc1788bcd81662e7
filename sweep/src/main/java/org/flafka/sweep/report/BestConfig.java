package org.flafka.sweep.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.space.Knobs;
import org.flafka.sweep.trial.TrialResult;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The best trial's configuration, ready to use: {@code best/edge.properties} and {@code
 * best/core.properties} rendered from the templates, and {@code best/group_vars/edge.yml} and
 * {@code core.yml} with the template variables the sweep chose (the space's fixed settings and the
 * best trial's dimensions; everything else keeps its default). The variable files use the
 * templates' own names, so they drop into an Ansible inventory's group_vars as they are, and {@code
 * flafka render <tier> --vars <file>} renders exactly the properties written beside them. Nothing
 * in them describes this machine: servers, ports, paths and the topic keep the templates' defaults,
 * for the inventory to set.
 */
public final class BestConfig {
  private BestConfig() {}

  /** Writes the files for {@code best} into {@code directory}; returns the files written. */
  public static List<Path> write(SweepResult result, TrialResult best, Path directory)
      throws IOException {
    Path groupVars = directory.resolve("group_vars");
    Files.createDirectories(groupVars);
    String origin =
        String.format(
            Locale.ROOT,
            "flafka sweep, space %s, %s: trial %s, %,.0f events/s into HDFS" + " (median of %d)",
            result.space().name(),
            result.started(),
            best.id(),
            best.endToEnd().median(),
            best.endToEnd().count());
    Path edgeProperties = directory.resolve("edge.properties");
    Path coreProperties = directory.resolve("core.properties");
    Path edgeVars = groupVars.resolve("edge.yml");
    Path coreVars = groupVars.resolve("core.yml");
    for (Tier tier : Tier.values()) {
      Map<String, Object> variables = best.settings().templateVariables(tier);
      String properties = AgentTemplates.render(tier, variables);
      Files.writeString(
          tier == Tier.EDGE ? edgeProperties : coreProperties,
          "# "
              + origin
              + "\n# Rendered from "
              + tier.id()
              + ".properties.j2 with group_vars/"
              + tier.id()
              + ".yml; set servers, ports and paths for your hosts there, not here.\n"
              + properties,
          StandardCharsets.UTF_8);
      Files.writeString(
          tier == Tier.EDGE ? edgeVars : coreVars,
          varsFile(tier, origin, variables, best.settings().topicPartitions()),
          StandardCharsets.UTF_8);
    }
    return List.of(edgeProperties, coreProperties, edgeVars, coreVars);
  }

  static String varsFile(Tier tier, String origin, Map<String, Object> variables, int partitions) {
    StringBuilder text = new StringBuilder();
    text.append("# ").append(origin).append('\n');
    text.append("# Variables of agents/")
        .append(tier.id())
        .append("/templates/")
        .append(tier.id())
        .append(".properties.j2 the sweep chose; the rest keep their defaults (")
        .append(tier.id())
        .append("-defaults.yml).\n");
    text.append("# Use as Ansible group_vars for the ")
        .append(tier.id())
        .append(" hosts, or: flafka render ")
        .append(tier.id())
        .append(" --vars ")
        .append(tier.id())
        .append(".yml\n");
    text.append("# The topic had ")
        .append(partitions)
        .append(" partitions (")
        .append(Knobs.TOPIC_PARTITIONS)
        .append(", not a template variable: kafka-topics.sh --alter --partitions ")
        .append(partitions)
        .append(").\n");
    if (variables.isEmpty()) {
      text.append("{}\n");
      return text.toString();
    }
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndicatorIndent(2);
    options.setIndentWithIndicator(true);
    text.append(new Yaml(options).dump(new LinkedHashMap<>(variables)));
    return text.toString();
  }
}
