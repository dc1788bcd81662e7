package org.flafka.syslog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** One line of a corpus file in src/test/resources/corpus (see its README for the format). */
record CorpusRecord(
    String file, String id, String source, byte[] input, JsonNode expect, String notes) {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The corpus files, one per source. */
  static final List<String> FILES =
      List.of(
          "go-syslog.jsonl", "rsyslog.jsonl", "syslog-loose.jsonl", "fluentd.jsonl", "flume.jsonl");

  /** The source's file within its repository, e.g. {@code tests/tabescape_off.sh}. */
  String sourcePath() {
    return source.substring(source.indexOf(':') + 1);
  }

  /** The corpus file's name without extension: go-syslog, rsyslog, ... */
  String sourceName() {
    return file.substring(0, file.indexOf('.'));
  }

  boolean hasExpectations() {
    return expect != null && !expect.isNull();
  }

  /**
   * Cases about framing a stream into messages, which is the edge source's job, not the parser's.
   */
  boolean isFramingCase() {
    return hasExpectations() && (expect.has("stream_results") || expect.has("_stream_split_into"));
  }

  static List<CorpusRecord> load(String file) {
    List<CorpusRecord> records = new ArrayList<>();
    try (InputStream in = CorpusRecord.class.getResourceAsStream("/corpus/" + file)) {
      if (in == null) {
        throw new IllegalStateException("corpus file missing from test resources: " + file);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode node = JSON.readTree(line);
        byte[] input =
            node.hasNonNull("input_b64")
                ? Base64.getDecoder().decode(node.get("input_b64").asText())
                : node.get("input").asText().getBytes(StandardCharsets.UTF_8);
        records.add(
            new CorpusRecord(
                file,
                node.get("id").asText(),
                node.get("source").asText(),
                input,
                node.get("expect"),
                node.path("notes").asText()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return records;
  }

  /** The input for a test name: printable, control characters escaped, cut at 60 characters. */
  String preview() {
    String text = new String(input, StandardCharsets.UTF_8);
    StringBuilder shown = new StringBuilder();
    for (int i = 0; i < text.length() && shown.length() < 60; i++) {
      char c = text.charAt(i);
      shown.append(c < 0x20 ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return shown.toString();
  }
}
