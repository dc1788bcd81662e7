package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a byte stream into octet-counted messages: RFC 6587 3.4.1, the framing RFC 5425 prescribes
 * for TLS.
 *
 * <pre>
 *   +---------+----+-------------------------------+
 *   | MSG-LEN | SP | SYSLOG-MSG (MSG-LEN bytes)    |
 *   | "11"    | " "| "&lt;13&gt;hello\n"                |
 *   +---------+----+-------------------------------+
 *   out: "&lt;13&gt;hello\n"  (exactly MSG-LEN bytes, as sent: a LF inside the count is part of the message)
 * </pre>
 *
 * <p>MSG-LEN is ASCII digits '0' to '9'. Leniencies (each a real sender's habit): leading zeros are
 * accepted ("011 " is 11); LF, CR, NUL and SP before a header are skipped (senders that also end
 * octet-counted frames with LF); a length of 0 is an empty message and produces nothing.
 *
 * <p>Limits and recovery:
 *
 * <ul>
 *   <li>MSG-LEN above {@code maxMessageBytes}: oversize. Reported to the monitor, then exactly
 *       MSG-LEN bytes are skipped as they arrive, so the next header is found where the sender put
 *       it. Nothing is buffered.
 *   <li>more than 10 digits, a value above {@link Integer#MAX_VALUE}, or any byte other than a
 *       digit before the space: a framing error. The length cannot be trusted, so the stream is
 *       re-synchronised the only way left: everything up to and including the next LF is skipped
 *       (and reported), then a header is expected.
 * </ul>
 *
 * <p>States: {@code HEADER} → {@code BODY} → {@code HEADER}; {@code HEADER} → {@code SKIP_BODY}
 * (oversize) → {@code HEADER}; {@code HEADER} → {@code SKIP_LINE} (bad header) → {@code HEADER}. A
 * header is re-parsed from the reader index until complete; it is at most 11 bytes, so this costs
 * nothing and needs no state.
 */
final class OctetCountingFramer extends ByteToMessageDecoder implements StreamFramer {

  /** Integer.MAX_VALUE has 10 digits. */
  static final int MAX_LENGTH_DIGITS = 10;

  private enum State {
    HEADER,
    BODY,
    SKIP_BODY,
    SKIP_LINE
  }

  private final int maxMessageBytes;
  private final FramingMonitor monitor;

  private State state = State.HEADER;

  /** BODY: the length of the message awaited. */
  private int bodyLength;

  /** SKIP_BODY: bytes of the oversize message still to skip. */
  private long skipRemaining;

  OctetCountingFramer(int maxMessageBytes, FramingMonitor monitor) {
    this.maxMessageBytes = maxMessageBytes;
    this.monitor = monitor;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.isReadable()) {
      switch (state) {
        case HEADER:
          if (!readHeader(in)) {
            return;
          }
          break;
        case BODY:
          if (in.readableBytes() < bodyLength) {
            return;
          }
          out.add(in.readRetainedSlice(bodyLength));
          state = State.HEADER;
          break;
        case SKIP_BODY:
          int skip = (int) Math.min(skipRemaining, in.readableBytes());
          in.skipBytes(skip);
          skipRemaining -= skip;
          if (skipRemaining == 0) {
            state = State.HEADER;
          }
          break;
        case SKIP_LINE:
          int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
          if (lf < 0) {
            in.skipBytes(in.readableBytes());
            return;
          }
          in.readerIndex(lf + 1);
          state = State.HEADER;
          break;
        default:
          throw new IllegalStateException(state.name());
      }
    }
  }

  /**
   * Parses "MSG-LEN SP" at the reader index and moves to the next state. Returns false when the
   * header is not complete yet (nothing consumed but skipped separators).
   */
  private boolean readHeader(ByteBuf in) {
    while (in.isReadable() && isSeparator(in.getByte(in.readerIndex()))) {
      in.skipBytes(1);
    }
    long length = 0;
    int digits = 0;
    for (int i = in.readerIndex(); i < in.writerIndex(); i++) {
      byte b = in.getByte(i);
      if (b >= '0' && b <= '9') {
        if (++digits > MAX_LENGTH_DIGITS) {
          return badHeader("the octet count has more than " + MAX_LENGTH_DIGITS + " digits");
        }
        length = length * 10 + (b - '0');
        if (length > Integer.MAX_VALUE) {
          return badHeader("the octet count " + length + " is larger than " + Integer.MAX_VALUE);
        }
      } else if (b == ' ' && digits > 0) {
        in.readerIndex(i + 1);
        startMessage((int) length);
        return true;
      } else {
        return badHeader(
            String.format(
                "expected %s at byte %d of the frame header, got 0x%02x",
                digits == 0 ? "a digit" : "a digit or a space", digits + 1, b & 0xff));
      }
    }
    return false;
  }

  private void startMessage(int length) {
    if (length == 0) {
      state = State.HEADER;
    } else if (length > maxMessageBytes) {
      monitor.oversize(length);
      skipRemaining = length;
      state = State.SKIP_BODY;
    } else {
      bodyLength = length;
      state = State.BODY;
    }
  }

  private boolean badHeader(String problem) {
    monitor.framingError("bad octet-counting header: " + problem + "; skipping to the next LF");
    state = State.SKIP_LINE;
    return true;
  }

  private static boolean isSeparator(byte b) {
    return b == '\n' || b == '\r' || b == 0 || b == ' ';
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    decode(ctx, in, out);
    if (state == State.BODY) {
      monitor.framingError(
          "the connection closed after "
              + in.readableBytes()
              + " of the "
              + bodyLength
              + " bytes of an octet-counted message; the partial message is dropped");
    } else if (state == State.HEADER && in.isReadable()) {
      monitor.framingError(
          "the connection closed inside an octet-counting header; "
              + in.readableBytes()
              + " bytes dropped");
    }
    in.skipBytes(in.readableBytes());
    state = State.HEADER;
  }

  /** Bytes held for the message in progress: what this connection costs in memory. */
  int bufferedBytes() {
    return internalBuffer().readableBytes();
  }

  @Override
  public boolean inFrame() {
    return state != State.HEADER || internalBuffer().isReadable();
  }

  /**
   * SKIP_BODY and SKIP_LINE were reported when they began (oversize, bad header): dropping their
   * rest reports nothing more.
   */
  @Override
  public void abandonFrame(String why) {
    ByteBuf held = internalBuffer();
    int rest = held.readableBytes();
    held.skipBytes(rest);
    if (state == State.BODY) {
      monitor.framingError(
          why
              + "; "
              + rest
              + " of the "
              + bodyLength
              + " bytes of its octet-counted message are dropped");
    } else if (state == State.HEADER && rest > 0) {
      monitor.framingError(why + "; the " + rest + " bytes of its incomplete header are dropped");
    }
    state = State.HEADER;
  }
}
