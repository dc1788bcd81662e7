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
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.flume.channel.ChannelProcessor;

/**
 * TCP and TLS: one accept thread, {@code tcp.workerThreads} loops that read, frame and batch. Each
 * accepted connection gets this pipeline, one handler per concern, in order:
 *
 * <ol>
 *   <li>{@code socket-reads}: notes bytes read from the socket, for the frame clock (tls with
 *       tcp.frameTimeoutSeconds only);
 *   <li>{@code tls}: decrypts, and closes a connection whose handshake takes longer than
 *       tls.handshakeTimeoutSeconds (tls only);
 *   <li>{@code decrypted-reads}: notes bytes that came out decrypted, for the frame clock (as
 *       socket-reads);
 *   <li>{@code idle}: notices a silent connection (only with tcp.idleTimeoutSeconds);
 *   <li>{@code framer}: cuts the stream into messages ({@link FramingDetector}, {@link
 *       OctetCountingFramer} or {@link LineFramer}), bounded by maxMessageBytes;
 *   <li>{@code events}: turns messages into events and hands them to the loop's batcher ({@link
 *       StreamConnectionHandler}).
 * </ol>
 *
 * Connections beyond maxConnections, or beyond maxConnectionsPerAddress from one address, are
 * closed as soon as they are accepted. The frame clock is {@link StreamConnectionHandler}'s.
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

  /** Open connections per sender address (as the peer header writes it); guarded by the lock. */
  private final Map<String, Integer> openPerAddress = new HashMap<>();

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
    boolean tls = sslContext != null;
    StreamConnectionHandler events = new StreamConnectionHandler(this, channel, tls);
    String address = events.peer();
    int open;
    int fromAddress;
    boolean accepted = false;
    synchronized (connectionCountLock) {
      open = openConnections;
      fromAddress = openPerAddress.getOrDefault(address, 0);
      if (open < config.maxConnections() && fromAddress < config.maxConnectionsPerAddress()) {
        accepted = true;
        openConnections = open + 1;
        openPerAddress.put(address, fromAddress + 1);
        counter.setOpenConnectionCount(open + 1);
      }
    }
    if (!accepted) {
      if (open >= config.maxConnections()) {
        reportConnectionRefused(address, open);
      } else {
        reportConnectionRefusedPerAddress(address, fromAddress);
      }
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
                openPerAddress.computeIfPresent(address, (a, n) -> n > 1 ? n - 1 : null);
              }
            });

    ChannelPipeline pipeline = channel.pipeline();
    boolean frameTimeout = config.frameTimeoutSeconds() > 0;
    if (tls) {
      if (frameTimeout) {
        pipeline.addLast("socket-reads", events.socketReads());
      }
      SslHandler handler = sslContext.newHandler(channel.alloc());
      handler.setHandshakeTimeout(config.tlsHandshakeTimeoutSeconds(), TimeUnit.SECONDS);
      pipeline.addLast("tls", handler);
      if (frameTimeout) {
        pipeline.addLast("decrypted-reads", events.decryptedReads());
      }
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
            monitor,
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
