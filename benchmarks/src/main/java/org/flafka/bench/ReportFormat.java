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
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.flafka.stack.AgentProcess;

/**
 * What the edge and core bench reports write alike: their numbers, the lines that say how the run
 * was set up, the table of the agents' CPU by threads, and the JSON document around each report's
 * own fields.
 */
final class ReportFormat {
  private ReportFormat() {}

  /** The machine a run measures on: processors, operating system and Java. */
  static String machine() {
    return Runtime.getRuntime().availableProcessors()
        + " processors, "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.arch")
        + ", Java "
        + System.getProperty("java.version");
  }

  /** The median of {@code value} over {@code trials}, which must not be empty. */
  static <T> double median(List<T> trials, ToDoubleFunction<T> value) {
    return TextTable.median(trials.stream().mapToDouble(value).toArray());
  }

  /**
   * Two decimals and {@code unit}, or "-" when there is no number (no events, or nothing to compare
   * with).
   */
  static String decimal(double value, String unit) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f%s", value, unit) : "-";
  }

  /** The events/s column: the median, and the smallest and largest in parentheses. */
  static String spread(double median, double min, double max) {
    return String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", median, min, max);
  }

  /** Whole seconds, or seconds with one decimal. */
  static String seconds(long millis) {
    return millis % 1000 == 0
        ? Long.toString(millis / 1000)
        : String.format(Locale.ROOT, "%.1f", millis / 1e3);
  }

  /** The line "{@code label}name=value name=value", when {@code --set} gave any variables. */
  static void appendVariables(StringBuilder text, String label, Map<String, Object> variables) {
    if (variables.isEmpty()) {
      return;
    }
    text.append(label);
    variables.forEach((name, value) -> text.append(name).append('=').append(value).append(' '));
    text.setLength(text.length() - 1);
    text.append('\n');
  }

  /** The line of {@code --agent-jvm-option}s, when there are any. */
  static void appendAgentJvmOptions(StringBuilder text, List<String> options) {
    text.append("agent JVM options: ")
        .append(
            options.isEmpty()
                ? AgentProcess.DEPLOYED_JVM_OPTIONS_LINE + " (a deployed agent's)"
                : String.join(" ", options))
        .append('\n');
  }

  /** The groups of agent threads any trial measured, in name order. */
  static List<String> threadGroups(Stream<Map<String, Double>> agentCpuByThreads) {
    return agentCpuByThreads.flatMap(m -> m.keySet().stream()).distinct().sorted().toList();
  }

  /** A thread group's median agent CPU-s per million events over one variant's trials. */
  interface ThreadMedian<V> {
    double of(V variant, String group);
  }

  /**
   * Where each agent's CPU went, by its threads (Linux only), a row per variant: JIT still
   * compiling means a short warm-up.
   */
  static <V> void appendThreadTable(
      StringBuilder text,
      List<String> groups,
      List<V> variants,
      Function<V, String> flagName,
      ThreadMedian<V> median) {
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
    for (V variant : variants) {
      String[] row = new String[header.length];
      row[0] = flagName.apply(variant);
      for (int i = 0; i < groups.size(); i++) {
        row[i + 1] = decimal(median.of(variant, groups.get(i)), "");
      }
      rows.add(row);
    }
    TextTable.append(text, header, rows);
  }

  /** Writes a report's own fields. */
  interface JsonFields {
    void write(JsonGenerator json) throws IOException;
  }

  /**
   * A report as pretty-printed JSON and a line separator: an object of {@code benchmark}, {@code
   * started} and {@code machine}, then what {@code fields} writes.
   */
  static String json(String benchmark, long startedMillis, String machine, JsonFields fields) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(buffer, JsonEncoding.UTF8)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeStringField("benchmark", benchmark);
      json.writeStringField("started", Instant.ofEpochMilli(startedMillis).toString());
      json.writeStringField("machine", machine);
      fields.write(json);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toString(StandardCharsets.UTF_8) + System.lineSeparator();
  }

  /** JSON has no NaN: a trial with no events has no CPU per event, written as null. */
  static void number(JsonGenerator json, String field, double value) throws IOException {
    if (Double.isFinite(value)) {
      json.writeNumberField(field, value);
    } else {
      json.writeNullField(field);
    }
  }

  /** A summary's object of median agent CPU-s per million events by thread group. */
  static void threadMedians(
      JsonGenerator json, List<String> groups, ToDoubleFunction<String> median) throws IOException {
    json.writeObjectFieldStart("agentCpuSecondsPerMillionByThreads");
    for (String group : groups) {
      number(json, group, median.applyAsDouble(group));
    }
    json.writeEndObject();
  }

  /** A trial's object of agent CPU seconds by thread group. */
  static void threadSeconds(JsonGenerator json, Map<String, Double> agentCpuByThreads)
      throws IOException {
    json.writeObjectFieldStart("agentCpuSecondsByThreads");
    for (Map.Entry<String, Double> group : agentCpuByThreads.entrySet()) {
      json.writeNumberField(group.getKey(), group.getValue());
    }
    json.writeEndObject();
  }
}
