package org.flafka.render;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * One template variable as its defaults file declares it: name, default, documentation, and the
 * rules its values follow. The type is the default's type; {@code allowedValues} and {@code
 * minimum} come from the phrases "One of: a, b." / "Any of: a, b." and "At least N." in the
 * documentation.
 *
 * <p>{@link #coerce} turns a value the user gave (a string from {@code --set}, or a YAML value)
 * into the type both template engines expect, so that Jinjava and Python Jinja2 see the same data:
 * integers as {@code Long}, lists of strings, maps of string to string (a boolean inside a map
 * would print {@code true} in Jinjava but {@code True} in Python).
 */
public record TemplateVariable(
    String name,
    Type type,
    Object defaultValue,
    List<String> allowedValues,
    OptionalLong minimum,
    String doc) {

  /** The kinds of value a variable holds, decided by its default. */
  public enum Type {
    STRING("a string"),
    INTEGER("an integer"),
    BOOLEAN("true or false"),
    LIST("a list (YAML list, or comma-separated on the command line)"),
    MAP("a map (YAML mapping, or {key: value, ...} on the command line)");

    private final String description;

    Type(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }

    static Type of(String name, Object defaultValue) {
      if (defaultValue instanceof String) {
        return STRING;
      }
      if (defaultValue instanceof Integer || defaultValue instanceof Long) {
        return INTEGER;
      }
      if (defaultValue instanceof Boolean) {
        return BOOLEAN;
      }
      if (defaultValue instanceof List) {
        return LIST;
      }
      if (defaultValue instanceof Map) {
        return MAP;
      }
      throw new IllegalStateException(
          "Default of "
              + name
              + " is "
              + defaultValue
              + ": a default must be a string, an integer, a boolean, a list or a map");
    }
  }

  public TemplateVariable {
    allowedValues = List.copyOf(allowedValues);
  }

  /**
   * Converts and checks a value for this variable.
   *
   * @throws TemplateVariableException naming the variable, the value and the rule it breaks
   */
  public Object coerce(Object value) {
    if (value == null) {
      throw invalid(null, "must have a value (the default is " + display(defaultValue) + ")");
    }
    return switch (type) {
      case STRING -> checkAllowed(scalar(value));
      case INTEGER -> integer(value);
      case BOOLEAN -> bool(value);
      case LIST -> list(value);
      case MAP -> map(value);
    };
  }

  private String scalar(Object value) {
    if (value instanceof String || value instanceof Integer || value instanceof Long) {
      return value.toString();
    }
    throw invalid(value, "must be a string; quote it if it looks like " + describe(value));
  }

  private String checkAllowed(String value) {
    if (!allowedValues.isEmpty() && !allowedValues.contains(value)) {
      throw invalid(value, "must be one of " + String.join(", ", allowedValues));
    }
    return value;
  }

  private Long integer(Object value) {
    long number;
    if (value instanceof Integer || value instanceof Long) {
      number = ((Number) value).longValue();
    } else if (value instanceof String text) {
      try {
        number = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw invalid(value, "must be an integer");
      }
    } else {
      throw invalid(value, "must be an integer");
    }
    if (minimum.isPresent() && number < minimum.getAsLong()) {
      throw invalid(value, "must be at least " + minimum.getAsLong());
    }
    return number;
  }

  private Boolean bool(Object value) {
    if (value instanceof Boolean flag) {
      return flag;
    }
    if (value instanceof String text) {
      String trimmed = text.trim();
      if (trimmed.equalsIgnoreCase("true")) {
        return true;
      }
      if (trimmed.equalsIgnoreCase("false")) {
        return false;
      }
    }
    throw invalid(value, "must be true or false");
  }

  private List<String> list(Object value) {
    Object parsed = value;
    if (value instanceof String text) {
      String trimmed = text.trim();
      parsed = trimmed.startsWith("[") ? parseYaml(value, trimmed) : splitCommas(trimmed);
    }
    if (!(parsed instanceof List<?> items)) {
      throw invalid(value, "must be " + Type.LIST.description());
    }
    List<String> result = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Object item : items) {
      String element = scalarElement(value, item);
      if (!allowedValues.isEmpty() && !allowedValues.contains(element)) {
        throw invalid(
            value,
            "may contain only " + String.join(", ", allowedValues) + ", not '" + element + "'");
      }
      if (!seen.add(element)) {
        throw invalid(value, "names '" + element + "' twice");
      }
      result.add(element);
    }
    if (!allowedValues.isEmpty() && result.isEmpty()) {
      throw invalid(value, "must name at least one of " + String.join(", ", allowedValues));
    }
    return Collections.unmodifiableList(result);
  }

  private Map<String, String> map(Object value) {
    Object parsed = value instanceof String text ? parseYaml(value, text.trim()) : value;
    if (!(parsed instanceof Map<?, ?> entries)) {
      throw invalid(value, "must be " + Type.MAP.description());
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : entries.entrySet()) {
      if (!(entry.getKey() instanceof String key) || key.isBlank()) {
        throw invalid(value, "has a key that is not a string: " + entry.getKey());
      }
      result.put(key, scalarElement(value, entry.getValue()));
    }
    return Collections.unmodifiableMap(result);
  }

  /**
   * A list element or map value: strings and integers print the same in both engines; nothing else
   * does.
   */
  private String scalarElement(Object whole, Object item) {
    if (item instanceof String || item instanceof Integer || item instanceof Long) {
      return item.toString();
    }
    throw invalid(
        whole,
        "contains "
            + display(item)
            + ", which is "
            + describe(item)
            + "; write it as a quoted string");
  }

  private Object parseYaml(Object original, String text) {
    try {
      return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (YAMLException e) {
      throw invalid(original, "is not valid YAML (" + e.getMessage().replace('\n', ' ') + ")");
    }
  }

  private static List<String> splitCommas(String text) {
    List<String> items = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      if (!part.isBlank()) {
        items.add(part.trim());
      }
    }
    return items;
  }

  private TemplateVariableException invalid(Object value, String rule) {
    return new TemplateVariableException(
        "Invalid value " + display(value) + " for variable " + name + ": " + rule + ".");
  }

  private static String describe(Object value) {
    if (value instanceof Boolean) {
      return "a boolean";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof Map) {
      return "a map";
    }
    return "a " + (value == null ? "null" : value.getClass().getSimpleName());
  }

  static String display(Object value) {
    if (value == null) {
      return "(none)";
    }
    return value instanceof String ? "'" + value + "'" : String.valueOf(value);
  }
}
