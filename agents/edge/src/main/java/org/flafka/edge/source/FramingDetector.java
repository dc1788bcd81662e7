package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code framing = auto}: chooses the framing of one connection from its first frame, then replaces
 * itself in the pipeline with that framer, which receives every byte read so far (the idea of
 * Graylog's framing router, with our framers' limits).
 *
 * <ul>
 *   <li>Leading LFs are skipped (empty lines in either framing).
 *   <li>A digit that starts a run of at most 10 digits ended by a space: octet counting.
 *   <li>Anything else (normally {@code <}, the start of a PRI), or digits ended by another byte (a
 *       message without PRI that starts with a date, "2024-…"): line framing.
 * </ul>
 *
 * The decision is made once per connection: a later line that happens to start with "123 " cannot
 * flip a line framed connection into octet counting. The detector buffers at most 10 bytes after
 * the leading LFs. If the connection ends before it could decide, line framing gets what it holds.
 */
final class FramingDetector extends ByteToMessageDecoder implements StreamFramer {

  private final String framerName;
  private final FramingMonitor monitor;
  private final Supplier<ChannelHandler> octetCounting;
  private final Supplier<ChannelHandler> newline;

  /**
   * @param framerName the name the chosen framer gets in the pipeline
   * @param monitor told about the bytes held when the connection is closed undecided
   */
  FramingDetector(
      String framerName,
      FramingMonitor monitor,
      Supplier<ChannelHandler> octetCounting,
      Supplier<ChannelHandler> newline) {
    this.framerName = framerName;
    this.monitor = monitor;
    this.octetCounting = octetCounting;
    this.newline = newline;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.isReadable() && in.getByte(in.readerIndex()) == '\n') {
      in.skipBytes(1);
    }
    Framing framing = detect(in);
    if (framing != null) {
      ctx.pipeline()
          .replace(
              this,
              framerName,
              framing == Framing.OCTET_COUNTING ? octetCounting.get() : newline.get());
    }
  }

  /**
   * The framing the bytes at the reader index start, or null when more bytes are needed to tell.
   */
  static Framing detect(ByteBuf in) {
    int digits = 0;
    for (int i = in.readerIndex(); i < in.writerIndex(); i++) {
      byte b = in.getByte(i);
      if (b >= '0' && b <= '9') {
        if (++digits > OctetCountingFramer.MAX_LENGTH_DIGITS) {
          return Framing.NEWLINE;
        }
      } else {
        return b == ' ' && digits > 0 ? Framing.OCTET_COUNTING : Framing.NEWLINE;
      }
    }
    return null;
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.isReadable()) {
      // decode() saw these bytes (digits only) and could not decide: line framing delivers them as
      // one message, with its own size limit, when the end of the stream reaches it.
      ctx.pipeline().replace(this, framerName, newline.get());
    }
  }

  @Override
  public boolean inFrame() {
    return internalBuffer().isReadable();
  }

  /** The digits held while undecided are the start of a message: dropped and reported. */
  @Override
  public void abandonFrame(String why) {
    ByteBuf held = internalBuffer();
    int rest = held.readableBytes();
    held.skipBytes(rest);
    if (rest > 0) {
      monitor.framingError(why + "; the " + rest + " bytes of its first frame are dropped");
    }
  }
}
