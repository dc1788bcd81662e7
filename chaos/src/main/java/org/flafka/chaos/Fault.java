package org.flafka.chaos;

import java.util.List;
import java.util.Map;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;

/**
 * A fault the field brings to the pipeline, what protects against it in the default configurations,
 * what the audit must find, and how to switch the protection off to show that the case can fail.
 */
public enum Fault {
  /**
   * The edge agent killed with SIGKILL mid-stream and started again: what it had accepted is
   * delivered. The sinks keep up, so memory holds next to nothing when the kill comes, with or
   * without the disk buffer; {@link #EDGE_KILL_IN_OUTAGE} is where the buffer matters.
   */
  EDGE_KILL(
      "edge-kill",
      "edge agent killed (SIGKILL) mid-stream, restarted after 5 s",
      List.of(Protocol.TCP),
      Expect.NOTHING_ACCEPTED_MISSING,
      "sinks that keep up: Kafka has acknowledged all the edge accepted up to a second before the"
          + " kill",
      null),
  /**
   * The edge killed with SIGKILL halfway through a broker outage and started again: what it had
   * accepted, on disk by then, is delivered once the broker is back, all but what its sinks held
   * waiting for Kafka's acknowledgement. Without the disk buffer the kill loses every event the
   * outage left in memory.
   */
  EDGE_KILL_IN_OUTAGE(
      "edge-kill-in-outage",
      "edge agent killed (SIGKILL) halfway through a broker outage, restarted after 5 s",
      List.of(Protocol.TCP),
      Expect.ACCEPTED_MISSING_AT_MOST_SINK_BATCHES,
      "the edge's disk buffer, written as soon as the sinks are stuck",
      Map.of(Tier.EDGE, Map.of("edge_buffer_max_bytes", 0))),
  /** The broker stopped under a running edge for the outage, then started again. */
  EDGE_BROKER_STOPPED(
      "edge-broker-stopped",
      "Kafka broker stopped for the outage (connections refused), same port and data after",
      List.of(Protocol.TCP, Protocol.UDP),
      Expect.NOTHING_MISSING,
      "the edge buffer (disk)",
      Map.of(Tier.EDGE, Map.of("edge_buffer_max_bytes", 0))),
  /**
   * The edge's traffic to Kafka dropped silently for the outage, as a WAN link that goes dark; the
   * core, in the data centre, reaches the broker all along.
   */
  EDGE_BLACK_HOLE(
      "edge-black-hole",
      "edge to Kafka black-holed for the outage (bytes dropped, no reset); the core unaffected",
      List.of(Protocol.TCP, Protocol.UDP),
      Expect.NOTHING_MISSING,
      "the edge buffer (disk)",
      Map.of(Tier.EDGE, Map.of("edge_buffer_max_bytes", 0))),
  /**
   * The broker stopped under the edge while the edge's disk buffer sits on a file system too small
   * for the outage: the buffer fills the disk, counts it and falls back to memory; when memory is
   * full too, TCP senders are held back and UDP datagrams wait in their socket's queue ({@code
   * edge_udp_queue_bytes}), dropped and counted once it is full; the buffer recovers by itself once
   * the backlog has drained. The memory channels are made small so that the disk fills within a
   * short outage.
   */
  EDGE_DISK_FULL(
      "edge-disk-full",
      "Kafka broker stopped for the outage while the edge's disk buffer fills its file system (a "
          + DiskFull.MIB
          + " MiB tmpfs; memory channels of "
          + DiskFull.CHANNEL_CAPACITY
          + " events)",
      List.of(Protocol.TCP, Protocol.UDP),
      Expect.MISSING_IS_COUNTED,
      "the disk full counted; then TCP held back, UDP queued, then dropped and counted",
      null),
  /** The core agent killed with SIGKILL mid-stream and started again. */
  CORE_KILL(
      "core-kill",
      "core agent killed (SIGKILL) mid-stream, restarted after 5 s",
      List.of(Protocol.TCP),
      Expect.NOTHING_MISSING,
      "Kafka channels: offsets committed after the HDFS flush",
      Map.of(
          Tier.CORE, Map.of("core_channel_type", "memory", "core_group_instance_prefix", "chaos"))),
  /** The NameNode stopped for the outage, then started again on its port. */
  HDFS_AWAY(
      "hdfs-away",
      "HDFS NameNode stopped for the outage, restarted on its port",
      List.of(Protocol.TCP),
      Expect.NOTHING_MISSING_NOTHING_TWICE,
      "Kafka channels (no channel to fill, no batch resent over several channels)",
      Map.of(Tier.CORE, Map.of("core_channel_type", "memory"))),
  /** The broker stopped and started again at once on its port and data, under edge and core. */
  BROKER_RESTART(
      "broker-restart",
      "Kafka broker restarted (same port and data) under edge and core",
      List.of(Protocol.TCP),
      Expect.NOTHING_MISSING,
      "Kafka channels: offsets committed after the HDFS flush; the edge's acks=all",
      Map.of(Tier.CORE, Map.of("core_channel_type", "memory"))),
  /**
   * The DataNode stopped for the outage, so the core's HDFS sinks fail their batches (hflush and
   * new blocks need it), then started again. A batch that fails after part of it became durable is
   * what the sink's cut protects against; this outage mostly fails batches before, so the case that
   * fails without the cut is CoreAgentHdfsOutageTest's batch failing midway.
   */
  DATANODE_AWAY(
      "datanode-away",
      "HDFS DataNode stopped for the outage: core sink batches fail and are retried",
      List.of(Protocol.TCP),
      Expect.NOTHING_MISSING_NOTHING_TWICE,
      "our HDFS sink cuts a failed batch's files back to their last committed batch",
      Map.of(Tier.CORE, Map.of("core_sink_impl", "stock")));

