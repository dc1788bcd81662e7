package org.flafka.bench;

import static org.flafka.bench.ReportFormat.appendThreadTable;
import static org.flafka.bench.ReportFormat.decimal;
import static org.flafka.bench.ReportFormat.median;
import static org.flafka.bench.ReportFormat.number;
import static org.flafka.bench.ReportFormat.seconds;
import static org.flafka.bench.ReportFormat.spread;
import static org.flafka.bench.ReportFormat.threadMedians;
import static org.flafka.bench.ReportFormat.threadSeconds;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trials of one {@code flafka bench core} run and their summary per variant: medians over the
 * repeats, with the smallest and largest events/s as the spread. "vs baseline" divides by the
 * baseline variant's medians.
 */
public final class CoreBenchReport {
  private final CoreBenchSettings settings;
  private final List<CoreTrial> trials;
  private final long startedMillis;
  private final String machine;

  public CoreBenchReport(
      CoreBenchSettings settings, List<CoreTrial> trials, long startedMillis, String machine) {
    this.settings = settings;
    this.trials = List.copyOf(trials);
    this.startedMillis = startedMillis;
    this.machine = machine;
  }

  /**
   * One variant's medians over its repeats; {@code drainedAll} how many of its trials drained the
   * whole topic.
   */
  public record Summary(
      CoreVariant variant,
      int trials,
      int drainedAll,
      double eventsPerSecond,
      double minEventsPerSecond,
      double maxEventsPerSecond,
      double agentCpuPerMillion,
      double brokerCpuPerMillion,
      double hdfsCpuPerMillion,
      double files) {}

  public List<CoreTrial> trials() {
    return trials;
  }

  public List<Summary> summaries() {
    List<Summary> summaries = new ArrayList<>();
    for (CoreVariant variant : settings.variants()) {
      List<CoreTrial> mine = mine(variant);
      if (mine.isEmpty()) {
        continue;
      }
      summaries.add(
          new Summary(
              variant,
              mine.size(),
              (int) mine.stream().filter(CoreTrial::drainedAll).count(),
              median(mine, CoreTrial::eventsPerSecond),
              mine.stream().mapToDouble(CoreTrial::eventsPerSecond).min().orElseThrow(),
              mine.stream().mapToDouble(CoreTrial::eventsPerSecond).max().orElseThrow(),
              median(mine, CoreTrial::agentCpuPerMillion),
              median(mine, CoreTrial::brokerCpuPerMillion),
              median(mine, CoreTrial::hdfsCpuPerMillion),
              median(mine, CoreTrial::files)));
    }
    return summaries;
  }

  private List<CoreTrial> mine(CoreVariant variant) {
    return trials.stream().filter(t -> t.variant() == variant).toList();
  }

  private Summary baseline() {
    return summaries().stream()
        .filter(s -> s.variant() == settings.baseline())
        .findFirst()
        .orElse(null);
  }

