package org.flafka.syslog;

/**
 * A parser option is unknown or has a value its rule does not allow. The message names the key, the
 * value and the rule, e.g. {@code Invalid value "ture" for option "permit.missing.pri": expected
 * true or false}.
 */
public final class InvalidOptionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  private InvalidOptionException(String key, String value, String message) {
    super(message);
    this.key = key;
    this.value = value;
  }

  static InvalidOptionException invalidValue(String key, String value, String rule) {
    return new InvalidOptionException(
        key,
        value,
        "Invalid value " + quote(value) + " for option \"" + key + "\": expected " + rule);
  }

  static InvalidOptionException unknownOption(
      String key, String value, Iterable<String> knownKeys) {
    return new InvalidOptionException(
        key,
        value,
        "Unknown option \""
            + key
            + "\" (value "
            + quote(value)
            + "); known options are "
            + String.join(", ", knownKeys));
  }

  private static String quote(String value) {
    return value == null ? "null" : "\"" + value + "\"";
  }

  /** The option key that was unknown or given an invalid value. */
  public String key() {
    return key;
  }

  /** The offending value as given (may be null). */
  public String value() {
    return value;
  }
}
