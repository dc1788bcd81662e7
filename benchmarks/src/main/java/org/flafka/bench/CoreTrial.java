package org.flafka.bench;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.flafka.stack.ThreadCpu;

/**
 * What one core variant did in one drain. The window starts at the last poll before the agent's
 * sinks counted their first event (start-up and the consumer group's join stay outside it) and ends
 * when they have counted every prefilled event or at {@code --duration}.
 *
 * @param startupSeconds from starting the agent process to the start of the window
 * @param seconds the window
 * @param drained events the agent's HDFS sinks committed in the window (their
 *     EventDrainSuccessCount, summed)
 * @param drainedAll whether the sinks counted every prefilled event before the window's limit
 * @param agentCpuSeconds CPU (user + system) of the agent process in the window
 * @param brokerCpuSeconds CPU of the broker process in the window
 * @param hdfsCpuSeconds CPU of the HDFS process (NameNode and DataNode) in the window
 * @param files files the agent created under its HDFS root, counted after the window
 * @param agentCpuByThreads the agent's CPU seconds in the window per group of threads ({@link
 *     ThreadCpu.ThreadGroups#FLUME_AGENT}); empty where the threads cannot be read
 */
public record CoreTrial(
    CoreVariant variant,
    int repeat,
    double startupSeconds,
    double seconds,
    long drained,
    boolean drainedAll,
    double agentCpuSeconds,
    double brokerCpuSeconds,
    double hdfsCpuSeconds,
    long files,
    Map<String, Double> agentCpuByThreads) {

  public CoreTrial {
    agentCpuByThreads = Collections.unmodifiableMap(new TreeMap<>(agentCpuByThreads));
  }

  public double eventsPerSecond() {
    return drained / seconds;
  }

  /** CPU seconds per million drained events; NaN when nothing was drained. */
  public double agentCpuPerMillion() {
    return perMillion(agentCpuSeconds);
  }

  public double brokerCpuPerMillion() {
    return perMillion(brokerCpuSeconds);
  }

  public double hdfsCpuPerMillion() {
    return perMillion(hdfsCpuSeconds);
  }

  /**
   * One group of the agent's threads, per million drained events; 0 where the group did not run.
   */
  public double agentCpuPerMillion(String threadGroup) {
    return perMillion(agentCpuByThreads.getOrDefault(threadGroup, 0.0));
  }

  private double perMillion(double cpuSeconds) {
    return drained == 0 ? Double.NaN : cpuSeconds / (drained / 1e6);
  }
}
