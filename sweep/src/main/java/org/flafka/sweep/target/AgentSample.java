package org.flafka.sweep.target;

import java.util.Map;

/**
 * One reading of an agent: Flume's counters by component ({@code SOURCE.syslog_tcp} -> {@code
 * EventAcceptedCount} -> value, as Flume's JSON metrics name them), the CPU seconds its process has
 * used, and when it was read ({@link System#nanoTime()} of the reader). Rates are differences of
 * two samples.
 */
public record AgentSample(
    Map<String, Map<String, Long>> counters, double cpuSeconds, long nanoTime) {
  public AgentSample {
    counters = Map.copyOf(counters);
  }

  /**
   * The sum of {@code counter} over every component whose name starts with {@code kind}
   * ("SOURCE."), or null.
   */
  public Long sum(String kind, String counter) {
    Long total = null;
    for (Map.Entry<String, Map<String, Long>> component : counters.entrySet()) {
      if (component.getKey().startsWith(kind)) {
        Long value = component.getValue().get(counter);
        if (value != null) {
          total = (total == null ? 0 : total) + value;
        }
      }
    }
    return total;
  }
}
