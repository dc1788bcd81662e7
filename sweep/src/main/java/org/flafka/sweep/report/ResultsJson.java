package org.flafka.sweep.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.stats.Summary;
import org.flafka.sweep.trial.Bottleneck;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;

/**
 * {@code results.json}: the whole sweep: the space (dimensions, fixed settings, timing), how it was
 * searched, the verdict (best trial, ties, baseline), and every trial with its settings, per-metric
 * summaries (median, min, max over the repeats) and every run's measurements. Absent measurements
 * are {@code null}. {@link #read} reads the space's outline and every trial back, for a replay.
 */
public final class ResultsJson {
  /** Version of this layout; bump it when a field changes meaning. */
  public static final int VERSION = 1;

  private ResultsJson() {}

  public static void write(SweepResult result, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (JsonGenerator json = new JsonFactory().createGenerator(tmp.toFile(), JsonEncoding.UTF8)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeNumberField("version", VERSION);
      json.writeBooleanField("complete", result.complete());
      json.writeStringField("started", String.valueOf(result.started()));
      json.writeStringField("finished", String.valueOf(result.finished()));
      json.writeStringField("strategy", result.strategy());
      json.writeStringField("target", result.target());
      json.writeStringField("audit", result.audit());
      space(json, result.space());
      json.writeNumberField("trialsRun", result.trialsRun());
      json.writeNumberField("trialsPruned", result.trialsPruned());
      verdict(json, result);
      json.writeArrayFieldStart("trials");
      for (TrialResult trial : result.trials()) {
        trial(json, trial);
      }
      json.writeEndArray();
      json.writeEndObject();
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * What {@link #read} gets back from a results file: the space's name, where it came from, its
   * dimensions (name and values, in order) and fixed settings, the strategy and audit it ran with,
   * and every trial as it was recorded. Numbers come back as Long or Double, so compare values with
   * {@link #sameValue}.
   */
  public record Recorded(
      Path file,
      String spaceName,
      String spaceSource,
      Map<String, List<Object>> dimensions,
      Map<String, Object> fixed,
      String strategy,
      String audit,
      List<TrialResult> trials) {
    public Recorded {
      dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
      fixed = Collections.unmodifiableMap(new LinkedHashMap<>(fixed));
      trials = List.copyOf(trials);
    }
  }

  /**
   * Reads a results file this class wrote; throws {@link IllegalArgumentException} naming what is
   * wrong.
   */
  public static Recorded read(Path file) throws IOException {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject() || root.path("version").asInt(-1) != VERSION) {
      throw new IllegalArgumentException(
          file
              + " is not a flafka sweep results.json of version "
              + VERSION
              + " (found version "
              + (root == null ? "none" : root.path("version").asText("none"))
              + ")");
    }
    JsonNode space = root.path("space");
    Map<String, List<Object>> dimensions = new LinkedHashMap<>();
    for (JsonNode dimension : space.path("dimensions")) {
      List<Object> values = new ArrayList<>();
      dimension.path("values").forEach(value -> values.add(plain(value)));
      dimensions.put(dimension.path("name").asText(), values);
    }
    Map<String, Object> fixed = new LinkedHashMap<>();
    space
        .path("fixed")
        .fields()
        .forEachRemaining(entry -> fixed.put(entry.getKey(), plain(entry.getValue())));
    List<TrialResult> trials = new ArrayList<>();
    for (JsonNode trial : root.path("trials")) {
      Map<String, Object> settings = new LinkedHashMap<>();
      trial
          .path("settings")
          .fields()
          .forEachRemaining(entry -> settings.put(entry.getKey(), plain(entry.getValue())));
      List<Measurement> runs = new ArrayList<>();
      for (JsonNode run : trial.path("runs")) {
        runs.add(run(run));
      }
      trials.add(
          new TrialResult(
              trial.path("number").asInt(),
              new Settings(settings),
              trial.path("baseline").asBoolean(),
              TrialResult.Status.valueOf(trial.path("status").asText().toUpperCase(Locale.ROOT)),
              trial.path("reason").asText(""),
              runs));
    }
    return new Recorded(
        file,
        space.path("name").asText(),
        space.path("source").asText(),
        dimensions,
        fixed,
        root.path("strategy").asText(null),
        root.path("audit").asText(null),
        trials);
  }

  /**
   * Whether a value read back equals a space's value: numbers by value (4 and 4.0 alike), the rest
   * as text.
   */
  public static boolean sameValue(Object recorded, Object value) {
    if (recorded instanceof Number a && value instanceof Number b) {
      return a.doubleValue() == b.doubleValue();
    }
    return String.valueOf(recorded).equals(String.valueOf(value));
  }

  private static Measurement run(JsonNode run) {
    Map<Stage, Double> rates = new EnumMap<>(Stage.class);
    for (Stage stage : Stage.values()) {
      rates.put(stage, number(run.path("stagesEps").path(stage.name().toLowerCase(Locale.ROOT))));
    }
    JsonNode audit = run.path("audit");
    return new Measurement(
        run.path("repeat").asInt(),
        number(run.path("seconds")),
        number(run.path("loadSentEps")),
        rates,
        number(run.path("edgeChannelFill")),
        number(run.path("coreChannelFill")),
        Bottleneck.valueOf(run.path("bottleneck").asText().toUpperCase(Locale.ROOT)),
        number(run.path("edgeCpuSecondsPerMillionEvents")),
        number(run.path("coreCpuSecondsPerMillionEvents")),
        run.path("sent").asLong(),
        run.path("edgeAccepted").asLong(),
        run.path("delivered").asLong(),
        run.path("drained").asBoolean(),
        number(run.path("firstDeliverySeconds")),
        number(run.path("warmupSeconds")),
        audit.isObject()
            ? new AuditCounts(
                audit.path("expected").asLong(),
                audit.path("delivered").asLong(),
                audit.path("missing").asLong(),
                audit.path("duplicated").asLong(),
                audit.path("corrupted").asLong())
            : null,
        run.path("auditNote").asText(""));
  }

  private static double number(JsonNode node) {
    return node.isNumber() ? node.asDouble() : Double.NaN;
  }

  private static Object plain(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.isNull() ? null : node.asText();
  }

  private static void space(JsonGenerator json, Space space) throws IOException {
    json.writeObjectFieldStart("space");
    json.writeStringField("name", space.name());
    json.writeStringField("source", space.source());
    json.writeStringField("description", space.description());
    json.writeNumberField("gridSize", space.gridSize());
    json.writeArrayFieldStart("dimensions");
    for (Dimension dimension : space.dimensions()) {
      json.writeStartObject();
      json.writeStringField("name", dimension.name());
      json.writeStringField("kind", dimension.knob().kind().name().toLowerCase(Locale.ROOT));
      json.writeFieldName("values");
      value(json, dimension.values());
      json.writeFieldName("default");
      value(json, dimension.knob().defaultValue());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeFieldName("fixed");
    value(json, space.fixed());
    json.writeObjectFieldStart("timing");
    json.writeNumberField("warmupSeconds", space.timing().warmup().toMillis() / 1000.0);
    json.writeNumberField("warmupMaxSeconds", space.timing().warmupMax().toMillis() / 1000.0);
    json.writeNumberField("measureSeconds", space.timing().measure().toMillis() / 1000.0);
    json.writeNumberField("repeats", space.timing().repeats());
    json.writeNumberField("drainSeconds", space.timing().drain().toMillis() / 1000.0);
    json.writeEndObject();
    json.writeEndObject();
  }

  private static void verdict(JsonGenerator json, SweepResult result) throws IOException {
    Ranking<TrialResult> ranking = result.ranking();
    json.writeObjectFieldStart("verdict");
    json.writeStringField("best", ranking.isEmpty() ? null : ranking.best().id());
    json.writeBooleanField("tie", !ranking.isEmpty() && !ranking.hasWinner());
    json.writeArrayFieldStart("tiedWithBest");
    for (TrialResult tied : ranking.tiedWithBest()) {
      json.writeString(tied.id());
    }
    json.writeEndArray();
    json.writeStringField("baseline", result.baseline().map(TrialResult::id).orElse(null));
    OptionalDouble drift = result.defaultsDrift();
    if (drift.isPresent()) {
      json.writeNumberField("defaultsDrift", drift.getAsDouble());
    } else {
      json.writeNullField("defaultsDrift");
    }
    json.writeArrayFieldStart("ranking");
    for (TrialResult trial : ranking.ordered()) {
      json.writeString(trial.id());
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void trial(JsonGenerator json, TrialResult trial) throws IOException {
    json.writeStartObject();
    json.writeStringField("id", trial.id());
    json.writeNumberField("number", trial.number());
    json.writeStringField("status", trial.status().name().toLowerCase(Locale.ROOT));
    json.writeBooleanField("baseline", trial.baseline());
    json.writeStringField("reason", trial.reason());
    json.writeFieldName("settings");
    value(json, trial.settings().values());
    json.writeObjectFieldStart("summary");
    summary(json, "endToEndEps", trial.endToEnd());
    for (Stage stage : Stage.values()) {
      summary(json, camel(stage.column()), trial.stage(stage));
    }
    summary(json, "loadSentEps", trial.summary(Measurement::loadRate));
    summary(json, "edgeCpuSecondsPerMillionEvents", trial.summary(Measurement::edgeCpuPerMillion));
    summary(json, "coreCpuSecondsPerMillionEvents", trial.summary(Measurement::coreCpuPerMillion));
    json.writeStringField(
        "bottleneck",
        trial.bottleneck() == null ? null : trial.bottleneck().name().toLowerCase(Locale.ROOT));
    json.writeEndObject();
    json.writeArrayFieldStart("runs");
    for (Measurement run : trial.runs()) {
      run(json, run);
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void run(JsonGenerator json, Measurement run) throws IOException {
    json.writeStartObject();
    json.writeNumberField("repeat", run.repeat());
    number(json, "seconds", run.seconds());
    number(json, "loadSentEps", run.loadRate());
    json.writeObjectFieldStart("stagesEps");
    for (Stage stage : Stage.values()) {
      number(json, stage.name().toLowerCase(Locale.ROOT), run.rate(stage));
    }
    json.writeEndObject();
    number(json, "endToEndEps", run.endToEnd());
    number(json, "edgeChannelFill", run.edgeFill());
    number(json, "coreChannelFill", run.coreFill());
    json.writeStringField("bottleneck", run.bottleneck().name().toLowerCase(Locale.ROOT));
    number(json, "edgeCpuSecondsPerMillionEvents", run.edgeCpuPerMillion());
    number(json, "coreCpuSecondsPerMillionEvents", run.coreCpuPerMillion());
    number(json, "firstDeliverySeconds", run.firstDeliverySeconds());
    number(json, "warmupSeconds", run.warmupSeconds());
    json.writeNumberField("sent", run.sent());
    json.writeNumberField("edgeAccepted", run.edgeAccepted());
    json.writeNumberField("delivered", run.delivered());
    if (run.drained()) {
      json.writeNumberField("countedLoss", run.countedLoss());
    } else {
      json.writeNullField("countedLoss");
    }
    json.writeBooleanField("drained", run.drained());
    if (run.audit() == null) {
      json.writeNullField("audit");
    } else {
      json.writeObjectFieldStart("audit");
      json.writeNumberField("expected", run.audit().expected());
      json.writeNumberField("delivered", run.audit().delivered());
      json.writeNumberField("missing", run.audit().missing());
      json.writeNumberField("duplicated", run.audit().duplicated());
      json.writeNumberField("corrupted", run.audit().corrupted());
      json.writeEndObject();
    }
    json.writeStringField("auditNote", run.auditNote());
    json.writeEndObject();
  }

  private static void summary(JsonGenerator json, String name, Summary summary) throws IOException {
    json.writeObjectFieldStart(name);
    json.writeNumberField("count", summary.count());
    number(json, "median", summary.median());
    number(json, "min", summary.min());
    number(json, "max", summary.max());
    json.writeEndObject();
  }

  private static void number(JsonGenerator json, String name, double value) throws IOException {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      json.writeNullField(name);
    } else {
      json.writeNumberField(name, value);
    }
  }

  private static void value(JsonGenerator json, Object value) throws IOException {
    if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName(String.valueOf(entry.getKey()));
        value(json, entry.getValue());
      }
      json.writeEndObject();
    } else if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object item : list) {
        value(json, item);
      }
      json.writeEndArray();
    } else if (value instanceof Long || value instanceof Integer) {
      json.writeNumber(((Number) value).longValue());
    } else if (value instanceof Number number) {
      json.writeNumber(number.doubleValue());
    } else if (value instanceof Boolean flag) {
      json.writeBoolean(flag);
    } else {
      json.writeString(value == null ? null : String.valueOf(value));
    }
  }

  /** edge_source_eps -> edgeSourceEps. */
  private static String camel(String snake) {
    StringBuilder text = new StringBuilder();
    boolean upper = false;
    for (char c : snake.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        text.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return text.toString();
  }
}
