package org.flafka.edge.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The UDP listener's reused receive buffers: one per datagram in flight, each reused once its
 * reader released it.
 */
class DatagramBuffersTest {

  @Test
  void aReleasedBufferIsReusedEmptyAndABusyOneIsNot() {
    DatagramBuffers buffers = new DatagramBuffers(65_536, 64);
    RecvByteBufAllocator.Handle handle = buffers.newHandle();
    assertEquals(65_536, handle.guess());

    ByteBuf first = handle.allocate(ByteBufAllocator.DEFAULT);
    assertEquals(65_536, first.writableBytes(), "room for the largest datagram");
    first.writeBytes(new byte[200]);
    ByteBuf second = handle.allocate(ByteBufAllocator.DEFAULT);
    assertNotSame(first, second, "the first is still being read");

    first.release(); // the handler is done with it
    ByteBuf again = handle.allocate(ByteBufAllocator.DEFAULT);
    assertSame(first, again);
    assertEquals(0, again.readableBytes(), "emptied before reuse");
    assertEquals(2, buffers.allocated());

    again.release();
    second.release();
    buffers.release();
    assertEquals(0, first.refCnt(), "freed once the channel closed");
    assertEquals(0, second.refCnt());
    assertEquals(0, buffers.allocated());
  }

  @Test
  void aBurstNeedsNoMoreBuffersThanItHasDatagramsInFlight() {
    DatagramBuffers buffers = new DatagramBuffers(1024, 64);
    RecvByteBufAllocator.Handle handle = buffers.newHandle();
    for (int read = 0; read < 1_000; read++) {
      // one read of the loop: up to 64 datagrams, then each handed on and released
      List<ByteBuf> inFlight = new ArrayList<>();
      for (int datagram = 0; datagram < 64; datagram++) {
        inFlight.add(handle.allocate(ByteBufAllocator.DEFAULT).writeByte(datagram));
      }
      inFlight.forEach(ByteBuf::release);
    }
    assertEquals(64, buffers.allocated());
    buffers.release();
  }
}
