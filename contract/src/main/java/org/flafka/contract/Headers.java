package org.flafka.contract;

import java.util.List;
import org.flafka.syslog.SyslogFacts;

/**
 * The Flume header names of the contract between the edge and the core, each defined here and
 * nowhere else. The body of an event is the message exactly as received; these headers are what is
 * known about it. The edge sets them (its source, then its interceptors), writes the ones in {@link
 * #CARRIED} (by default) or {@link #ALL} as Kafka record headers of the same name ({@link
 * KafkaRecordEncoder}), and the core reads them back ({@link KafkaRecordDecoder}), deriving the
 * rest from the body when asked to. The names themselves are {@link SyslogFacts}'s, so a consumer
 * without Flume has them too.
 */
public final class Headers {

  /**
   * Event time, epoch ms UTC: the message's own, else the receive time; set by the syslog
   * interceptor.
   */
  public static final String TIMESTAMP = SyslogFacts.TIMESTAMP;

  /**
   * Where {@link #TIMESTAMP} came from: message, received (edge) or core (repaired by the core).
   */
  public static final String TIMESTAMP_SOURCE = SyslogFacts.TIMESTAMP_SOURCE;

  /**
   * A time found implausible and replaced in {@link #TIMESTAMP}, as it was; only on such events.
   */
  public static final String TIMESTAMP_REJECTED = SyslogFacts.TIMESTAMP_REJECTED;

  /**
   * The device's hostname from the message, else the sender's address, made safe for a path
   * component.
   */
  public static final String HOST = SyslogFacts.HOST;

  /** Syslog facility number, when the message has one; set by the syslog interceptor. */
  public static final String FACILITY = SyslogFacts.FACILITY;

  /** Syslog severity number, when the message has one; set by the syslog interceptor. */
  public static final String SEVERITY = SyslogFacts.SEVERITY;

  /** Application name (RFC 5424 APP-NAME, or the RFC 3164 tag), when the message has one. */
  public static final String APP = SyslogFacts.APP;

  /** Process id, when the message has one; set by the syslog interceptor. */
  public static final String PROCID = SyslogFacts.PROCID;

  /** RFC 5424 MSGID, when the message has one; set by the syslog interceptor. */
  public static final String MSGID = SyslogFacts.MSGID;

  /** The message's format as the parser recognised it: rfc5424, rfc3164, cisco-asa, …, unknown. */
  public static final String FORMAT = SyslogFacts.FORMAT;

  /** How well the message parsed: ok, lenient or raw (kept whole, nothing extracted). */
  public static final String PARSE = SyslogFacts.PARSE;

  /** Receive time at the edge, epoch ms; set by the edge's syslog source. */
  public static final String RECEIVED = SyslogFacts.RECEIVED;

  /** The sender's address; set by the edge's syslog source. */
  public static final String PEER = SyslogFacts.PEER;

  /** The configured name of the edge's site; set by the syslog interceptor. */
  public static final String SITE = SyslogFacts.SITE;

  /**
   * A unique, sortable event id (a ULID), for de-duplication and loss audits; set by the event id
   * interceptor.
   */
  public static final String ID = SyslogFacts.ID;

  /**
   * The Kafka record key: set at the edge (from {@link #HOST}) by the host key interceptor for the
   * Kafka sinks to write as the key, and put back from the key by the core's Kafka source. Not a
   * record header.
   */
  public static final String KEY = "key";

  /**
   * Every fact above but the key, in the contract's order: what the edge writes as Kafka record
   * headers with {@code recordHeaders = all} (the templates' {@code kafka_record_facts: all}), for
   * consumers that cannot run the parser.
   */
  public static final List<String> ALL = SyslogFacts.ALL;

  /**
   * Only what the body cannot give back, the default on the wire ({@code recordHeaders = carried},
   * the templates' {@code kafka_record_facts: carried}): {@link #TIMESTAMP_SOURCE} only when it is
   * not the message's own time, {@link #TIMESTAMP_REJECTED} only when set. The rest is derived from
   * the body ({@link SyslogFacts#derive}, {@link KafkaRecordDecoder} with parser options).
   */
  public static final List<String> CARRIED = SyslogFacts.CARRIED;

  /**
   * What the core's {@code dt=…/host=…} layout reads, and its bucket guard when it repairs a
   * timestamp or a host: all that text files need ({@code recordHeaders = bucket}, what the core
   * template renders for them). Text files hold the body alone, so a header the layout does not
   * read would be decoded for nothing.
   */
  public static final List<String> BUCKET = List.of(TIMESTAMP, HOST, RECEIVED, PEER);

  /** The name of {@link #ALL} in {@code recordHeaders} and the templates. */
  public static final String ALL_NAME = "all";

  /** The name of {@link #CARRIED} in {@code recordHeaders} and the templates. */
  public static final String CARRIED_NAME = "carried";

  /** The name of {@link #BUCKET} in {@code recordHeaders} and the templates. */
  public static final String BUCKET_NAME = "bucket";

  /**
   * The record header names a named set stands for ({@link #ALL_NAME}, {@link #CARRIED_NAME} or
   * {@link #BUCKET_NAME}), or null for any other name.
   */
  public static List<String> named(String name) {
    return switch (name) {
      case ALL_NAME -> ALL;
      case CARRIED_NAME -> CARRIED;
      case BUCKET_NAME -> BUCKET;
      default -> null;
    };
  }

  private Headers() {}
}
