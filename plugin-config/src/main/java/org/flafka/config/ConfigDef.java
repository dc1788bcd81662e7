package org.flafka.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flume.conf.ConfigurationException;

/**
 * The one configuration engine of every Flume plugin of the kit, in the spirit of Kafka's {@code
 * ConfigDef}: each key declared once with its type, default, validator, the values of a selector
 * key it applies to (e.g. the protocols of the syslog source) and its doc. Parsing, validation,
 * error messages and the generated key tables all read these definitions, so they cannot drift
 * apart. Cross-field rules belong in each plugin's configuration class.
 *
 * <p>The rules, the same for every plugin:
 *
 * <ul>
 *   <li>Every error is a {@link ConfigurationException} in one wording: {@code "component: invalid
 *       value 'v' for key 'k': rule. Fix: …"}; see {@link #invalid}, {@link #missing} and {@link
 *       #error}.
 *   <li>An unknown key is an error (Flume itself ignores a misspelt key, and the plugin then runs
 *       on a default nobody chose), naming the key and the closest known key. The keys Flume puts
 *       into a component's context itself ({@link Kind}) and the keys the plugin hands to someone
 *       else ({@link #delegate}) are not unknown.
 *   <li>Values are trimmed. An absent value means the default. A blank value is the empty value of
 *       a string or list key (checked by its validator like any other: "no header" can be a choice,
 *       an empty header name an error), the default of a number or boolean key (they have no empty
 *       value), and missing for a key without a default. Booleans are strict: "ture" is an error,
 *       not false (unlike Flume's {@code Context.getBoolean}).
 *   <li>A default is checked against its validator when the key is defined, so a bad default fails
 *       at class initialisation, not in production; a default described by a {@code defaultDoc} is
 *       computed later and is not checked.
 * </ul>
 */
public final class ConfigDef {

  /** The value types a key can have. */
  public enum Type {
    STRING,
    INT,
    LONG,
    BOOLEAN,
    LIST,
    PASSWORD
  }

  /**
   * The kind of Flume component a definition is for, and the keys Flume itself puts into that
   * component's context (read by Flume, not by the plugin): a key ending in '.' stands for every
   * key it starts. What Flume 1.11 hands over: a source's context holds everything under {@code
   * <agent>.sources.<name>.}, of which Flume reads {@code type}, {@code channels}, {@code
   * selector.*} ({@code SourceConfiguration}) and {@code interceptors}, {@code interceptors.*}
   * ({@code ChannelProcessor}); a sink's {@code type} and {@code channel} ({@code
   * SinkConfiguration}); a channel's {@code type}; an interceptor's (what is under {@code
   * interceptors.<name>.}) {@code type}.
   */
  public enum Kind {
    SOURCE("source", "type", "channels", "selector.", "interceptors", "interceptors."),
    SINK("sink", "type", "channel"),
    CHANNEL("channel", "type"),
    INTERCEPTOR("interceptor", "type");

    private final String noun;
    private final List<String> flumeKeys;

    Kind(String noun, String... flumeKeys) {
      this.noun = noun;
      this.flumeKeys = List.of(flumeKeys);
    }

    /** "source", "sink", "channel" or "interceptor", as fixes say it: "add k = v to the sink". */
    public String noun() {
      return noun;
    }

    /**
     * The keys Flume reads from this kind's context; one ending in '.' stands for every key it
     * starts.
     */
    public List<String> flumeKeys() {
      return flumeKeys;
    }

    /** Whether Flume itself reads {@code name} from this kind's context. */
    public boolean isFlumeKey(String name) {
      return matches(flumeKeys, name);
    }
  }

  /**
   * Marks a key without a default: the user must set it (or the configuration class computes a
   * value).
   */
  public static final Object NO_DEFAULT =
      new Object() {
        @Override
        public String toString() {
          return "(none)";
        }
      };

  /**
   * Checks one parsed value. {@link #toString()} is the rule as the docs and the fixes of errors
   * show it.
   */
  public interface Validator {
    /** Returns null when the value is valid, else the rule it breaks ("must be at least 1"). */
    String check(Object value);
  }

