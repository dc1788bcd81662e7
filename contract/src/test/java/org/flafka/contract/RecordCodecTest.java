package org.flafka.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * What the edge encodes, the core decodes back to the same event: body byte for byte, the chosen
 * headers with their values, the key; and the decoder's own rules (null values skipped, timestamp
 * from the record's time when absent). Against a real broker: the edge's {@code
 * KafkaRecordSinkTest} and the core's {@code KafkaRecordSourceTest}.
 */
class RecordCodecTest {

  private static final long RECORD_TIME = 1_764_000_000_000L;

  @Test
  void anEventComesBackEqual() {
    Map<String, String> headers = edgeHeaders();
    headers.put(Headers.KEY, "edge-router-7");
    // Not valid UTF-8: the body is carried as bytes, never decoded
    byte[] body = {'<', '1', '3', '4', '>', (byte) 0xff, (byte) 0xc3, 0, '\n'};

    ConsumerRecord<byte[], byte[]> record =
        roundTrip(event(body, headers), Headers.KEY, Set.copyOf(Headers.ALL));
    Event back = new KafkaRecordDecoder(null).toEvent(record);

    assertArrayEquals(body, back.getBody());
    // By default the key travels as the record key, not as a record header, and comes back as the
    // key header
    assertEquals("edge-router-7", new String(record.key(), StandardCharsets.UTF_8));
    assertNull(record.headers().lastHeader(Headers.KEY));
    assertEquals(headers, back.getHeaders());
  }

  @Test
  void valuesAreUtf8Strings() {
    Map<String, String> headers = edgeHeaders();
    headers.put(Headers.HOST, "héllo-ñ-東京");
    headers.put(Headers.APP, "");

    ConsumerRecord<byte[], byte[]> record = roundTrip(event(new byte[] {'x'}, headers), null, null);

    assertArrayEquals(
        "héllo-ñ-東京".getBytes(StandardCharsets.UTF_8),
        record.headers().lastHeader(Headers.HOST).value());
    assertEquals(headers, new KafkaRecordDecoder(null).headers(record));
  }

  @Test
  void onlyTheChosenHeadersAndNoNullValues() {
    Map<String, String> headers = edgeHeaders();
    headers.put(Headers.APP, null);
    headers.put("x-not-contract", "1");

    ConsumerRecord<byte[], byte[]> record =
        roundTrip(event(new byte[] {'x'}, headers), null, Set.copyOf(Headers.ALL));
    Map<String, String> back = new KafkaRecordDecoder(null).headers(record);

    Map<String, String> expected = new HashMap<>(headers);
    expected.remove(Headers.APP);
    expected.remove("x-not-contract");
    assertEquals(expected, back);
    // The decoder has a choice of its own too
    assertEquals(
        Map.of(
            Headers.HOST,
            "edge-router-7",
            Headers.ID,
            "01KAZ0000000000000000000000",
            Headers.TIMESTAMP,
            "1764000000123"),
        new KafkaRecordDecoder(Set.of(Headers.HOST, Headers.ID, Headers.TIMESTAMP))
            .headers(record));
  }

  @Test
  void aNullRecordHeaderValueIsSkipped() {
    RecordHeaders recordHeaders = new RecordHeaders();
    recordHeaders.add(new RecordHeader(Headers.HOST, (byte[]) null));
    recordHeaders.add(new RecordHeader(Headers.SITE, "par-03".getBytes(StandardCharsets.UTF_8)));

    Map<String, String> back =
        new KafkaRecordDecoder(null)
            .headers(consumed(null, "x".getBytes(StandardCharsets.UTF_8), recordHeaders));

    assertEquals(
        Map.of(Headers.SITE, "par-03", Headers.TIMESTAMP, Long.toString(RECORD_TIME)), back);
  }

