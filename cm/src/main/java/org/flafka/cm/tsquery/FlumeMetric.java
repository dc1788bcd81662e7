package org.flafka.cm.tsquery;

/**
 * A CM metric that is one Flume component counter or gauge under CM's name: {@code
 * EventAcceptedCount} of a source is {@code event_accepted_rate}, {@code ChannelSize} of a channel
 * is {@code channel_size} (docs/reference/cloudera-manager.md and 6.1). CM shows a counter as its
 * per-second rate, a gauge as read.
 */
public interface FlumeMetric extends CmMetric {

  /**
   * What names one Flume metric, held by each constant of the per-component enums.
   *
   * @param metricName the name CM uses in tsquery
   * @param flumeAttribute the attribute of Flume's component MBean (and of its {@code /metrics}
   *     JSON)
   * @param rate true for a counter, which CM reports as per-second {@code _rate}; false for a gauge
   */
  record Definition(String metricName, String flumeAttribute, boolean rate) {}

  /** The names behind this metric; the accessors below read it. */
  Definition definition();

  @Override
  default String metricName() {
    return definition().metricName();
  }

  /**
   * The attribute of Flume's component MBean (and of its {@code /metrics} JSON) behind this metric.
   */
  default String flumeAttribute() {
    return definition().flumeAttribute();
  }

  /** True for a counter, which CM reports as per-second {@code _rate}; false for a gauge. */
  default boolean isRate() {
    return definition().rate();
  }

  /** Every Flume metric is on CM's metric reference pages. */
  @Override
  default Verification verification() {
    return Verification.DOCUMENTED;
  }

  /**
   * The Flume {@code /metrics} key prefix of the component type: {@code SOURCE.}, {@code CHANNEL.}
   * or {@code SINK.}.
   */
  default String flumeComponentPrefix() {
    return switch (entity()) {
      case FLUME_SOURCE -> "SOURCE.";
      case FLUME_CHANNEL -> "CHANNEL.";
      case FLUME_SINK -> "SINK.";
      default -> throw new IllegalStateException(entity() + " is not a Flume component");
    };
  }
}
