package org.flafka.edge.source;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.flume.Context;
import org.apache.flume.EventDrivenSource;
import org.apache.flume.FlumeException;
import org.apache.flume.channel.ChannelProcessor;
import org.apache.flume.conf.BatchSizeSupported;
import org.apache.flume.conf.Configurable;
import org.apache.flume.source.AbstractSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A syslog source for the edge agent: one listener (udp, tcp or tls) whose messages are put to the
 * channel in batches, one transaction per batch, without losing TCP/TLS input when the channel is
 * full and without dropping anything uncounted. Keys, defaults and metrics: {@link
 * SyslogSourceConfig} and docs/reference/edge-source.md.
 *
 * <pre>
 * a1.sources.r1.type = org.flafka.edge.source.SyslogSource
 * a1.sources.r1.protocol = tcp
 * a1.sources.r1.port = 514
 * a1.sources.r1.channels = c1
 * </pre>
 *
 * <p>Events: the body is the message exactly as received with the framing removed; the source sets
 * the headers {@value org.flafka.contract.Headers#RECEIVED} (receive time, epoch ms) and {@value
 * org.flafka.contract.Headers#PEER} (sender IP address). Interceptors configured on the source run
 * on each batch.
 *
 * <p>Threading: Netty event loops read and frame; each loop batches the events of its own
 * connections and puts the batch itself, so between the socket and the channel an event is handed
 * to no other thread and takes no lock of this source's (see {@link EventBatcher} for batching and
 * backpressure).
 *
 * <p>Lifecycle: {@link #start()} throws when the socket cannot be bound, with the reason and a fix,
 * instead of running without input (Flume logs it as an ERROR and retries every 3 s; the source is
 * not started meanwhile). {@link #stop()} closes the socket and connections, puts what is queued
 * and returns within {@value #STOP_TIMEOUT_MILLIS} ms plus any put already blocked in the channel.
 */
public class SyslogSource extends AbstractSource
    implements EventDrivenSource, Configurable, BatchSizeSupported {

  static final long STOP_TIMEOUT_MILLIS = 5000;

  private static final Logger LOG = LoggerFactory.getLogger(SyslogSource.class);

  private SyslogSourceConfig config;
  private SslContext sslContext;
  private SyslogSourceCounter counter;
  private Listener listener;
  private volatile int port = -1;

  @Override
  public void configure(Context context) {
    SyslogSourceConfig parsed =
        SyslogSourceConfig.parse("syslog source " + getName(), context.getParameters());
    sslContext = parsed.protocol() == Protocol.TLS ? TlsContexts.server(parsed) : null;
    config = parsed;
    if (counter == null) {
      counter = new SyslogSourceCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(
          "syslog source " + getName() + " was started before it was configured");
    }
    ChannelProcessor processor = getChannelProcessor();
    counter.start();
    Listener starting =
        config.protocol() == Protocol.UDP
            ? new DatagramListener(config, counter, processor)
            : new StreamListener(config, counter, processor, sslContext);
    int bound;
    try {
      bound = starting.start();
    } catch (RuntimeException e) {
      counter.stop();
      throw e;
    }
    listener = starting;
    port = bound;
    counter.setListenPort(bound);
    LOG.info(
        "{}: listening on {} {}:{} (framing {}, batchSize {}, batchDurationMillis {}, maxMessageBytes {})",
        config.component(),
        config.protocol().id(),
        config.bind(),
        bound,
        config.protocol().isStream() ? config.framing().id() : "datagram",
        config.batchSize(),
        config.batchDurationMillis(),
        config.maxMessageBytes());
    writePortFile(bound);
    super.start();
  }

  private void writePortFile(int bound) {
    Path file = config.portFile();
    if (file == null) {
      return;
    }
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, bound + "\n", StandardCharsets.US_ASCII);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      stop();
      throw new FlumeException(
          config.component()
              + ": cannot write "
              + SyslogSourceConfig.PORT_FILE
              + " '"
              + file
              + "': "
              + e
              + ". Fix: set "
              + SyslogSourceConfig.PORT_FILE
              + " to a writable path or remove it.",
          e);
    }
  }

  @Override
  public synchronized void stop() {
    if (listener != null) {
      listener.stop(STOP_TIMEOUT_MILLIS);
      listener = null;
      port = -1;
      if (config.portFile() != null) {
        try {
          Files.deleteIfExists(config.portFile());
        } catch (IOException e) {
          LOG.warn(
              "{}: cannot delete {} '{}': {}",
              config.component(),
              SyslogSourceConfig.PORT_FILE,
              config.portFile(),
              e.toString());
        }
      }
      counter.stop();
    }
    super.stop();
    LOG.info("{}: stopped; {}", config == null ? getName() : config.component(), counter);
  }

  @Override
  public long getBatchSize() {
    return config.batchSize();
  }

  /** The port the source listens on (useful with port = 0), or -1 when it is not running. */
  public int getPort() {
    return port;
  }

  /** The source's metrics (also registered as the JMX bean Flume's monitoring reports). */
  public SyslogSourceCounter getCounter() {
    return counter;
  }

  /** Reads the kernel's UDP drop counters now instead of at the next poll (for tests and tools). */
  /** The UDP transport the running listener reads with (epoll or nio); for tests. */
  String udpTransport() {
    return ((DatagramListener) listener).transport();
  }

  void pollKernelStats() {
    if (listener instanceof DatagramListener) {
      ((DatagramListener) listener).pollKernelStats();
    }
  }
}