  @Test
  void timestampFromTheRecordOnlyWhenAbsent() {
    Map<String, String> headers = edgeHeaders();
    ConsumerRecord<byte[], byte[]> withTimestamp =
        roundTrip(event(new byte[] {'x'}, headers), null, null);
    assertEquals(
        "1764000000123",
        new KafkaRecordDecoder(null).headers(withTimestamp).get(Headers.TIMESTAMP));

    headers.remove(Headers.TIMESTAMP);
    ConsumerRecord<byte[], byte[]> without =
        roundTrip(event(new byte[] {'x'}, headers), null, null);
    assertEquals(
        Long.toString(RECORD_TIME),
        new KafkaRecordDecoder(null).headers(without).get(Headers.TIMESTAMP));
    // Nor when the decoder does not read it
    assertEquals(
        Long.toString(RECORD_TIME),
        new KafkaRecordDecoder(Set.of(Headers.HOST)).headers(withTimestamp).get(Headers.TIMESTAMP));
  }

  @Test
  void noKeyNoKeyHeader() {
    Map<String, String> headers = edgeHeaders();
    ConsumerRecord<byte[], byte[]> record =
        roundTrip(event(new byte[] {'x'}, headers), Headers.KEY, null);
    assertNull(record.key());
    assertNull(new KafkaRecordDecoder(null).headers(record).get(Headers.KEY));
  }

  @Test
  void aNullValueIsAnEmptyBody() {
    ConsumerRecord<byte[], byte[]> tombstone = consumed(null, null, new RecordHeaders());
    assertArrayEquals(new byte[0], KafkaRecordDecoder.body(tombstone));
    assertArrayEquals(new byte[0], new KafkaRecordDecoder(null).toEvent(tombstone).getBody());
  }

  @Test
  void oneEncoderWritesTheChosenHeadersWhateverOrderEachEventHasThem() {
    // The encoder remembers which name it saw at which position; an event with the names in another
    // order, or with a name the last had not, must still get exactly its own chosen headers.
    KafkaRecordEncoder encoder =
        new KafkaRecordEncoder("t", null, Set.of(Headers.HOST, Headers.SITE, Headers.ID));
    Map<String, String> forward = new LinkedHashMap<>();
    forward.put(Headers.HOST, "r1");
    forward.put(Headers.APP, "sshd");
    forward.put(Headers.SITE, "ams");
    Map<String, String> reversed = new LinkedHashMap<>();
    reversed.put(Headers.SITE, "fra");
    reversed.put(Headers.ID, "01J");
    reversed.put(Headers.APP, "cron");
    reversed.put(Headers.HOST, "r2");

    for (int round = 0; round < 3; round++) {
      assertEquals(
          List.of(Headers.HOST + "=r1", Headers.SITE + "=ams"),
          headerTexts(encoder.toRecord(event(new byte[] {'x'}, forward))));
      assertEquals(
          List.of(Headers.SITE + "=fra", Headers.ID + "=01J", Headers.HOST + "=r2"),
          headerTexts(encoder.toRecord(event(new byte[] {'y'}, reversed))));
    }
  }

  private static List<String> headerTexts(ProducerRecord<String, byte[]> record) {
    List<String> texts = new ArrayList<>();
    for (Header header : record.headers()) {
      texts.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
    }
    return texts;
  }

  @Test
  void theEncoderReusesTheRecordHeaderOfARepeatedValue() {
    KafkaRecordEncoder encoder = new KafkaRecordEncoder("t", null, null);
    Map<String, String> headers = edgeHeaders();
    Header first =
        encoder.toRecord(event(new byte[] {'x'}, headers)).headers().lastHeader(Headers.SITE);
    Header second =
        encoder
            .toRecord(event(new byte[] {'y'}, new LinkedHashMap<>(headers)))
            .headers()
            .lastHeader(Headers.SITE);
    assertSame(first, second);
  }

