package org.flafka.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

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

  private static double median(List<CoreTrial> trials, ToDoubleFunction<CoreTrial> value) {
    return TextTable.median(trials.stream().mapToDouble(value).toArray());
  }

  public String text() {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "flafka bench core: %s, %,d events of %d bytes from %d hosts in a "
                + "topic of %d partition%s, drained %d × per variant (each window at most %ss)%n",
            Instant.ofEpochMilli(startedMillis),
            settings.events(),
            settings.size(),
            settings.hosts(),
            settings.partitions(),
            settings.partitions() == 1 ? "" : "s",
            settings.repeats(),
            seconds(settings.duration().toMillis())));
    if (!settings.oursVariables().isEmpty()) {
      text.append("template variants with: ");
      settings
          .oursVariables()
          .forEach((name, value) -> text.append(name).append('=').append(value).append(' '));
      text.setLength(text.length() - 1);
      text.append('\n');
    }
    if (!settings.agentJvmOptions().isEmpty()) {
      text.append("agent JVM options: ")
          .append(String.join(" ", settings.agentJvmOptions()))
          .append('\n');
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
            String.format(
                Locale.ROOT,
                "%,.0f (%,.0f-%,.0f)",
                s.eventsPerSecond(),
                s.minEventsPerSecond(),
                s.maxEventsPerSecond()),
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
    appendThreadTable(text);
    text.append(
        "events/s: events the agent's HDFS sinks committed (EventDrainSuccessCount) per second of the "
            + "window, from just before the first until the topic is drained or --duration; CPU: process "
            + "user+system seconds per million of those events.\n");
    return text.toString();
  }

  /** The groups of agent threads any trial measured, in name order. */
  private List<String> threadGroups() {
    return trials.stream()
        .flatMap(t -> t.agentCpuByThreads().keySet().stream())
        .distinct()
        .sorted()
        .toList();
  }

  private double threadMedian(CoreVariant variant, String group) {
    return median(mine(variant), t -> t.agentCpuPerMillion(group));
  }

  private void appendThreadTable(StringBuilder text) {
    List<String> groups = threadGroups();
    if (groups.isEmpty()) {
      return;
    }
    text.append("agent CPU-s per million events by threads (medians):\n");
    String[] header = new String[groups.size() + 1];
    header[0] = "variant";
    for (int i = 0; i < groups.size(); i++) {
      header[i + 1] = groups.get(i);
    }
    List<String[]> rows = new ArrayList<>();
    for (Summary summary : summaries()) {
      String[] row = new String[header.length];
      row[0] = summary.variant().flagName();
      for (int i = 0; i < groups.size(); i++) {
        row[i + 1] = decimal(threadMedian(summary.variant(), groups.get(i)), "");
      }
      rows.add(row);
    }
    TextTable.append(text, header, rows);
  }

  private static String decimal(double value, String unit) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f%s", value, unit) : "-";
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0
        ? Long.toString(millis / 1000)
        : String.format(Locale.ROOT, "%.1f", millis / 1e3);
  }

  public String json() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(buffer, JsonEncoding.UTF8)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeStringField("benchmark", "core");
      json.writeStringField("started", Instant.ofEpochMilli(startedMillis).toString());
      json.writeStringField("machine", machine);
      json.writeObjectFieldStart("settings");
      json.writeArrayFieldStart("variants");
      for (CoreVariant variant : settings.variants()) {
        json.writeString(variant.flagName());
      }
      json.writeEndArray();
      json.writeNumberField("events", settings.events());
      json.writeNumberField("durationSeconds", settings.duration().toMillis() / 1e3);
      json.writeNumberField("repeats", settings.repeats());
      json.writeNumberField("hosts", settings.hosts());
      json.writeNumberField("partitions", settings.partitions());
      json.writeNumberField("size", settings.size());
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
        json.writeObjectFieldStart("agentCpuSecondsPerMillionByThreads");
        for (String group : threadGroups()) {
          number(json, group, threadMedian(s.variant(), group));
        }
        json.writeEndObject();
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
        json.writeNumberField("brokerCpuSeconds", t.brokerCpuSeconds());
        json.writeNumberField("hdfsCpuSeconds", t.hdfsCpuSeconds());
        json.writeNumberField("files", t.files());
        json.writeObjectFieldStart("agentCpuSecondsByThreads");
        for (Map.Entry<String, Double> group : t.agentCpuByThreads().entrySet()) {
          json.writeNumberField(group.getKey(), group.getValue());
        }
        json.writeEndObject();
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toString(StandardCharsets.UTF_8) + System.lineSeparator();
  }

  /** JSON has no NaN: a trial with no events has no CPU per event, written as null. */
  private static void number(JsonGenerator json, String field, double value) throws IOException {
    if (Double.isFinite(value)) {
      json.writeNumberField(field, value);
    } else {
      json.writeNullField(field);
    }
  }
}
