package org.flafka.contract;

import java.util.List;

/**
 * The Flume header names of the contract between the edge and the core, each defined here and
 * nowhere else. The body of an event is the message exactly as received; these headers are what is
 * known about it. The edge sets them (its source, then its interceptors), writes the ones in {@link
 * #ON_THE_WIRE} as Kafka record headers of the same name ({@link KafkaRecordEncoder}), and the core
 * reads them back ({@link KafkaRecordDecoder}).
 *
 * <p>Which of them a given agent writes is a setting ({@code recordHeaders}, from the templates'
 * variable {@code kafka_record_headers}); {@link #ON_THE_WIRE} is its default.
 */
public final class Headers {

  /**
   * Event time, epoch ms UTC: the message's own, else the receive time; set by the syslog
   * interceptor.
   */
  public static final String TIMESTAMP = "timestamp";

  /**
   * Where {@link #TIMESTAMP} came from: message, received (edge) or core (repaired by the core).
   */
  public static final String TIMESTAMP_SOURCE = "timestamp_source";

  /**
   * A time found implausible and replaced in {@link #TIMESTAMP}, as it was; only on such events.
   */
  public static final String TIMESTAMP_REJECTED = "timestamp_rejected";

  /**
   * The device's hostname from the message, else the sender's address, made safe for a path
   * component.
   */
  public static final String HOST = "host";

  /** Syslog facility number, when the message has one; set by the syslog interceptor. */
  public static final String FACILITY = "facility";

  /** Syslog severity number, when the message has one; set by the syslog interceptor. */
  public static final String SEVERITY = "severity";

  /** Application name (RFC 5424 APP-NAME, or the RFC 3164 tag), when the message has one. */
  public static final String APP = "app";

  /** Process id, when the message has one; set by the syslog interceptor. */
  public static final String PROCID = "procid";

  /** RFC 5424 MSGID, when the message has one; set by the syslog interceptor. */
  public static final String MSGID = "msgid";

  /** The message's format as the parser recognised it: rfc5424, rfc3164, cisco-asa, …, unknown. */
  public static final String FORMAT = "format";

  /** How well the message parsed: ok, lenient or raw (kept whole, nothing extracted). */
  public static final String PARSE = "parse";

  /** Receive time at the edge, epoch ms; set by the edge's syslog source. */
  public static final String RECEIVED = "received";

  /** The sender's address; set by the edge's syslog source. */
  public static final String PEER = "peer";

  /** The configured name of the edge's site; set by the syslog interceptor. */
  public static final String SITE = "site";

  /**
   * A unique, sortable event id (a ULID), for de-duplication and loss audits; set by the event id
   * interceptor.
   */
  public static final String ID = "id";

  /**
   * The Kafka record key: set at the edge (from {@link #HOST}) by the host key interceptor for the
   * Kafka sinks to write as the key, and put back from the key by the core's Kafka source. Not a
   * record header.
   */
  public static final String KEY = "key";

  /**
   * The headers the edge writes as Kafka record headers by default, in the order of the templates'
   * {@code kafka_record_headers}: every fact above but the key.
   */
  public static final List<String> ON_THE_WIRE =
      List.of(
          TIMESTAMP,
          TIMESTAMP_SOURCE,
          TIMESTAMP_REJECTED,
          HOST,
          FACILITY,
          SEVERITY,
          APP,
          PROCID,
          MSGID,
          FORMAT,
          PARSE,
          RECEIVED,
          PEER,
          SITE,
          ID);

  private Headers() {}
}
