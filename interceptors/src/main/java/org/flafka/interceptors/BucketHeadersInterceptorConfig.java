package org.flafka.interceptors;

import java.util.Map;
import org.flafka.interceptors.ConfigSpec;
import org.flafka.interceptors.HostNames;

/** The settings of {@link BucketHeadersInterceptor}: every key, its default, rule and meaning. */
public final class BucketHeadersInterceptorConfig {

    public static final String TIMESTAMP_MAX_PAST_HOURS_CONFIG = "timestamp.max.past.hours";
    private static final String TIMESTAMP_MAX_PAST_HOURS_DOC = "Oldest event time accepted for the dt= bucket, in "
            + "hours before the core agent's clock. An older timestamp is replaced (by the received header, else "
            + "the agent's clock) and kept in timestamp_rejected. The default matches the edge's "
            + "timestamp.max.past.ms (365 days); raise it to replay older data into its own buckets.";

    public static final String TIMESTAMP_MAX_FUTURE_HOURS_CONFIG = "timestamp.max.future.hours";
    private static final String TIMESTAMP_MAX_FUTURE_HOURS_DOC = "Latest event time accepted for the dt= bucket, "
            + "in hours after the core agent's clock; later ones are replaced like too old ones.";

    public static final String HOST_MAX_LENGTH_CONFIG = "host.max.length";
    private static final String HOST_MAX_LENGTH_DOC = "Longest host header, in characters; a longer one is cut "
            + "(the edge's host.max.length, so an edge-made host header passes unchanged).";

    public static final String METRICS_NAME_CONFIG = "metrics.name";
    private static final String METRICS_NAME_DOC = "Name of the counter group in Flume's metrics "
            + "(INTERCEPTOR.<name>). Every source's instance with the same name adds to the same counters.";

    /** Ten years: a bound that still catches a timestamp given in seconds or microseconds instead of ms. */
    private static final int MAX_WINDOW_HOURS = 10 * 366 * 24;

    public static final ConfigSpec SPEC = new ConfigSpec()
            .define(TIMESTAMP_MAX_PAST_HOURS_CONFIG, ConfigSpec.Type.INT, Integer.toString(365 * 24),
                    ConfigSpec.between(1, MAX_WINDOW_HOURS), TIMESTAMP_MAX_PAST_HOURS_DOC)
            .define(TIMESTAMP_MAX_FUTURE_HOURS_CONFIG, ConfigSpec.Type.INT, "24",
                    ConfigSpec.between(1, MAX_WINDOW_HOURS), TIMESTAMP_MAX_FUTURE_HOURS_DOC)
            .define(HOST_MAX_LENGTH_CONFIG, ConfigSpec.Type.INT, Integer.toString(HostNames.DEFAULT_MAX_LENGTH),
                    ConfigSpec.between(1, 253), HOST_MAX_LENGTH_DOC)
            .define(METRICS_NAME_CONFIG, ConfigSpec.Type.STRING, "bucket-headers", metricsNameRule(),
                    METRICS_NAME_DOC);

    private final long maxPastMillis;
    private final long maxFutureMillis;
    private final int hostMaxLength;
    private final String metricsName;

    /**
     * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
     *
     * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad setting
     */
    public BucketHeadersInterceptorConfig(Map<String, String> settings) {
        ConfigSpec.Values values = SPEC.parse(settings);
        this.maxPastMillis = values.getInt(TIMESTAMP_MAX_PAST_HOURS_CONFIG) * 3_600_000L;
        this.maxFutureMillis = values.getInt(TIMESTAMP_MAX_FUTURE_HOURS_CONFIG) * 3_600_000L;
        this.hostMaxLength = values.getInt(HOST_MAX_LENGTH_CONFIG);
        this.metricsName = values.getString(METRICS_NAME_CONFIG);
    }

    /** A JMX-safe group name: what {@link ConfigSpec#pathSafeOrEmpty} allows, but not empty. */
    private static ConfigSpec.Validator metricsNameRule() {
        ConfigSpec.Validator pathSafe = ConfigSpec.pathSafeOrEmpty(64);
        return new ConfigSpec.Validator() {
            @Override
            public void ensureValid(String key, Object value) {
                if (((String) value).isEmpty()) {
                    throw ConfigSpec.invalid(key, value, "must not be empty");
                }
                pathSafe.ensureValid(key, value);
            }

            @Override
            public String toString() {
                return "1 to 64 of [A-Za-z0-9._-], not starting with '.' or '_'";
            }
        };
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
        System.out.print(SPEC.toMarkdownTable());
    }
}
