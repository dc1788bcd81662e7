package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns each datagram into one event (RFC 5426: one message per datagram; the body is the whole
 * payload, nothing stripped) and hands it to the batcher. Empty datagrams carry no message and are
 * ignored. One per socket, run by the socket's one loop, so the sender-address cache needs no lock.
 *
 * <p>With a {@link DatagramQueue} (udp.queueBytes above 0) the batcher runs on a parsing thread of
 * its own and the socket's loop only copies datagrams into the queue; without one, the batcher runs
 * on the socket's loop, which then reads, parses and puts.
 */
final class DatagramHandler extends ChannelInboundHandlerAdapter {

  /**
   * Bounded: cleared when full, so a spray of spoofed sources costs memory for at most this many
   * entries.
   */
  private static final int PEER_CACHE_SIZE = 10_000;

  private final Listener listener;

  /**
   * The most a read can hold of one datagram: the kernel cut a datagram that filled it, whose size
   * is then unknown.
   */
  private final int slotBytes;

  /** Null when the socket's own loop parses and puts. */
  private final DatagramQueue queue;

  private final Map<InetAddress, Peer> peers = new HashMap<>();
  private EventBatcher batcher;

  /**
   * @param queue where the datagrams go to be parsed on another thread; null: the batcher of the
   *     socket's own loop takes them
   */
  DatagramHandler(Listener listener, int slotBytes, DatagramQueue queue) {
    this.listener = listener;
    this.slotBytes = slotBytes;
    this.queue = queue;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (queue == null) {
      batcher = listener.batcherFor(ctx.channel().eventLoop());
      batcher.register(ctx.channel());
    } else {
      queue.register(ctx.channel());
    }
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (queue == null) {
      batcher.unregister(ctx.channel());
    } else {
      queue.flush();
      queue.unregister(ctx.channel());
    }
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    DatagramPacket packet = (DatagramPacket) msg;
    try {
      ByteBuf payload = packet.content();
      int size = payload.readableBytes();
      Peer peer = peer(packet.sender().getAddress());
      if (size > listener.config.maxMessageBytes()) {
        listener.reportOversize(peer.text(), size, size >= slotBytes);
      } else if (size > 0) {
        if (queue == null) {
          batcher.add(ByteBufUtil.getBytes(payload), peer.text());
        } else {
          queue.add(payload, peer.ascii(), System.currentTimeMillis());
        }
      }
    } finally {
      packet.release();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    if (queue != null) {
      queue.flush();
    }
    super.channelReadComplete(ctx);
  }

  private Peer peer(InetAddress address) {
    Peer peer = peers.get(address);
    if (peer == null) {
      if (peers.size() >= PEER_CACHE_SIZE) {
        peers.clear();
      }
      String text = address.getHostAddress();
      peer = new Peer(text, text.getBytes(StandardCharsets.US_ASCII));
      peers.put(address, peer);
    }
    return peer;
  }

  /** A sender's address as the peer header gives it, and as a {@link DatagramQueue} stores it. */
  private record Peer(String text, byte[] ascii) {}

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // a datagram socket survives a failed read (e.g. an ICMP error surfaced as an exception); keep
    // listening
    listener.reportConnectionError("the udp socket", cause);
  }
}
