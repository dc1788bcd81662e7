package org.flafka.interceptors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flume.conf.ConfigurationException;

/**
 * The declaration of a plugin's configuration: every key with its type, default, validator and documentation in
 * one place, in the spirit of Kafka's {@code ConfigDef}. {@link #parse(Map)} turns the strings Flume hands a
 * plugin into typed values or fails with one {@link ConfigurationException} naming the key, the value and the
 * rule. Unknown keys are errors too, because Flume itself ignores a misspelt key silently and the plugin then
 * runs on a default nobody chose.
 */
public final class ConfigSpec {

    /** The value types a key can have, each with the syntax its parser accepts. */
    public enum Type {
        STRING("a string"),
        BOOLEAN("true or false"),
        INT("an integer"),
        LIST("a comma-separated list");

        private final String syntax;

        Type(String syntax) {
            this.syntax = syntax;
        }

        /** What a value of this type looks like, for error messages and documentation. */
        public String syntax() {
            return syntax;
        }
    }

    /** Checks a parsed value; its {@code toString} states the rule and feeds both errors and documentation. */
    public interface Validator {
        /** Returns normally when {@code value} obeys the rule, else throws a {@link ConfigurationException}. */
        void ensureValid(String key, Object value);
    }

    /** One declared key. */
    public record Key(String name, Type type, String defaultValue, Validator validator, String doc) {
    }

    /** Keys Flume itself puts into a plugin's context; accepted and ignored. */
    private static final Set<String> FLUME_KEYS = Set.of("type");

    private final Map<String, Key> keys = new LinkedHashMap<>();

    /**
     * Declares a key. The default is given as the string a user would write, so it goes through the same parser
     * and validator as user input: a bad default fails at class initialisation, not in production.
     */
    public ConfigSpec define(String name, Type type, String defaultValue, Validator validator, String doc) {
        if (keys.containsKey(name)) {
            throw new IllegalArgumentException("configuration key '" + name + "' is defined twice");
        }
        Key key = new Key(name, type, defaultValue, validator, doc);
        validator.ensureValid(name, convert(key, defaultValue));
        keys.put(name, key);
        return this;
    }

    /** The declared keys in declaration order. */
    public List<Key> keys() {
        return List.copyOf(keys.values());
    }

    /**
     * Parses a plugin's settings: every declared key gets its value or default, parsed and validated.
     *
     * @throws ConfigurationException for an unknown key, a value of the wrong syntax or one that breaks its rule
     */
    public Values parse(Map<String, String> settings) {
        return parse(settings, List.of());
    }

    /**
     * Parses a plugin's settings of which {@code delegatedKeys} belong to a component the plugin configures
     * (and validates) separately: those are accepted here, not parsed.
     */
    public Values parse(Map<String, String> settings, Collection<String> delegatedKeys) {
        Set<String> unknown = new TreeSet<>(settings.keySet());
        unknown.removeAll(keys.keySet());
        unknown.removeAll(delegatedKeys);
        unknown.removeAll(FLUME_KEYS);
        if (!unknown.isEmpty()) {
            List<String> known = new ArrayList<>(keys.keySet());
            known.addAll(delegatedKeys);
            throw new ConfigurationException("Unknown configuration key" + (unknown.size() == 1 ? " " : "s ")
                    + String.join(", ", unknown.stream().map(k -> "'" + k + "'").toList())
                    + ": the known keys are " + String.join(", ", known));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Key key : keys.values()) {
            String raw = settings.getOrDefault(key.name(), key.defaultValue());
            Object value = convert(key, raw);
            key.validator().ensureValid(key.name(), value);
            values.put(key.name(), value);
        }
        return new Values(values);
    }

