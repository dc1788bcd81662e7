package org.flafka.edge.config;

import org.flafka.edge.source.Protocol;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flume.conf.ConfigurationException;

/**
 * Configuration keys declared once: name, type, default, validator, the protocols a key applies to, and its doc.
 * Parsing, validation, error messages and the generated documentation all read these definitions, so they
 * cannot drift apart. Modelled on Kafka's {@code ConfigDef}, cut down to what the syslog source and the Kafka
 * record sink need; a key's protocols matter only to the source (the sink's keys apply to every protocol).
 *
 * <p>Every error names the key, the value and the rule, and ends with the fix. Booleans are strict: "ture" is an
 * error, not false (unlike Flume's {@code Context.getBoolean}).
 */
public final class ConfigDef {

  public enum Type { STRING, INT, LONG, BOOLEAN, PASSWORD }

  /** Marks a key without a default: the user must set it (or a later rule supplies a value). */
  public static final Object NO_DEFAULT = new Object() {
    @Override
    public String toString() {
      return "(none)";
    }
  };

  /** Checks one parsed value. {@link #toString()} is the rule as the docs and error messages show it. */
  public interface Validator {
    /** Returns null when the value is valid, else the rule it breaks. */
    String check(Object value);
  }

  public record Key(String name, Type type, Object defaultValue, String defaultDoc, Validator validator,
             Set<Protocol> protocols, String doc) {
    public boolean required() {
      return defaultValue == NO_DEFAULT && defaultDoc == null;
    }

    public String shownDefault() {
      if (defaultDoc != null) {
        return defaultDoc;
      }
      return defaultValue == null ? "(unset)" : String.valueOf(defaultValue);
    }
  }

  private final Map<String, Key> keys = new LinkedHashMap<>();

  /**
   * Declares a key. {@code defaultDoc} replaces the default in the docs when the default is computed later
   * (e.g. the port depends on the protocol); pass null to show {@code defaultValue}.
   */
  public ConfigDef define(String name, Type type, Object defaultValue, String defaultDoc, Validator validator,
                   Set<Protocol> protocols, String doc) {
    if (keys.containsKey(name)) {
      throw new IllegalArgumentException("key " + name + " is defined twice");
    }
    keys.put(name, new Key(name, type, defaultValue, defaultDoc, validator, protocols, doc));
    return this;
  }

  /** Declares a key that applies whatever the protocol (every key of a sink). */
  public ConfigDef define(String name, Type type, Object defaultValue, String defaultDoc, Validator validator, String doc) {
    return define(name, type, defaultValue, defaultDoc, validator, EnumSet.allOf(Protocol.class), doc);
  }

  public List<Key> keys() {
    return List.copyOf(keys.values());
  }

  public Key key(String name) {
    return keys.get(name);
  }

