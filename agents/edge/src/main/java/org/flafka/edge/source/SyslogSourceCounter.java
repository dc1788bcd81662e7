package org.flafka.edge.source;

import java.util.List;
import org.apache.flume.instrumentation.SourceCounter;

/**
 * Flume's {@link SourceCounter} (the standard {@code src.*} counters dashboards know) plus the
 * syslog source's own ({@link #METRICS}). {@link #STANDARD} says how this source uses the standard
 * ones; both lists feed docs/reference/edge-source.md. Per-event work never touches these atomics:
 * the batchers publish once per batch.
 */
public class SyslogSourceCounter extends SourceCounter implements SyslogSourceCounterMBean {

  /**
   * One extra metric: its internal key (as Flume logs it at stop), JMX attribute name, and meaning.
   */
  record Metric(String key, String attribute, String doc) {}

  private static final Metric OVERSIZE =
      new Metric(
          "src.syslog.oversize",
          "OversizeCount",
          "Messages longer than maxMessageBytes, dropped whole (never truncated) and reported in a rate-limited WARN; "
              + "also in EventReceivedCount.");
  private static final Metric FRAMING_ERROR =
      new Metric(
          "src.syslog.framing-error",
          "FramingErrorCount",
          "Malformed stream input: a bad octet count (the stream resumes after the next LF, the bytes up to it are "
              + "dropped), a connection closed inside an octet-counted frame, or the incomplete message of a "
              + "connection closed by tcp.frameTimeoutSeconds; each also one in EventReceivedCount.");
  private static final Metric CHANNEL_FULL_DROP =
      new Metric(
          "src.syslog.channel-full.drop",
          "ChannelFullDropCount",
          "Events dropped because the channel stayed full: UDP batches after "
              + "udp.channelFullTimeoutMillis, and any events still refused when stop() gives up.");
  private static final Metric PROCESSING_ERROR_DROP =
      new Metric(
          "src.syslog.processing-error.drop",
          "ProcessingErrorDropCount",
          "Events dropped because the put failed with something other than a full "
              + "channel (an interceptor threw); each failure is also in GenericProcessingFail and logged.");
  private static final Metric RECORD_TOO_LARGE_DROP =
      new Metric(
          "src.syslog.record-too-large.drop",
          "RecordTooLargeDropCount",
          "Events dropped because Kafka refused them as too large for the topic's "
              + "max.message.bytes or the producer's max.request.size, with a Kafka channel (edge_channel_type kafka): "
              + "the refused batch is put again in parts so that only these are dropped; rate-limited WARN.");
  private static final Metric CONNECTION_REFUSED =
      new Metric(
          "src.syslog.connection.refused",
          "ConnectionRefusedCount",
          "TCP/TLS connections closed on accept because maxConnections were open.");
  private static final Metric CONNECTION_REFUSED_PER_ADDRESS =
      new Metric(
          "src.syslog.connection.refused.per-address",
          "ConnectionRefusedPerAddressCount",
          "TCP/TLS connections closed on accept because maxConnectionsPerAddress were open from the same "
              + "address.");
  private static final Metric FRAME_TIMEOUT =
      new Metric(
          "src.syslog.connection.frame-timeout",
          "FrameTimeoutCount",
          "Connections closed because they stayed inside one frame for tcp.frameTimeoutSeconds (a sender "
              + "trickling bytes, an endless line); what they held of the frame is in FramingErrorCount or "
              + "OversizeCount.");
  private static final Metric HANDSHAKE_TIMEOUT =
      new Metric(
          "src.syslog.connection.handshake-timeout",
          "HandshakeTimeoutCount",
          "TLS connections closed because their handshake did not complete within "
              + "tls.handshakeTimeoutSeconds.");
  private static final Metric CONNECTION_ERROR =
      new Metric(
          "src.syslog.connection.error",
          "ConnectionErrorCount",
          "Connections closed on an error: reset by the peer, TLS handshake failure, I/O error.");
  private static final Metric READ_PAUSE =
      new Metric(
          "src.syslog.read-pause",
          "ReadPauseCount",
          "Times a reader thread stopped reading because the channel refused a batch (backpressure).");
  private static final Metric UDP_SOCKET_DROP =
      new Metric(
          "src.syslog.udp.socket.drop",
          "UdpSocketDropCount",
          "Datagrams the kernel dropped on this source's sockets (receive buffer full), from the drops column of "
              + "/proc/net/udp and /proc/net/udp6 (every socket on the port); polled every 5 s, and what each poll "
              + "finds new is added to EventReceivedCount.");
  private static final Metric UDP_HOST_RCVBUF_ERRORS =
      new Metric(
          "src.syslog.udp.host.rcvbuf-errors",
          "UdpHostRcvbufErrors",
          "HOST-WIDE UDP RcvbufErrors from /proc/net/snmp since the source started (all "
              + "sockets on the host, not only this source's).");
  private static final Metric UDP_HOST_IN_ERRORS =
      new Metric(
          "src.syslog.udp.host.in-errors",
          "UdpHostInErrors",
          "HOST-WIDE UDP InErrors from /proc/net/snmp since the source started.");
  private static final Metric UDP_RECEIVE_BUFFER =
      new Metric(
          "src.syslog.udp.receive-buffer.bytes",
          "UdpReceiveBufferBytes",
          "Each socket's receive buffer as SO_RCVBUF reads back after the request (the kernel "
              + "caps the request at net.core.rmem_max; Linux usually reports twice what it grants).");
  private static final Metric UDP_QUEUED =
      new Metric(
          "src.syslog.udp.queued.bytes",
          "UdpQueuedBytes",
          "Datagrams read and not yet parsed (udp.queueBytes), in bytes as that setting counts them, over all the "
              + "source's sockets: high while the parsing thread is behind its socket's reading.");
  private static final Metric UDP_QUEUE_FULL =
      new Metric(
          "src.syslog.udp.queue-full",
          "UdpQueueFullCount",
          "Times a socket's thread stopped reading because its queue held udp.queueBytes: the parsing thread "
              + "could not keep up; what arrives meanwhile waits in the kernel's receive buffer, and what overflows "
              + "it is in UdpSocketDropCount.");
  private static final Metric LISTEN_PORT =
      new Metric(
          "src.syslog.listen.port",
          "ListenPort",
          "The port the source is bound to (useful with port=0).");

