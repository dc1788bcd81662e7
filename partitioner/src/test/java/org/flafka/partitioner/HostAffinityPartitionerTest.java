package org.flafka.partitioner;

import static org.flafka.partitioner.Clusters.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.Cluster;
import org.junit.jupiter.api.Test;

class HostAffinityPartitionerTest {

  private static final byte[] VALUE = new byte[200];

  private static HostAffinityPartitioner partitioner(String... keyValues) {
    HostAffinityPartitioner partitioner =
        new HostAffinityPartitioner() {
          @Override
          int randomStart() {
            return 0;
          }
        };
    Map<String, Object> configs = new HashMap<>();
    for (int n = 0; n < keyValues.length; n += 2) {
      configs.put(keyValues[n], keyValues[n + 1]);
    }
    partitioner.configure(configs);
    return partitioner;
  }

  private static byte[] key(String host) {
    return host.getBytes(StandardCharsets.UTF_8);
  }

  /** The host's partitions as the pure math defines them, as a set. */
  private static Set<Integer> spreadOf(String host, int perHost, int partitions) {
    return Arrays.stream(
            PartitionMath.hostPartitions(
                PartitionMath.hostStart(key(host), partitions), perHost, partitions))
        .boxed()
        .collect(Collectors.toSet());
  }

  private static Map<Integer, Integer> sendHost(
      HostAffinityPartitioner partitioner, Cluster cluster, String host, int records) {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (int n = 0; n < records; n++) {
      counts.merge(
          partitioner.partition(TOPIC, host, key(host), null, VALUE, cluster), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aHostsEventsGoRoundRobinOverItsThreePartitions() {
    HostAffinityPartitioner partitioner = partitioner("flafka.host.partitions", "3");
    Map<Integer, Integer> counts =
        sendHost(partitioner, Clusters.topic(12), "dev-000042.site", 900);
    assertEquals(spreadOf("dev-000042.site", 3, 12), counts.keySet());
    counts.values().forEach(n -> assertEquals(300, n));
  }

  @Test
  void aNoisyHostLoadsEachOfItsPartitionsWithOnlyItsShare() {
    // One host sends 90% of 10,000 events; with 4 partitions per host no partition takes more than
    // 9,000 / 4 = 2,250 of them plus its share of the quiet hosts.
    HostAffinityPartitioner partitioner = partitioner("flafka.host.partitions", "4");
    Cluster cluster = Clusters.topic(12);
    Map<Integer, Integer> noisy = sendHost(partitioner, cluster, "core-router-1", 9000);
    assertEquals(4, noisy.size());
    noisy.values().forEach(n -> assertEquals(2250, n));
  }

  @Test
  void manyHostsLoadThePartitionsEvenlyAndEachHostStaysInsideItsSpread() {
    HostAffinityPartitioner partitioner = partitioner("flafka.host.partitions", "3");
    Cluster cluster = Clusters.topic(24);
    int[] perPartition = new int[24];
    for (int host = 0; host < 2000; host++) {
      String name = String.format("dev-%06d.site", host);
      Map<Integer, Integer> counts = sendHost(partitioner, cluster, name, 12);
      assertTrue(
          spreadOf(name, 3, 24).containsAll(counts.keySet()), name + " left its spread: " + counts);
      counts.forEach((p, n) -> perPartition[p] += n);
    }
    // 24,000 events over 24 partitions: 1,000 each on average.
    Arrays.stream(perPartition)
        .forEach(n -> assertTrue(n > 800 && n < 1200, Arrays.toString(perPartition)));
  }

  @Test
  void withStripesASinkUsesOnlyTheHostsPartitionsInsideItsStripe() {
    // P = 12, S = 4, k = 8: each sink writes 2 of the host's 8 partitions, all four sinks together
    // all 8.
    Cluster cluster = Clusters.topic(12);
    Map<Integer, Integer> all = new TreeMap<>();
    for (int sink = 0; sink < 4; sink++) {
      HostAffinityPartitioner partitioner =
          partitioner(
              "flafka.host.partitions",
              "8",
              "flafka.stripe.count",
              "4",
              "flafka.stripe.index",
              String.valueOf(sink));
      Map<Integer, Integer> counts = sendHost(partitioner, cluster, "fw-asa-3.site", 100);
      assertEquals(2, counts.size());
      for (int p : counts.keySet()) {
        assertEquals(sink, p % 4, "sink " + sink + " wrote outside its stripe: " + counts);
      }
      counts.forEach((p, n) -> all.merge(p, n, Integer::sum));
    }
    assertEquals(spreadOf("fw-asa-3.site", 8, 12), all.keySet());
  }

  @Test
  void aSinkWhoseStripeHoldsNoneOfTheHostsPartitionsUsesTheHostsPartitions() {
    // k = 1 < S = 4: three of the four sinks have none of the host's one partition in their stripe.
    Cluster cluster = Clusters.topic(12);
    Set<Integer> spread = spreadOf("dev-000007.site", 1, 12);
    for (int sink = 0; sink < 4; sink++) {
      HostAffinityPartitioner partitioner =
          partitioner(
              "flafka.host.partitions",
              "1",
              "flafka.stripe.count",
              "4",
              "flafka.stripe.index",
              String.valueOf(sink));
      assertEquals(spread, sendHost(partitioner, cluster, "dev-000007.site", 10).keySet());
    }
  }

  @Test
  void aPartitionWithoutALeaderIsSkippedWhileTheHostHasAnother() {
    HostAffinityPartitioner partitioner = partitioner("flafka.host.partitions", "3");
    int start = PartitionMath.hostStart(key("dev-000042.site"), 12);
    Map<Integer, Integer> counts =
        sendHost(partitioner, Clusters.topic(12, start), "dev-000042.site", 90);
    assertEquals(Set.of((start + 1) % 12, (start + 2) % 12), counts.keySet());
    assertEquals(90, counts.values().stream().mapToInt(Integer::intValue).sum());
  }

  @Test
  void moreAndMorePartitionsMoveAHostOnceToItsNewSpread() {
    HostAffinityPartitioner partitioner = partitioner("flafka.host.partitions", "2");
    assertEquals(
        spreadOf("dev-000042.site", 2, 12),
        sendHost(partitioner, Clusters.topic(12), "dev-000042.site", 10).keySet());
    assertEquals(
        spreadOf("dev-000042.site", 2, 16),
        sendHost(partitioner, Clusters.topic(16), "dev-000042.site", 10).keySet());
  }

  @Test
  void eventsWithoutAKeyArePlacedLikeTheStripePartitionerPlacesThem() {
    HostAffinityPartitioner partitioner =
        partitioner(
            "flafka.stripe.count", "3", "flafka.stripe.index", "2", "flafka.sticky.bytes", "400");
    Cluster cluster = Clusters.topic(9);
    Map<Integer, Integer> counts = new TreeMap<>();
    for (int n = 0; n < 12; n++) {
      counts.merge(partitioner.partition(TOPIC, null, null, null, VALUE, cluster), 1, Integer::sum);
    }
    assertEquals(Map.of(2, 4, 5, 4, 8, 4), counts);
  }
}
