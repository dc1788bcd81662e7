package org.flafka.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A snapshot of a Flume agent's metrics, typed: component ({@code SOURCE.r1}, {@code CHANNEL.c1},
 * {@code SINK.k1}) → counter ({@code EventAcceptedCount}, …) → value. Flume reports every value as
 * a string (docs/reference/dependencies.md, "Flume's metrics"); whole numbers become {@link
 * #counter counters}, decimals (ChannelFillPercentage) {@link #gauge gauges}, and the {@code Type}
 * attribute is dropped because the component name carries it.
 *
 * <p>Counters worth knowing: sources {@code EventReceivedCount}, {@code EventAcceptedCount};
 * channels {@code EventPutSuccessCount}, {@code EventTakeSuccessCount}, {@code ChannelSize}; sinks
 * {@code EventDrainSuccessCount} (the Kafka sink never increments {@code BatchCompleteCount}).
 * Every group has {@code StartTime} and {@code StopTime}.
 */
public final class AgentMetrics {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Map<String, String>>> RAW_TYPE =
      new TypeReference<>() {};

  private final Map<String, Map<String, Long>> counters;
  private final Map<String, Map<String, Double>> gauges;

  private AgentMetrics(
      Map<String, Map<String, Long>> counters, Map<String, Map<String, Double>> gauges) {
    this.counters = counters;
    this.gauges = gauges;
  }

  /** Parses the JSON that Flume's HTTP monitoring serves at {@code /metrics}. */
  public static AgentMetrics parseJson(String json) {
    try {
      return of(JSON.readValue(json, RAW_TYPE));
    } catch (JsonProcessingException e) {
      throw new StackException(
          "Flume metrics are not the expected JSON object of objects: " + e.getOriginalMessage(),
          e);
    }
  }

  /** Types the raw component → attribute → string map that Flume builds from its MBeans. */
  public static AgentMetrics of(Map<String, Map<String, String>> raw) {
    Map<String, Map<String, Long>> counters = new TreeMap<>();
    Map<String, Map<String, Double>> gauges = new TreeMap<>();
    raw.forEach(
        (component, attributes) -> {
          Map<String, Long> componentCounters = new TreeMap<>();
          Map<String, Double> componentGauges = new TreeMap<>();
          attributes.forEach(
              (name, value) -> {
                if (value == null || name.equals("Type")) {
                  return;
                }
                try {
                  componentCounters.put(name, Long.parseLong(value));
                } catch (NumberFormatException notWhole) {
                  try {
                    componentGauges.put(name, Double.parseDouble(value));
                  } catch (NumberFormatException notNumber) {
                    // no other attribute types exist in Flume 1.11; ignore rather than fail a whole
                    // snapshot
                  }
                }
              });
          counters.put(component, Collections.unmodifiableMap(componentCounters));
          gauges.put(component, Collections.unmodifiableMap(componentGauges));
        });
    return new AgentMetrics(
        Collections.unmodifiableMap(counters), Collections.unmodifiableMap(gauges));
  }

  /** Component → counter → value, for every component in the snapshot. */
  public Map<String, Map<String, Long>> counters() {
    return counters;
  }

  /** The component groups in the snapshot ({@code SOURCE.r1}, …). */
  public Set<String> components() {
    return counters.keySet();
  }

  /**
   * One counter, e.g. {@code counter("SINK.k1", "EventDrainSuccessCount")}; fails naming what
   * exists if absent.
   */
  public long counter(String component, String counter) {
    Long value = componentCounters(component).get(counter);
    if (value == null) {
      throw new IllegalArgumentException(
          "no counter "
              + counter
              + " for "
              + component
              + "; it has "
              + componentCounters(component).keySet());
    }
    return value;
  }

  public long source(String name, String counter) {
    return counter(AgentComponents.Kind.SOURCE.metricName(name), counter);
  }

  public long channel(String name, String counter) {
    return counter(AgentComponents.Kind.CHANNEL.metricName(name), counter);
  }

  public long sink(String name, String counter) {
    return counter(AgentComponents.Kind.SINK.metricName(name), counter);
  }

  /** A decimal attribute, e.g. {@code gauge("CHANNEL.c1", "ChannelFillPercentage")}. */
  public double gauge(String component, String gauge) {
    Map<String, Double> componentGauges = gauges.get(component);
    Double value = componentGauges == null ? null : componentGauges.get(gauge);
    if (value == null) {
      throw new IllegalArgumentException(
          "no gauge "
              + gauge
              + " for "
              + component
              + "; it has "
              + (componentGauges == null ? "no metrics" : componentGauges.keySet()));
    }
    return value;
  }

  /** True when {@code component} reports metrics and is started: StartTime set and StopTime not. */
  public boolean isStarted(String component) {
    Map<String, Long> group = counters.get(component);
    return group != null
        && group.getOrDefault("StartTime", 0L) > 0
        && group.getOrDefault("StopTime", 0L) == 0;
  }

  private Map<String, Long> componentCounters(String component) {
    Map<String, Long> group = counters.get(component);
    if (group == null) {
      throw new IllegalArgumentException(
          "no metrics for " + component + "; components reporting: " + components());
    }
    return group;
  }

  @Override
  public String toString() {
    return counters.toString();
  }
}
