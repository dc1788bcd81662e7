package org.flafka.bench;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.flafka.stack.ThreadCpu;

/**
 * What one variant did in one measure window. Rates are per second of the window; CPU is per
 * million events that arrived in Kafka (the end offsets of the topic's partitions, summed).
 *
 * @param warmupSeconds load before the window: {@code --warmup}, then until the first records were
 *     in Kafka and the agent's JIT compilation had settled
 * @param seconds the measure window
 * @param kafkaEvents records the topic gained during the window
 * @param sourceAccepted the source's EventAcceptedCount gained (events committed to the channel);
 *     -1 for rsyslog
 * @param sinkDrained the sinks' EventDrainSuccessCount gained (the Kafka sink never counts
 *     BatchCompleteCount); -1 for rsyslog
 * @param generatorSent events the generator handed to the kernel during the window
 * @param agentCpuSeconds CPU (user + system) of the agent process during the window
 * @param brokerCpuSeconds CPU of the broker process during the window
 * @param generatorCpuSeconds CPU of this JVM during the window: the generator plus the bench's own
 *     polling
 * @param loadAverage the machine's one-minute load average at the end of the window, or -1 if
 *     unknown
 * @param agentCpuByThreads the agent's CPU seconds during the window per group of threads ({@link
 *     ThreadCpu.ThreadGroups#FLUME_AGENT}, {@link RsyslogEdge#THREAD_GROUPS}); empty where the
 *     threads cannot be read
 * @param udpSocketDrops datagrams the kernel dropped at the agent's UDP socket during the window
 *     (its receive buffer was full); -1 on TCP or where the kernel's table cannot be read
 */
public record Trial(
    Variant variant,
    int repeat,
    double warmupSeconds,
    double seconds,
    long kafkaEvents,
    long sourceAccepted,
    long sinkDrained,
    long generatorSent,
    double agentCpuSeconds,
    double brokerCpuSeconds,
    double generatorCpuSeconds,
    double loadAverage,
    Map<String, Double> agentCpuByThreads,
    long udpSocketDrops) {

  public Trial {
    agentCpuByThreads = Collections.unmodifiableMap(new TreeMap<>(agentCpuByThreads));
  }

  public double eventsPerSecond() {
    return kafkaEvents / seconds;
  }

  /** NaN where not counted. */
  public double sourceAcceptedPerSecond() {
    return sourceAccepted < 0 ? Double.NaN : sourceAccepted / seconds;
  }

  /** NaN where not counted. */
  public double sinkDrainedPerSecond() {
    return sinkDrained < 0 ? Double.NaN : sinkDrained / seconds;
  }

  public double generatorSentPerSecond() {
    return generatorSent / seconds;
  }

  /**
   * The share of what the generator sent in the window that did not reach Kafka in it: on UDP the
   * loss, once the agent is past its warm-up (events in flight at the window's two ends roughly
   * cancel); 0 when nothing was sent.
   */
  public double lostShare() {
    return generatorSent == 0
        ? 0
        : Math.max(0, generatorSent - kafkaEvents) / (double) generatorSent;
  }

  /** {@link #udpSocketDrops} per second of the window, NaN when not measured. */
  public double udpSocketDropsPerSecond() {
    return udpSocketDrops < 0 ? Double.NaN : udpSocketDrops / seconds;
  }

  public double agentCpuPerMillion() {
    return perMillion(agentCpuSeconds);
  }

  public double brokerCpuPerMillion() {
    return perMillion(brokerCpuSeconds);
  }

  public double generatorCpuPerMillion() {
    return perMillion(generatorCpuSeconds);
  }

  /**
   * CPU seconds per million events of one group of the agent's threads, NaN when the group did not
   * run.
   */
  public double agentCpuPerMillion(String threads) {
    Double seconds = agentCpuByThreads.get(threads);
    return seconds == null ? Double.NaN : perMillion(seconds);
  }

  private double perMillion(double cpuSeconds) {
    return kafkaEvents == 0 ? Double.NaN : cpuSeconds / (kafkaEvents / 1e6);
  }
}
