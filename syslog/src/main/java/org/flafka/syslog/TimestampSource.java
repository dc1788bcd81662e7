package org.flafka.syslog;

/**
 * Where {@link ParseResult#timestampMillis()} came from; {@link #headerValue()} is the {@code
 * timestamp_source} header.
 */
public enum TimestampSource {
  /** Parsed from the message. */
  MESSAGE("message"),
  /**
   * The receive time: the message carried no usable timestamp (none, an uptime, invalid or
   * implausible).
   */
  RECEIVED("received");

  private final String headerValue;

  TimestampSource(String headerValue) {
    this.headerValue = headerValue;
  }

  /** {@code message} or {@code received}. */
  public String headerValue() {
    return headerValue;
  }
}
