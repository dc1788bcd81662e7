package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a TCP/TLS connection: copies each framed message into an event body (the one
 * copy Flume's byte[] bodies need) and hands it to the batcher of the connection's event loop;
 * reports the framer's oversize and framing errors with the sender's address; closes the connection
 * on errors and, when configured, on idleness.
 */
final class StreamConnectionHandler extends ChannelInboundHandlerAdapter implements FramingMonitor {

  private static final Logger LOG = LoggerFactory.getLogger(StreamConnectionHandler.class);

  private final Listener listener;
  private final String peer;
  private EventBatcher batcher;

  StreamConnectionHandler(Listener listener, Channel channel) {
    this.listener = listener;
    this.peer = ((InetSocketAddress) channel.remoteAddress()).getAddress().getHostAddress();
  }

  /** The sender's IP address, as the {@code peer} header carries it. */
  String peer() {
    return peer;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    batcher = listener.batcherFor(ctx.channel().eventLoop());
    batcher.register(ctx.channel());
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      batcher.add(ByteBufUtil.getBytes(frame), peer);
    } finally {
      frame.release();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (batcher != null) {
      batcher.unregister(ctx.channel());
    }
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      // a connection paused by backpressure is quiet because we stopped reading it, not because the
      // sender is idle
      if (!batcher.isPaused()) {
        LOG.debug(
            "{}: closing the connection from {}: idle for {} s",
            listener.config.component(),
            peer,
            listener.config.idleTimeoutSeconds());
        ctx.close();
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    listener.reportConnectionError(peer, cause);
    ctx.close();
  }

  @Override
  public void oversize(long size) {
    listener.reportOversize(peer, size);
  }

  @Override
  public void framingError(String problem) {
    listener.reportFramingError(peer, problem);
  }
}
