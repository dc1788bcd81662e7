package org.flafka.edge.source;

import org.apache.flume.instrumentation.SourceCounterMBean;

/**
 * The JMX view of {@link SyslogSourceCounter}: Flume's standard source attributes plus the syslog
 * source's own. Flume's JSON metrics (GET /metrics) report every attribute of this interface, named
 * after its getter.
 */
public interface SyslogSourceCounterMBean extends SourceCounterMBean {
  long getOversizeCount();

  long getFramingErrorCount();

  long getChannelFullDropCount();

  long getProcessingErrorDropCount();

  long getRecordTooLargeDropCount();

  long getConnectionRefusedCount();

  long getConnectionRefusedPerAddressCount();

  long getFrameTimeoutCount();

  long getHandshakeTimeoutCount();

  long getConnectionErrorCount();

  long getReadPauseCount();

  long getUdpSocketDropCount();

  long getUdpHostRcvbufErrors();

  long getUdpHostInErrors();

  long getUdpReceiveBufferBytes();

  long getUdpQueuedBytes();

  long getUdpQueueFullCount();

  long getListenPort();
}
