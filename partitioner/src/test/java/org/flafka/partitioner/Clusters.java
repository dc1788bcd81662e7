package org.flafka.partitioner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;

/**
 * Real Kafka {@link Cluster} metadata snapshots (Kafka's own value classes), as a producer hands
 * them over.
 */
final class Clusters {
  static final String TOPIC = "syslog";
  private static final List<Node> BROKERS =
      List.of(new Node(0, "b0", 9092), new Node(1, "b1", 9092), new Node(2, "b2", 9092));

  private Clusters() {}

  /**
   * {@code partitions} partitions of {@link #TOPIC}, led round-robin by three brokers, except the
   * leaderless.
   */
  static Cluster topic(int partitions, int... leaderless) {
    Set<Integer> noLeader =
        IntStream.of(leaderless).boxed().collect(java.util.stream.Collectors.toSet());
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      Node leader = noLeader.contains(p) ? null : BROKERS.get(p % BROKERS.size());
      Node[] replicas = BROKERS.toArray(new Node[0]);
      infos.add(
          new PartitionInfo(TOPIC, p, leader, replicas, leader == null ? new Node[0] : replicas));
    }
    return new Cluster("test-cluster", BROKERS, infos, Set.of(), Set.of());
  }
}
