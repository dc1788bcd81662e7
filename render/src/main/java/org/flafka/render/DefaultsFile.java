package org.flafka.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads a tier's {@code <tier>-defaults.yml}: flat {@code key: value} lines (what Ansible's
 * include_vars loads), each preceded by the comment lines that document it. The comment is the
 * variable's documentation and may carry its rules in plain words: "One of: a, b." or "Any of: a,
 * b." (allowed values) and "At least N.".
 */
final class DefaultsFile {
  private static final Pattern TOP_LEVEL_KEY = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*:");
  private static final Pattern ALLOWED_VALUES = Pattern.compile("(?:One|Any) of: ([^.]+)\\.");
  private static final Pattern MINIMUM = Pattern.compile("At least (-?\\d+)\\.");

  private DefaultsFile() {}

  /**
   * The variables declared in {@code text}, in file order. {@code source} names the file in error
   * messages.
   */
  static Map<String, TemplateVariable> parse(String source, String text) {
    Map<String, Object> values = loadValues(source, text);
    Map<String, String> docs = docComments(text);
    Map<String, TemplateVariable> variables = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : values.entrySet()) {
      String name = entry.getKey();
      String doc = docs.get(name);
      if (doc == null || doc.isBlank()) {
        throw new IllegalStateException(
            source + ": variable " + name + " has no comment above it saying what it is");
      }
      variables.put(
          name,
          new TemplateVariable(
              name,
              TemplateVariable.Type.of(name, entry.getValue()),
              entry.getValue(),
              allowedValues(doc),
              minimum(doc),
              doc));
    }
    for (TemplateVariable variable : variables.values()) {
      // The default must obey the variable's own rules, or the file contradicts itself.
      variable.coerce(variable.defaultValue());
    }
    return variables;
  }

  private static Map<String, Object> loadValues(String source, String text) {
    Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    if (!(loaded instanceof Map<?, ?> map)) {
      throw new IllegalStateException(
          source + " must be a YAML mapping of variable names to defaults");
    }
    Map<String, Object> values = new LinkedHashMap<>();
    map.forEach((key, value) -> values.put(String.valueOf(key), value));
    return values;
  }

  /**
   * Each top-level key's documentation: the comment lines directly above it (a blank line ends a
   * comment).
   */
  private static Map<String, String> docComments(String text) {
    Map<String, String> docs = new LinkedHashMap<>();
    List<String> comment = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("#")) {
        comment.add(line.substring(1).trim());
        continue;
      }
      Matcher key = TOP_LEVEL_KEY.matcher(line);
      if (key.find()) {
        docs.put(key.group(1), String.join(" ", comment));
      }
      comment.clear();
    }
    return docs;
  }

  private static List<String> allowedValues(String doc) {
    Matcher matcher = ALLOWED_VALUES.matcher(doc);
    if (!matcher.find()) {
      return List.of();
    }
    return Arrays.stream(matcher.group(1).split(",")).map(String::trim).toList();
  }

  private static OptionalLong minimum(String doc) {
    Matcher matcher = MINIMUM.matcher(doc);
    return matcher.find()
        ? OptionalLong.of(Long.parseLong(matcher.group(1)))
        : OptionalLong.empty();
  }
}
