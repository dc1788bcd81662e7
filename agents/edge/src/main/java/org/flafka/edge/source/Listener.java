package org.flafka.edge.source;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.unix.Errors;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flume.FlumeException;
import org.apache.flume.channel.ChannelProcessor;
import org.flafka.edge.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running part of a {@link SyslogSource} between start and stop: event loops, the bound
 * sockets, one {@link EventBatcher} per loop, and the counting and rate-limited reporting of bad
 * input. {@link StreamListener} (tcp, tls) and {@link DatagramListener} (udp) fill in the
 * transport.
 */
abstract class Listener {

  private static final Logger LOG = LoggerFactory.getLogger(Listener.class);
  private static final long WARN_INTERVAL_SECONDS = 10;

  /**
   * Longest a stop reads on what the kernel still holds for the sockets before closing them, which
   * discards it.
   */
  static final long STOP_READ_MILLIS = 2000;

  final SyslogSourceConfig config;
  final SyslogSourceCounter counter;
  private final ChannelProcessor processor;
  private final RateLimitedLog oversizeLog;
  private final RateLimitedLog framingLog;
  private final RateLimitedLog connectionLog;
  private final RateLimitedLog channelFullLog;
  private final RateLimitedLog dropLog;
  private final Map<EventLoop, EventBatcher> batchers = new IdentityHashMap<>();
  private final List<Channel> bound = new ArrayList<>();
  private int port;

