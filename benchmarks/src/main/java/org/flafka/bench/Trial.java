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
 * @param trialSent events the generator sent over the whole trial, warm-up included, counted once
 *     it had stopped
 * @param trialInKafka records in the trial's topic (it starts empty) once the agent had delivered
 *     what it held after the generator stopped; -1 where it never settled
 * @param trialKernelDrops datagrams the kernel dropped at the agent's UDP socket over the whole
 *     trial; -1 on TCP or where the kernel's table cannot be read
 */
public record Trial(
    EdgeVariant variant,
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
    long udpSocketDrops,
    long trialSent,
    long trialInKafka,
    long trialKernelDrops) {

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
   * What the generator sent over the trial and never reached Kafka, counted after the agent had
   * delivered what it held: the loss, exactly (a count over one window would be off by what the
   * agent held at its two ends, up to its sinks' batches); -1 where the topic never settled.
   */
  public long lost() {
    return trialInKafka < 0 ? -1 : Math.max(0, trialSent - trialInKafka);
  }

  /** {@link #lost} as a share of what was sent over the trial; NaN where not counted. */
  public double lostShare() {
    return trialInKafka < 0 || trialSent == 0 ? Double.NaN : lost() / (double) trialSent;
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
