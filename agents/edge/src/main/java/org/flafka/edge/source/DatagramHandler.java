package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns each datagram into one event (RFC 5426: one message per datagram; the body is the whole
 * payload, nothing stripped) and hands it to the batcher. Empty datagrams carry no message and are
 * ignored. One per socket, run by the socket's one loop, so the sender-address cache needs no lock.
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

  private final Map<InetAddress, String> peers = new HashMap<>();
  private EventBatcher batcher;

  DatagramHandler(Listener listener, int slotBytes) {
    this.listener = listener;
    this.slotBytes = slotBytes;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    batcher = listener.batcherFor(ctx.channel().eventLoop());
    batcher.register(ctx.channel());
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    batcher.unregister(ctx.channel());
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    DatagramPacket packet = (DatagramPacket) msg;
    try {
      ByteBuf payload = packet.content();
      int size = payload.readableBytes();
      String peer = peer(packet.sender().getAddress());
      if (size > listener.config.maxMessageBytes()) {
        listener.reportOversize(peer, size, size >= slotBytes);
      } else if (size > 0) {
        batcher.add(ByteBufUtil.getBytes(payload), peer);
      }
    } finally {
      packet.release();
    }
  }

  private String peer(InetAddress address) {
    String peer = peers.get(address);
    if (peer == null) {
      if (peers.size() >= PEER_CACHE_SIZE) {
        peers.clear();
      }
      peer = address.getHostAddress();
      peers.put(address, peer);
    }
    return peer;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // a datagram socket survives a failed read (e.g. an ICMP error surfaced as an exception); keep
    // listening
    listener.reportConnectionError("the udp socket", cause);
  }
}
