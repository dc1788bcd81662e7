package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a TCP/TLS connection: copies each framed message into an event body (the one
 * copy Flume's byte[] bodies need) and hands it to the batcher of the connection's event loop;
 * reports the framer's oversize and framing errors with the sender's address; closes the connection
 * on errors, on a TLS handshake that times out, when it stays inside one frame too long and, when
 * configured, on idleness.
 *
 * <p>The frame clock ({@code tcp.frameTimeoutSeconds}) runs while the connection is inside a frame:
 * from the read that began it to the read that completed it. It is not an idle timeout on bytes: a
 * sender trickling one byte now and then is never idle, and a trickle is the attack. Nor does it
 * run between frames: a device that logs once an hour over a connection it keeps open holds nothing
 * and must not be closed for it. "Inside a frame" is what the framer holds ({@link StreamFramer}),
 * and over TLS also a read of which nothing came out decrypted (a partial TLS record, which the TLS
 * handler holds, not the framer). The clock stops while the batcher has reading paused on a full
 * channel (the sender is held back by us then) and during the TLS handshake, which has its own
 * timeout.
 */
final class StreamConnectionHandler extends ChannelInboundHandlerAdapter implements FramingMonitor {

  private static final Logger LOG = LoggerFactory.getLogger(StreamConnectionHandler.class);

  private final Listener listener;
  private final String peer;
  private final long frameTimeoutNanos;
  private final boolean tls;
  private EventBatcher batcher;
  private ChannelHandlerContext ctx;

  /** Still in the TLS handshake (tls only). */
  private boolean handshaking;

  /** When the frame in progress began ({@link System#nanoTime}), or -1 between frames. */
  private long frameSinceNanos = -1;

  private ScheduledFuture<?> frameCheck;
  private StreamFramer framer;

  // what the current read brought, evaluated at its end (channelReadComplete)
  private boolean rawBytesRead;
  private boolean decryptedBytesRead;
  private boolean messageDelivered;

  StreamConnectionHandler(Listener listener, Channel channel, boolean tls) {
    this.listener = listener;
    this.peer = ((InetSocketAddress) channel.remoteAddress()).getAddress().getHostAddress();
    this.frameTimeoutNanos = TimeUnit.SECONDS.toNanos(listener.config.frameTimeoutSeconds());
    this.tls = tls;
    this.handshaking = tls;
  }

  /** The sender's IP address, as the {@code peer} header carries it. */
  String peer() {
    return peer;
  }

  /**
   * For the head of the pipeline, before TLS: notes that bytes arrived from the socket. Only needed
   * with a frame timeout.
   */
  ChannelInboundHandlerAdapter socketReads() {
    return new ReadMark(() -> rawBytesRead = true);
  }

  /** For the place between TLS and the framer: notes that bytes came out decrypted. */
  ChannelInboundHandlerAdapter decryptedReads() {
    return new ReadMark(() -> decryptedBytesRead = true);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
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
    messageDelivered = true;
    try {
      batcher.add(ByteBufUtil.getBytes(frame), peer);
    } finally {
      frame.release();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    if (frameTimeoutNanos > 0 && !handshaking) {
      updateFrameClock();
    }
    rawBytesRead = false;
    decryptedBytesRead = false;
    messageDelivered = false;
    super.channelReadComplete(ctx);
  }

  /** Starts, keeps or stops the frame clock after a read, from what the read brought. */
  private void updateFrameClock() {
    StreamFramer current = framer();
    boolean framerInFrame = current != null && current.inFrame();
    boolean tlsRecordInProgress = tls && rawBytesRead && !decryptedBytesRead;
    if (framerInFrame && messageDelivered) {
      // a message ended in this read and the next one began in it
      startFrameClock();
    } else if (framerInFrame || tlsRecordInProgress) {
      if (frameSinceNanos < 0) {
        startFrameClock();
      }
    } else {
      frameSinceNanos = -1;
    }
  }

  private void startFrameClock() {
    frameSinceNanos = System.nanoTime();
    if (frameCheck == null) {
      scheduleFrameCheck(frameTimeoutNanos);
    }
  }

  private void scheduleFrameCheck(long delayNanos) {
    frameCheck = ctx.executor().schedule(this::checkFrame, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void checkFrame() {
    frameCheck = null;
    if (frameSinceNanos < 0 || !ctx.channel().isActive()) {
      return;
    }
    if (batcher.isPaused()) {
      scheduleFrameCheck(frameTimeoutNanos);
      return;
    }
    long now = System.nanoTime();
    long since = Math.max(frameSinceNanos, batcher.resumedNanos());
    long left = frameTimeoutNanos - (now - since);
    if (left > 0) {
      scheduleFrameCheck(left);
      return;
    }
    listener.reportFrameTimeout(peer);
    StreamFramer current = framer();
    if (current != null) {
      current.abandonFrame(listener.frameTimeoutProblem());
    }
    frameSinceNanos = -1;
    ctx.close();
  }

  /**
   * The connection's framer; looked up again only while it is the {@link FramingDetector}, which
   * replaces itself once it has decided.
   */
  private StreamFramer framer() {
    if (framer == null || framer instanceof FramingDetector) {
      Object current = ctx.pipeline().get(StreamListener.FRAMER);
      framer = current instanceof StreamFramer ? (StreamFramer) current : null;
    }
    return framer;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (frameCheck != null) {
      frameCheck.cancel(false);
      frameCheck = null;
    }
    if (batcher != null) {
      batcher.unregister(ctx.channel());
    }
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof SslHandshakeCompletionEvent) {
      SslHandshakeCompletionEvent handshake = (SslHandshakeCompletionEvent) evt;
      handshaking = false;
      frameSinceNanos = -1;
      // the bytes of this read finished the handshake: they are no part of a frame
      rawBytesRead = false;
      // other handshake failures also reach exceptionCaught, counted there; a timeout only this way
      if (handshake.cause() instanceof SslHandshakeTimeoutException) {
        listener.reportHandshakeTimeout(peer);
      }
    } else if (evt instanceof IdleStateEvent) {
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

  /** Passes every read on after noting it. */
  private static final class ReadMark extends ChannelInboundHandlerAdapter {
    private final Runnable onRead;

    ReadMark(Runnable onRead) {
      this.onRead = onRead;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      onRead.run();
      ctx.fireChannelRead(msg);
    }
  }
}
