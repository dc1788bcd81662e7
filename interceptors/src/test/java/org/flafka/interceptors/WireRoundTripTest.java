package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.interceptor.Interceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.flafka.contract.Headers;
import org.flafka.contract.KafkaRecordDecoder;
import org.flafka.contract.KafkaRecordEncoder;
import org.flafka.syslog.SyslogFacts;
import org.flafka.syslog.SyslogParserOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The round trip of the contract over the parser's whole corpus (every case of every source file in
 * syslog/src/test/resources/corpus, valid or not, UTF-8 or not) and the vendor forms, junk and edge
 * cases below: the facts the edge's interceptor chain sets equal the facts derived from the record
 * it writes with only what the body cannot give back ({@link Headers#CARRIED}), both by the core's
 * decoder ({@link KafkaRecordDecoder} with parser options) and by a consumer without Flume ({@link
 * SyslogFacts#derive} over the record's headers).
 *
 * <p>The edge parses with a default zone and plausibility window of its own, which the deriving
 * side does not have (their results are carried); the leniency switches and zone abbreviations are
 * the same on both sides (the templates render them from one variable, which {@code
 * TemplateParserOptionsTest} in agents/core checks) and a mismatch there shows.
 */
class WireRoundTripTest {

  private static final Path CORPUS = Path.of("..", "syslog", "src", "test", "resources", "corpus");

  /** Receive times: an ordinary day, and just after New Year (year-less stamps from December). */
  private static final List<Long> RECEIVED =
      List.of(
          Instant.parse("2025-11-24T16:00:05.250Z").toEpochMilli(),
          Instant.parse("2026-01-01T00:10:00Z").toEpochMilli());

  /** Leniency switches and abbreviations off their defaults, for the edge and the deriving side. */
  private static final Map<String, String> SWITCHES =
      Map.of(
          "permit.missing.pri", "false",
          "permit.space.after.pri", "false",
          "detect.cisco.asa", "false",
          "detect.year.in.timestamp", "false",
          "timezone.abbreviations", "IST=+01:00,XYZ=-03:30");

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void theFactsTheEdgeParsedAreTheFactsDerivedFromTheRecord(boolean nonDefaultSwitches)
      throws IOException {
    Map<String, String> shared = nonDefaultSwitches ? SWITCHES : Map.of();
    Map<String, String> edgeSettings = new HashMap<>(shared);
    // the edge's own zone and window: the deriving side does not know them
    edgeSettings.put("timezone.default", "Australia/Sydney");
    edgeSettings.put("timestamp.max.past.ms", "604800000");
    edgeSettings.put("timestamp.max.future.ms", "3600000");
    edgeSettings.put("site", "par-03");
    Interceptor syslog = syslogInterceptor(edgeSettings);
    EventIdInterceptor.Builder eventIdBuilder = new EventIdInterceptor.Builder();
    eventIdBuilder.configure(new Context());
    Interceptor eventId = eventIdBuilder.build();
    SyslogParserOptions coreOptions = SyslogParserOptions.from(shared);
    KafkaRecordDecoder decoder = new KafkaRecordDecoder(Set.copyOf(Headers.CARRIED), coreOptions);
    SyslogFacts consumer = new SyslogFacts(coreOptions);
    KafkaRecordEncoder encoder =
        new KafkaRecordEncoder(
            "syslog", null, Set.copyOf(Headers.CARRIED), KafkaRecordEncoder.CARRIED_IMPLIED);

    List<byte[]> messages = messages();
    int rejected = 0;
    int raw = 0;
    int received = 0;
    for (long receivedMillis : RECEIVED) {
      for (byte[] body : messages) {
        Map<String, String> sourceHeaders = new LinkedHashMap<>();
        sourceHeaders.put(Headers.RECEIVED, Long.toString(receivedMillis));
        sourceHeaders.put(Headers.PEER, "192.0.2.7");
        Event event = EventBuilder.withBody(body.clone(), sourceHeaders);
        eventId.intercept(syslog.intercept(event));
        Map<String, String> edgeFacts = new HashMap<>(event.getHeaders());
        String what = describe(body, receivedMillis, edgeFacts);

        ConsumerRecord<byte[], byte[]> record = consumed(encoder.toRecord(event));
        for (Header header : record.headers()) {
          assertTrue(
              Headers.CARRIED.contains(header.key()), header.key() + " on the wire: " + what);
        }
        assertEquals(edgeFacts, decoder.headers(record), "core decoder: " + what);
        Map<String, String> carried = new HashMap<>();
        for (Header header : record.headers()) {
          carried.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        assertEquals(edgeFacts, consumer.derive(record.value(), carried), "consumer: " + what);

        rejected += edgeFacts.containsKey(Headers.TIMESTAMP_REJECTED) ? 1 : 0;
        raw += "raw".equals(edgeFacts.get(Headers.PARSE)) ? 1 : 0;
        received += "received".equals(edgeFacts.get(Headers.TIMESTAMP_SOURCE)) ? 1 : 0;
      }
    }
    // The corpus reaches every branch of the derivation: rejected times, raw input, receive times.
    assertTrue(messages.size() > 900, "corpus cases: " + messages.size());
    assertTrue(
        rejected > 0 && raw > 0 && received > rejected, rejected + "/" + raw + "/" + received);
  }

  @Test
  void derivingWithOtherLeniencySwitchesThanTheEdgeShowsInTheRoundTrip() throws IOException {
    Interceptor syslog = syslogInterceptor(Map.of());
    KafkaRecordDecoder mismatched =
        new KafkaRecordDecoder(Set.copyOf(Headers.CARRIED), SyslogParserOptions.from(SWITCHES));
    KafkaRecordEncoder encoder =
        new KafkaRecordEncoder(
            "syslog", null, Set.copyOf(Headers.CARRIED), KafkaRecordEncoder.CARRIED_IMPLIED);
    int differ = 0;
    for (byte[] body : messages()) {
      Map<String, String> sourceHeaders = new LinkedHashMap<>();
      sourceHeaders.put(Headers.RECEIVED, Long.toString(RECEIVED.get(0)));
      Event event = syslog.intercept(EventBuilder.withBody(body.clone(), sourceHeaders));
      if (!event.getHeaders().equals(mismatched.headers(consumed(encoder.toRecord(event))))) {
        differ++;
      }
    }
    assertTrue(differ > 0, "no corpus case tells the switches apart");
  }

  private static Interceptor syslogInterceptor(Map<String, String> settings) {
    SyslogInterceptor.Builder builder = new SyslogInterceptor.Builder();
    builder.configure(new Context(settings));
    return builder.build();
  }

  /**
   * Every corpus input, then forms and junk the corpus lacks: vendor formats, far past and future
   * stamps (rejected), year-less December stamps, invalid dates, empty and binary bodies.
   */
  static List<byte[]> messages() throws IOException {
    List<byte[]> messages = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (var files = Files.list(CORPUS)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (line.isBlank()) {
            continue;
          }
          JsonNode node = json.readTree(line);
          messages.add(
              node.hasNonNull("input_b64")
                  ? Base64.getDecoder().decode(node.get("input_b64").asText())
                  : node.get("input").asText().getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    for (String text :
        List.of(
            "<166>Nov 24 2025 16:00:01: %ASA-6-302013: Built outbound TCP connection 1 for outside",
            "<166>%ASA-6-302013: Built outbound TCP connection 2",
            "<189>42: router7: *Nov 24 16:00:02.123 UTC: %SYS-5-CONFIG_I: Configured from console",
            "<189>43: Nov 24 16:00:02.123 IST: %LINK-3-UPDOWN: Interface Gi0/1, changed state",
            "<189>44: Nov 24 16:00:02.123 XYZ: %LINK-3-UPDOWN: Interface Gi0/2, changed state",
            "<189>45: Nov 24 16:00:02.123 QQQ: %LINK-3-UPDOWN: Interface Gi0/3, changed state",
            "<134>1 1993-01-01T00:00:00Z old-clock app 1 - - reset to 1993",
            "<134>1 2031-06-01T00:00:00Z fast-clock app 1 - - years ahead",
            "<134>1 2025-11-24T18:30:00+00:00 soon app 1 - - 2.5 hours ahead",
            "<134>1 2025-11-24T16:00:00 nozone app 1 - - no offset",
            "<134>1 2025-02-30T16:00:00Z baddate app - - - Feb 30",
            "<13>Dec 31 23:59:59 host app[1]: last year's stamp",
            "<13>Feb 29 12:00:00 host app: leap day",
            "<13>Nov 24 16:00:00 host app: plain BSD",
            "<13>2025-11-24 16:00:00 host app: space in ISO",
            "  <13>Nov 24 16:00:00 host app: leading space",
            "<13>  Nov 24 16:00:00 host app: space after PRI",
            "Nov 24 16:00:00 host app: no PRI",
            "<999>Nov 24 16:00:00 host app: PRI out of range",
            "<13>",
            "<",
            "",
            "just words, nothing syslog about it",
            "<134>1 - - - - - -",
            "<134>1 2025-11-24T16:00:00Z h a p m [sd@1 x=\"unterminated",
            "<13>Nov 24 16:00:00 user@host app: at sign",
            "<13>Nov 24 16:00:00 h/o/s/t app: slashes")) {
      messages.add(text.getBytes(StandardCharsets.UTF_8));
    }
    messages.add(new byte[] {'<', '1', '3', '>', (byte) 0xff, (byte) 0xfe, 0, 1, 2, '\n'});
    messages.add(new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xa0, (byte) 0xa1});
    byte[] big = new byte[70_000];
    java.util.Arrays.fill(big, (byte) 'x');
    System.arraycopy(
        "<13>Nov 24 16:00:00 host app: ".getBytes(StandardCharsets.US_ASCII), 0, big, 0, 30);
    messages.add(big);
    return messages;
  }

  private static String describe(byte[] body, long received, Map<String, String> facts) {
    String text = new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
    return "[" + text + "] received " + received + " edge facts " + facts;
  }

  /** The record as a consumer reads it. */
  private static ConsumerRecord<byte[], byte[]> consumed(ProducerRecord<String, byte[]> sent) {
    return new ConsumerRecord<>(
        sent.topic(),
        0,
        7L,
        1_764_000_000_000L,
        TimestampType.CREATE_TIME,
        -1,
        -1,
        sent.key() == null ? null : sent.key().getBytes(StandardCharsets.UTF_8),
        sent.value(),
        new RecordHeaders(sent.headers().toArray()),
        Optional.empty());
  }
}