  public String text() {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "flafka bench core: %s, %,d events of %d bytes from %d hosts in a "
                + "topic of %d partition%s (%s), drained %d × per variant, measured after the first"
                + " %,d (each window at most %ss)%n",
            Instant.ofEpochMilli(startedMillis),
            settings.prefilled(),
            settings.size(),
            settings.hosts(),
            settings.partitions(),
            settings.partitions() == 1 ? "" : "s",
            settings.hostPartitions() == 0
                ? "every host in every partition"
                : "each host in " + settings.hostPartitions() + " of them",
            settings.repeats(),
            settings.warmupEvents(),
            seconds(settings.duration().toMillis())));
    ReportFormat.appendVariables(text, "template variants with: ", settings.oursVariables());
    ReportFormat.appendAgentJvmOptions(text, settings.agentJvmOptions());
    if (settings.secure()) {
      text.append(SecureStack.CORE_REPORT_LINE).append('\n');
    }
    text.append("machine: ").append(machine).append('\n');
    String baseName = settings.baseline().flagName();
    String[] header = {
      "variant",
      "events/s median (min-max)",
      "drained all",
      "agent CPU-s/M",
      "broker CPU-s/M",
      "HDFS CPU-s/M",
      "files",
      "vs " + baseName,
      "agent CPU vs " + baseName
    };
    List<String[]> rows = new ArrayList<>();
    Summary base = baseline();
    for (Summary s : summaries()) {
      rows.add(
          new String[] {
            s.variant().flagName(),
            spread(s.eventsPerSecond(), s.minEventsPerSecond(), s.maxEventsPerSecond()),
            s.drainedAll() + "/" + s.trials(),
            decimal(s.agentCpuPerMillion(), ""),
            decimal(s.brokerCpuPerMillion(), ""),
            decimal(s.hdfsCpuPerMillion(), ""),
            String.format(Locale.ROOT, "%,.0f", s.files()),
            base == null ? "-" : decimal(s.eventsPerSecond() / base.eventsPerSecond(), "x"),
            base == null ? "-" : decimal(s.agentCpuPerMillion() / base.agentCpuPerMillion(), "x"),
          });
    }
    TextTable.append(text, header, rows);
    appendThreadTable(
        text,
        threadGroups(),
        summaries().stream().map(Summary::variant).toList(),
        CoreVariant::flagName,
        this::threadMedian);
    text.append(
        "events/s: events the agent's HDFS sinks committed (EventDrainSuccessCount) per second of the "
            + "window, from the end of the warm-up until the topic is drained or --duration; CPU: process "
            + "user+system seconds per million of those events.\n");
    return text.toString();
  }

  private List<String> threadGroups() {
    return ReportFormat.threadGroups(trials.stream().map(CoreTrial::agentCpuByThreads));
  }

  private double threadMedian(CoreVariant variant, String group) {
    return median(mine(variant), t -> t.agentCpuPerMillion(group));
  }

  public String json() {
    return ReportFormat.json("core", startedMillis, machine, this::writeFields);
  }

  private void writeFields(JsonGenerator json) throws IOException {
    json.writeObjectFieldStart("settings");
    json.writeArrayFieldStart("variants");
    for (CoreVariant variant : settings.variants()) {
      json.writeString(variant.flagName());
    }
    json.writeEndArray();
    json.writeNumberField("events", settings.events());
    json.writeNumberField("warmupEvents", settings.warmupEvents());
    json.writeNumberField("durationSeconds", settings.duration().toMillis() / 1e3);
    json.writeNumberField("repeats", settings.repeats());
    json.writeNumberField("hosts", settings.hosts());
    json.writeNumberField("partitions", settings.partitions());
    json.writeNumberField("hostPartitions", settings.hostPartitions());
    json.writeNumberField("size", settings.size());
    json.writeBooleanField("secure", settings.secure());
    json.writeStringField("baseline", settings.baseline().flagName());
    json.writeObjectFieldStart("set");
    for (Map.Entry<String, Object> variable : settings.oursVariables().entrySet()) {
      json.writeStringField(variable.getKey(), String.valueOf(variable.getValue()));
    }
    json.writeEndObject();
    json.writeEndObject();
    Summary base = baseline();
    json.writeArrayFieldStart("summary");
    for (Summary s : summaries()) {
      json.writeStartObject();
      json.writeStringField("variant", s.variant().flagName());
      json.writeNumberField("trials", s.trials());
      json.writeNumberField("drainedAll", s.drainedAll());
      json.writeNumberField("eventsPerSecond", s.eventsPerSecond());
      json.writeNumberField("minEventsPerSecond", s.minEventsPerSecond());
      json.writeNumberField("maxEventsPerSecond", s.maxEventsPerSecond());
      number(json, "agentCpuSecondsPerMillion", s.agentCpuPerMillion());
      number(json, "brokerCpuSecondsPerMillion", s.brokerCpuPerMillion());
      number(json, "hdfsCpuSecondsPerMillion", s.hdfsCpuPerMillion());
      json.writeNumberField("files", s.files());
      if (base != null) {
        number(json, "eventsPerSecondVsBaseline", s.eventsPerSecond() / base.eventsPerSecond());
        number(json, "agentCpuVsBaseline", s.agentCpuPerMillion() / base.agentCpuPerMillion());
      }
      threadMedians(json, threadGroups(), group -> threadMedian(s.variant(), group));
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("trials");
    for (CoreTrial t : trials) {
      json.writeStartObject();
      json.writeStringField("variant", t.variant().flagName());
      json.writeNumberField("repeat", t.repeat());
      json.writeNumberField("startupSeconds", t.startupSeconds());
      json.writeNumberField("seconds", t.seconds());
      json.writeNumberField("events", t.drained());
      json.writeBooleanField("drainedAll", t.drainedAll());
      json.writeNumberField("eventsPerSecond", t.eventsPerSecond());
      json.writeNumberField("agentCpuSeconds", t.agentCpuSeconds());
      ReportFormat.number(json, "brokerCpuSeconds", t.brokerCpuSeconds());
      ReportFormat.number(json, "hdfsCpuSeconds", t.hdfsCpuSeconds());
      json.writeNumberField("files", t.files());
      threadSeconds(json, t.agentCpuByThreads());
      json.writeEndObject();
    }
    json.writeEndArray();
  }
}
