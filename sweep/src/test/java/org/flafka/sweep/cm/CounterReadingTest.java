package org.flafka.sweep.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesMetadata;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.flafka.sweep.target.AgentSample;
import org.junit.jupiter.api.Test;

/**
 * Flume counters rebuilt from CM's per-second rates: the sums the trial runner compares must come
 * out exact.
 */
class CounterReadingTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00.000Z");

  @Test
  void queriesTheRoleItsComponentsAndItsCpu() {
    assertEquals(
        "SELECT event_received_rate, event_accepted_rate, event_put_success_rate, event_take_success_rate,"
            + " channel_size, channel_capacity, event_drain_success_rate, event_drain_attempt_rate, cpu_user_rate,"
            + " cpu_system_rate WHERE roleName = \"flume-AGENT-1\"",
        CounterReading.query("flume-AGENT-1").toString());
  }

  @Test
  void ratesIntegrateToCountsGaugesAreTheNewestAndCpuAddsUp() {
    // the counter went 0 → 30 (first collection, 10 s interval) → 30 → 75 over 15 s → 80 over 2.5 s
    // (a late point)
    ApiTimeSeries accepted =
        series(
            "event_accepted_rate",
            "flume-AGENT-1:syslog_tcp",
            10_000L,
            point(0, 3.0),
            point(10_000, 0.0),
            point(25_000, 3.0),
            point(27_500, 2.0));
    ApiTimeSeries otherSource =
        series("event_accepted_rate", "flume-AGENT-1:syslog_udp", 10_000L, point(25_000, 1.0));
    ApiTimeSeries drained =
        series(
            "event_drain_success_rate", "flume-AGENT-1:k0", null, point(0, 0.5), point(1_000, 2.0));
    ApiTimeSeries size =
        series("channel_size", "flume-AGENT-1:ch0", 10_000L, point(0, 400.0), point(10_000, 120.0));
    ApiTimeSeries user =
        series("cpu_user_rate", "flume-AGENT-1", 10_000L, point(0, 0.25), point(10_000, 0.5));
    ApiTimeSeries system = series("cpu_system_rate", "flume-AGENT-1", 10_000L, point(10_000, 0.05));
    ApiTimeSeries empty = series("event_take_success_rate", "flume-AGENT-1:old", 10_000L);
    CounterReading reading =
        CounterReading.of(
            List.of(
                new ApiTimeSeriesResponse(
                    List.of(accepted, otherSource, drained, size, empty), List.of(), "q"),
                new ApiTimeSeriesResponse(List.of(user, system), null, "q")),
            Duration.ofSeconds(2));

    assertEquals(
        80L, reading.counters().get("SOURCE.flume-AGENT-1:syslog_tcp").get("EventAcceptedCount"));
    assertEquals(
        10L, reading.counters().get("SOURCE.flume-AGENT-1:syslog_udp").get("EventAcceptedCount"));
    // no metricCollectionFrequencyMs on the series: its first point covers the interval given (2 s)
    assertEquals(3L, reading.counters().get("SINK.flume-AGENT-1:k0").get("EventDrainSuccessCount"));
    assertEquals(120L, reading.counters().get("CHANNEL.flume-AGENT-1:ch0").get("ChannelSize"));
    assertNull(
        reading.counters().get("CHANNEL.flume-AGENT-1:old"), "a component with no point this run");
    assertEquals(2.5 + 5 + 0.5, reading.cpuSeconds(), 1e-9);
    assertEquals(T0.plusMillis(27_500), reading.newest());

    AgentSample sample = reading.toSample();
    assertEquals(90L, sample.sum("SOURCE.", "EventAcceptedCount"));
    assertNull(sample.sum("SINK.", "EventDrainAttemptCount"));
  }

  private static ApiTimeSeriesData point(long millis, double value) {
    return new ApiTimeSeriesData(T0.plusMillis(millis).toString(), value, "SAMPLE", null);
  }

  private static ApiTimeSeries series(
      String metric, String entity, Long interval, ApiTimeSeriesData... points) {
    return new ApiTimeSeries(
        new ApiTimeSeriesMetadata(
            metric,
            entity,
            null,
            null,
            Map.of("entityName", entity),
            List.of(),
            List.of(),
            null,
            null,
            interval,
            "RAW"),
        new ArrayList<>(List.of(points)));
  }
}
