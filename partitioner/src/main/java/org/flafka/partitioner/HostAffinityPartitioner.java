package org.flafka.partitioner;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.utils.Utils;

/**
 * Keeps each host's events in a small, fixed set of partitions: the record key is the host (the
 * Flume sink takes the key from the event's {@code key} header, which {@link HostKeyInterceptor}
 * fills from {@code host}), and host h goes to the {@value
 * PartitionerConfig#HOST_PARTITIONS_CONFIG} = k consecutive partitions from {@code murmur2(h) mod
 * P}, round-robin among them (see {@link PartitionMath}). The core tier's HDFS sinks then write
 * each dt=/host= bucket from at most k partitions, so fewer, larger files per host, while a noisy
 * host is still spread over k partitions instead of swamping one.
 *
 * <p>With stripes configured as for {@link StripePartitioner}, a sink uses only the host's
 * partitions inside its own stripe (k/S of them when k ≥ S and P is a multiple of S) and falls back
 * to all k when none are. Records without a key are placed exactly as {@link StripePartitioner}
 * places them. Partitions without a leader are skipped while the host has another one.
 *
 * <p>Round-robin counters are kept in a fixed table of {@value #COUNTER_SLOTS} slots chosen by the
 * key's hash, so memory stays bounded however many hosts appear; hosts that share a slot share a
 * counter, which only changes the order in which each visits its partitions, not the set.
 */
public class HostAffinityPartitioner extends StripePartitioner {

  static final int COUNTER_SLOTS = 4096;

  private final AtomicIntegerArray counters = new AtomicIntegerArray(COUNTER_SLOTS);

  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    if (keyBytes == null) {
      return super.partition(topic, key, null, value, valueBytes, cluster);
    }
    PartitionerConfig config = config();
    TopicLayout layout = layout(topic, cluster);
    int hash = Utils.murmur2(keyBytes);
    int start = PartitionMath.hostStartOfHash(hash, layout.partitionCount);
    TopicLayout.HostSets sets =
        layout.hostSets(config.hostPartitions(), config.stripeCount(), config.stripeIndex());
    int[] hostSet = sets.hostSet[start];
    int[] inStripe = sets.inStripe[start];
    int turn = Utils.toPositive(counters.getAndIncrement(hash & (COUNTER_SLOTS - 1)));
    int chosen = pickWithLeader(inStripe, turn, layout);
    if (chosen < 0) {
      chosen = pickWithLeader(hostSet, turn, layout);
    }
    // No partition of this host has a leader: keep the host's set and let the producer wait for
    // one.
    return chosen >= 0 ? chosen : hostSet[turn % hostSet.length];
  }

  /** The candidate for this turn, or the next one after it that has a leader; -1 when none has. */
  private static int pickWithLeader(int[] candidates, int turn, TopicLayout layout) {
    for (int n = 0; n < candidates.length; n++) {
      int partition = candidates[(turn + n) % candidates.length];
      if (layout.hasLeader(partition)) {
        return partition;
      }
    }
    return -1;
  }
}
