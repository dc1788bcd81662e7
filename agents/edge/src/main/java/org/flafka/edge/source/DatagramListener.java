package org.flafka.edge.source;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flume.FlumeException;
import org.apache.flume.channel.ChannelProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * UDP: udp.receiveThreads sockets on one port, each with its own loop that reads and, through a
 * {@link DatagramQueue} of udp.queueBytes, a parsing thread of its own that batches and puts (with
 * udp.queueBytes 0 the socket's loop does it all); above one socket they share the port through
 * SO_REUSEPORT, and the kernel hashes each sender (address and port) to one of them. The receive
 * buffer asked for is udp.receiveBufferBytes, per socket; what the kernel granted is logged and
 * exposed, and the kernel's drop counters are polled every {@value #KERNEL_POLL_SECONDS} s.
 *
 * <p>Two transports ({@code udp.transport}): Netty's native epoll transport, where its library
 * loads, reads up to {@value #DATAGRAMS_PER_RECVMMSG} datagrams with each recvmmsg call, each into
 * its own slot of one reused buffer; Java's NIO reads one datagram per call, each into a reused
 * buffer of its own ({@link DatagramBuffers}, one set per socket). A system call per datagram is
 * what kept the one UDP thread from keeping up with bursts that rsyslog's imudp (recvmmsg) took
 * whole. A slot holds maxMessageBytes plus one byte, at most 64 KiB (larger than any UDP payload,
 * 65507 bytes over IPv4, 65527 over IPv6): the kernel cuts a longer datagram to the slot, which
 * then reads as one byte over the limit and is counted as oversize like any other, never carried
 * cut. NIO's 64 KiB buffers never cut a datagram.
 */
final class DatagramListener extends Listener {

  private static final Logger LOG = LoggerFactory.getLogger(DatagramListener.class);
  static final int READ_BUFFER_BYTES = 65_536;
  static final long KERNEL_POLL_SECONDS = 5;
  static final int MAX_DATAGRAMS_PER_READ = 64;

  /**
   * Datagrams one recvmmsg call reads at most, with the epoll transport; rsyslog's imudp reads 32.
   */
  static final int DATAGRAMS_PER_RECVMMSG = 64;

  /**
   * Whether the sockets are read by the native epoll transport, decided when the loops are made.
   */
  private boolean epoll;

  private EventLoopGroup group;

  /** The parsing threads, one per socket, when udp.queueBytes is above 0; else null. */
  private EventLoopGroup parsers;

  private final List<DatagramQueue> queues = new ArrayList<>();
  private List<Channel> sockets = List.of();
  private UdpKernelStats kernelStats;
  private ScheduledFuture<?> kernelPoll;

  /**
   * Sockets on our port the last poll saw beyond ours, so the warning about them is logged once per
   * change. Polls run on the first socket's loop, and at start and stop on the caller's thread.
   */
  private volatile int othersOnPort;

  DatagramListener(
      SyslogSourceConfig config, SyslogSourceCounter counter, ChannelProcessor processor) {
    super(config, counter, processor);
  }

  @Override
  EventLoopGroup createGroups() {
    int threads = config.udpReceiveThreads();
    epoll = useEpoll();
    if (threads > 1 && !epoll && !reusePortAvailable()) {
      throw new FlumeException(
          config.component()
              + ": "
              + SyslogSourceConfig.UDP_RECEIVE_THREADS
              + " = "
              + threads
              + " needs SO_REUSEPORT, which this system's UDP sockets do not offer. Fix: set "
              + SyslogSourceConfig.UDP_RECEIVE_THREADS
              + " = 1");
    }
    String name = "flafka-" + config.component().replace(' ', '-') + "-udp";
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    if (config.udpQueueBytes() == 0) {
      return group;
    }
    parsers = new DefaultEventLoopGroup(threads, new DefaultThreadFactory(name + "-parse", true));
    return parsers;
  }

  /**
   * Decides the transport from udp.transport and whether the native library loaded, and says which
   * in one line: INFO when it is what was asked for, WARN when auto falls back to NIO.
   *
   * @throws FlumeException when udp.transport = epoll and the native transport cannot load
   */
  private boolean useEpoll() {
    String asked = config.udpTransport();
    if ("nio".equals(asked)) {
      LOG.info(
          "{}: udp transport: nio ({} = nio), one datagram per system call",
          config.component(),
          SyslogSourceConfig.UDP_TRANSPORT);
      return false;
    }
    if (Epoll.isAvailable()) {
      LOG.info(
          "{}: udp transport: epoll (native), up to {} datagrams of up to {} bytes per recvmmsg call",
          config.component(),
          DATAGRAMS_PER_RECVMMSG,
          datagramSlotBytes());
      return true;
    }
    String cause = String.valueOf(Epoll.unavailabilityCause());
    if ("epoll".equals(asked)) {
      throw new FlumeException(
          config.component()
              + ": "
              + SyslogSourceConfig.UDP_TRANSPORT
              + " = epoll, but Netty's native epoll transport is not available here: "
              + cause
              + ". Fix: run on x86-64 Linux with netty-transport-native-epoll-*-linux-x86_64.jar on the "
              + "agent's class path, or set "
              + SyslogSourceConfig.UDP_TRANSPORT
              + " = auto");
    }
    LOG.warn(
        "{}: udp transport: nio, one datagram per system call, because Netty's native epoll transport is "
            + "not available here: {}. At high rates the kernel drops datagrams sooner. Fix: run on x86-64 "
            + "Linux with netty-transport-native-epoll-*-linux-x86_64.jar on the agent's class path, or set {} "
            + "= nio to say NIO is meant",
        config.component(),
        cause,
        SyslogSourceConfig.UDP_TRANSPORT);
    return false;
  }

  /**
   * The bytes of one recvmmsg slot: one over maxMessageBytes, so that a longer datagram, cut to the
   * slot, still reads as over the limit; at most what any datagram holds.
   */
  int datagramSlotBytes() {
    return (int) Math.min((long) config.maxMessageBytes() + 1, READ_BUFFER_BYTES);
  }

  /** The transport the sockets are read with, once started: epoll or nio. */
  String transport() {
    return epoll ? "epoll" : "nio";
  }

  private static boolean reusePortAvailable() {
    try (java.nio.channels.DatagramChannel probe = java.nio.channels.DatagramChannel.open()) {
      return probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  ChannelFuture bind() {
    return bindSocket(config.port());
  }

  /**
   * The other sockets, on the port the first one got; the group hands each socket a loop of its own
   * in turn.
   */
  @Override
  List<ChannelFuture> bindMore(Channel first) {
    int port = ((InetSocketAddress) first.localAddress()).getPort();
    List<ChannelFuture> more = new ArrayList<>();
    for (int n = 1; n < config.udpReceiveThreads(); n++) {
      more.add(bindSocket(port));
    }
    return more;
  }

  /** Binds one socket, with receive buffers of its own that are freed when it closes. */
  private ChannelFuture bindSocket(int port) {
    Class<? extends DatagramChannel> type =
        epoll ? EpollDatagramChannel.class : NioDatagramChannel.class;
    DatagramBuffers buffers =
        epoll
            ? new DatagramBuffers(
                datagramSlotBytes() * DATAGRAMS_PER_RECVMMSG, DATAGRAMS_PER_RECVMMSG)
            : new DatagramBuffers(READ_BUFFER_BYTES, MAX_DATAGRAMS_PER_READ);
    DatagramQueue queue = null;
    if (parsers != null) {
      // each socket its own parsing thread: the group hands them out in turn, as the other group
      // hands out the sockets' loops
      EventLoop parser = parsers.next();
      queue = new DatagramQueue(parser, batcherFor(parser), counter, config.udpQueueBytes());
      queues.add(queue);
    }
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(type)
            .option(ChannelOption.SO_RCVBUF, config.udpReceiveBufferBytes())
            .option(ChannelOption.RCVBUF_ALLOCATOR, buffers)
            .handler(
                new DatagramHandler(this, epoll ? datagramSlotBytes() : Integer.MAX_VALUE, queue));
    if (epoll) {
      bootstrap.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, datagramSlotBytes());
      if (config.udpReceiveThreads() > 1) {
        bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
      }
    } else if (config.udpReceiveThreads() > 1) {
      bootstrap.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
    }
    ChannelFuture binding = bootstrap.bind(config.bind(), port);
    // on the socket's event loop, after its last read: no buffer is in use then
    binding.channel().closeFuture().addListener(closed -> buffers.release());
    return binding;
  }

  @Override
  void bound(List<Channel> channels) {
    sockets = channels;
    Channel first = channels.get(0);
    int granted = first.config().getOption(ChannelOption.SO_RCVBUF);
    counter.setUdpReceiveBufferBytes(granted);
    long rmemMax = readRmemMax();
    LOG.info(
        "{}: udp receive buffer: asked for {} bytes, the socket reports {} (net.core.rmem_max = {}); {} "
            + "{} socket(s) on port {}",
        config.component(),
        config.udpReceiveBufferBytes(),
        granted,
        rmemMax < 0 ? "unknown" : rmemMax,
        channels.size(),
        transport(),
        port());
    if (rmemMax >= 0 && rmemMax < config.udpReceiveBufferBytes()) {
      LOG.warn(
          "{}: net.core.rmem_max = {} caps {} = {}: bursts will be dropped by the kernel sooner. Fix: sysctl "
              + "-w net.core.rmem_max={} on this host",
          config.component(),
          rmemMax,
          SyslogSourceConfig.UDP_RECEIVE_BUFFER_BYTES,
          config.udpReceiveBufferBytes(),
          config.udpReceiveBufferBytes());
    }
    kernelStats = new UdpKernelStats(port());
    if (kernelStats.available()) {
      pollKernelStats();
      kernelPoll =
          first
              .eventLoop()
              .scheduleAtFixedRate(
                  this::pollKernelStats,
                  KERNEL_POLL_SECONDS,
                  KERNEL_POLL_SECONDS,
                  TimeUnit.SECONDS);
    } else {
      LOG.info(
          "{}: kernel UDP drop counters are not readable here (/proc/net/snmp); UdpSocketDropCount and "
              + "UdpHost* stay 0",
          config.component());
    }
  }

  void pollKernelStats() {
    // The drops column covers every socket on the port, and another process's sockets there take a
    // share of the datagrams: with SO_REUSEPORT a second agent of the same user binds beside ours
    // without an error.
    int others = Math.max(0, kernelStats.poll(counter) - sockets.size());
    if (others != othersOnPort) {
      othersOnPort = others;
      if (others > 0) {
        LOG.warn(
            "{}: {} UDP socket(s) besides this source's {} are bound to port {} and take a share of the "
                + "datagrams sent to it, uncounted here (another agent on the same port?). Fix: stop the other "
                + "process (ss -ulnp | grep :{})",
            config.component(),
            others,
            sockets.size(),
            port(),
            port());
      }
    }
  }

  private static long readRmemMax() {
    String text = ProcNetSockets.read(Paths.get("/proc/sys/net/core/rmem_max"));
    try {
      return text == null ? -1 : Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Reads on what the kernel still holds for the sockets (closing them would discard it), then the
   * last reading of the kernel's counters, while the sockets (whose rows hold the drops) are still
   * open.
   */
  @Override
  void closing(long deadlineNanos) {
    if (kernelPoll != null) {
      kernelPoll.cancel(false);
      // one empty reading will do: what arrives after the close is the host's to drop, as during a
      // restart
      readWhatTheKernelHolds(ProcNetSockets.UDP, 1, deadlineNanos);
      pollKernelStats();
    }
    // from here a socket's reader never waits for its queue to have room: it is about to close
    queues.forEach(DatagramQueue::close);
  }

  @Override
  void closeConnections(long deadlineNanos) {
    // UDP has none
  }

  @Override
  List<Future<?>> shutdownGroups(long timeoutMillis) {
    if (group == null) {
      return List.of(); // the start failed before making the loops
    }
    Future<?> readers = group.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS);
    if (parsers == null) {
      return List.of(readers);
    }
    return List.of(readers, parsers.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS));
  }
}