    /** The keys as a Markdown table (key, type, default, rule, description), for the operations guide. */
    public String toMarkdownTable() {
        StringBuilder table = new StringBuilder("| key | type | default | valid values | description |\n");
        table.append("|---|---|---|---|---|\n");
        for (Key key : keys.values()) {
            table.append("| `").append(key.name()).append("` | ").append(key.type().name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`")
                    .append(" | ").append(key.validator()).append(" | ").append(key.doc()).append(" |\n");
        }
        return table.toString();
    }

    private static Object convert(Key key, String raw) {
        String value = raw.trim();
        switch (key.type()) {
            case STRING:
                return value;
            case BOOLEAN:
                // Flume's Context.getBoolean reads "ture" as false; here anything but true/false is an error.
                if (value.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (value.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                throw invalid(key.name(), raw, "expected " + key.type().syntax());
            case INT:
                try {
                    return Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    throw invalid(key.name(), raw, "expected " + key.type().syntax());
                }
            case LIST:
                if (value.isEmpty()) {
                    return List.of();
                }
                List<String> items = new ArrayList<>();
                for (String item : value.split(",")) {
                    String trimmed = item.trim();
                    if (trimmed.isEmpty()) {
                        throw invalid(key.name(), raw, "expected " + key.type().syntax() + " without empty items");
                    }
                    items.add(trimmed);
                }
                return Collections.unmodifiableList(items);
            default:
                throw new IllegalStateException("unhandled type " + key.type());
        }
    }

    /** The error every rule violation becomes: names the key, the value and the rule, in Kafka's wording. */
    public static ConfigurationException invalid(String key, Object value, String rule) {
        return new ConfigurationException("Invalid value '" + value + "' for configuration '" + key + "': " + rule);
    }

    /** Accepts every value of the key's type. */
    public static Validator any() {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
            }

            @Override
            public String toString() {
                return "any";
            }
        };
    }

    /** An integer within [min, max]. */
    public static Validator between(int min, int max) {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                int number = (Integer) value;
                if (number < min || number > max) {
                    throw invalid(key, value, "must be between " + min + " and " + max);
                }
            }

            @Override
            public String toString() {
                return "[" + min + ", " + max + "]";
            }
        };
    }

    /**
     * The rule of a key the user must set, for the documentation ("required, e.g. ..."). Its default is empty and
     * {@link #define} checks defaults against their rule, so this accepts every value; the plugin checks that the
     * key was set with {@link #requireSet}.
     */
    public static Validator required(String example) {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
            }

            @Override
            public String toString() {
                return "required, e.g. " + example;
            }
        };
    }

    /**
     * Fails unless a required key was set, naming the key and showing {@code example}.
     *
     * @param component what the key belongs to, for the fix: "source", "sink"
     */
    public static void requireSet(String key, boolean set, String example, String component) {
        if (!set) {
            throw new ConfigurationException("Missing required configuration '" + key + "'. Fix: add " + key + " = "
                    + example + " to the " + component + ".");
        }
    }

    /** A string that is one of {@code allowed}. */
    public static Validator oneOf(List<String> allowed) {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                if (!allowed.contains((String) value)) {
                    throw invalid(key, value, "must be one of " + String.join(", ", allowed));
                }
            }

            @Override
            public String toString() {
                return "one of " + String.join(", ", allowed);
            }
        };
    }

    /** A list whose items all come from {@code allowed}, each at most once. */
    public static Validator subsetOf(List<String> allowed) {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                @SuppressWarnings("unchecked")
                List<String> items = (List<String>) value;
                Set<String> seen = new TreeSet<>();
                for (String item : items) {
                    if (!allowed.contains(item)) {
                        throw invalid(key, String.join(",", items),
                                "'" + item + "' is not one of " + String.join(", ", allowed));
                    }
                    if (!seen.add(item)) {
                        throw invalid(key, String.join(",", items), "'" + item + "' is listed twice");
                    }
                }
            }

            @Override
            public String toString() {
                return "any of " + String.join(", ", allowed);
            }
        };
    }

    /**
     * A string usable as one component of an HDFS path and as a Kafka header value: empty, or 1 to
     * {@code maxLength} characters from [A-Za-z0-9._-], not starting with '.' or '_' (Hadoop's input formats
     * treat such names as hidden files).
     */
    public static Validator pathSafeOrEmpty(int maxLength) {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                String text = (String) value;
                if (text.isEmpty()) {
                    return;
                }
                if (text.length() > maxLength) {
                    throw invalid(key, value, "must be at most " + maxLength + " characters");
                }
                if (text.charAt(0) == '.' || text.charAt(0) == '_') {
                    throw invalid(key, value, "must not start with '.' or '_' (Hadoop treats those as hidden)");
                }
                for (int i = 0; i < text.length(); i++) {
                    if (!HostNames.isPathSafe(text.charAt(i))) {
                        throw invalid(key, value, "may contain only letters, digits, '.', '_' and '-'");
                    }
                }
            }

            @Override
            public String toString() {
                return "empty, or up to " + maxLength + " of [A-Za-z0-9._-], not starting with '.' or '_'";
            }
        };
    }

    /** A non-empty string of printable ASCII without spaces: a header name. */
    public static Validator headerName() {
        return new Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                String text = (String) value;
                if (text.isEmpty()) {
                    throw invalid(key, value, "must not be empty");
                }
                for (int i = 0; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (c <= ' ' || c > '~') {
                        throw invalid(key, value, "must be printable ASCII without spaces");
                    }
                }
            }

            @Override
            public String toString() {
                return "non-empty printable ASCII without spaces";
            }
        };
    }

    /** Parsed, validated values by key. Asking for an undeclared key or the wrong type is a programming error. */
    public static final class Values {
        private final Map<String, Object> values;

        private Values(Map<String, Object> values) {
            this.values = values;
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

        @SuppressWarnings("unchecked")
        public List<String> getList(String key) {
            return (List<String>) get(key);
        }

        private Object get(String key) {
            Object value = values.get(key);
            if (value == null) {
                throw new IllegalArgumentException("configuration key '" + key + "' is not defined");
            }
            return value;
        }
    }
}
