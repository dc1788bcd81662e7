package org.flafka.contract;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.flafka.syslog.SyslogFacts;
import org.flafka.syslog.SyslogParserOptions;

/**
 * Turns a Kafka record the edge wrote ({@link KafkaRecordEncoder}) back into a Flume event: the
 * value as the body, byte for byte (an empty body for a null value), the chosen record headers as
 * Flume headers of the same name (values decoded as UTF-8 whatever the JVM's default charset; a
 * header with a null value is skipped), plus, as Flume's own Kafka source does, {@link
 * Headers#TIMESTAMP} from the record's time when the record has no such header and {@link
 * Headers#KEY} from the record key when there is one. No topic, partition or offset headers.
 *
 * <p>Given parser options ({@link #KafkaRecordDecoder(Set, SyslogParserOptions)}), it also derives
 * each fact the record does not carry ({@link SyslogFacts#DERIVED}: facility, severity, app, …)
 * from the body, with the very code the edge's syslog interceptor set them with, so an event from a
 * record of {@link Headers#CARRIED} has the full set of facts. Without, it parses nothing.
 *
 * <p>It walks a record's headers once. Thread-safe.
 */
public final class KafkaRecordDecoder {

  /** Whether every record header is read, not only those of {@link #names}. */
  private final boolean everyHeader;

  /**
   * Finds each name to read (or, reading every header, each name of the contract) as the one String
   * instance of it: Flume headers keyed by these make every later lookup by a contract name (the
   * bucket guard's, the HDFS sink's) an identity match instead of a character compare.
   */
  private final RecordHeaderReader names;

  /** Derives the facts not carried, or null to derive none. */
  private final SyslogFacts facts;

  /**
   * @param recordHeaders the record header names to keep, or null for every header the record has
   */
  public KafkaRecordDecoder(Set<String> recordHeaders) {
    this(recordHeaders, null);
  }

  /**
   * @param recordHeaders the record header names to keep, or null for every header the record has
   * @param deriveWith the edge's parser options, to derive the facts a record does not carry (only
   *     the leniency switches and zone abbreviations must match the edge's, see {@link
   *     SyslogFacts}); null derives none
   */
  public KafkaRecordDecoder(Set<String> recordHeaders, SyslogParserOptions deriveWith) {
    this.everyHeader = recordHeaders == null;
    Map<String, String> canonical = new HashMap<>();
    for (String name : Headers.ALL) {
      canonical.put(name, name);
    }
    if (recordHeaders != null) {
      canonical.keySet().retainAll(recordHeaders);
      for (String name : recordHeaders) {
        canonical.putIfAbsent(name, name);
      }
    }
    this.names = new RecordHeaderReader(canonical.keySet());
    this.facts = deriveWith == null ? null : new SyslogFacts(deriveWith);
  }

  /** Whether this decoder derives the facts a record does not carry. */
  public boolean derives() {
    return facts != null;
  }

  /** The event of {@code record}: its {@link #body} and {@link #headers}. */
  public Event toEvent(ConsumerRecord<byte[], byte[]> record) {
    SimpleEvent event = new SimpleEvent();
    event.setBody(body(record));
    event.setHeaders(headers(record));
    return event;
  }

  /** The Flume headers of {@code record}: a new mutable map, for interceptors to change. */
  public Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
    Header[] headers = record.headers().toArray();
    // Sized so that the record's headers plus timestamp and key (and the derived facts) fit without
    // a resize.
    int most = headers.length + 2 + (facts == null ? 0 : SyslogFacts.DERIVED.size());
    Map<String, String> flumeHeaders = new HashMap<>((int) (most / 0.75f) + 1);
    for (Header header : headers) {
      String name = names.name(header);
      if (name == null && everyHeader) {
        name = header.key();
      }
      if (name != null) {
        String value = RecordHeaderReader.text(header);
        if (value != null) {
          flumeHeaders.put(name, value);
        }
      }
    }
    if (!flumeHeaders.containsKey(Headers.TIMESTAMP)) {
      flumeHeaders.put(Headers.TIMESTAMP, Long.toString(record.timestamp()));
    }
    if (record.key() != null) {
      flumeHeaders.put(Headers.KEY, new String(record.key(), StandardCharsets.UTF_8));
    }
    if (facts != null) {
      facts.deriveInto(body(record), flumeHeaders);
    }
    return flumeHeaders;
  }

  /**
   * The body of {@code record}: its value as is, or an empty body when the value is null (a
   * tombstone).
   */
  public static byte[] body(ConsumerRecord<?, byte[]> record) {
    return record.value() == null ? new byte[0] : record.value();
  }
}
