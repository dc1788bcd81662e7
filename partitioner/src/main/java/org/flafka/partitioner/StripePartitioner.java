package org.flafka.partitioner;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;

/**
 * Writes each sink's events only to its own stripe of the topic's partitions (FLUME-2999), so
 * adding Kafka sinks does not make every sink talk to every partition leader, and sinks and
 * partitions scale independently. Keys are ignored: within the stripe the sink stays on one
 * partition for {@value PartitionerConfig#STICKY_BYTES_CONFIG} bytes (the producer's batch.size by
 * default), then moves to the next one, so produce batches are full and the stripe's partitions get
 * equal bytes (Kafka's own strictly uniform sticky idea, KIP-794, confined to a stripe).
 *
 * <p>Partitions without a leader are skipped; when the whole stripe is leaderless the sink spills
 * onto the topic's other partitions that have a leader rather than stalling (striping is a
 * throughput measure, not a correctness one), and only when no partition has a leader does it pick
 * from the stripe and let the producer wait.
 *
 * <p>Flume Kafka sink, sink i of S: {@code kafka.producer.partitioner.class =
 * org.flafka.partitioner.StripePartitioner}, {@code kafka.producer.flafka.stripe.count = S}, {@code
 * kafka.producer.flafka.stripe.index = i}. See {@link PartitionMath} for the stripe arithmetic and
 * docs/guides/partitioning.md for when to use it.
 */
public class StripePartitioner implements Partitioner {

  private final ConcurrentMap<String, TopicState> topics = new ConcurrentHashMap<>();
  private PartitionerConfig config = new PartitionerConfig(Map.of());
  private int stickyBytes = config.stickyBytes();

  @Override
  public void configure(Map<String, ?> configs) {
    config = new PartitionerConfig(configs);
    stickyBytes = config.stickyBytes();
  }

  final PartitionerConfig config() {
    return config;
  }

  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    TopicState state = state(topic);
    return state.next(state.layout(topic, cluster), sizeOf(keyBytes) + sizeOf(valueBytes));
  }

  /**
   * The layout of {@code topic} for this sink's stripe, recomputed when the producer's metadata
   * changed.
   */
  final TopicLayout layout(String topic, Cluster cluster) {
    return state(topic).layout(topic, cluster);
  }

  private TopicState state(String topic) {
    return topics.computeIfAbsent(topic, t -> new TopicState(randomStart()));
  }

  /**
   * Where in the stripe a topic starts, so that many agents' sink i do not all begin on the same
   * partition. Tests override it.
   */
  int randomStart() {
    return ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
  }

  @Override
  public void close() {
    topics.clear();
  }

  private static int sizeOf(byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
  }

  /** The sticky position and the bytes sent to it, per topic. */
  private final class TopicState {
    private volatile TopicLayout layout;
    private int position;
    private long bytesOnCurrent;

    TopicState(int start) {
      position = start;
    }

    TopicLayout layout(String topic, Cluster cluster) {
      TopicLayout current = layout;
      if (current == null || current.cluster != cluster) {
        current = TopicLayout.of(cluster, topic, config.stripeCount(), config.stripeIndex());
        layout = current;
      }
      return current;
    }

    synchronized int next(TopicLayout layout, int recordBytes) {
      int[] candidates =
          layout.availableStripe.length > 0
              ? layout.availableStripe
              : layout.available.length > 0 ? layout.available : layout.stripe;
      int partition = candidates[position % candidates.length];
      bytesOnCurrent += recordBytes;
      if (bytesOnCurrent >= stickyBytes) {
        position = (position + 1) & Integer.MAX_VALUE;
        bytesOnCurrent = 0;
      }
      return partition;
    }
  }
}
