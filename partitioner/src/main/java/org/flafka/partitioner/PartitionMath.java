package org.flafka.partitioner;

import java.util.Arrays;
import org.apache.kafka.common.utils.Utils;

/**
 * The arithmetic of our partitioners, as pure functions so that each rule can be checked with
 * numbers.
 *
 * <h2>Stripes</h2>
 *
 * S Kafka sinks share a topic of P partitions. Sink i (0 ≤ i &lt; S) owns the stripe {@code {p : p
 * mod S == i}}. With P = 12 and S = 4, sink 1 owns {1, 5, 9}. Modulo rather than contiguous ranges,
 * because partition counts only ever grow: going from 12 to 16 partitions, every old partition
 * stays in its stripe (p mod S does not depend on P) and the new ones, 12..15, go one to each sink.
 *
 * <ul>
 *   <li>P not a multiple of S: stripes differ in size by one. P = 10, S = 4: sinks 0 and 1 own 3
 *       partitions, sinks 2 and 3 own 2. Every sink carries the same share (1/S) of the events, so
 *       each partition of a short stripe takes 1/8 of the traffic and each of a long one 1/12; the
 *       busiest partition runs at P/(S·⌊P/S⌋) = 1.25× the average.
 *   <li>P &lt; S: sinks share partitions. Sink i owns the single partition {@code i mod P}. P = 3,
 *       S = 6: two sinks on each partition. P = 4, S = 6: partitions 0 and 1 take two sinks each, 2
 *       and 3 one each (1.33× the average).
 * </ul>
 *
 * <h2>Host spread</h2>
 *
 * The events of host h go to k = min(perHost, P) consecutive partitions starting at {@code
 * murmur2(h) mod P} (the hash Kafka itself uses for keys, so "start" is where Kafka's default
 * partitioner would have put the whole host), wrapping at P. P = 12, k = 3, a host hashing to 10:
 * partitions {10, 11, 0}. A noisy host is thus spread over k partitions instead of overloading one,
 * and a consumer of the topic sees each host in at most k partitions.
 */
public final class PartitionMath {

  private PartitionMath() {}

  /**
   * The partitions sink {@code stripeIndex} of {@code stripeCount} owns in a topic of {@code
   * partitionCount} partitions, in ascending order; never empty.
   */
  public static int[] stripe(int partitionCount, int stripeCount, int stripeIndex) {
    requirePositive("partitionCount", partitionCount);
    requirePositive("stripeCount", stripeCount);
    if (stripeIndex < 0 || stripeIndex >= stripeCount) {
      throw new IllegalArgumentException(
          "stripeIndex must be in [0, stripeCount) = [0, "
              + stripeCount
              + ") but was "
              + stripeIndex);
    }
    if (partitionCount < stripeCount) {
      return new int[] {stripeIndex % partitionCount};
    }
    // Partitions stripeIndex, stripeIndex + S, ... below P: ceil((P - i) / S) of them.
    int[] stripe = new int[(partitionCount - stripeIndex + stripeCount - 1) / stripeCount];
    for (int n = 0; n < stripe.length; n++) {
      stripe[n] = stripeIndex + n * stripeCount;
    }
    return stripe;
  }

  /**
   * The first partition of a host's spread: where Kafka's default partitioner would put this key.
   */
  public static int hostStart(byte[] hostKey, int partitionCount) {
    return hostStartOfHash(Utils.murmur2(hostKey), partitionCount);
  }

  /** {@link #hostStart} of a key whose {@code murmur2} is {@code hostKeyHash}. */
  public static int hostStartOfHash(int hostKeyHash, int partitionCount) {
    requirePositive("partitionCount", partitionCount);
    return Utils.toPositive(hostKeyHash) % partitionCount;
  }

  /**
   * The min(perHost, P) consecutive partitions from {@code start}, wrapping at P, in that order
   * (not sorted: {@code hostPartitions(10, 3, 12)} is {10, 11, 0}).
   */
  public static int[] hostPartitions(int start, int perHost, int partitionCount) {
    requirePositive("partitionCount", partitionCount);
    requirePositive("perHost", perHost);
    if (start < 0 || start >= partitionCount) {
      throw new IllegalArgumentException(
          "start must be in [0, partitionCount) = [0, " + partitionCount + ") but was " + start);
    }
    int[] partitions = new int[Math.min(perHost, partitionCount)];
    for (int n = 0; n < partitions.length; n++) {
      partitions[n] = (start + n) % partitionCount;
    }
    return partitions;
  }

  /**
   * The partitions of {@code hostPartitions} that also lie in the stripe of sink {@code
   * stripeIndex} of {@code stripeCount}, in host order; empty when none do. With k ≥ S consecutive
   * partitions and P a multiple of S, every sink finds k/S of a host's partitions in its stripe (P
   * = 12, S = 4, host {10, 11, 0, 1}: sink 2 gets {10}). When P is not a multiple of S the wrap at
   * P can leave a sink with none (P = 10, S = 4, host {8, 9, 0, 1}: sinks 2 and 3 get none); the
   * caller then falls back to the host's partitions.
   */
  public static int[] hostPartitionsInStripe(
      int[] hostPartitions, int partitionCount, int stripeCount, int stripeIndex) {
    int[] stripe = stripe(partitionCount, stripeCount, stripeIndex);
    return Arrays.stream(hostPartitions).filter(p -> Arrays.binarySearch(stripe, p) >= 0).toArray();
  }

  private static void requirePositive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 but was " + value);
    }
  }
}
