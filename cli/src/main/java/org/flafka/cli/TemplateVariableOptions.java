package org.flafka.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.render.AgentTemplates;
import org.flafka.render.TemplateVariableException;
import org.flafka.render.Tier;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import picocli.CommandLine.Option;

/**
 * The options that choose template variables, shared by {@code flafka render} and {@code flafka
 * lint --tier}.
 */
final class TemplateVariableOptions {

  @Option(
      names = "--vars",
      paramLabel = "FILE",
      description = "YAML file of variables (flat name: value pairs, as in Ansible vars).")
  Path varsFile;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Set one variable; repeatable; wins over --vars. Lists: a,b,c or [a, b]; maps: {k: v}.")
  Map<String, String> settings = new LinkedHashMap<>();

  /** The variables from --vars, then --set. */
  Map<String, Object> variables() {
    Map<String, Object> variables = new LinkedHashMap<>();
    if (varsFile != null) {
      variables.putAll(readVarsFile(varsFile, "--vars"));
    }
    variables.putAll(settings);
    return variables;
  }

  /** Renders the tier's template, turning a wrong variable into a user error. */
  String render(Tier tier) {
    try {
      return AgentTemplates.render(tier, variables());
    } catch (TemplateVariableException e) {
      throw UserException.invalidInput(
          e.getMessage() + (varsFile == null ? "" : " (from --set or " + varsFile + ")"));
    }
  }

  /**
   * A YAML file of flat {@code name: value} pairs, as Ansible vars are written; {@code option} is
   * the flag that named it, for the one-line errors.
   */
  static Map<String, Object> readVarsFile(Path file, String option) {
    Object loaded;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    } catch (NoSuchFileException e) {
      throw UserException.invalidInput(
          "Vars file " + file + " does not exist: check the " + option + " path.");
    } catch (IOException e) {
      throw UserException.invalidInput(
          "Cannot read vars file " + file + ": " + e.getMessage() + ".");
    } catch (YAMLException e) {
      throw UserException.invalidInput(
          "Vars file " + file + " is not valid YAML: " + e.getMessage().replace('\n', ' '));
    }
    if (loaded == null) {
      return Map.of();
    }
    if (!(loaded instanceof Map<?, ?> map)) {
      throw UserException.invalidInput(
          "Vars file "
              + file
              + " must be a YAML mapping of variable names to values (name: value per line).");
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    map.forEach((key, value) -> variables.put(String.valueOf(key), value));
    return variables;
  }
}
