package org.flafka.interceptors;

import java.util.Map;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/** The settings of {@link BucketHeadersInterceptor}: every key, its default, rule and meaning. */
public final class BucketHeadersInterceptorConfig {

  public static final String TIMESTAMP_MAX_PAST_HOURS_CONFIG = "timestamp.max.past.hours";
  private static final String TIMESTAMP_MAX_PAST_HOURS_DOC =
      "Oldest event time accepted for the dt= bucket, in "
          + "hours before the core agent's clock. An older timestamp is replaced (by the received header, else "
          + "the agent's clock) and kept in timestamp_rejected. The default matches the edge's "
          + "timestamp.max.past.ms (365 days); raise it to replay older data into its own buckets.";

  public static final String TIMESTAMP_MAX_FUTURE_HOURS_CONFIG = "timestamp.max.future.hours";
  private static final String TIMESTAMP_MAX_FUTURE_HOURS_DOC =
      "Latest event time accepted for the dt= bucket, "
          + "in hours after the core agent's clock; later ones are replaced like too old ones.";

  public static final String HOST_MAX_LENGTH_CONFIG = "host.max.length";
  private static final String HOST_MAX_LENGTH_DOC =
      "Longest host header, in characters; a longer one is cut "
          + "(the edge's host.max.length, so an edge-made host header passes unchanged).";

  public static final String METRICS_NAME_CONFIG = "metrics.name";
  private static final String METRICS_NAME_DOC =
      "Name of the counter group in Flume's metrics "
          + "(INTERCEPTOR.<name>). Every source's instance with the same name adds to the same counters.";

  /**
   * Ten years: a bound that still catches a timestamp given in seconds or microseconds instead of
   * ms.
   */
  private static final int MAX_WINDOW_HOURS = 10 * 366 * 24;

  /** How errors name the interceptor. */
  static final String COMPONENT = "bucket headers interceptor";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.INTERCEPTOR)
          .define(
              TIMESTAMP_MAX_PAST_HOURS_CONFIG,
              Type.INT,
              365 * 24,
              ConfigDef.between(1, MAX_WINDOW_HOURS),
              TIMESTAMP_MAX_PAST_HOURS_DOC)
          .define(
              TIMESTAMP_MAX_FUTURE_HOURS_CONFIG,
              Type.INT,
              24,
              ConfigDef.between(1, MAX_WINDOW_HOURS),
              TIMESTAMP_MAX_FUTURE_HOURS_DOC)
          .define(
              HOST_MAX_LENGTH_CONFIG,
              Type.INT,
              HostNames.DEFAULT_MAX_LENGTH,
              ConfigDef.between(1, 253),
              HOST_MAX_LENGTH_DOC)
          .define(
              METRICS_NAME_CONFIG,
              Type.STRING,
              "bucket-headers",
              ConfigDef.pathSafe(64, false),
              METRICS_NAME_DOC);

  private final long maxPastMillis;
  private final long maxFutureMillis;
  private final int hostMaxLength;
  private final String metricsName;

  /**
   * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
   *
   * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad
   *     setting
   */
  public BucketHeadersInterceptorConfig(Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(COMPONENT, settings);
    this.maxPastMillis = values.getInt(TIMESTAMP_MAX_PAST_HOURS_CONFIG) * 3_600_000L;
    this.maxFutureMillis = values.getInt(TIMESTAMP_MAX_FUTURE_HOURS_CONFIG) * 3_600_000L;
    this.hostMaxLength = values.getInt(HOST_MAX_LENGTH_CONFIG);
    this.metricsName = values.getString(METRICS_NAME_CONFIG);
  }

  public long maxPastMillis() {
    return maxPastMillis;
  }

  public long maxFutureMillis() {
    return maxFutureMillis;
  }

  public int hostMaxLength() {
    return hostMaxLength;
  }

  public String metricsName() {
    return metricsName;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