  /**
   * One declared key. {@code appliesTo} holds the values of the definition's selector key this key
   * applies to ({@link #appliesTo(String, String, List)}); empty means every value.
   */
  public record Key(
      String name,
      Type type,
      Object defaultValue,
      String defaultDoc,
      Validator validator,
      Set<String> appliesTo,
      String doc) {

    /** A key without a default that the docs do not describe otherwise. */
    public boolean required() {
      return defaultValue == NO_DEFAULT && defaultDoc == null;
    }

    /** The default as the key table shows it. */
    public String shownDefault() {
      if (defaultDoc != null) {
        return defaultDoc;
      }
      if (defaultValue instanceof List<?> list) {
        return String.join(",", list.stream().map(String::valueOf).toList());
      }
      return defaultValue == null ? "(unset)" : String.valueOf(defaultValue);
    }
  }

  private final Kind kind;
  private final Map<String, Key> keys = new LinkedHashMap<>();
  private final List<String> delegated = new ArrayList<>();
  private String selectorKey;
  private String selectorTitle;
  private List<String> selectorValues = List.of();

  /** A definition for a component of {@code kind}, whose Flume keys it accepts. */
  public ConfigDef(Kind kind) {
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * Declares that some keys may apply only to some values of {@code selectorKey} (the syslog
   * source's keys to some protocols): {@link #parse} refuses a key set for a value it does not
   * apply to. {@code title} heads the key table's column ("protocols"); {@code values} are the
   * selector's values in the order the docs list them.
   */
  public ConfigDef appliesTo(String selectorKey, String title, List<String> values) {
    this.selectorKey = selectorKey;
    this.selectorTitle = title;
    this.selectorValues = List.copyOf(values);
    return this;
  }

  /**
   * Keys the plugin hands to another component that checks them (the producer's {@code
   * kafka.producer.*}, the parser's options): accepted by {@link #parse}, not parsed. A key ending
   * in '.' stands for every key it starts.
   */
  public ConfigDef delegate(Collection<String> keysOrPrefixes) {
    delegated.addAll(keysOrPrefixes);
    return this;
  }

  /** {@link #delegate(Collection)} for a few keys or prefixes. */
  public ConfigDef delegate(String... keysOrPrefixes) {
    return delegate(Arrays.asList(keysOrPrefixes));
  }

  /** Declares a key that applies whatever the selector's value, its default shown as it is. */
  public ConfigDef define(
      String name, Type type, Object defaultValue, Validator validator, String doc) {
    return define(name, type, defaultValue, null, validator, Set.of(), doc);
  }

  /**
   * Declares a key that applies whatever the selector's value. {@code defaultDoc} replaces the
   * default in the docs when the default is computed later (e.g. the port depends on the protocol);
   * pass null to show {@code defaultValue}.
   */
  public ConfigDef define(
      String name,
      Type type,
      Object defaultValue,
      String defaultDoc,
      Validator validator,
      String doc) {
    return define(name, type, defaultValue, defaultDoc, validator, Set.of(), doc);
  }

  /**
   * Declares a key that applies only to the selector values in {@code appliesTo} (empty: to every
   * value).
   */
  public ConfigDef define(
      String name,
      Type type,
      Object defaultValue,
      String defaultDoc,
      Validator validator,
      Set<String> appliesTo,
      String doc) {
    if (keys.containsKey(name)) {
      throw new IllegalArgumentException("configuration key '" + name + "' is defined twice");
    }
    Set<String> tags =
        appliesTo.containsAll(selectorValues)
            ? Set.of()
            : Collections.unmodifiableSet(new LinkedHashSet<>(appliesTo));
    if (!selectorValues.containsAll(tags)) {
      throw new IllegalArgumentException(
          "configuration key '"
              + name
              + "' applies to "
              + tags
              + ", not all of them values of "
              + selectorKey
              + " "
              + selectorValues);
    }
    Key key = new Key(name, type, defaultValue, defaultDoc, validator, tags, doc);
    if (defaultDoc == null
        && defaultValue != null
        && defaultValue != NO_DEFAULT
        && validator != null) {
      String broken = validator.check(defaultValue);
      if (broken != null) {
        throw invalid("definition", key, String.valueOf(defaultValue), broken);
      }
    }
    keys.put(name, key);
    return this;
  }

  /** The declared keys in declaration order. */
  public List<Key> keys() {
    return List.copyOf(keys.values());
  }

  /** The key named {@code name}, or null. */
  public Key key(String name) {
    return keys.get(name);
  }

  /** Whether {@link #parse} accepts {@code name}: declared, Flume's own or delegated. */
  public boolean isKnown(String name) {
    return keys.containsKey(name) || kind.isFlumeKey(name) || matches(delegated, name);
  }

  /**
   * Parses and validates a component's settings: every declared key gets its value or its default
   * (a key without one that is absent maps to {@link #NO_DEFAULT}).
   *
   * @param component names the component in errors, e.g. "syslog source r1"
   * @throws ConfigurationException for a value of the wrong syntax or that breaks its rule, a key
   *     set where the selector's value makes it not apply, or an unknown key
   */
  public Values parse(String component, Map<String, String> settings) {
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, String> given = new LinkedHashMap<>();
    for (Key key : keys.values()) {
      String raw = settings.get(key.name());
      if (raw == null || (raw.trim().isEmpty() && !hasEmptyValue(key))) {
        values.put(key.name(), key.defaultValue());
        continue;
      }
      String trimmed = raw.trim();
      Object value = convert(component, key, trimmed);
      if (key.validator() != null) {
        String broken = key.validator().check(value);
        if (broken != null) {
          throw invalid(component, key, trimmed, broken);
        }
      }
      values.put(key.name(), value);
      given.put(key.name(), trimmed);
    }
    checkAppliesTo(component, values, given);
    checkUnknown(component, settings);
    return new Values(component, kind, values, given);
  }

  /**
   * Whether a blank value is the key's empty value rather than its default: for strings and lists.
   */
  private static boolean hasEmptyValue(Key key) {
    return key.defaultValue() != NO_DEFAULT
        && (key.type() == Type.STRING || key.type() == Type.LIST || key.type() == Type.PASSWORD);
  }

  private void checkAppliesTo(
      String component, Map<String, Object> values, Map<String, String> given) {
    if (selectorKey == null || !(values.get(selectorKey) instanceof String selected)) {
      return;
    }
    String value = selected.toLowerCase(Locale.ROOT);
    for (Key key : keys.values()) {
      if (given.containsKey(key.name())
          && !key.appliesTo().isEmpty()
          && !key.appliesTo().contains(value)) {
        throw new ConfigurationException(
            component
                + ": key '"
                + key.name()
                + "' does not apply to "
                + selectorKey
                + "="
                + value
                + " (it applies to "
                + describe(key.appliesTo())
                + "). Fix: remove "
                + key.name()
                + " or set "
                + selectorKey
                + " to one it applies to.");
      }
    }
  }

  private void checkUnknown(String component, Map<String, String> settings) {
    Set<String> unknown = new TreeSet<>();
    for (String name : settings.keySet()) {
      if (!isKnown(name)) {
        unknown.add(name);
      }
    }
    if (unknown.isEmpty()) {
      return;
    }
    List<String> named = new ArrayList<>();
    for (String name : unknown) {
      String closest = closestKey(name);
      named.add("'" + name + "'" + (closest == null ? "" : " (did you mean '" + closest + "'?)"));
    }
    boolean one = unknown.size() == 1;
    List<String> known = new ArrayList<>(keys.keySet());
    delegated.forEach(key -> known.add(key.endsWith(".") ? key + "*" : key));
    throw new ConfigurationException(
        component
            + ": unknown key"
            + (one ? " " : "s ")
            + String.join(", ", named)
            + ". Fix: remove "
            + (one ? "it" : "them")
            + " or use one of "
            + String.join(", ", known)
            + ".");
  }

  /**
   * The declared (or delegated) key {@code name} most likely stands for: the same but for case,
   * else the one at the smallest edit distance, at most 2 (and less than half the name); null when
   * none is that close.
   */
  public String closestKey(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    List<String> candidates = new ArrayList<>(keys.keySet());
    delegated.stream().filter(key -> !key.endsWith(".")).forEach(candidates::add);
    for (String key : candidates) {
      if (key.equalsIgnoreCase(name)) {
        return key;
      }
      int distance = editDistance(name.toLowerCase(Locale.ROOT), key.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = key;
      }
    }
    return bestDistance <= 2 && bestDistance * 2 < name.length() ? best : null;
  }

  /** Levenshtein distance, with a swap of two neighbouring characters counted as one edit. */
  static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private static boolean matches(List<String> keysOrPrefixes, String name) {
    for (String key : keysOrPrefixes) {
      if (key.endsWith(".") ? name.startsWith(key) : name.equals(key)) {
        return true;
      }
    }
    return false;
  }

  private static Object convert(String component, Key key, String raw) {
    switch (key.type()) {
      case INT:
        try {
          return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
          throw invalid(
              component,
              key,
              raw,
              "must be a whole number between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
        }
      case LONG:
        try {
          return Long.parseLong(raw);
        } catch (NumberFormatException e) {
          throw invalid(
              component,
              key,
              raw,
              "must be a whole number between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE);
        }
      case BOOLEAN:
        if (raw.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (raw.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
        throw invalid(component, key, raw, "must be true or false");
      case LIST:
        if (raw.isEmpty()) {
          return List.of();
        }
        List<String> items = new ArrayList<>();
        for (String item : raw.split(",", -1)) {
          if (item.trim().isEmpty()) {
            throw invalid(
                component, key, raw, "must be a comma-separated list without empty items");
          }
          items.add(item.trim());
        }
        return Collections.unmodifiableList(items);
      case STRING:
      case PASSWORD:
      default:
        return raw;
    }
  }

  // ---- the one wording of every error ----

  /**
   * "component: invalid value 'v' for key 'k': rule. Fix: set k to …". The fix is the rule without
   * its "must be " when it starts so ("must be at least 1" fixes as "set k to at least 1"), else
   * the key's validator as the docs show it. A password is shown as [hidden].
   */
  public static ConfigurationException invalid(String component, Key key, String raw, String rule) {
    String shown = key.type() == Type.PASSWORD ? "[hidden]" : raw;
    String fix =
        rule.startsWith("must be ") || key.validator() == null
            ? rule.replaceFirst("^must be ", "")
            : key.validator().toString();
    return new ConfigurationException(
        component
            + ": invalid value '"
            + shown
            + "' for key '"
            + key.name()
            + "': "
            + rule
            + ". Fix: set "
            + key.name()
            + " to "
            + fix
            + ".");
  }

  /** {@link #invalid(String, Key, String, String)} for a key of this definition. */
  public ConfigurationException invalid(String component, String key, String raw, String rule) {
    Key declared = keys.get(key);
    if (declared == null) {
      throw new IllegalArgumentException("configuration key '" + key + "' is not defined");
    }
    return invalid(component, declared, raw, rule);
  }

  /**
   * A value that breaks a rule no validator states (a cross-field or a special rule), with its own
   * fix: "component: invalid value 'v' for key 'k': rule. Fix: fix." ({@code fix} without its final
   * full stop).
   */
  public static ConfigurationException invalid(
      String component, String key, String raw, String rule, String fix) {
    return new ConfigurationException(
        component
            + ": invalid value '"
            + raw
            + "' for key '"
            + key
            + "': "
            + rule
            + ". Fix: "
            + fix
            + ".");
  }

  /** "component: missing required key 'k'. Fix: add k = example to the sink." */
  public static ConfigurationException missing(
      String component, String key, String example, Kind kind) {
    return new ConfigurationException(
        component
            + ": missing required key '"
            + key
            + "'. Fix: add "
            + key
            + " = "
            + example
            + " to the "
            + kind.noun()
            + ".");
  }

  /**
   * Any other error, a cross-field rule's, in the same voice: "component: problem. Fix: fix."
   * ({@code fix} without its final full stop).
   */
  public static ConfigurationException error(String component, String problem, String fix) {
    return new ConfigurationException(component + ": " + problem + ". Fix: " + fix + ".");
  }

  // ---- documentation ----

  /**
   * The key table of the reference docs in declaration order: key, type, default, valid values, the
   * selector's column when {@code appliesToColumn}, description.
   */
  public String keyTable(boolean appliesToColumn) {
    boolean column = appliesToColumn && selectorKey != null;
    StringBuilder sb = new StringBuilder();
    sb.append("| key | type | default | valid values |")
        .append(column ? " " + selectorTitle + " |" : "")
        .append(" description |\n|---|---|---|---|")
        .append(column ? "---|" : "")
        .append("---|\n");
    for (Key key : keys.values()) {
      sb.append("| `")
          .append(key.name())
          .append("` | ")
          .append(key.type().name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(shownDefaultCell(key))
          .append(" | ")
          .append(key.validator() == null ? "" : key.validator().toString());
      if (column) {
        sb.append(" | ").append(describe(key.appliesTo()));
      }
      sb.append(" | ").append(key.doc()).append(" |\n");
    }
    return sb.toString();
  }

  /** {@link #keyTable(boolean)} without the selector's column. */
  public String keyTable() {
    return keyTable(false);
  }

  private static String shownDefaultCell(Key key) {
    if (key.required()) {
      return "required";
    }
    String shown = key.shownDefault();
    return shown.isEmpty() ? "(empty)" : "`" + shown + "`";
  }

  /**
   * The selector values a key applies to, as the docs and errors show them: "all", or the values.
   */
  public String describe(Set<String> appliesTo) {
    if (appliesTo.isEmpty() || appliesTo.containsAll(selectorValues)) {
      return "all";
    }
    return selectorValues.stream().filter(appliesTo::contains).collect(Collectors.joining(", "));
  }

  /**
   * Replaces the region of {@code doc} between {@code begin} and {@code end} (markers included)
   * with {@code generated}, which starts and ends with the same markers.
   */
  public static String withGeneratedRegion(String doc, String begin, String end, String generated) {
    int from = doc.indexOf(begin);
    int to = doc.indexOf(end, Math.max(from, 0));
    if (from < 0 || to < from) {
      throw new IllegalArgumentException(
          "the document has no generated region (" + begin + " … " + end + ")");
    }
    return doc.substring(0, from) + generated + doc.substring(to + end.length());
  }

  /**
   * The main method of a configuration class's doc generator: no arguments print {@code generated};
   * {@code --write FILE} rewrites FILE's region between {@code begin} and {@code end} in place.
   */
  public static void writeDocs(
      String[] args, String className, String begin, String end, String generated)
      throws IOException {
    if (args.length == 2 && args[0].equals("--write")) {
      Path file = Paths.get(args[1]);
      String doc = Files.readString(file, StandardCharsets.UTF_8);
      Files.writeString(
          file, withGeneratedRegion(doc, begin, end, generated), StandardCharsets.UTF_8);
    } else if (args.length == 0) {
      System.out.println(generated);
    } else {
      System.err.println("usage: " + className + " [--write FILE]");
      throw new IllegalArgumentException("unexpected arguments");
    }
  }

  // ---- validators (their toString is the rule shown in the docs and in fixes) ----

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
        return max == Integer.MAX_VALUE || max == Long.MAX_VALUE
            ? "at least " + min
            : "between " + min + " and " + max;
      }
    };
  }

  /** For INT and LONG keys whose 0 turns a feature off and whose other values have a floor. */
  public static Validator zeroOrAtLeast(long min) {
    return new Validator() {
      @Override
      public String check(Object value) {
        long v = ((Number) value).longValue();
        return v == 0 || v >= min ? null : "must be " + this;
      }

      @Override
      public String toString() {
        return "0 or at least " + min;
      }
    };
  }

  /**
   * A case-insensitive choice; the configuration class lower-cases the value with {@code
   * Locale.ROOT}.
   */
  public static Validator oneOf(String... choices) {
    List<String> allowed = List.of(choices);
    return new Validator() {
      @Override
      public String check(Object value) {
        return allowed.contains(((String) value).toLowerCase(Locale.ROOT))
            ? null
            : "must be " + this;
      }

      @Override
      public String toString() {
        return "one of " + String.join(", ", allowed);
      }
    };
  }

  /**
   * For a STRING key: a comma-separated list whose every element is one of {@code choices}
   * (case-sensitive).
   */
  public static Validator listOf(String... choices) {
    List<String> allowed = List.of(choices);
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

  /** For a LIST key: items all from {@code allowed}, each at most once (case-sensitive). */
  public static Validator subsetOf(List<String> allowed) {
    return new Validator() {
      @Override
      public String check(Object value) {
        @SuppressWarnings("unchecked")
        List<String> items = (List<String>) value;
        Set<String> seen = new TreeSet<>();
        for (String item : items) {
          if (!allowed.contains(item)) {
            return "'" + item + "' is not one of " + String.join(", ", allowed);
          }
          if (!seen.add(item)) {
            return "'" + item + "' is listed twice";
          }
        }
        return null;
      }

      @Override
      public String toString() {
        return "any of " + String.join(", ", allowed);
      }
    };
  }

  /**
   * A string usable as one component of an HDFS path and as a Kafka header value: empty (when
   * {@code emptyAllowed}), or 1 to {@code maxLength} characters from [A-Za-z0-9._-], not starting
   * with '.' or '_' (Hadoop's input formats treat such names as hidden files).
   */
  public static Validator pathSafe(int maxLength, boolean emptyAllowed) {
    return new Validator() {
      @Override
      public String check(Object value) {
        String text = (String) value;
        if (text.isEmpty()) {
          return emptyAllowed ? null : "must not be empty";
        }
        if (text.length() > maxLength) {
          return "must be at most " + maxLength + " characters";
        }
        if (text.charAt(0) == '.' || text.charAt(0) == '_') {
          return "must not start with '.' or '_' (Hadoop treats those as hidden)";
        }
        for (int i = 0; i < text.length(); i++) {
          if (!isPathSafe(text.charAt(i))) {
            return "may contain only letters, digits, '.', '_' and '-'";
          }
        }
        return null;
      }

      @Override
      public String toString() {
        return emptyAllowed
            ? "empty, or up to " + maxLength + " of [A-Za-z0-9._-], not starting with '.' or '_'"
            : "1 to " + maxLength + " of [A-Za-z0-9._-], not starting with '.' or '_'";
      }
    };
  }

  /** Whether {@code c} is one of [A-Za-z0-9._-]. */
  public static boolean isPathSafe(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '-';
  }

  /** A non-empty string of printable ASCII without spaces: a header name. */
  public static Validator headerName() {
    return new Validator() {
      @Override
      public String check(Object value) {
        String text = (String) value;
        if (text.isEmpty()) {
          return "must not be empty";
        }
        for (int i = 0; i < text.length(); i++) {
          char c = text.charAt(i);
          if (c <= ' ' || c > '~') {
            return "must be printable ASCII without spaces";
          }
        }
        return null;
      }

      @Override
      public String toString() {
        return "non-empty printable ASCII without spaces";
      }
    };
  }

  /**
   * The rule of a required key for the docs ("e.g. …"): accepts every value, the configuration
   * class checks that the key was set ({@link Values#required}).
   */
  public static Validator example(String example) {
    return new Validator() {
      @Override
      public String check(Object value) {
        return null;
      }

      @Override
      public String toString() {
        return "e.g. " + example;
      }
    };
  }

  /** The non-blank, trimmed items of a comma-separated list. */
  public static List<String> splitList(String value) {
    List<String> items = new ArrayList<>();
    for (String item : value.split(",")) {
      if (!item.trim().isEmpty()) {
        items.add(item.trim());
      }
    }
    return Collections.unmodifiableList(items);
  }

  /**
   * A set of selector values, for {@link #define(String, Type, Object, String, Validator, Set,
   * String)}.
   */
  public static Set<String> values(String... values) {
    return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(values)));
  }

  /**
   * Parsed, validated values by key. Asking for an undeclared key or the wrong type is a
   * programming error.
   */
  public static final class Values {
    private final String component;
    private final Kind kind;
    private final Map<String, Object> values;
    private final Map<String, String> given;

    private Values(
        String component, Kind kind, Map<String, Object> values, Map<String, String> given) {
      this.component = component;
      this.kind = kind;
      this.values = values;
      this.given = given;
    }

    /** The component the values are for, as errors name it. */
    public String component() {
      return component;
    }

    /** The value, the default, or {@link #NO_DEFAULT}; null for a key whose default is null. */
    public Object get(String key) {
      if (!values.containsKey(key)) {
        throw new IllegalArgumentException("configuration key '" + key + "' is not defined");
      }
      return values.get(key);
    }

    /** Whether the user gave {@code key} a value (blank included, for a string or list key). */
    public boolean isSet(String key) {
      get(key);
      return given.containsKey(key);
    }

    public String getString(String key) {
      return (String) get(key);
    }

    public boolean getBoolean(String key) {
      return (Boolean) get(key);
    }

    public int getInt(String key) {
      return (Integer) get(key);
    }

    public long getLong(String key) {
      return ((Number) get(key)).longValue();
    }

    @SuppressWarnings("unchecked")
    public List<String> getList(String key) {
      return (List<String>) get(key);
    }

    /**
     * The value of a key without a default, or the error that it is missing: "component: missing
     * required key 'k'. Fix: add k = example to the sink."
     */
    public Object required(String key, String example) {
      Object value = get(key);
      if (value == NO_DEFAULT) {
        throw missing(component, key, example, kind);
      }
      return value;
    }
  }
}