  /**
   * Flume's standard source counters as this source uses them (SourceCounter keeps them; listed for
   * the docs).
   */
  static final List<Metric> STANDARD =
      List.of(
          new Metric(
              "src.events.received",
              "EventReceivedCount",
              "Messages that reached the source: framed into events, dropped as oversize or malformed (OversizeCount, "
                  + "FramingErrorCount), or dropped by the kernel at its UDP sockets (UdpSocketDropCount). So "
                  + "EventReceivedCount minus EventAcceptedCount, which Cloudera Manager charts, is every message the "
                  + "source lost, plus the few in its batches at that moment."),
          new Metric(
              "src.events.accepted", "EventAcceptedCount", "Events committed to the channel."),
          new Metric(
              "src.append-batch.received",
              "AppendBatchReceivedCount",
              "Channel put attempts, retries included."),
          new Metric(
              "src.append-batch.accepted",
              "AppendBatchAcceptedCount",
              "Batches committed to the channel, one channel transaction each."),
          new Metric(
              "src.channel.write.fail",
              "ChannelWriteFail",
              "Put attempts the channel refused because it was "
                  + "full (or, Flume's Kafka channel, could not write to Kafka): TCP/TLS retry them, UDP drops after "
                  + "udp.channelFullTimeoutMillis."),
          new Metric(
              "src.event.read.fail", "EventReadFail", "Oversize messages plus framing errors."),
          new Metric(
              "src.generic.processing.fail",
              "GenericProcessingFail",
              "Puts that failed for another reason (an interceptor threw); the batch is dropped."),
          new Metric(
              "src.open-connection.count", "OpenConnectionCount", "Open TCP/TLS connections."),
          new Metric(
              "src.append.received",
              "AppendReceivedCount",
              "Not used (0): this source has no single appends."),
          new Metric("src.append.accepted", "AppendAcceptedCount", "Not used (0)."));

  /** The extra metrics, in the order the docs list them. */
  static final List<Metric> METRICS =
      List.of(
          OVERSIZE,
          FRAMING_ERROR,
          CHANNEL_FULL_DROP,
          PROCESSING_ERROR_DROP,
          RECORD_TOO_LARGE_DROP,
          CONNECTION_REFUSED,
          CONNECTION_REFUSED_PER_ADDRESS,
          FRAME_TIMEOUT,
          HANDSHAKE_TIMEOUT,
          CONNECTION_ERROR,
          READ_PAUSE,
          UDP_SOCKET_DROP,
          UDP_HOST_RCVBUF_ERRORS,
          UDP_HOST_IN_ERRORS,
          UDP_RECEIVE_BUFFER,
          UDP_QUEUED,
          UDP_QUEUE_FULL,
          LISTEN_PORT);

  public SyslogSourceCounter(String name) {
    super(name, METRICS.stream().map(Metric::key).toArray(String[]::new));
  }

  void addOversize() {
    increment(OVERSIZE.key());
    incrementEventReadFail();
    incrementEventReceivedCount();
  }

  void addFramingError() {
    increment(FRAMING_ERROR.key());
    incrementEventReadFail();
    incrementEventReceivedCount();
  }