  /** What the audit must find for a case to pass. */
  public enum Expect {
    NOTHING_MISSING("0 missing"),
    NOTHING_MISSING_NOTHING_TWICE("0 missing, 0 duplicated"),
    NOTHING_ACCEPTED_MISSING("0 missing of what the edge accepted"),
    ACCEPTED_MISSING_AT_MOST_SINK_BATCHES(
        "missing of what the edge accepted ≤ what its sinks hold (edge_kafka_sinks ×"
            + " edge_kafka_flume_batch_size)"),
    MISSING_IS_COUNTED("missing = what the edge counted as dropped, the disk full counted");

    private final String text;

    Expect(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** The edge's file system in {@link #EDGE_DISK_FULL}. */
  static final class DiskFull {
    /** Its size: it fills within seconds of an outage at the suite's 1,000 events/s. */
    static final int MIB = 2;

    /** Events a memory channel holds in the case, so that the disk fills within the outage. */
    static final int CHANNEL_CAPACITY = 2_000;

    private DiskFull() {}
  }

  private final String flagName;
  private final String description;
  private final List<Protocol> transports;
  private final Expect expect;
  private final String protection;
  private final Map<Tier, Map<String, Object>> protectionOff;

  Fault(
      String flagName,
      String description,
      List<Protocol> transports,
      Expect expect,
      String protection,
      Map<Tier, Map<String, Object>> protectionOff) {
    this.flagName = flagName;
    this.description = description;
    this.transports = transports;
    this.expect = expect;
    this.protection = protection;
    this.protectionOff = protectionOff;
  }

  public String flagName() {
    return flagName;
  }

  public String description() {
    return description;
  }

  /** The syslog transports the case runs over. */
  public List<Protocol> transports() {
    return transports;
  }

  public Expect expect() {
    return expect;
  }

  /** What in the default configurations protects against this fault. */
  public String protection() {
    return protection;
  }

  /** The template variables that switch {@link #protection()} off, for {@code tier}. */
  public Map<String, Object> protectionOff(Tier tier) {
    return hasProtectionSwitch() ? protectionOff.getOrDefault(tier, Map.of()) : Map.of();
  }

  /**
   * Whether {@link #protection()} can be switched off: not for what only counts (drops cannot be
   * made uncounted), so such a case is expected to pass in a run with the protections off too.
   */
  public boolean hasProtectionSwitch() {
    return protectionOff != null;
  }

  /** The fault named {@code name} on the command line; IllegalArgumentException naming them all. */
  public static Fault byFlagName(String name) {
    for (Fault fault : values()) {
      if (fault.flagName.equals(name)) {
        return fault;
      }
    }
    StringBuilder names = new StringBuilder();
    for (Fault fault : values()) {
      names.append(names.length() == 0 ? "" : ", ").append(fault.flagName);
    }
    throw new IllegalArgumentException("unknown fault '" + name + "'; one of: " + names);
  }
}
