package org.flafka.partitioner;

import java.util.Arrays;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;

/**
 * One topic as one metadata snapshot shows it, with this sink's stripe worked out. The producer
 * replaces its immutable {@link Cluster} on every metadata update, so a layout stays valid while
 * the cluster object does; that is also when partition counts and leaders change.
 */
final class TopicLayout {
  final Cluster cluster;
  final int partitionCount;
  final int[] stripe;

  /** The partitions of the stripe that have a leader; may be empty. */
  final int[] availableStripe;

  /** All partitions of the topic that have a leader, ascending; may be empty. */
  final int[] available;

  private final boolean[] hasLeader;

  /** The host sets of this layout, worked out on first use; null until then. */
  private volatile HostSets hostSets;

  /**
   * For each first partition of a host's spread, the host's partitions and those of them in this
   * sink's stripe ({@link PartitionMath#hostPartitions}, {@link
   * PartitionMath#hostPartitionsInStripe}): worked out once per layout, since they depend only on
   * the start, instead of for every record.
   */
  static final class HostSets {
    final int perHost;
    final int[][] hostSet;
    final int[][] inStripe;

    private HostSets(int perHost, int[][] hostSet, int[][] inStripe) {
      this.perHost = perHost;
      this.hostSet = hostSet;
      this.inStripe = inStripe;
    }
  }

  private TopicLayout(Cluster cluster, int partitionCount, int[] stripe, boolean[] hasLeader) {
    this.cluster = cluster;
    this.partitionCount = partitionCount;
    this.stripe = stripe;
    this.hasLeader = hasLeader;
    this.availableStripe = Arrays.stream(stripe).filter(this::hasLeader).toArray();
    this.available =
        java.util.stream.IntStream.range(0, partitionCount).filter(this::hasLeader).toArray();
  }

  static TopicLayout of(Cluster cluster, String topic, int stripeCount, int stripeIndex) {
    Integer partitionCount = cluster.partitionCountForTopic(topic);
    if (partitionCount == null || partitionCount < 1) {
      // The producer waits for the topic's metadata before it asks a partitioner, so this is a bug
      // upstream.
      throw new IllegalStateException("no partitions known for topic " + topic);
    }
    boolean[] hasLeader = new boolean[partitionCount];
    for (PartitionInfo info : cluster.availablePartitionsForTopic(topic)) {
      hasLeader[info.partition()] = true;
    }
    return new TopicLayout(
        cluster,
        partitionCount,
        PartitionMath.stripe(partitionCount, stripeCount, stripeIndex),
        hasLeader);
  }

  /** The host sets for {@code perHost} partitions a host, with this layout's stripe. */
  HostSets hostSets(int perHost, int stripeCount, int stripeIndex) {
    HostSets current = hostSets;
    if (current == null || current.perHost != perHost) {
      int[][] hostSet = new int[partitionCount][];
      int[][] inStripe = new int[partitionCount][];
      for (int start = 0; start < partitionCount; start++) {
        hostSet[start] = PartitionMath.hostPartitions(start, perHost, partitionCount);
        inStripe[start] =
            stripeCount == 1
                ? hostSet[start]
                : PartitionMath.hostPartitionsInStripe(
                    hostSet[start], partitionCount, stripeCount, stripeIndex);
      }
      current = new HostSets(perHost, hostSet, inStripe);
      hostSets = current;
    }
    return current;
  }

  boolean hasLeader(int partition) {
    return hasLeader[partition];
  }
}
