package org.flafka.partitioner;

import static org.flafka.partitioner.Clusters.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Cluster;
import org.junit.jupiter.api.Test;

class StripePartitionerTest {

  private static final byte[] RECORD_100_BYTES = new byte[100];

  /**
   * A partitioner whose random start is fixed, configured as a Flume sink passes producer
   * properties.
   */
  private static StripePartitioner stripe(int start, String... keyValues) {
    StripePartitioner partitioner =
        new StripePartitioner() {
          @Override
          int randomStart() {
            return start;
          }
        };
    Map<String, Object> configs = new HashMap<>();
    for (int n = 0; n < keyValues.length; n += 2) {
      configs.put(keyValues[n], keyValues[n + 1]);
    }
    partitioner.configure(configs);
    return partitioner;
  }

  private static List<Integer> send(StripePartitioner partitioner, Cluster cluster, int records) {
    List<Integer> partitions = new ArrayList<>();
    for (int n = 0; n < records; n++) {
      partitions.add(partitioner.partition(TOPIC, null, null, null, RECORD_100_BYTES, cluster));
    }
    return partitions;
  }

  private static Map<Integer, Integer> countByPartition(List<Integer> partitions) {
    Map<Integer, Integer> counts = new TreeMap<>();
    partitions.forEach(p -> counts.merge(p, 1, Integer::sum));
    return counts;
  }

  @Test
  void sinkOneOfFourStaysOnEachPartitionOfItsStripeForStickyBytesInTurn() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "4",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "1000");
    List<Integer> partitions = send(partitioner, Clusters.topic(12), 35);
    // 1000 bytes = 10 records of 100 bytes on each partition of {1, 5, 9}, then round again.
    assertEquals(
        List.of(1, 5, 9, 1),
        List.of(partitions.get(0), partitions.get(10), partitions.get(20), partitions.get(30)));
    assertEquals(List.of(1, 1, 1, 1, 1, 1, 1, 1, 1, 1), partitions.subList(0, 10));
  }

  @Test
  void theStripesPartitionsGetEqualBytesAndNoOtherPartitionGetsAny() {
    StripePartitioner partitioner =
        stripe(
            7,
            "flafka.stripe.count",
            "4",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "1000");
    // 3,000 records = 300 switches of 10 records: 1,000 on each of the three partitions.
    assertEquals(
        Map.of(1, 1000, 5, 1000, 9, 1000),
        countByPartition(send(partitioner, Clusters.topic(12), 3000)));
  }

  @Test
  void stickyBytesDefaultToTheProducersBatchSize() {
    StripePartitioner partitioner =
        stripe(0, "flafka.stripe.count", "2", "flafka.stripe.index", "0", "batch.size", "300");
    assertEquals(List.of(0, 0, 0, 2, 2, 2, 4), send(partitioner, Clusters.topic(6), 7));
  }

  @Test
  void keyBytesCountTowardsTheStickyBytesButDoNotChooseThePartition() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "2",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "250");
    Cluster cluster = Clusters.topic(4);
    byte[] key = new byte[25];
    List<Integer> partitions = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      partitions.add(partitioner.partition(TOPIC, "host", key, null, RECORD_100_BYTES, cluster));
    }
    assertEquals(List.of(1, 1, 3, 3), partitions);
  }

  @Test
  void aPartitionWithoutALeaderIsSkipped() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "4",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "100");
    assertEquals(
        Map.of(1, 50, 9, 50), countByPartition(send(partitioner, Clusters.topic(12, 5), 100)));
  }

  @Test
  void aStripeWithoutAnyLeaderSpillsOntoTheTopicsOtherPartitionsRatherThanStall() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "4",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "100");
    Map<Integer, Integer> counts = countByPartition(send(partitioner, Clusters.topic(8, 1, 5), 60));
    assertEquals(Map.of(0, 10, 2, 10, 3, 10, 4, 10, 6, 10, 7, 10), counts);
  }

  @Test
  void withNoLeaderAnywhereTheStripeIsKeptAndTheProducerWaits() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "2",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "100");
    assertEquals(List.of(1, 3, 1), send(partitioner, Clusters.topic(4, 0, 1, 2, 3), 3));
  }

  @Test
  void newPartitionsJoinTheStripeOnTheNextMetadataUpdate() {
    StripePartitioner partitioner =
        stripe(
            0,
            "flafka.stripe.count",
            "4",
            "flafka.stripe.index",
            "1",
            "flafka.sticky.bytes",
            "100");
    assertEquals(
        Map.of(1, 30, 5, 30, 9, 30), countByPartition(send(partitioner, Clusters.topic(12), 90)));
    assertEquals(
        Map.of(1, 30, 5, 30, 9, 30, 13, 30),
        countByPartition(send(partitioner, Clusters.topic(16), 120)));
  }

  @Test
  void withFewerPartitionsThanSinksTheSinkWritesOnePartition() {
    StripePartitioner partitioner =
        stripe(
            3,
            "flafka.stripe.count",
            "6",
            "flafka.stripe.index",
            "4",
            "flafka.sticky.bytes",
            "100");
    assertEquals(Map.of(1, 20), countByPartition(send(partitioner, Clusters.topic(3), 20)));
  }

  @Test
  void unconfiguredItIsOneStripeOverTheWholeTopic() {
    StripePartitioner partitioner = stripe(0, "batch.size", "100");
    assertEquals(List.of(0, 1, 2, 3, 0), send(partitioner, Clusters.topic(4), 5));
  }
}