  @Test
  void carriedLeavesOffWhatTheBodyGivesBackAndTheDecoderDerivesIt() {
    byte[] body =
        "<134>1 2025-11-24T16:00:00.123Z edge-router-7 sshd 4123 ID47 - Accepted key"
            .getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = edgeHeaders();
    headers.put(Headers.MSGID, "ID47");
    KafkaRecordEncoder encoder =
        new KafkaRecordEncoder(
            "t", null, Set.copyOf(Headers.CARRIED), KafkaRecordEncoder.CARRIED_IMPLIED);

    ProducerRecord<String, byte[]> sent = encoder.toRecord(event(body, headers));
    ConsumerRecord<byte[], byte[]> record =
        consumed(null, sent.value(), new RecordHeaders(sent.headers().toArray()));

    // On the wire: only what the body cannot give back; timestamp_source=message is implied.
    List<String> onTheWire = new java.util.ArrayList<>();
    record.headers().forEach(header -> onTheWire.add(header.key()));
    assertEquals(
        List.of(
            Headers.TIMESTAMP,
            Headers.HOST,
            Headers.RECEIVED,
            Headers.PEER,
            Headers.SITE,
            Headers.ID),
        onTheWire);
    // Decoded without parser options: just those; with them: every fact the edge had.
    assertEquals(6 + 0, new KafkaRecordDecoder(null).headers(record).size());
    Map<String, String> derived =
        new KafkaRecordDecoder(null, org.flafka.syslog.SyslogParserOptions.defaults())
            .headers(record);
    assertEquals(headers, derived);
  }

  @Test
  void carriedKeepsATimestampSourceThatIsNotTheMessagesOwnTime() {
    Map<String, String> headers = edgeHeaders();
    headers.put(Headers.TIMESTAMP_SOURCE, "received");
    KafkaRecordEncoder encoder =
        new KafkaRecordEncoder(
            "t", null, Set.copyOf(Headers.CARRIED), KafkaRecordEncoder.CARRIED_IMPLIED);
    for (int i = 0; i < 2; i++) { // the second time from the encoder's cache
      assertEquals(
          "received",
          new String(
              encoder
                  .toRecord(event(new byte[] {'x'}, new LinkedHashMap<>(headers)))
                  .headers()
                  .lastHeader(Headers.TIMESTAMP_SOURCE)
                  .value(),
              StandardCharsets.UTF_8));
    }
  }

  @Test
  void theFullSetIsEveryFactButTheKey() {
    assertEquals(15, Headers.ALL.size());
    assertEquals(Set.copyOf(Headers.ALL).size(), Headers.ALL.size());
    assertEquals(List.of(), Headers.ALL.stream().filter(Headers.KEY::equals).toList());
  }

  /** The headers of a well-parsed RFC 5424 message as the edge sets them. */
  private static Map<String, String> edgeHeaders() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(Headers.TIMESTAMP, "1764000000123");
    headers.put(Headers.TIMESTAMP_SOURCE, "message");
    headers.put(Headers.HOST, "edge-router-7");
    headers.put(Headers.FACILITY, "16");
    headers.put(Headers.SEVERITY, "6");
    headers.put(Headers.APP, "sshd");
    headers.put(Headers.PROCID, "4123");
    headers.put(Headers.FORMAT, "rfc5424");
    headers.put(Headers.PARSE, "ok");
    headers.put(Headers.RECEIVED, "1764000000128");
    headers.put(Headers.PEER, "192.0.2.1");
    headers.put(Headers.SITE, "par-03");
    headers.put(Headers.ID, "01KAZ0000000000000000000000");
    return headers;
  }

  private static Event event(byte[] body, Map<String, String> headers) {
    SimpleEvent event = new SimpleEvent();
    event.setBody(body);
    event.setHeaders(headers);
    return event;
  }

  /**
   * Encodes {@code event} and gives the record as a consumer would read it (String key serialised
   * as UTF-8).
   */
  private static ConsumerRecord<byte[], byte[]> roundTrip(
      Event event, String keyHeader, Set<String> recordHeaders) {
    ProducerRecord<String, byte[]> sent =
        new KafkaRecordEncoder("t", keyHeader, recordHeaders).toRecord(event);
    assertEquals("t", sent.topic());
    byte[] key = sent.key() == null ? null : sent.key().getBytes(StandardCharsets.UTF_8);
    return consumed(key, sent.value(), new RecordHeaders(sent.headers().toArray()));
  }

  private static ConsumerRecord<byte[], byte[]> consumed(
      byte[] key, byte[] value, RecordHeaders headers) {
    return new ConsumerRecord<>(
        "t",
        0,
        42L,
        RECORD_TIME,
        TimestampType.CREATE_TIME,
        -1,
        -1,
        key,
        value,
        headers,
        Optional.empty());
  }
}
