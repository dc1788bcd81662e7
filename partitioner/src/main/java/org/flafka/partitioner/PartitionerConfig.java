package org.flafka.partitioner;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The settings of {@link StripePartitioner} and {@link HostAffinityPartitioner}: every key,
 * default, rule and doc in one place. Kafka hands a partitioner all of the producer's settings in
 * {@code configure}, so these keys sit beside the producer's own; in a Flume Kafka sink they are
 * written {@code kafka.producer.flafka.stripe.index = 2} etc. {@link #main} prints this table for
 * docs/guides/partitioning.md.
 */
public final class PartitionerConfig extends AbstractConfig {

  public static final String STRIPE_COUNT_CONFIG = "flafka.stripe.count";
  private static final String STRIPE_COUNT_DOC =
      "How many sinks (producers) share the topic: the number of "
          + "stripes. Set the same value on every sink of an agent. 1 means no striping: every partition is in "
          + "the one stripe.";

  public static final String STRIPE_INDEX_CONFIG = "flafka.stripe.index";
  private static final String STRIPE_INDEX_DOC =
      "Which stripe this sink writes: 0 to "
          + STRIPE_COUNT_CONFIG
          + " - 1, a different value on each sink. The sink writes only to partitions p with p mod "
          + STRIPE_COUNT_CONFIG
          + " == "
          + STRIPE_INDEX_CONFIG
          + " (or to partition index mod P when there are "
          + "fewer partitions than sinks).";

  public static final String STICKY_BYTES_CONFIG = "flafka.sticky.bytes";
  private static final String STICKY_BYTES_DOC =
      "Events without a key stay on one partition of the stripe until "
          + "this many key and value bytes went to it, then move to the next partition of the stripe, so every "
          + "produce batch is full and the partitions of a stripe get equal bytes. Default: the producer's "
          + ProducerConfig.BATCH_SIZE_CONFIG
          + ".";

  public static final String HOST_PARTITIONS_CONFIG = "flafka.host.partitions";
  private static final String HOST_PARTITIONS_DOC =
      "HostAffinityPartitioner only: how many consecutive partitions "
          + "one host's events are spread over, round-robin (capped at the partition count). A consumer then sees "
          + "each host in at most this many partitions; one host can load each of them with 1/this of its rate.";
  public static final int DEFAULT_HOST_PARTITIONS = 4;

  private static final ConfigDef CONFIG =
      new ConfigDef()
          .define(
              STRIPE_COUNT_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.HIGH, STRIPE_COUNT_DOC)
          .define(
              STRIPE_INDEX_CONFIG, Type.INT, 0, Range.atLeast(0), Importance.HIGH, STRIPE_INDEX_DOC)
          .define(
              STICKY_BYTES_CONFIG,
              Type.INT,
              null,
              nullOrAtLeast(1),
              Importance.LOW,
              STICKY_BYTES_DOC)
          .define(
              HOST_PARTITIONS_CONFIG,
              Type.INT,
              DEFAULT_HOST_PARTITIONS,
              Range.atLeast(1),
              Importance.MEDIUM,
              HOST_PARTITIONS_DOC);

  /**
   * Reads our keys from a producer's configuration map (as Kafka passes it to {@code configure}).
   */
  public PartitionerConfig(Map<String, ?> producerConfigs) {
    super(CONFIG, producerConfigs, false);
    int count = getInt(STRIPE_COUNT_CONFIG);
    int index = getInt(STRIPE_INDEX_CONFIG);
    if (index >= count) {
      throw new ConfigException(
          STRIPE_INDEX_CONFIG,
          index,
          "must be less than "
              + STRIPE_COUNT_CONFIG
              + " ("
              + count
              + (producerConfigs.containsKey(STRIPE_COUNT_CONFIG) ? "" : ", its default")
              + "); set "
              + STRIPE_COUNT_CONFIG
              + " to the number of sinks on every sink");
    }
  }

  public int stripeCount() {
    return getInt(STRIPE_COUNT_CONFIG);
  }

  public int stripeIndex() {
    return getInt(STRIPE_INDEX_CONFIG);
  }

  public int hostPartitions() {
    return getInt(HOST_PARTITIONS_CONFIG);
  }

  /**
   * {@value #STICKY_BYTES_CONFIG} if set, else the producer's batch.size (its own default when
   * unset).
   */
  public int stickyBytes() {
    Integer explicit = getInt(STICKY_BYTES_CONFIG);
    if (explicit != null) {
      return explicit;
    }
    Object batchSize = originals().get(ProducerConfig.BATCH_SIZE_CONFIG);
    if (batchSize == null) {
      return (Integer)
          ProducerConfig.configDef().defaultValues().get(ProducerConfig.BATCH_SIZE_CONFIG);
    }
    // The producer validates batch.size itself; we only need its value, which is ≥ 0 (0 disables
    // batching).
    return Math.max(
        1, (Integer) ConfigDef.parseType(ProducerConfig.BATCH_SIZE_CONFIG, batchSize, Type.INT));
  }

  /** Every setting with its type, default, rule and doc. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG);
  }

  /** Prints the settings as a reStructuredText table (the form Kafka publishes its own). */
  public static void main(String[] args) {
    System.out.println(CONFIG.toRst());
  }

  private static ConfigDef.Validator nullOrAtLeast(int min) {
    Range range = Range.atLeast(min);
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        if (value != null) {
          range.ensureValid(name, value);
        }
      }

      @Override
      public String toString() {
        return range + " or unset";
      }
    };
  }
}
