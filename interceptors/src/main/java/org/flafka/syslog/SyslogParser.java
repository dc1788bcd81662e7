package org.flafka.syslog;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The lenient syslog parser: one message's bytes (framing removed) in, a {@link ParseResult} out. It never throws
 * on any input, always terminates, and never alters the input: fields are offsets into the caller's array.
 *
 * <p>Immutable and thread-safe; build one per option set and share it. Give each thread its own
 * {@link ParseResult} and pass it to {@link #parse(byte[], int, int, long, ParseResult)} to parse without
 * allocating.
 */
public final class SyslogParser {
  private final SyslogParserOptions options;

  /** A parser with {@link SyslogParserOptions#defaults()}. */
  public SyslogParser() {
    this(SyslogParserOptions.defaults());
  }

  /** A parser with the given options. */
  public SyslogParser(SyslogParserOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The options this parser was built with. */
  public SyslogParserOptions options() {
    return options;
  }

  /**
   * Parses {@code buffer[offset, offset + length)} into {@code into}, which is reset first, and returns it.
   *
   * @param receivedMillis the receive time, epoch ms: resolves year-less stamps, bounds plausible ones, and is
   *     the timestamp when the message has none
   * @throws IndexOutOfBoundsException only when offset and length do not lie within the array (a caller bug;
   *     no message content ever causes an exception)
   */
  public ParseResult parse(byte[] buffer, int offset, int length, long receivedMillis, ParseResult into) {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    into.reset(buffer, offset, length, receivedMillis);
    return into;
  }

  /** Parses into a new result; see {@link #parse(byte[], int, int, long, ParseResult)}. */
  public ParseResult parse(byte[] buffer, int offset, int length, long receivedMillis) {
    return parse(buffer, offset, length, receivedMillis, new ParseResult());
  }

  /** Parses a whole array into a new result. */
  public ParseResult parse(byte[] message, long receivedMillis) {
    return parse(message, 0, message.length, receivedMillis, new ParseResult());
  }

  /** Parses the UTF-8 encoding of {@code message} into a new result (for tests and tools, not the hot path). */
  public ParseResult parse(String message, long receivedMillis) {
    return parse(message.getBytes(StandardCharsets.UTF_8), receivedMillis);
  }
}
