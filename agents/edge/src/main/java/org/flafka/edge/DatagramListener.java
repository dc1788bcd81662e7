package org.flafka.edge;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flume.channel.ChannelProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * UDP: one socket, one loop that reads, batches and puts. Every datagram is read into a buffer of 64 KiB, larger
 * than any UDP payload (65507 bytes over IPv4, 65527 over IPv6), so a datagram is never truncated; the buffers are
 * reused ({@link DatagramBuffers}). One larger than maxMessageBytes is counted as oversize. The receive buffer asked
 * for is udp.receiveBufferBytes; what the kernel granted is logged and exposed, and the kernel's drop counters are
 * polled every {@value #KERNEL_POLL_SECONDS} s.
 */
final class DatagramListener extends Listener {

  private static final Logger LOG = LoggerFactory.getLogger(DatagramListener.class);
  static final int READ_BUFFER_BYTES = 65_536;
  static final long KERNEL_POLL_SECONDS = 5;
  static final int MAX_DATAGRAMS_PER_READ = 64;

  private EventLoopGroup group;
  private final DatagramBuffers buffers = new DatagramBuffers(READ_BUFFER_BYTES, MAX_DATAGRAMS_PER_READ);
  private UdpKernelStats kernelStats;
  private ScheduledFuture<?> kernelPoll;

  DatagramListener(SyslogSourceConfig config, SyslogSourceCounter counter, ChannelProcessor processor) {
    super(config, counter, processor);
  }

  @Override
  EventLoopGroup createGroups() {
    String name = "flafka-" + config.component().replace(' ', '-') + "-udp";
    group = new NioEventLoopGroup(1, new DefaultThreadFactory(name, true));
    return group;
  }

  @Override
  ChannelFuture bind() {
    return new Bootstrap()
        .group(group)
        .channel(NioDatagramChannel.class)
        .option(ChannelOption.SO_RCVBUF, config.udpReceiveBufferBytes())
        .option(ChannelOption.RCVBUF_ALLOCATOR, buffers)
        .handler(new DatagramHandler(this))
        .bind(config.bind(), config.port());
  }

  @Override
  void bound(Channel channel) {
    // on the event loop, after the last read: no buffer is in use then
    channel.closeFuture().addListener(closed -> buffers.release());
    int granted = channel.config().getOption(ChannelOption.SO_RCVBUF);
    counter.setUdpReceiveBufferBytes(granted);
    long rmemMax = readRmemMax();
    LOG.info("{}: udp receive buffer: asked for {} bytes, the socket reports {} (net.core.rmem_max = {})",
        config.component(), config.udpReceiveBufferBytes(), granted, rmemMax < 0 ? "unknown" : rmemMax);
    if (rmemMax >= 0 && rmemMax < config.udpReceiveBufferBytes()) {
      LOG.warn("{}: net.core.rmem_max = {} caps {} = {}: bursts will be dropped by the kernel sooner. Fix: sysctl "
          + "-w net.core.rmem_max={} on this host", config.component(), rmemMax,
          SyslogSourceConfig.UDP_RECEIVE_BUFFER_BYTES, config.udpReceiveBufferBytes(),
          config.udpReceiveBufferBytes());
    }
    kernelStats = new UdpKernelStats(((InetSocketAddress) channel.localAddress()).getPort());
    if (kernelStats.available()) {
      kernelPoll = channel.eventLoop().scheduleAtFixedRate(this::pollKernelStats, KERNEL_POLL_SECONDS,
          KERNEL_POLL_SECONDS, TimeUnit.SECONDS);
    } else {
      LOG.info("{}: kernel UDP drop counters are not readable here (/proc/net/snmp); UdpSocketDropCount and "
          + "UdpHost* stay 0", config.component());
    }
  }

  void pollKernelStats() {
    kernelStats.poll(counter);
  }

  private static long readRmemMax() {
    String text = UdpKernelStats.read(Paths.get("/proc/sys/net/core/rmem_max"));
    try {
      return text == null ? -1 : Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  void closeConnections() {
    if (kernelPoll != null) {
      kernelPoll.cancel(false);
      pollKernelStats();
    }
  }

  @Override
  List<Future<?>> shutdownGroups(long timeoutMillis) {
    return List.of(group.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS));
  }
}
