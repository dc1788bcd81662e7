package org.flafka.syslog;

/**
 * A parser option has a value its rule does not allow. The message names the key, the value and the rule, e.g.
 * {@code Invalid value "ture" for option "permit.missing.pri": must be true or false}.
 */
public final class InvalidOptionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  InvalidOptionException(String key, String value, String rule) {
    super("Invalid value " + (value == null ? "null" : "\"" + value + "\"") + " for option \"" + key + "\": " + rule);
    this.key = key;
    this.value = value;
  }

  /** The option key that was given an invalid value. */
  public String key() {
    return key;
  }

  /** The offending value as given (may be null). */
  public String value() {
    return value;
  }
}
