package org.flafka.syslog;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parser's options, declared in one place in the spirit of Kafka's {@code ConfigDef}: every key
 * with its default, its rule and its doc ({@link #definitions()}, printed by {@link
 * #main(String[])} and {@link #documentation()}). Immutable; build one with {@link #from(Map)}
 * (string values, as from a Flume {@code Context}) or {@link #builder()}.
 *
 * <p>The leniency switches are the {@link Leniency} values, keyed by {@link Leniency#key()}.
 */
public final class SyslogParserOptions {

  public static final String TIMEZONE_DEFAULT = "timezone.default";
  private static final String TIMEZONE_DEFAULT_DOC =
      "Time zone for timestamps that carry none (RFC 3164, Cisco without a zone name): a region such as"
          + " Europe/Berlin (daylight saving applied per stamp) or an offset such as +01:00 or UTC.";
  private static final String TIMEZONE_DEFAULT_DEFAULT = "UTC";

  public static final String TIMEZONE_ABBREVIATIONS = "timezone.abbreviations";
  private static final String TIMEZONE_ABBREVIATIONS_DOC =
      "Zone abbreviations a device may write after its timestamp (Cisco show-timezone), added to or replacing"
          + " the built-in table, e.g. IST=+01:00,CST=+08:00. The built-in table reads ambiguous names as network"
          + " gear most often means them: "
          + builtInZones()
          + ". A device zone, built-in or configured, wins over"
          + " timezone.default; an unknown name is the defect unknown-time-zone and the default zone applies.";

  private static String builtInZones() {
    StringBuilder text = new StringBuilder();
    ZoneNames.BUILT_IN.forEach(
        (name, minutes) ->
            text.append(text.length() == 0 ? "" : ", ")
                .append(name)
                .append('=')
                .append(formatOffset(minutes)));
    return text.toString();
  }

  public static final String TIMESTAMP_MAX_PAST_MS = "timestamp.max.past.ms";
  private static final String TIMESTAMP_MAX_PAST_MS_DOC =
      "A message timestamp earlier than the receive time by more than this many milliseconds is implausible"
          + " (a device clock reset to 1993, say): the receive time is used and the defect implausible-timestamp"
          + " recorded. 0 turns the check off.";
  private static final long TIMESTAMP_MAX_PAST_MS_DEFAULT = 365L * 24 * 3600 * 1000;

  public static final String TIMESTAMP_MAX_FUTURE_MS = "timestamp.max.future.ms";
  private static final String TIMESTAMP_MAX_FUTURE_MS_DOC =
      "A message timestamp later than the receive time by more than this many milliseconds is implausible:"
          + " the receive time is used and the defect implausible-timestamp recorded. 0 turns the check off.";
  private static final long TIMESTAMP_MAX_FUTURE_MS_DEFAULT = 24L * 3600 * 1000;

  /** One option: key, default (as text), the rule its values must follow, and what it does. */
  public record Definition(String key, String defaultValue, String rule, String doc) {}

  private static final Map<String, Definition> DEFINITIONS = buildDefinitions();

  private static Map<String, Definition> buildDefinitions() {
    Map<String, Definition> defs = new LinkedHashMap<>();
    defs.put(
        TIMEZONE_DEFAULT,
        new Definition(
            TIMEZONE_DEFAULT,
            TIMEZONE_DEFAULT_DEFAULT,
            "a zone id: a region such as Europe/Berlin or an offset such as +01:00 or UTC",
            TIMEZONE_DEFAULT_DOC));
    defs.put(
        TIMEZONE_ABBREVIATIONS,
        new Definition(
            TIMEZONE_ABBREVIATIONS,
            "",
            "comma-separated NAME=+hh:mm pairs, NAME 2 to 6 letters (any case), offsets -14:00 to +14:00",
            TIMEZONE_ABBREVIATIONS_DOC));
    defs.put(
        TIMESTAMP_MAX_PAST_MS,
        new Definition(
            TIMESTAMP_MAX_PAST_MS,
            Long.toString(TIMESTAMP_MAX_PAST_MS_DEFAULT),
            "an integer >= 0",
            TIMESTAMP_MAX_PAST_MS_DOC));
    defs.put(
        TIMESTAMP_MAX_FUTURE_MS,
        new Definition(
            TIMESTAMP_MAX_FUTURE_MS,
            Long.toString(TIMESTAMP_MAX_FUTURE_MS_DEFAULT),
            "an integer >= 0",
            TIMESTAMP_MAX_FUTURE_MS_DOC));
    for (Leniency switchDef : Leniency.values()) {
      defs.put(
          switchDef.key(),
          new Definition(
              switchDef.key(),
              Boolean.toString(switchDef.defaultValue()),
              "true or false",
              switchDef.doc()));
    }
    return Collections.unmodifiableMap(defs);
  }

  private static final SyslogParserOptions DEFAULTS = new Builder().build();

  private final ZoneId defaultZone;
  private final Map<String, Integer> zoneAbbreviations;
  private final ZoneNames zoneNames;
  private final long maxPastMillis;
  private final long maxFutureMillis;
  private final Set<Leniency> enabled;

  private SyslogParserOptions(Builder builder) {
    this.defaultZone = builder.defaultZone;
    this.zoneAbbreviations =
        Collections.unmodifiableMap(new LinkedHashMap<>(builder.zoneAbbreviations));
    this.zoneNames = ZoneNames.withOverrides(zoneAbbreviations);
    this.maxPastMillis = builder.maxPastMillis;
    this.maxFutureMillis = builder.maxFutureMillis;
    this.enabled = Collections.unmodifiableSet(EnumSet.copyOf(builder.enabled));
  }

  /** Every option at its default. */
  public static SyslogParserOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Options from string values keyed as in {@link #definitions()}; keys not given keep their
   * defaults.
   *
   * @throws InvalidOptionException naming key, value and rule, for an unknown key or a value its
   *     rule rejects
   */
  public static SyslogParserOptions from(Map<String, String> values) {
    Builder builder = builder();
    for (Map.Entry<String, String> entry : values.entrySet()) {
      builder.set(entry.getKey(), entry.getValue());
    }
    return builder.build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.defaultZone = defaultZone;
    builder.zoneAbbreviations.putAll(zoneAbbreviations);
    builder.maxPastMillis = maxPastMillis;
    builder.maxFutureMillis = maxFutureMillis;
    builder.enabled.clear();
    builder.enabled.addAll(enabled);
    return builder;
  }

  /** Every option, in documentation order, keyed by its key. */
  public static Map<String, Definition> definitions() {
    return DEFINITIONS;
  }

  /** The zone for timestamps without one ({@value #TIMEZONE_DEFAULT}). */
  public ZoneId defaultZone() {
    return defaultZone;
  }

  /**
   * {@value #TIMEZONE_ABBREVIATIONS}: upper-case abbreviation to offset in minutes, as configured.
   */
  public Map<String, Integer> zoneAbbreviations() {
    return zoneAbbreviations;
  }

  /** The zone-name table: the built-in one with {@link #zoneAbbreviations()} applied. */
  ZoneNames zoneNames() {
    return zoneNames;
  }

  /** {@value #TIMESTAMP_MAX_PAST_MS}; 0 = no check. */
  public long maxPastMillis() {
    return maxPastMillis;
  }

  /** {@value #TIMESTAMP_MAX_FUTURE_MS}; 0 = no check. */
  public long maxFutureMillis() {
    return maxFutureMillis;
  }

  /** Whether a leniency switch is on. */
  public boolean isEnabled(Leniency leniency) {
    return enabled.contains(leniency);
  }

  /** The switches that are on. */
  public Set<Leniency> enabledSwitches() {
    return enabled;
  }

  /** Every option's current value as text, keyed and ordered as {@link #definitions()}. */
  public Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(TIMEZONE_DEFAULT, defaultZone.getId());
    StringBuilder abbreviations = new StringBuilder();
    zoneAbbreviations.forEach(
        (name, minutes) ->
            abbreviations
                .append(abbreviations.length() == 0 ? "" : ",")
                .append(name)
                .append('=')
                .append(formatOffset(minutes)));
    values.put(TIMEZONE_ABBREVIATIONS, abbreviations.toString());
    values.put(TIMESTAMP_MAX_PAST_MS, Long.toString(maxPastMillis));
    values.put(TIMESTAMP_MAX_FUTURE_MS, Long.toString(maxFutureMillis));
    for (Leniency switchDef : Leniency.values()) {
      values.put(switchDef.key(), Boolean.toString(enabled.contains(switchDef)));
    }
    return values;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SyslogParserOptions that && values().equals(that.values());
  }

  @Override
  public int hashCode() {
    return values().hashCode();
  }

  @Override
  public String toString() {
    return "SyslogParserOptions" + values();
  }

  /** The options as a Markdown table: key, default, rule, doc. */
  public static String documentation() {
    StringBuilder table =
        new StringBuilder("| option | default | values | what it does |\n|---|---|---|---|\n");
    for (Definition def : DEFINITIONS.values()) {
      table
          .append("| `")
          .append(def.key())
          .append("` | `")
          .append(def.defaultValue())
          .append("` | ")
          .append(def.rule())
          .append(" | ")
          .append(markdown(def.doc()))
          .append(" |\n");
    }
    return table.toString();
  }

  /** Text safe in a Markdown table cell: no '|' column breaks, no '<PRI>' read as an HTML tag. */
  private static String markdown(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Minutes as +hh:mm. */
  private static String formatOffset(int minutes) {
    int abs = Math.abs(minutes);
    return String.format("%s%02d:%02d", minutes < 0 ? "-" : "+", abs / 60, abs % 60);
  }

  /** Prints {@link #documentation()}. */
  public static void main(String[] args) {
    System.out.print(documentation());
  }

  /** Builds {@link SyslogParserOptions}; every setter validates its argument. */
  public static final class Builder {
    private ZoneId defaultZone = ZoneId.of(TIMEZONE_DEFAULT_DEFAULT);
    private final Map<String, Integer> zoneAbbreviations = new LinkedHashMap<>();
    private long maxPastMillis = TIMESTAMP_MAX_PAST_MS_DEFAULT;
    private long maxFutureMillis = TIMESTAMP_MAX_FUTURE_MS_DEFAULT;
    private final EnumSet<Leniency> enabled = EnumSet.noneOf(Leniency.class);

    private Builder() {
      for (Leniency switchDef : Leniency.values()) {
        if (switchDef.defaultValue()) {
          enabled.add(switchDef);
        }
      }
    }

    /** Sets {@value SyslogParserOptions#TIMEZONE_DEFAULT}. */
    public Builder defaultZone(ZoneId zone) {
      if (zone == null) {
        throw InvalidOptionException.invalidValue(
            TIMEZONE_DEFAULT, null, DEFINITIONS.get(TIMEZONE_DEFAULT).rule());
      }
      this.defaultZone = zone;
      return this;
    }

    /**
     * Adds or replaces one entry of {@value SyslogParserOptions#TIMEZONE_ABBREVIATIONS}.
     *
     * @throws InvalidOptionException for a name that is not 2-6 letters or an offset beyond +-14:00
     */
    public Builder zoneAbbreviation(String name, int offsetMinutes) {
      String rule = DEFINITIONS.get(TIMEZONE_ABBREVIATIONS).rule();
      if (name == null || !ZoneNames.isValidName(name) || Math.abs(offsetMinutes) > 14 * 60) {
        throw InvalidOptionException.invalidValue(
            TIMEZONE_ABBREVIATIONS, name + "=" + offsetMinutes + "min", rule);
      }
      zoneAbbreviations.put(name.toUpperCase(java.util.Locale.ROOT), offsetMinutes);
      return this;
    }

    /** Sets {@value SyslogParserOptions#TIMESTAMP_MAX_PAST_MS}. */
    public Builder maxPastMillis(long millis) {
      this.maxPastMillis = nonNegative(TIMESTAMP_MAX_PAST_MS, millis);
      return this;
    }

    /** Sets {@value SyslogParserOptions#TIMESTAMP_MAX_FUTURE_MS}. */
    public Builder maxFutureMillis(long millis) {
      this.maxFutureMillis = nonNegative(TIMESTAMP_MAX_FUTURE_MS, millis);
      return this;
    }

    /** Turns a leniency switch on or off. */
    public Builder set(Leniency leniency, boolean on) {
      if (on) {
        enabled.add(leniency);
      } else {
        enabled.remove(leniency);
      }
      return this;
    }

    /**
     * Sets an option from text, as from a properties file.
     *
     * @throws InvalidOptionException naming key, value and rule
     */
    public Builder set(String key, String value) {
      Definition def = key == null ? null : DEFINITIONS.get(key);
      if (def == null) {
        throw InvalidOptionException.unknownOption(
            String.valueOf(key), value, DEFINITIONS.keySet());
      }
      String text = value == null ? null : value.trim();
      switch (key) {
        case TIMEZONE_DEFAULT -> defaultZone(parseZone(key, text, def));
        case TIMEZONE_ABBREVIATIONS -> parseAbbreviations(key, text, def);
        case TIMESTAMP_MAX_PAST_MS -> maxPastMillis(parseLong(key, text, def));
        case TIMESTAMP_MAX_FUTURE_MS -> maxFutureMillis(parseLong(key, text, def));
        default -> set(leniencyFor(key), parseBoolean(key, text, def));
      }
      return this;
    }

    /** The options as set. */
    public SyslogParserOptions build() {
      return new SyslogParserOptions(this);
    }

    private static Leniency leniencyFor(String key) {
      for (Leniency switchDef : Leniency.values()) {
        if (switchDef.key().equals(key)) {
          return switchDef;
        }
      }
      throw new IllegalStateException("option " + key + " is defined but not a switch");
    }

    private static ZoneId parseZone(String key, String text, Definition def) {
      if (text == null || text.isEmpty()) {
        throw InvalidOptionException.invalidValue(key, text, def.rule());
      }
      try {
        return ZoneId.of(text);
      } catch (DateTimeException e) {
        throw InvalidOptionException.invalidValue(
            key, text, def.rule() + " (" + e.getMessage() + ")");
      }
    }

    /** "IST=+01:00, CST=-06:00": replaces the configured entries. */
    private void parseAbbreviations(String key, String text, Definition def) {
      if (text == null) {
        throw InvalidOptionException.invalidValue(key, null, def.rule());
      }
      Map<String, Integer> parsed = new LinkedHashMap<>();
      for (String pair : text.split(",")) {
        String entry = pair.trim();
        if (entry.isEmpty()) {
          continue;
        }
        int equals = entry.indexOf('=');
        String name = equals < 0 ? "" : entry.substring(0, equals).trim();
        String offset = equals < 0 ? "" : entry.substring(equals + 1).trim();
        Integer minutes = offsetMinutes(offset);
        if (!ZoneNames.isValidName(name) || minutes == null) {
          throw InvalidOptionException.invalidValue(
              key, text, def.rule() + " (at '" + entry + "')");
        }
        parsed.put(name.toUpperCase(java.util.Locale.ROOT), minutes);
      }
      zoneAbbreviations.clear();
      zoneAbbreviations.putAll(parsed);
    }

    /** "+hh:mm", "-hhmm", "+h" (hours only) as minutes, or null. */
    private static Integer offsetMinutes(String text) {
      if (text.length() < 2 || (text.charAt(0) != '+' && text.charAt(0) != '-')) {
        return null;
      }
      String digits = text.substring(1).replace(":", "");
      if (!digits.chars().allMatch(c -> c >= '0' && c <= '9')
          || text.indexOf(':') > 0 && digits.length() != 4) {
        return null;
      }
      int hours;
      int minutes = 0;
      if (digits.length() == 4) {
        hours = Integer.parseInt(digits.substring(0, 2));
        minutes = Integer.parseInt(digits.substring(2));
      } else if (digits.length() == 1 || digits.length() == 2) {
        hours = Integer.parseInt(digits);
      } else {
        return null;
      }
      if (hours > 14 || minutes > 59 || hours * 60 + minutes > 14 * 60) {
        return null;
      }
      int total = hours * 60 + minutes;
      return text.charAt(0) == '-' ? -total : total;
    }

    private static long parseLong(String key, String text, Definition def) {
      try {
        return nonNegative(key, Long.parseLong(text));
      } catch (NumberFormatException e) {
        throw InvalidOptionException.invalidValue(key, text, def.rule());
      }
    }

    private static boolean parseBoolean(String key, String text, Definition def) {
      if ("true".equalsIgnoreCase(text)) {
        return true;
      }
      if ("false".equalsIgnoreCase(text)) {
        return false;
      }
      throw InvalidOptionException.invalidValue(key, text, def.rule());
    }

    private static long nonNegative(String key, long value) {
      if (value < 0) {
        throw InvalidOptionException.invalidValue(
            key, Long.toString(value), DEFINITIONS.get(key).rule());
      }
      return value;
    }
  }

  /** Keys of every option, for callers that pick parser options out of a larger configuration. */
  public static List<String> keys() {
    return new ArrayList<>(DEFINITIONS.keySet());
  }
}
