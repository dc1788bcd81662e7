package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;
import java.util.List;

/**
 * Cuts a byte stream into messages ended by a line feed: RFC 6587 3.4.2 "non-transparent framing".
 *
 * <pre>
 *   in:  "&lt;13&gt;a\n"  "&lt;13&gt;b"  "c\r\n\n&lt;13&gt;d"  (end of stream)
 *   out: "&lt;13&gt;a"    "&lt;13&gt;bc"   "&lt;13&gt;d"
 * </pre>
 *
 * <p>Delimiters and body: LF ends a message. A CR immediately before that LF is part of the
 * delimiter and removed (CRLF senders); a CR anywhere else is kept, so the body is exactly what was
 * sent minus the delimiter. With {@code nulDelimiter} a NUL also ends a message (old senders that
 * use NUL as the trailer). Empty messages (blank lines, or "\r\n" alone) produce nothing. When the
 * stream ends, bytes after the last delimiter are one more message: many senders omit the final LF.
 *
 * <p>States:
 *
 * <ul>
 *   <li>scanning: looking for a delimiter. {@code scanned} bytes after the reader index are known
 *       to hold none, so a message arriving in many reads is scanned once (linear, not quadratic,
 *       for a multi-megabyte message). A complete message is emitted as a slice of the cumulation:
 *       no copy here.
 *   <li>discarding: the current message grew past {@code maxMessageBytes} without a delimiter. Its
 *       bytes are dropped as they arrive until the next delimiter, then its whole size is reported
 *       once to the monitor and scanning resumes with the next message. Buffered bytes stay below
 *       {@code maxMessageBytes + 1} (the one being a possible CR of a CRLF) plus one read.
 * </ul>
 */
final class LineFramer extends ByteToMessageDecoder implements StreamFramer {

  private static final ByteProcessor FIND_LF_OR_NUL = b -> b != '\n' && b != 0;

  private final int maxMessageBytes;
  private final boolean nulDelimiter;
  private final FramingMonitor monitor;

  /** Bytes after the reader index already searched without finding a delimiter. */
  private int scanned;

  /** True while dropping the rest of an oversize message. */
  private boolean discarding;

  /** Size of the oversize message being dropped, so far. */
  private long discarded;

  LineFramer(int maxMessageBytes, boolean nulDelimiter, FramingMonitor monitor) {
    this.maxMessageBytes = maxMessageBytes;
    this.nulDelimiter = nulDelimiter;
    this.monitor = monitor;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.isReadable()) {
      int start = in.readerIndex();
      int delimiter = indexOfDelimiter(in, start + scanned);
      if (delimiter < 0) {
        noDelimiterYet(in);
        return;
      }
      scanned = 0;
      int length = delimiter - start;
      if (in.getByte(delimiter) == '\n' && length > 0 && in.getByte(delimiter - 1) == '\r') {
        length--;
      }
      if (discarding) {
        discarding = false;
        monitor.oversize(discarded + length);
      } else if (length > maxMessageBytes) {
        monitor.oversize(length);
      } else if (length > 0) {
        out.add(in.retainedSlice(start, length));
      }
      in.readerIndex(delimiter + 1);
    }
  }

  /**
   * The index of the first delimiter from {@code from} to the writer index, or -1. A line feed
   * alone is found with {@code ByteBuf.indexOf}, which reads eight bytes at a time; a {@code
   * forEachByte} processor call per byte was 9% of the edge agent's profile samples
   * (docs/benchmarks.md). Either of two bytes still needs the per-byte walk.
   */
  private int indexOfDelimiter(ByteBuf in, int from) {
    return nulDelimiter
        ? in.forEachByte(from, in.writerIndex() - from, FIND_LF_OR_NUL)
        : in.indexOf(from, in.writerIndex(), (byte) '\n');
  }

  /** Remembers how far the scan got, or starts discarding when the message cannot fit any more. */
  private void noDelimiterYet(ByteBuf in) {
    int readable = in.readableBytes();
    if (discarding) {
      discarded += readable;
      in.skipBytes(readable);
    } else if (readable > maxMessageBytes + 1) {
      discarding = true;
      discarded = readable;
      in.skipBytes(readable);
      scanned = 0;
    } else {
      scanned = readable;
    }
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    decode(ctx, in, out);
    int rest = in.readableBytes();
    if (discarding) {
      discarding = false;
      monitor.oversize(discarded + rest);
    } else if (rest > maxMessageBytes) {
      monitor.oversize(rest);
    } else if (rest > 0) {
      out.add(in.retainedSlice(in.readerIndex(), rest));
    }
    in.skipBytes(rest);
    scanned = 0;
  }

  /** Bytes held for the message in progress: what this connection costs in memory. */
  int bufferedBytes() {
    return internalBuffer().readableBytes();
  }

  @Override
  public boolean inFrame() {
    return discarding || internalBuffer().isReadable();
  }

  @Override
  public void abandonFrame(String why) {
    ByteBuf held = internalBuffer();
    int rest = held.readableBytes();
    held.skipBytes(rest);
    scanned = 0;
    if (discarding) {
      discarding = false;
      monitor.oversize(discarded + rest);
    } else if (rest > 0) {
      monitor.framingError(why + "; the " + rest + " bytes of its incomplete message are dropped");
    }
  }
}
