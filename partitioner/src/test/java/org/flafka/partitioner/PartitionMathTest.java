package org.flafka.partitioner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class PartitionMathTest {

  @Test
  void stripesOfTwelvePartitionsOverFourSinksAreTheResiduesModFour() {
    assertArrayEquals(new int[] {0, 4, 8}, PartitionMath.stripe(12, 4, 0));
    assertArrayEquals(new int[] {1, 5, 9}, PartitionMath.stripe(12, 4, 1));
    assertArrayEquals(new int[] {3, 7, 11}, PartitionMath.stripe(12, 4, 3));
  }

  @Test
  void stripesOfAPartitionCountNotAMultipleOfTheSinksDifferByOne() {
    assertArrayEquals(new int[] {0, 4, 8}, PartitionMath.stripe(10, 4, 0));
    assertArrayEquals(new int[] {1, 5, 9}, PartitionMath.stripe(10, 4, 1));
    assertArrayEquals(new int[] {2, 6}, PartitionMath.stripe(10, 4, 2));
    assertArrayEquals(new int[] {3, 7}, PartitionMath.stripe(10, 4, 3));
  }

  @Test
  void stripesPartitionTheTopicExactlyOnceWheneverThereAreAtLeastAsManyPartitionsAsSinks() {
    for (int sinks = 1; sinks <= 9; sinks++) {
      for (int partitions = sinks; partitions <= 40; partitions++) {
        int[] owner = new int[partitions];
        Arrays.fill(owner, -1);
        for (int sink = 0; sink < sinks; sink++) {
          int[] stripe = PartitionMath.stripe(partitions, sinks, sink);
          assertTrue(
              stripe.length >= partitions / sinks && stripe.length <= partitions / sinks + 1);
          for (int p : stripe) {
            assertEquals(-1, owner[p], "partition " + p + " in two stripes, P=" + partitions);
            owner[p] = sink;
          }
        }
        assertTrue(Arrays.stream(owner).allMatch(o -> o >= 0), "a partition without a sink");
      }
    }
  }

  @Test
  void withFewerPartitionsThanSinksEachSinkGetsOnePartitionAndSinksShareEvenly() {
    // P = 4, S = 6: partitions 0 and 1 take two sinks each, 2 and 3 one each.
    int[] sinksPerPartition = new int[4];
    for (int sink = 0; sink < 6; sink++) {
      int[] stripe = PartitionMath.stripe(4, 6, sink);
      assertEquals(1, stripe.length);
      sinksPerPartition[stripe[0]]++;
    }
    assertArrayEquals(new int[] {2, 2, 1, 1}, sinksPerPartition);
    assertArrayEquals(new int[] {2}, PartitionMath.stripe(3, 6, 5));
  }

  @Test
  void growingThePartitionCountMovesNoPartitionToAnotherStripe() {
    // 12 -> 16 partitions with 4 sinks: old partitions keep their sink, 12..15 go one to each sink.
    for (int sink = 0; sink < 4; sink++) {
      int[] before = PartitionMath.stripe(12, 4, sink);
      int[] after = PartitionMath.stripe(16, 4, sink);
      assertArrayEquals(before, Arrays.copyOf(after, before.length));
      assertArrayEquals(
          new int[] {12 + sink}, Arrays.copyOfRange(after, before.length, after.length));
    }
  }

  @Test
  void aHostStartsWhereKafkasDefaultPartitionerWouldPutItsKey() {
    byte[] key = "dev-000042.site".getBytes(StandardCharsets.UTF_8);
    assertEquals(Utils.toPositive(Utils.murmur2(key)) % 12, PartitionMath.hostStart(key, 12));
  }

  @Test
  void aHostSpreadIsConsecutiveAndWrapsAtThePartitionCount() {
    assertArrayEquals(new int[] {10, 11, 0}, PartitionMath.hostPartitions(10, 3, 12));
    assertArrayEquals(new int[] {4, 5, 6, 7}, PartitionMath.hostPartitions(4, 4, 12));
    // More partitions per host than the topic has: every partition once.
    assertArrayEquals(new int[] {1, 2, 0}, PartitionMath.hostPartitions(1, 8, 3));
  }

  @Test
  void thousandsOfHostsSpreadEvenlyOverThePartitions() {
    // 5,000 hosts, 24 partitions, 3 per host: each partition is in the set of about 5000 * 3 / 24 =
    // 625 hosts.
    int[] hostsPerPartition = new int[24];
    for (int host = 0; host < 5000; host++) {
      byte[] key = String.format("dev-%06d.site", host).getBytes(StandardCharsets.UTF_8);
      for (int p : PartitionMath.hostPartitions(PartitionMath.hostStart(key, 24), 3, 24)) {
        hostsPerPartition[p]++;
      }
    }
    IntStream.of(hostsPerPartition)
        .forEach(
            n ->
                assertTrue(
                    n > 625 * 0.8 && n < 625 * 1.2,
                    "hosts per partition " + Arrays.toString(hostsPerPartition)));
  }

  @Test
  void aHostsPartitionsInsideAStripe() {
    // P = 12, S = 4, host {10, 11, 0, 1}: one partition in each stripe.
    int[] host = PartitionMath.hostPartitions(10, 4, 12);
    assertArrayEquals(new int[] {10}, PartitionMath.hostPartitionsInStripe(host, 12, 4, 2));
    assertArrayEquals(new int[] {0}, PartitionMath.hostPartitionsInStripe(host, 12, 4, 0));
    // P = 10, S = 4, host {8, 9, 0, 1}: the wrap leaves stripes 2 and 3 without a partition of this
    // host.
    int[] wrapped = PartitionMath.hostPartitions(8, 4, 10);
    assertArrayEquals(new int[] {8, 0}, PartitionMath.hostPartitionsInStripe(wrapped, 10, 4, 0));
    assertArrayEquals(new int[0], PartitionMath.hostPartitionsInStripe(wrapped, 10, 4, 3));
    // P = 12, S = 4, k = 8: two per stripe.
    Set<Integer> seen = new HashSet<>();
    for (int sink = 0; sink < 4; sink++) {
      int[] mine =
          PartitionMath.hostPartitionsInStripe(PartitionMath.hostPartitions(6, 8, 12), 12, 4, sink);
      assertEquals(2, mine.length);
      Arrays.stream(mine).forEach(seen::add);
    }
    assertEquals(Set.of(6, 7, 8, 9, 10, 11, 0, 1), seen);
  }

  @Test
  void badArgumentsNameTheArgumentAndValue() {
    assertEquals(
        "stripeIndex must be in [0, stripeCount) = [0, 4) but was 4",
        assertThrows(IllegalArgumentException.class, () -> PartitionMath.stripe(12, 4, 4))
            .getMessage());
    assertEquals(
        "partitionCount must be at least 1 but was 0",
        assertThrows(IllegalArgumentException.class, () -> PartitionMath.stripe(0, 4, 1))
            .getMessage());
    assertEquals(
        "perHost must be at least 1 but was 0",
        assertThrows(IllegalArgumentException.class, () -> PartitionMath.hostPartitions(0, 0, 4))
            .getMessage());
    assertEquals(
        "start must be in [0, partitionCount) = [0, 4) but was 4",
        assertThrows(IllegalArgumentException.class, () -> PartitionMath.hostPartitions(4, 2, 4))
            .getMessage());
  }
}
