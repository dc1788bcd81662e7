package org.flafka.syslog;

/**
 * How well a message was understood. The value of the {@code parse} event header is {@link
 * #headerValue()}.
 */
public enum ParseStatus {
  /**
   * Well-formed for its {@link SyslogFormat}: every field came from the message as the format
   * defines it.
   */
  OK("ok"),
  /**
   * Understood despite defects: fields were extracted, but only because one or more leniency
   * switches ({@link Leniency}) allowed a deviation. {@link ParseResult#defects()} says which.
   */
  LENIENT("lenient"),
  /**
   * Not understood. Every field is absent except the message (the whole input) and the timestamp,
   * which is the receive time. The caller keeps the body untouched, as always.
   */
  RAW("raw");

  private final String headerValue;

  ParseStatus(String headerValue) {
    this.headerValue = headerValue;
  }

  /**
   * The lower-case value for the {@code parse} header: {@code ok}, {@code lenient} or {@code raw}.
   */
  public String headerValue() {
    return headerValue;
  }
}
