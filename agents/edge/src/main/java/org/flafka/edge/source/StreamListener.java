package org.flafka.edge.source;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.flume.channel.ChannelProcessor;

/**
 * TCP and TLS: one accept thread, {@code tcp.workerThreads} loops that read, frame and batch. Each
 * accepted connection gets this pipeline, one handler per concern, in order:
 *
 * <ol>
 *   <li>{@code tls}: decrypts (tls only);
 *   <li>{@code idle}: notices a silent connection (only with tcp.idleTimeoutSeconds);
 *   <li>{@code framer}: cuts the stream into messages ({@link FramingDetector}, {@link
 *       OctetCountingFramer} or {@link LineFramer}), bounded by maxMessageBytes;
 *   <li>{@code events}: turns messages into events and hands them to the loop's batcher ({@link
 *       StreamConnectionHandler}).
 * </ol>
 *
 * Connections beyond maxConnections are closed as soon as they are accepted.
 */
final class StreamListener extends Listener {

  static final String FRAMER = "framer";

  /**
   * Empty readings in a row (10 ms apart) that tell a stop the senders have nothing more in flight.
   */
  private static final int STREAM_QUIET_POLLS = 3;

  private final SslContext sslContext;
  private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
  private final Object connectionCountLock = new Object();
  private int openConnections;
  private EventLoopGroup acceptGroup;
  private EventLoopGroup ioGroup;

  StreamListener(
      SyslogSourceConfig config,
      SyslogSourceCounter counter,
      ChannelProcessor processor,
      SslContext sslContext) {
    super(config, counter, processor);
    this.sslContext = sslContext;
  }

  @Override
  EventLoopGroup createGroups() {
    String prefix = "flafka-" + config.component().replace(' ', '-') + "-";
    acceptGroup = new NioEventLoopGroup(1, new DefaultThreadFactory(prefix + "accept", true));
    ioGroup =
        new NioEventLoopGroup(
            config.workerThreads(), new DefaultThreadFactory(prefix + "io", true));
    return ioGroup;
  }

  @Override
  ChannelFuture bind() {
    return new ServerBootstrap()
        .group(acceptGroup, ioGroup)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childHandler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel channel) {
                accept(channel);
              }
            })
        .bind(config.bind(), config.port());
  }

  private void accept(SocketChannel channel) {
    StreamConnectionHandler events = new StreamConnectionHandler(this, channel);
    int open;
    synchronized (connectionCountLock) {
      open = openConnections;
      if (open < config.maxConnections()) {
        openConnections = ++open;
        counter.setOpenConnectionCount(open);
      } else {
        open = -open;
      }
    }
    if (open < 0) {
      reportConnectionRefused(events.peer(), -open);
      channel.close();
      return;
    }
    connections.add(channel);
    channel
        .closeFuture()
        .addListener(
            closed -> {
              connections.remove(channel);
              synchronized (connectionCountLock) {
                counter.setOpenConnectionCount(--openConnections);
              }
            });

    ChannelPipeline pipeline = channel.pipeline();
    if (sslContext != null) {
      pipeline.addLast("tls", sslContext.newHandler(channel.alloc()));
    }
    if (config.idleTimeoutSeconds() > 0) {
      pipeline.addLast(
          "idle", new IdleStateHandler(config.idleTimeoutSeconds(), 0, 0, TimeUnit.SECONDS));
    }
    pipeline.addLast(FRAMER, framer(events));
    pipeline.addLast("events", events);
  }

  private ChannelHandler framer(FramingMonitor monitor) {
    switch (config.framing()) {
      case OCTET_COUNTING:
        return new OctetCountingFramer(config.maxMessageBytes(), monitor);
      case NEWLINE:
        return new LineFramer(config.maxMessageBytes(), config.nulDelimiter(), monitor);
      case AUTO:
      default:
        return new FramingDetector(
            FRAMER,
            () -> new OctetCountingFramer(config.maxMessageBytes(), monitor),
            () -> new LineFramer(config.maxMessageBytes(), config.nulDelimiter(), monitor));
    }
  }

  /**
   * Reads on what the senders already wrote (closing would discard it), then closes. TCP's flow
   * control keeps what does not fit our receive buffer in the sender's send buffer, invisible here,
   * and the kernel moves it to ours as soon as we read: so the connections are read until ours
   * stayed empty for a few polls in a row.
   */
  @Override
  void closeConnections(long deadlineNanos) {
    readWhatTheKernelHolds(ProcNetSockets.TCP, STREAM_QUIET_POLLS, deadlineNanos);
    for (Channel channel : connections) {
      channel.close();
    }
  }

  @Override
  List<Future<?>> shutdownGroups(long timeoutMillis) {
    return List.of(
        acceptGroup.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS),
        ioGroup.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS));
  }
}
