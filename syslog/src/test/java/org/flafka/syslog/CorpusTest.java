package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every corpus record is a test: the parser must return, with every field inside the input, and
 * must agree with what the record's source asserts, field by field ({@link CorpusComparison}),
 * except where {@code overrides.json} says why we deliberately differ and what we produce instead.
 * The per-source summary is printed and written to target/corpus-summary.md.
 */
class CorpusTest {
  /** syslog-loose's tests supply the year by callback: December is 2019, anything else 2020. */
  private static final long SYSLOG_LOOSE_RECEIVED =
      Instant.parse("2020-01-20T00:00:00Z").toEpochMilli();

  private static final long RECEIVED = Instant.parse("2024-06-15T12:00:00Z").toEpochMilli();

  private static final CorpusOverrides OVERRIDES = CorpusOverrides.load();
  private static final Map<String, Tally> TALLIES = new TreeMap<>();

  /** Counts for one source. */
  private static final class Tally {
    int cases;
    int agree;
    int agreeConfigured;
    final Set<String> normalisations = new TreeSet<>();
    final Map<String, Integer> differ = new TreeMap<>();
    int framing;
    int noExpectations;

    synchronized void add(Runnable update) {
      update.run();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCorpusCase() {
    return CorpusRecord.FILES.stream()
        .flatMap(file -> CorpusRecord.load(file).stream())
        .map(
            record ->
                DynamicTest.dynamicTest(record.id() + " " + record.preview(), () -> check(record)));
  }

  private static void check(CorpusRecord record) {
    CorpusOverrides.Entry override = OVERRIDES.get(record.id());
    SyslogParserOptions options = options(record, override);
    long received = record.sourceName().equals("syslog-loose") ? SYSLOG_LOOSE_RECEIVED : RECEIVED;
    byte[] input = record.input();
    ParseResult result =
        new SyslogParser(options).parse(input, 0, input.length, received, new ParseResult());
    ResultInvariants.check(result, input, 0, input.length, received);

    Tally tally = TALLIES.computeIfAbsent(record.sourceName(), name -> new Tally());
    tally.add(() -> tally.cases++);
    if (!record.hasExpectations()) {
      tally.add(() -> tally.noExpectations++);
      return;
    }
    if (record.isFramingCase()) {
      tally.add(() -> tally.framing++);
      return;
    }
    Set<String> normalisations = new TreeSet<>();
    JsonNode expected = CorpusOverrides.effectiveExpectation(record.expect(), override);
    List<String> mismatches = CorpusComparison.compare(record, expected, result, normalisations);
    if (!mismatches.isEmpty()) {
      fail(
          record.id()
              + " ("
              + record.source()
              + ") differs from "
              + (override != null && override.differs() ? "our recorded reading" : "its source")
              + ":\n  "
              + String.join("\n  ", mismatches)
              + "\n  ours: "
              + result
              + "\n  defects: "
              + result.defectNames());
    }
    if (override != null && override.differs()) {
      List<String> sourceMismatches =
          CorpusComparison.compare(record, record.expect(), result, new TreeSet<>());
      assertFalse(
          sourceMismatches.isEmpty(),
          record.id()
              + " now agrees with its source: remove its override ("
              + override.reason()
              + ") from overrides.json");
      tally.add(() -> tally.differ.merge(override.reason(), 1, Integer::sum));
    } else {
      tally.add(
          () -> {
            tally.agree++;
            tally.normalisations.addAll(normalisations);
            if (override != null) {
              tally.agreeConfigured++;
            }
          });
    }
  }

  /**
   * Plausibility checks off (the corpus is from 1969-2026); zone from the expected offset where one
   * is given.
   */
  private static SyslogParserOptions options(CorpusRecord record, CorpusOverrides.Entry override) {
    SyslogParserOptions.Builder builder =
        SyslogParserOptions.builder().maxPastMillis(0).maxFutureMillis(0);
    JsonNode iso = record.hasExpectations() ? record.expect().get("timestamp_iso") : null;
    if (iso != null) {
      try {
        builder.defaultZone(OffsetDateTime.parse(iso.asText()).getOffset());
      } catch (java.time.format.DateTimeParseException e) {
        builder.defaultZone(ZoneOffset.UTC); // naive local time: compared in UTC
      }
    }
    if (override != null) {
      override.options().forEach(builder::set);
    }
    return builder.build();
  }

  @Test
  void everyOverrideNamesARealCase() {
    Set<String> ids = new TreeSet<>();
    CorpusRecord.FILES.forEach(
        file -> CorpusRecord.load(file).forEach(record -> ids.add(record.id())));
    for (String id : OVERRIDES.cases().keySet()) {
      assertTrue(ids.contains(id), "overrides.json names " + id + ", which is not in the corpus");
    }
  }

  @AfterAll
  static void writeSummary() throws IOException {
    if (TALLIES.isEmpty()) {
      return;
    }
    StringBuilder text = new StringBuilder();
    text.append(
            "| source | cases | agree with source | deliberately differ | framing only | no expectations |\n")
        .append("|---|---|---|---|---|---|\n");
    Map<String, Integer> reasons = new TreeMap<>();
    for (Map.Entry<String, Tally> entry : TALLIES.entrySet()) {
      Tally t = entry.getValue();
      int differ = t.differ.values().stream().mapToInt(Integer::intValue).sum();
      t.differ.forEach((reason, count) -> reasons.merge(reason, count, Integer::sum));
      text.append("| ")
          .append(entry.getKey())
          .append(" | ")
          .append(t.cases)
          .append(" | ")
          .append(t.agree)
          .append(
              t.agreeConfigured > 0
                  ? " (" + t.agreeConfigured + " with the source test's switches)"
                  : "")
          .append(" | ")
          .append(differ)
          .append(t.differ.isEmpty() ? "" : " " + t.differ)
          .append(" | ")
          .append(t.framing)
          .append(" | ")
          .append(t.noExpectations)
          .append(" |\n");
    }
    text.append("\nNormalisations applied when comparing (see CorpusComparison): ");
    Set<String> all = new TreeSet<>();
    TALLIES.forEach((source, t) -> t.normalisations.forEach(n -> all.add(source + ":" + n)));
    text.append(String.join(", ", all)).append("\n\nReasons for deliberate differences:\n");
    reasons.forEach(
        (reason, count) ->
            text.append("- `")
                .append(reason)
                .append("` (")
                .append(count)
                .append("): ")
                .append(OVERRIDES.reasonText(reason))
                .append('\n'));
    System.out.println("\nCorpus agreement\n" + text);
    Path target = Path.of("target");
    if (Files.isDirectory(target)) {
      Files.writeString(
          target.resolve("corpus-summary.md"), text.toString(), StandardCharsets.UTF_8);
    }
  }
}
