package org.flafka.cm.emulator;

import java.util.List;
import java.util.Map;
import org.flafka.cm.tsquery.CmMetric;
import org.flafka.cm.tsquery.FlumeChannelMetric;
import org.flafka.cm.tsquery.FlumeMetric;
import org.flafka.cm.tsquery.FlumeSinkMetric;
import org.flafka.cm.tsquery.FlumeSourceMetric;
import org.flafka.cm.tsquery.KafkaMetric;
import org.flafka.cm.tsquery.NetworkInterfaceMetric;
import org.flafka.cm.tsquery.RoleMetric;

/**
 * How the emulator names what it samples: each Flume counter (Flume 1.11 {@code /metrics} JSON) or
 * Kafka meter under its CM metric name (docs/reference/cloudera-manager.md), counters as per-second
 * rates ({@link Kind#RATE}, the difference between two samples divided by the seconds between them,
 * as CM shows counters), gauges as read, and the units CM reports for them.
 */
final class MetricNames {
  /** How a sampled value becomes a CM value. */
  enum Kind {
    RATE,
    GAUGE
  }

  /**
   * One mapping: the source's counter, the CM metric, how and in which units; {@code scale} turns
   * the counter's unit into the metric's (CPU microseconds into seconds).
   */
  record Mapping(
      String counter,
      CmMetric metric,
      Kind kind,
      String numerator,
      String denominator,
      double scale) {
    Mapping(String counter, CmMetric metric, Kind kind, String numerator, String denominator) {
      this(counter, metric, kind, numerator, denominator, 1);
    }

    String cmName() {
      return metric.metricName();
    }
  }

  static final List<Mapping> FLUME_SOURCE =
      List.of(
          flume(FlumeSourceMetric.EVENT_RECEIVED_RATE, "events"),
          flume(FlumeSourceMetric.EVENT_ACCEPTED_RATE, "events"),
          flume(FlumeSourceMetric.APPEND_RECEIVED_RATE, "events"),
          flume(FlumeSourceMetric.APPEND_ACCEPTED_RATE, "events"),
          flume(FlumeSourceMetric.APPEND_BATCH_RECEIVED_RATE, "batches"),
          flume(FlumeSourceMetric.APPEND_BATCH_ACCEPTED_RATE, "batches"),
          flume(FlumeSourceMetric.OPEN_CONNECTIONS, "connections"));

  static final List<Mapping> FLUME_CHANNEL =
      List.of(
          flume(FlumeChannelMetric.EVENT_PUT_SUCCESS_RATE, "events"),
          flume(FlumeChannelMetric.EVENT_PUT_ATTEMPT_RATE, "events"),
          flume(FlumeChannelMetric.EVENT_TAKE_SUCCESS_RATE, "events"),
          flume(FlumeChannelMetric.EVENT_TAKE_ATTEMPT_RATE, "events"),
          flume(FlumeChannelMetric.CHANNEL_SIZE, "events"),
          flume(FlumeChannelMetric.CHANNEL_CAPACITY, "events"),
          flume(FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, "percent"));

  static final List<Mapping> FLUME_SINK =
      List.of(
          flume(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, "events"),
          flume(FlumeSinkMetric.EVENT_DRAIN_ATTEMPT_RATE, "events"),
          flume(FlumeSinkMetric.BATCH_COMPLETE_RATE, "batches"),
          flume(FlumeSinkMetric.BATCH_EMPTY_RATE, "batches"),
          flume(FlumeSinkMetric.BATCH_UNDERFLOW_RATE, "batches"),
          flume(FlumeSinkMetric.CONNECTION_CREATED_RATE, "connections"),
          flume(FlumeSinkMetric.CONNECTION_CLOSED_RATE, "connections"),
          flume(FlumeSinkMetric.CONNECTION_FAILED_RATE, "connections"));