  /**
   * Parses and validates the keys this definition declares; other entries are ignored here (the caller
   * decides what an unknown key means). Values are trimmed. A key without a default that is absent maps to
   * {@link #NO_DEFAULT}.
   */
  public Map<String, Object> parse(String component, Map<String, String> props) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Key key : keys.values()) {
      String raw = props.get(key.name());
      if (raw == null || raw.trim().isEmpty()) {
        values.put(key.name(), key.defaultValue());
        continue;
      }
      Object value = convert(component, key, raw.trim());
      if (key.validator() != null) {
        String broken = key.validator().check(value);
        if (broken != null) {
          throw invalid(component, key, raw.trim(), broken);
        }
      }
      values.put(key.name(), value);
    }
    return values;
  }

  private static Object convert(String component, Key key, String raw) {
    switch (key.type()) {
      case INT:
        try {
          return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
          throw invalid(component, key, raw, "must be a whole number between "
              + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
        }
      case LONG:
        try {
          return Long.parseLong(raw);
        } catch (NumberFormatException e) {
          throw invalid(component, key, raw, "must be a whole number between "
              + Long.MIN_VALUE + " and " + Long.MAX_VALUE);
        }
      case BOOLEAN:
        if (raw.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (raw.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
        throw invalid(component, key, raw, "must be true or false");
      case STRING:
      case PASSWORD:
      default:
        return raw;
    }
  }

  /** {@code rule} starts with "must be ", which the fix drops: "must be at least 1" fixes as "set k to at least 1". */
  public static ConfigurationException invalid(String component, Key key, String raw, String rule) {
    String shown = key.type() == Type.PASSWORD ? "[hidden]" : raw;
    return new ConfigurationException(component + ": invalid value '" + shown + "' for key '" + key.name()
        + "': " + rule + ". Fix: set " + key.name() + " to " + rule.replaceFirst("^must be ", "") + ".");
  }

  /** One warning per key in {@code unknownKeys}, with the defined key it matches but for case, if any. */
  public List<String> unknownKeyWarnings(String component, List<String> unknownKeys) {
    List<String> warnings = new ArrayList<>();
    for (String name : unknownKeys) {
      String hint = keys.keySet().stream().filter(k -> k.equalsIgnoreCase(name)).findFirst()
          .map(k -> " (did you mean '" + k + "'?)").orElse("");
      warnings.add(component + ": unknown key '" + name + "' is ignored" + hint);
    }
    return warnings;
  }

  /** The key table of the reference docs, in declaration order; the protocols column only where keys differ. */
  public String keyTable(boolean protocolsColumn) {
    StringBuilder sb = new StringBuilder();
    sb.append("| key | type | default | valid values |").append(protocolsColumn ? " protocols |" : "")
        .append(" description |\n|---|---|---|---|").append(protocolsColumn ? "---|" : "").append("---|\n");
    for (Key key : keys.values()) {
      sb.append("| `").append(key.name()).append("` | ").append(key.type().name().toLowerCase(Locale.ROOT))
          .append(" | ").append(key.required() ? "required" : "`" + key.shownDefault() + "`")
          .append(" | ").append(key.validator() == null ? "" : key.validator().toString());
      if (protocolsColumn) {
        sb.append(" | ").append(describe(key.protocols()));
      }
      sb.append(" | ").append(key.doc()).append(" |\n");
    }
    return sb.toString();
  }

  /**
   * Replaces the region of {@code doc} between {@code begin} and {@code end} (markers included) with
   * {@code generated}, which starts and ends with the same markers.
   */
  public static String withGeneratedRegion(String doc, String begin, String end, String generated) {
    int from = doc.indexOf(begin);
    int to = doc.indexOf(end);
    if (from < 0 || to < from) {
      throw new IllegalArgumentException("the document has no generated region (" + begin + " … " + end + ")");
    }
    return doc.substring(0, from) + generated + doc.substring(to + end.length());
  }

  /**
   * The main method of a configuration class's doc generator: no arguments print {@code generated}; {@code --write
   * FILE} rewrites FILE's region between {@code begin} and {@code end} in place.
   */
  public static void writeDocs(String[] args, String className, String begin, String end, String generated)
      throws IOException {
    if (args.length == 2 && args[0].equals("--write")) {
      Path file = Paths.get(args[1]);
      String doc = Files.readString(file, StandardCharsets.UTF_8);
      Files.writeString(file, withGeneratedRegion(doc, begin, end, generated), StandardCharsets.UTF_8);
    } else if (args.length == 0) {
      System.out.println(generated);
    } else {
      System.err.println("usage: " + className + " [--write FILE]");
      throw new IllegalArgumentException("unexpected arguments");
    }
  }

  // ---- validators (their toString is the rule shown in the docs) ----

  public static Validator atLeast(int min) {
    return between(min, Integer.MAX_VALUE);
  }

  public static Validator atLeast(long min) {
    return between(min, Long.MAX_VALUE);
  }

  /** For INT and LONG keys. */
  public static Validator between(long min, long max) {
    return new Validator() {
      @Override
      public String check(Object value) {
        long v = ((Number) value).longValue();
        return v >= min && v <= max ? null : "must be " + this;
      }

      @Override
      public String toString() {
        return max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? "at least " + min
            : "between " + min + " and " + max;
      }
    };
  }

  /** Case-insensitive choice; the parsed value is lower-cased by the caller's enum lookup. */
  public static Validator oneOf(String... choices) {
    List<String> allowed = Arrays.asList(choices);
    return new Validator() {
      @Override
      public String check(Object value) {
        return allowed.contains(((String) value).toLowerCase(Locale.ROOT)) ? null : "must be " + this;
      }

      @Override
      public String toString() {
        return "one of " + String.join(", ", allowed);
      }
    };
  }

  /** A comma-separated list whose every element is one of {@code choices} (case-sensitive, as the JDK is). */
  public static Validator listOf(String... choices) {
    List<String> allowed = Arrays.asList(choices);
    return new Validator() {
      @Override
      public String check(Object value) {
        List<String> items = splitList((String) value);
        return !items.isEmpty() && allowed.containsAll(items) ? null : "must be " + this;
      }

      @Override
      public String toString() {
        return "a comma-separated list of " + String.join(", ", allowed);
      }
    };
  }

  public static List<String> splitList(String value) {
    List<String> items = new ArrayList<>();
    for (String item : value.split(",")) {
      if (!item.trim().isEmpty()) {
        items.add(item.trim());
      }
    }
    return Collections.unmodifiableList(items);
  }

  public static Set<Protocol> protocols(Protocol... protocols) {
    return Collections.unmodifiableSet(EnumSet.copyOf(Arrays.asList(protocols)));
  }

  public static String describe(Set<Protocol> protocols) {
    return protocols.size() == Protocol.values().length ? "all"
        : protocols.stream().map(Protocol::id).collect(Collectors.joining(", "));
  }
}