  void addChannelFullDrops(long events) {
    addAndGet(CHANNEL_FULL_DROP.key(), events);
  }

  void addProcessingErrorDrops(long events) {
    addAndGet(PROCESSING_ERROR_DROP.key(), events);
  }

  void addRecordTooLargeDrop() {
    increment(RECORD_TOO_LARGE_DROP.key());
  }

  void addConnectionRefused() {
    increment(CONNECTION_REFUSED.key());
  }

  void addConnectionRefusedPerAddress() {
    increment(CONNECTION_REFUSED_PER_ADDRESS.key());
  }

  void addFrameTimeout() {
    increment(FRAME_TIMEOUT.key());
  }

  void addHandshakeTimeout() {
    increment(HANDSHAKE_TIMEOUT.key());
  }

  void addConnectionError() {
    increment(CONNECTION_ERROR.key());
  }

  void addReadPause() {
    increment(READ_PAUSE.key());
  }

  /**
   * Sets the kernel's drop count of the source's sockets and adds what is new since the last poll
   * to the received events: Cloudera Manager charts only Flume's standard counters, and this is how
   * a kernel drop shows there, as received and not accepted. Synchronized: the periodic poll and
   * the last one at stop may overlap.
   */
  synchronized void setUdpSocketDrops(long drops) {
    long counted = get(UDP_SOCKET_DROP.key());
    if (drops > counted) {
      addToEventReceivedCount(drops - counted);
    }
    set(UDP_SOCKET_DROP.key(), drops);
  }

  void setUdpHostErrors(long rcvbufErrors, long inErrors) {
    set(UDP_HOST_RCVBUF_ERRORS.key(), rcvbufErrors);
    set(UDP_HOST_IN_ERRORS.key(), inErrors);
  }

  void setUdpReceiveBufferBytes(long bytes) {
    set(UDP_RECEIVE_BUFFER.key(), bytes);
  }

  void addUdpQueuedBytes(long bytes) {
    addAndGet(UDP_QUEUED.key(), bytes);
  }

  void addUdpQueueFull() {
    increment(UDP_QUEUE_FULL.key());
  }

  void setListenPort(long port) {
    set(LISTEN_PORT.key(), port);
  }

  @Override
  public long getOversizeCount() {
    return get(OVERSIZE.key());
  }

  @Override
  public long getFramingErrorCount() {
    return get(FRAMING_ERROR.key());
  }

  @Override
  public long getChannelFullDropCount() {
    return get(CHANNEL_FULL_DROP.key());
  }

  @Override
  public long getProcessingErrorDropCount() {
    return get(PROCESSING_ERROR_DROP.key());
  }

  @Override
  public long getRecordTooLargeDropCount() {
    return get(RECORD_TOO_LARGE_DROP.key());
  }

  @Override
  public long getConnectionRefusedCount() {
    return get(CONNECTION_REFUSED.key());
  }

  @Override
  public long getConnectionRefusedPerAddressCount() {
    return get(CONNECTION_REFUSED_PER_ADDRESS.key());
  }

  @Override
  public long getFrameTimeoutCount() {
    return get(FRAME_TIMEOUT.key());
  }

  @Override
  public long getHandshakeTimeoutCount() {
    return get(HANDSHAKE_TIMEOUT.key());
  }

  @Override
  public long getConnectionErrorCount() {
    return get(CONNECTION_ERROR.key());
  }

  @Override
  public long getReadPauseCount() {
    return get(READ_PAUSE.key());
  }

  @Override
  public long getUdpSocketDropCount() {
    return get(UDP_SOCKET_DROP.key());
  }

  @Override
  public long getUdpHostRcvbufErrors() {
    return get(UDP_HOST_RCVBUF_ERRORS.key());
  }

  @Override
  public long getUdpHostInErrors() {
    return get(UDP_HOST_IN_ERRORS.key());
  }

  @Override
  public long getUdpReceiveBufferBytes() {
    return get(UDP_RECEIVE_BUFFER.key());
  }

  @Override
  public long getUdpQueuedBytes() {
    return get(UDP_QUEUED.key());
  }

  @Override
  public long getUdpQueueFullCount() {
    return get(UDP_QUEUE_FULL.key());
  }

  @Override
  public long getListenPort() {
    return get(LISTEN_PORT.key());
  }

  /**
   * When the source started listening, or 0 until its socket is bound. The group must start before
   * the socket (Flume's start zeroes every counter, and the socket counts from its first datagram),
   * so while the bind is tried, or when it failed and Flume retries every few seconds, the group
   * would otherwise look started: whoever waits for the agent's sources to start (the local stack,
   * the CM emulator's restart) would take a source whose port is taken for a running one.
   */
  @Override
  public long getStartTime() {
    return getListenPort() > 0 ? super.getStartTime() : 0L;
  }
}
