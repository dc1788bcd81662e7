package org.flafka.syslog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * src/test/resources/corpus/overrides.json: per case, the parser options the source's own test ran
 * with ({@code options}), and where this parser deliberately reads the message differently, the
 * reason and what we produce instead ({@code reason}, {@code ours}). Keys in {@code ours} replace
 * the source's keys (in go-syslog's {@code partial} too); {@code status}, {@code format} and {@code
 * defects} assert our status, format and defect names directly; {@code drop} lists source keys that
 * do not apply to our reading at all.
 */
final class CorpusOverrides {
  /** One case's entry. */
  record Entry(String reason, JsonNode ours, Map<String, String> options) {
    boolean differs() {
      return reason != null;
    }
  }

  private final Map<String, String> reasons = new LinkedHashMap<>();
  private final Map<String, Entry> cases = new LinkedHashMap<>();

  static CorpusOverrides load() {
    CorpusOverrides overrides = new CorpusOverrides();
    try (InputStream in = CorpusOverrides.class.getResourceAsStream("/corpus/overrides.json")) {
      JsonNode root = CorpusRecord.JSON.readTree(in);
      root.get("reasons")
          .fields()
          .forEachRemaining(e -> overrides.reasons.put(e.getKey(), e.getValue().asText()));
      for (Iterator<Map.Entry<String, JsonNode>> it = root.get("cases").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        JsonNode node = entry.getValue();
        String reason = node.hasNonNull("reason") ? node.get("reason").asText() : null;
        if (reason != null && !overrides.reasons.containsKey(reason)) {
          throw new IllegalStateException(
              "overrides.json: case "
                  + entry.getKey()
                  + " names unknown reason "
                  + reason
                  + "; add it to \"reasons\"");
        }
        if (reason == null && node.has("ours")) {
          throw new IllegalStateException(
              "overrides.json: case "
                  + entry.getKey()
                  + " changes the expectation"
                  + " without a reason");
        }
        Map<String, String> options = new LinkedHashMap<>();
        node.path("options")
            .fields()
            .forEachRemaining(o -> options.put(o.getKey(), o.getValue().asText()));
        overrides.cases.put(entry.getKey(), new Entry(reason, node.get("ours"), options));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return overrides;
  }

  Entry get(String id) {
    return cases.get(id);
  }

  Map<String, Entry> cases() {
    return cases;
  }

  String reasonText(String reason) {
    return reasons.get(reason);
  }

  /** The source's expectation with this entry's {@code ours} applied. */
  static JsonNode effectiveExpectation(JsonNode expect, Entry entry) {
    if (entry == null || entry.ours() == null) {
      return expect;
    }
    ObjectNode effective = expect.deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = entry.ours().fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      switch (field.getKey()) {
        case "status" -> {
          CorpusComparison.REJECTION_KEYS.forEach(effective::remove);
          effective.set("ours_status", field.getValue());
        }
        case "format" -> {
          effective.remove("protocol");
          effective.set("ours_format", field.getValue());
        }
        case "defects" -> effective.set("ours_defects", field.getValue());
        case "drop" -> field.getValue().forEach(key -> effective.remove(key.asText()));
        default -> {
          effective.set(field.getKey(), field.getValue());
          if (effective.get("partial") instanceof ObjectNode partial
              && partial.has(field.getKey())) {
            partial.set(field.getKey(), field.getValue());
          }
        }
      }
    }
    return effective;
  }
}