  Listener(SyslogSourceConfig config, SyslogSourceCounter counter, ChannelProcessor processor) {
    this.config = config;
    this.counter = counter;
    this.processor = processor;
    this.oversizeLog = new RateLimitedLog(LOG, WARN_INTERVAL_SECONDS, TimeUnit.SECONDS);
    this.framingLog = new RateLimitedLog(LOG, WARN_INTERVAL_SECONDS, TimeUnit.SECONDS);
    this.connectionLog = new RateLimitedLog(LOG, WARN_INTERVAL_SECONDS, TimeUnit.SECONDS);
    this.channelFullLog = new RateLimitedLog(LOG, WARN_INTERVAL_SECONDS, TimeUnit.SECONDS);
    this.dropLog = new RateLimitedLog(LOG, WARN_INTERVAL_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Creates the event loops and returns those whose channels produce events; each gets a batcher.
   */
  abstract EventLoopGroup createGroups();

  /**
   * Binds the listener's first (for tcp and tls: only) socket; the future completes when bound or
   * failed.
   */
  abstract ChannelFuture bind();

  /**
   * Binds the listener's other sockets, once {@code first} is bound (to its port, when port was 0).
   */
  List<ChannelFuture> bindMore(Channel first) {
    return List.of();
  }

  /**
   * Called first when stopping, while the sockets are still open and read; returns by {@code
   * deadlineNanos}.
   */
  void closing(long deadlineNanos) {}

  /**
   * Closes what the bound sockets opened (accepted connections), by {@code deadlineNanos}; the
   * bound sockets are closed already.
   */
  abstract void closeConnections(long deadlineNanos);

  /** The port the sockets are bound to. */
  final int port() {
    return port;
  }

  /**
   * Waits, while the sockets are still read, until the kernel has held nothing unread for those on
   * the port in {@code tables} in {@code quietPolls} polls in a row, for at most {@link
   * #STOP_READ_MILLIS} and not past {@code deadlineNanos}. Closing a socket discards what the
   * kernel holds for it, counted nowhere, so what is left then is said in a WARN.
   */
  final void readWhatTheKernelHolds(List<Path> tables, int quietPolls, long deadlineNanos) {
    long until =
        Math.min(
            deadlineNanos, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_READ_MILLIS));
    long unread = ProcNetSockets.awaitRead(tables, port, quietPolls, until);
    if (unread > 0) {
      LOG.warn(
          "{}: stopping with {} bytes of socket memory unread in the kernel for {} port {}: closing the sockets "
              + "discards them, counted nowhere. They could not be read within {} ms (a full channel pauses reading)",
          config.component(),
          unread,
          config.protocol().id(),
          port,
          STOP_READ_MILLIS);
    }
  }

  /** Shuts down every event loop this listener created. */
  abstract List<Future<?>> shutdownGroups(long timeoutMillis);

  /** Called once every socket is bound, with them; for per-transport set-up and logging. */
  void bound(List<Channel> channels) {}

  /**
   * Binds the sockets and returns the bound port.
   *
   * @throws FlumeException with the address, the reason and a fix when a socket cannot be bound
   */
  final int start() {
    try {
      for (EventExecutor executor : createGroups()) {
        EventLoop loop = (EventLoop) executor;
        batchers.put(
            loop,
            new EventBatcher(
                loop,
                processor,
                counter,
                channelFullLog,
                dropLog,
                config.component(),
                config.batchSize(),
                config.batchDurationMillis(),
                dropAfterMillis()));
      }
      bound.add(awaitBound(bind()));
      ChannelFuture failed = null;
      for (ChannelFuture more : bindMore(bound.get(0))) {
        if (more.awaitUninterruptibly().isSuccess()) {
          bound.add(more.channel());
        } else if (failed == null) {
          failed = more;
        }
      }
      if (failed != null) {
        throw cannotListen(failed.cause());
      }
    } catch (RuntimeException e) {
      bound.forEach(channel -> channel.close().awaitUninterruptibly());
      bound.clear();
      shutdownGroups(0);
      throw e;
    }
    port = ((InetSocketAddress) bound.get(0).localAddress()).getPort();
    bound(List.copyOf(bound));
    return port;
  }

  private Channel awaitBound(ChannelFuture binding) {
    if (binding.awaitUninterruptibly().isSuccess()) {
      return binding.channel();
    }
    throw cannotListen(binding.cause());
  }

  /**
   * The address or port cannot be had: a BindException from NIO, or from the native epoll transport
   * the errno of bind(2): EADDRINUSE (98) or EACCES (13), as numbered on Linux, the one system that
   * transport runs on.
   */
  private static boolean cannotBind(Throwable cause) {
    if (cause instanceof Errors.NativeIoException) {
      int errno = -((Errors.NativeIoException) cause).expectedErr();
      return errno == 98 || errno == 13;
    }
    return cause instanceof BindException;
  }

  private FlumeException cannotListen(Throwable cause) {
    String fix =
        cannotBind(cause)
            ? " Fix: free the port (ss -lnp | grep :"
                + config.port()
                + ") or set "
                + SyslogSourceConfig.PORT
                + " to another one; ports below 1024 also need root or CAP_NET_BIND_SERVICE."
            : " Fix: check " + SyslogSourceConfig.BIND + " is an address of this host.";
    String reason =
        cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    if (cause instanceof Errors.NativeIoException && reason.contains("): ")) {
      // "bind(..) failed with error(-98): Address already in use": the reason as NIO gives it
      reason = reason.substring(reason.lastIndexOf("): ") + 3);
    }
    return new FlumeException(
        config.component()
            + ": cannot listen on "
            + config.protocol().id()
            + " "
            + config.bind()
            + ":"
            + config.port()
            + ": "
            + reason
            + "."
            + fix,
        cause);
  }

  /**
   * Closes the sockets and the connections, puts every queued event (retrying a full channel until
   * the timeout), and shuts the loops down, all within {@code timeoutMillis} (plus the channel's
   * own put timeout if a put is in progress).
   */
  final void stop(long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    closing(deadline);
    for (Channel channel : bound) {
      channel
          .close()
          .awaitUninterruptibly(
              Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    }
    closeConnections(deadline);
    List<Future<?>> drained = new ArrayList<>();
    for (Map.Entry<EventLoop, EventBatcher> entry : batchers.entrySet()) {
      Promise<Void> done = entry.getKey().newPromise();
      entry.getKey().execute(() -> entry.getValue().drainAfterClose(deadline, done));
      drained.add(done);
    }
    awaitAll(drained, deadline);
    awaitAll(
        shutdownGroups(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))),
        deadline);
  }

