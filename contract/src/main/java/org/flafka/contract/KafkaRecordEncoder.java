package org.flafka.contract;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.flume.Event;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.flafka.syslog.SyslogFacts;

/**
 * Turns a Flume event into the Kafka record the edge writes: the body as the value, byte for byte,
 * the chosen Flume headers as Kafka record headers of the same name (values as UTF-8), and the key
 * header's value as the key. What the edge's {@code KafkaRecordSink} and {@code KafkaRecordChannel}
 * both write, so a consumer cannot tell them apart; {@link KafkaRecordDecoder} reads it back.
 *
 * <p>It walks each event's headers once instead of looking every configured name up in the event's
 * map, and reuses the encoded record header of a value it has just encoded (most header values of
 * edge events are the very same String from event to event: site, format, parse, facility,
 * severity, the connection's peer, the receive millisecond). Not thread-safe: one per thread that
 * writes.
 */
public final class KafkaRecordEncoder {
  /** A power of two, several times the contract's 15 names. */
  private static final int SLOTS = 64;

  private static final int MAX_PROBES = 8;

  private final String topic;
  private final String keyHeader;

  /** The header names to write, or null for every header. */
  private final Set<String> recordHeaders;

  /** Header values not written because the reader derives them when absent, by header name. */
  private final Map<String, String> implied;

  // The last record header built for each header name, with the value it encodes: a small
  // open-addressing table, since the edge's names are a few constants; a name that finds no slot is
  // simply not cached. Whether a name is a record header is decided once per name.
  private final String[] names = new String[SLOTS];
  private final boolean[] selected = new boolean[SLOTS];
  private final String[] values = new String[SLOTS];
  private final Header[] encoded = new Header[SLOTS];

  // The slot of the name last seen at each position of an event's headers: an edge source puts the
  // same constant names in the same order into every event, so one reference comparison finds the
  // slot without hashing the name or probing the table.
  private final String[] namesByPosition = new String[SLOTS];
  private final int[] slotsByPosition = new int[SLOTS];

  /** The position in the event's headers of the next header {@link #add} sees. */
  private int position;

  /**
   * @param keyHeader the header whose value becomes the record key, or null for none
   * @param recordHeaders the header names to write, or null for every header the event has
   */
  public KafkaRecordEncoder(String topic, String keyHeader, Set<String> recordHeaders) {
    this(topic, keyHeader, recordHeaders, Map.of());
  }

  /**
   * @param keyHeader the header whose value becomes the record key, or null for none
   * @param recordHeaders the header names to write, or null for every header the event has
   * @param implied header values left off the record because the reader derives them when the
   *     header is absent (e.g. {@link #CARRIED_IMPLIED}), by header name
   */
  public KafkaRecordEncoder(
      String topic, String keyHeader, Set<String> recordHeaders, Map<String, String> implied) {
    this.topic = topic;
    this.keyHeader = keyHeader;
    this.recordHeaders = recordHeaders == null ? null : Set.copyOf(recordHeaders);
    this.implied = Map.copyOf(implied);
  }

  /**
   * What {@link Headers#CARRIED} leaves off: a {@code timestamp_source} of the message's own time,
   * which the body gives back ({@link org.flafka.syslog.SyslogFacts#derive}).
   */
  public static final Map<String, String> CARRIED_IMPLIED =
      Map.of(Headers.TIMESTAMP_SOURCE, SyslogFacts.COMMON_TIMESTAMP_SOURCE);

  public ProducerRecord<String, byte[]> toRecord(Event event) {
    Map<String, String> headers = event.getHeaders();
    String key = keyHeader == null ? null : headers.get(keyHeader);
    return new ProducerRecord<>(topic, null, null, key, event.getBody(), recordHeaders(headers));
  }

  /**
   * The event's headers that are record headers, in the event's order; one walk, no lookups in its
   * map, and through {@code forEach} no entry objects ({@code EventHeaders}, the edge source's map,
   * walks its arrays).
   */
  private RecordHeaders recordHeaders(Map<String, String> headers) {
    if (headers.isEmpty()) {
      return null;
    }
    // Kafka's own class: the record copies any other Iterable header by header, its own with one
    // array copy.
    RecordHeaders found = new RecordHeaders();
    position = 0;
    headers.forEach((name, value) -> add(name, value, found));
    return found;
  }

  /**
   * Adds the record header of one Flume header to {@code found}, unless it is not a record header
   * or null.
   */
  private void add(String name, String value, RecordHeaders found) {
    int at = position++;
    if (value == null) {
      return;
    }
    int slot;
    if (at < SLOTS && namesByPosition[at] == name) {
      slot = slotsByPosition[at];
    } else {
      slot = slotOf(name);
      if (at < SLOTS) {
        namesByPosition[at] = name;
        slotsByPosition[at] = slot;
      }
    }
    if (slot < 0) {
      if (isRecordHeader(name) && !value.equals(implied.get(name))) {
        found.add(encode(name, value));
      }
    } else if (selected[slot]) {
      if (values[slot] != value) {
        values[slot] = value;
        // null: the implied value, left off
        encoded[slot] = value.equals(implied.get(name)) ? null : encode(name, value);
      }
      if (encoded[slot] != null) {
        found.add(encoded[slot]);
      }
    }
  }

  /**
   * The name's slot, claimed and its selection decided on first sight; -1 when its neighbourhood is
   * full.
   */
  private int slotOf(String name) {
    int slot = name.hashCode() & (SLOTS - 1);
    for (int probe = 0; probe < MAX_PROBES; probe++, slot = (slot + 1) & (SLOTS - 1)) {
      String held = names[slot];
      if (held == null) {
        names[slot] = name;
        selected[slot] = isRecordHeader(name);
        return slot;
      }
      if (held == name || held.equals(name)) {
        return slot;
      }
    }
    return -1;
  }

  private boolean isRecordHeader(String name) {
    return recordHeaders == null || recordHeaders.contains(name);
  }

  /**
   * Kafka only reads a record header, so one can be shared by every record that carries the same
   * value.
   */
  private static Header encode(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
