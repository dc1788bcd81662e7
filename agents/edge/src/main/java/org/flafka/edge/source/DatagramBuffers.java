package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * The UDP listener's receive buffers: direct buffers of {@code bufferBytes}, each allocated once
 * and reused for read after read, instead of one from Netty's pooled allocator per read. With NIO a
 * read is one datagram and a buffer 64 KiB; with epoll a read is one recvmmsg call, whose datagrams
 * land in slots of one buffer and are handed on as slices of it.
 *
 * <p>Why: a receive buffer must hold the largest datagram (65,507 bytes over IPv4) or the kernel
 * truncates it without a trace, and Netty's pooled allocator caches only buffers of up to 32 KiB
 * per thread, so every 64 KiB buffer came from the shared arena, under its lock, and went back to
 * it after one datagram: a third of the UDP loop's CPU at 100,000 datagrams/s (docs/benchmarks.md,
 * "Edge agent over UDP").
 *
 * <p>Confined to one socket's event loop. The loop reads up to {@code maxMessagesPerRead}
 * datagrams, each into a buffer from here, then hands each to {@link DatagramHandler}, which copies
 * its bytes and releases it: a buffer whose only reference is this object's is free again. So a
 * burst needs at most about {@code maxMessagesPerRead} buffers, and that many stay allocated until
 * {@link #release()}.
 */
final class DatagramBuffers extends DefaultMaxMessagesRecvByteBufAllocator {

  private final int bufferBytes;
  private final List<ByteBuf> buffers = new ArrayList<>();
  private int next;

  DatagramBuffers(int bufferBytes, int maxMessagesPerRead) {
    super(maxMessagesPerRead);
    this.bufferBytes = bufferBytes;
  }

  @Override
  public Handle newHandle() {
    return new MaxMessageHandle() {
      @Override
      public ByteBuf allocate(ByteBufAllocator alloc) {
        return take();
      }

      @Override
      public int guess() {
        return bufferBytes;
      }
    };
  }

  /**
   * A free buffer, emptied, with one more reference for the reader to release. Free means no
   * reference but this object's: the datagrams' slices hold one each until released.
   */
  ByteBuf take() {
    for (int tried = 0; tried < buffers.size(); tried++) {
      ByteBuf buffer = buffers.get(next);
      next = (next + 1) % buffers.size();
      if (buffer.refCnt() == 1) {
        return buffer.clear().retain();
      }
    }
    ByteBuf fresh = Unpooled.directBuffer(bufferBytes, bufferBytes);
    buffers.add(fresh);
    return fresh.retain();
  }

  /** How many buffers are allocated. */
  int allocated() {
    return buffers.size();
  }

  /** Frees every buffer; called once the channel has closed. */
  void release() {
    buffers.forEach(ByteBuf::release);
    buffers.clear();
    next = 0;
  }
}