  private void awaitAll(List<Future<?>> futures, long deadlineNanos) {
    for (Future<?> future : futures) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0 || !future.awaitUninterruptibly(left, TimeUnit.NANOSECONDS)) {
        LOG.warn("{}: stop did not complete in time; giving up waiting", config.component());
        return;
      }
    }
  }

  /**
   * How long a refused batch is retried before it is dropped: TCP and TLS never drop (they stop
   * reading), nor does UDP with a queue (the queue holds what arrives); UDP without one drops after
   * udp.channelFullTimeoutMillis.
   */
  private long dropAfterMillis() {
    return config.protocol().isStream() || config.udpQueueBytes() > 0
        ? -1
        : config.udpChannelFullTimeoutMillis();
  }

  EventBatcher batcherFor(EventLoop loop) {
    return batchers.get(loop);
  }

  void reportOversize(String peer, long size) {
    reportOversize(peer, size, false);
  }

  /**
   * Counts and reports a message over maxMessageBytes; {@code cut} when only its first {@code size}
   * bytes were read (a datagram cut by the kernel to the read's slot), so it was at least that
   * long.
   */
  void reportOversize(String peer, long size, boolean cut) {
    counter.addOversize();
    oversizeLog.warn(
        () ->
            config.component()
                + ": dropped a "
                + (cut ? "message of at least " + size + " bytes" : size + "-byte message")
                + " from "
                + peer
                + ": larger than "
                + SyslogSourceConfig.MAX_MESSAGE_BYTES
                + "="
                + config.maxMessageBytes()
                + " (counted in OversizeCount; raise "
                + SyslogSourceConfig.MAX_MESSAGE_BYTES
                + " to carry such messages)");
  }

  void reportFramingError(String peer, String problem) {
    counter.addFramingError();
    framingLog.warn(
        () ->
            config.component()
                + ": framing error from "
                + peer
                + ": "
                + problem
                + " (counted in FramingErrorCount)");
  }

  void reportConnectionRefused(String peer, int open) {
    counter.addConnectionRefused();
    connectionLog.warn(
        () ->
            config.component()
                + ": refused a connection from "
                + peer
                + ": "
                + open
                + " connections are open, the most "
                + SyslogSourceConfig.MAX_CONNECTIONS
                + " allows (counted in "
                + "ConnectionRefusedCount)");
  }

  void reportConnectionRefusedPerAddress(String peer, int open) {
    counter.addConnectionRefusedPerAddress();
    connectionLog.warn(
        () ->
            config.component()
                + ": refused a connection from "
                + peer
                + ": "
                + open
                + " connections from that address are open, the most "
                + SyslogSourceConfig.MAX_CONNECTIONS_PER_ADDRESS
                + " allows (counted in ConnectionRefusedPerAddressCount; raise "
                + SyslogSourceConfig.MAX_CONNECTIONS_PER_ADDRESS
                + " if many senders share that address)");
  }

  /** The message of the framing error that reports what a timed-out connection held. */
  String frameTimeoutProblem() {
    return "the connection was closed after "
        + config.frameTimeoutSeconds()
        + " s inside one frame ("
        + SyslogSourceConfig.FRAME_TIMEOUT_SECONDS
        + ")";
  }

  void reportFrameTimeout(String peer) {
    counter.addFrameTimeout();
    connectionLog.warn(
        () ->
            config.component()
                + ": closed the connection from "
                + peer
                + ": it sent part of a frame and did not complete it within "
                + SyslogSourceConfig.FRAME_TIMEOUT_SECONDS
                + "="
                + config.frameTimeoutSeconds()
                + " s (counted in FrameTimeoutCount)");
  }

  void reportHandshakeTimeout(String peer) {
    counter.addHandshakeTimeout();
    connectionLog.warn(
        () ->
            config.component()
                + ": closed the connection from "
                + peer
                + ": its TLS handshake did not complete within "
                + SyslogSourceConfig.TLS_HANDSHAKE_TIMEOUT_SECONDS
                + "="
                + config.tlsHandshakeTimeoutSeconds()
                + " s (counted in HandshakeTimeoutCount)");
  }

  void reportConnectionError(String peer, Throwable cause) {
    counter.addConnectionError();
    // Netty wraps what a handler throws (e.g. an SSLHandshakeException) in a DecoderException: show
    // the reason. NotSslRecordException's own message is a hex dump of what the sender sent: keep
    // message bytes out of logs.
    Throwable reason =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    String shown =
        reason instanceof NotSslRecordException
            ? "what it sent is not TLS (a plain-text sender on the TLS port?)"
            : reason.toString();
    connectionLog.warn(
        () ->
            config.component()
                + ": closing the connection from "
                + peer
                + ": "
                + shown
                + " (counted in ConnectionErrorCount)");
  }
}
