package org.flafka.sweep.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.stats.Ranking;
import org.flafka.sweep.stats.Summary;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;

/**
 * {@code results.json}: the whole sweep: the space (dimensions, fixed settings, timing), how it was searched, the
 * verdict (best trial, ties, baseline), and every trial with its settings, per-metric summaries (median, min, max
 * over the repeats) and every run's measurements. Absent measurements are {@code null}.
 */
public final class ResultsJson {
    /** Version of this layout; bump it when a field changes meaning. */
    public static final int VERSION = 1;

    private ResultsJson() {
    }

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
            json.writeStringField("kind", dimension.knob().kind().name().toLowerCase());
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
        json.writeStringField("status", trial.status().name().toLowerCase());
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
        json.writeStringField("bottleneck", trial.bottleneck() == null ? null : trial.bottleneck().name().toLowerCase());
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
            number(json, stage.name().toLowerCase(), run.rate(stage));
        }
        json.writeEndObject();
        number(json, "endToEndEps", run.endToEnd());
        number(json, "edgeChannelFill", run.edgeFill());
        number(json, "coreChannelFill", run.coreFill());
        json.writeStringField("bottleneck", run.bottleneck().name().toLowerCase());
        number(json, "edgeCpuSecondsPerMillionEvents", run.edgeCpuPerMillion());
        number(json, "coreCpuSecondsPerMillionEvents", run.coreCpuPerMillion());
        number(json, "firstDeliverySeconds", run.firstDeliverySeconds());
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