  /**
   * Kafka broker-topic meters ({@code kafka.server:type=BrokerTopicMetrics,name=...}): the {@code
   * Count} as a CM rate, and Kafka's own one-minute moving average ({@code OneMinuteRate}) as the
   * {@code _1min_rate} metric. {@code bytes_fetched} is BytesOutPerSec, as in the Kafka CSD: bytes
   * consumers fetched; followers' replica fetches are Kafka's ReplicationBytesOutPerSec, which CM's
   * broker-topic metrics do not map.
   */
  static final List<Mapping> KAFKA_BROKER_TOPIC =
      List.of(
          rate("BytesInPerSec", KafkaMetric.BYTES_RECEIVED_RATE, "bytes"),
          gaugePerSecond(
              "BytesInPerSec.OneMinuteRate", KafkaMetric.BYTES_RECEIVED_1MIN_RATE, "bytes"),
          rate("BytesOutPerSec", KafkaMetric.BYTES_FETCHED_RATE, "bytes"),
          gaugePerSecond(
              "BytesOutPerSec.OneMinuteRate", KafkaMetric.BYTES_FETCHED_1MIN_RATE, "bytes"),
          rate("MessagesInPerSec", KafkaMetric.MESSAGES_RECEIVED_RATE, "messages"),
          gaugePerSecond(
              "MessagesInPerSec.OneMinuteRate",
              KafkaMetric.MESSAGES_RECEIVED_1MIN_RATE,
              "messages"),
          rate("BytesRejectedPerSec", KafkaMetric.BYTES_REJECTED_RATE, "bytes"));

  /**
   * A partition replica's log end offset (broker MBean {@code
   * kafka.log:type=Log,name=LogEndOffset}), as read: {@code dt0()} of it is the partition's
   * messages in per second.
   */
  static final Mapping LOG_END_OFFSET = gauge("LogEndOffset", KafkaMetric.LOG_END_OFFSET, "offset");

  /**
   * A role process's CPU time in user and kernel mode ({@code /proc/<pid>/stat} utime and stime, in
   * microseconds), as CPU seconds per second.
   */
  static final List<Mapping> ROLE_CPU =
      List.of(
          new Mapping("utime", RoleMetric.CPU_USER_RATE, Kind.RATE, "seconds", "seconds", 1e-6),
          new Mapping("stime", RoleMetric.CPU_SYSTEM_RATE, Kind.RATE, "seconds", "seconds", 1e-6));

  /**
   * Consumer-group lag from AdminClient offsets (log end offsets minus committed offsets, summed
   * over the group's partitions), served as CM names it: a rate, the lag's change in messages per
   * second. CM documents no lag count, so the count is served under no name.
   */
  static final Mapping CONSUMER_GROUP_LAG =
      new Mapping("lag", KafkaMetric.CONSUMER_GROUP_LAG_RATE, Kind.RATE, "messages", "seconds");

  /** {@code /proc/net/dev} receive and transmit byte counters of one interface. */
  static final List<Mapping> NETWORK_INTERFACE =
      List.of(
          rate("rx_bytes", NetworkInterfaceMetric.BYTES_RECEIVE_RATE, "bytes"),
          rate("tx_bytes", NetworkInterfaceMetric.BYTES_TRANSMIT_RATE, "bytes"));

  /** CM metric name → units, for every metric the emulator serves. */
  static final Map<String, Mapping> BY_CM_NAME;

  static {
    Map<String, Mapping> all = new java.util.HashMap<>();
    for (List<Mapping> list :
        List.of(
            FLUME_SOURCE,
            FLUME_CHANNEL,
            FLUME_SINK,
            KAFKA_BROKER_TOPIC,
            NETWORK_INTERFACE,
            ROLE_CPU,
            List.of(CONSUMER_GROUP_LAG, LOG_END_OFFSET))) {
      list.forEach(mapping -> all.put(mapping.cmName(), mapping));
    }
    BY_CM_NAME = Map.copyOf(all);
  }

  private MetricNames() {}

  /** A Flume counter as its per-second rate, a Flume gauge as read (the metric knows which). */
  private static Mapping flume(FlumeMetric metric, String numerator) {
    return metric.isRate()
        ? rate(metric.flumeAttribute(), metric, numerator)
        : gauge(metric.flumeAttribute(), metric, numerator);
  }

  private static Mapping rate(String counter, CmMetric metric, String numerator) {
    return new Mapping(counter, metric, Kind.RATE, numerator, "seconds");
  }

  private static Mapping gauge(String counter, CmMetric metric, String numerator) {
    return new Mapping(counter, metric, Kind.GAUGE, numerator, null);
  }

  private static Mapping gaugePerSecond(String counter, CmMetric metric, String numerator) {
    return new Mapping(counter, metric, Kind.GAUGE, numerator, "seconds");
  }
}
