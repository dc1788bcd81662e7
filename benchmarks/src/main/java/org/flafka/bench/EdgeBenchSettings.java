package org.flafka.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flafka.load.Protocol;

/**
 * One {@code flafka bench edge} run. {@link #validate()} names the command-line flag of whatever is
 * wrong.
 *
 * @param variants the agent configurations, run in this order within each repeat (so they
 *     alternate); each may carry template variables of its own
 * @param rate events per second the generator offers over all connections; {@link
 *     Double#POSITIVE_INFINITY} for as fast as possible
 * @param partitions partitions of each trial's topic
 * @param baseline the variant the others are compared with ("vs baseline"); need not be among
 *     {@code variants}
 * @param jfrDir when set, each agent is profiled with JFR over the measure window and the
 *     recordings kept here
 * @param oursVariables edge template variables for {@link Variant#OURS} ({@code --set}), on top of
 *     the template's defaults; never one of {@link Variant#BENCH_OWNED_VARIABLES}
 * @param agentJvmOptions JVM options of every variant's agent process; empty for a deployed agent's
 *     ({@code AgentProcess.DEPLOYED_JVM_OPTIONS})
 * @param kafkaLatency added to each direction between every client and the broker, as a remote
 *     cluster would (the broker process's {@code LatencyProxy}); zero for none
 * @param protocol how the generator sends and the agents listen: TCP (newline framing) or UDP
 * @param secure on the secure stack ({@code --secure}, {@link org.flafka.stack.SecurePipeline}):
 *     Kafka over SASL_SSL with Kerberos, in the bench's JVM; only the variants {@link
 *     Variant#whyNotSecure()} accepts
 */
public record EdgeBenchSettings(
    List<EdgeVariant> variants,
    Duration warmup,
    Duration duration,
    int repeats,
    int connections,
    int size,
    int sinks,
    double rate,
    int partitions,
    EdgeVariant baseline,
    Path workDir,
    Path jfrDir,
    Map<String, Object> oursVariables,
    List<String> agentJvmOptions,
    Duration kafkaLatency,
    Protocol protocol,
    boolean secure) {

  /** The longest {@link #kafkaLatency}: more than any cluster an edge should write to. */
  public static final Duration MAX_KAFKA_LATENCY = Duration.ofSeconds(1);

  public EdgeBenchSettings {
    variants = List.copyOf(variants);
    oursVariables = Collections.unmodifiableMap(new LinkedHashMap<>(oursVariables));
    agentJvmOptions = List.copyOf(agentJvmOptions);
  }

  /** These settings with the directory for the broker's and agents' data and logs. */
  public EdgeBenchSettings withWorkDir(Path dir) {
    return new EdgeBenchSettings(
        variants,
        warmup,
        duration,
        repeats,
        connections,
        size,
        sinks,
        rate,
        partitions,
        baseline,
        dir,
        jfrDir,
        oursVariables,
        agentJvmOptions,
        kafkaLatency,
        protocol,
        secure);
  }

  public boolean unlimitedRate() {
    return Double.isInfinite(rate);
  }

  public EdgeBenchSettings validate() {
    if (variants.isEmpty()) {
      throw new IllegalArgumentException(
          "--variants names no variant; give some of " + Variant.flagNames());
    }
    if (variants.stream().distinct().count() != variants.size()) {
      throw new IllegalArgumentException("--variants names a variant twice: " + variants);
    }
    if (secure) {
      for (EdgeVariant variant : variants) {
        String reason = variant.base().whyNotSecure();
        if (reason != null) {
          throw new IllegalArgumentException(
              "--variants "
                  + variant.flagName()
                  + ": cannot run with --secure: "
                  + reason
                  + ". Fix: leave it out; with --secure run ours or an ours-* variant");
        }
      }
      if (!kafkaLatency.isZero()) {
        throw new IllegalArgumentException(
            "--kafka-latency "
                + kafkaLatency.toMillis()
                + "ms: cannot be used with --secure: the latency proxy fronts the plain broker"
                + " process only. Fix: leave out --kafka-latency or --secure");
      }
    }
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("--warmup must be 0 or longer but was " + warmup);
    }
    if (duration.toMillis() < 500) {
      throw new IllegalArgumentException(
          "--duration must be at least 500ms (the measure window) but was "
              + duration.toMillis()
              + "ms");
    }
    if (kafkaLatency.isNegative() || kafkaLatency.compareTo(MAX_KAFKA_LATENCY) > 0) {
      throw new IllegalArgumentException(
          "--kafka-latency must be between 0 and "
              + MAX_KAFKA_LATENCY.toMillis()
              + "ms but was "
              + kafkaLatency.toMillis()
              + "ms");
    }
    if (protocol != Protocol.TCP && protocol != Protocol.UDP) {
      throw new IllegalArgumentException(
          "--protocol must be tcp or udp but was " + protocol.flagName());
    }
    if (protocol == Protocol.UDP && size > Protocol.MAX_UDP_PAYLOAD) {
      throw new IllegalArgumentException(
          "--size must be at most "
              + Protocol.MAX_UDP_PAYLOAD
              + " bytes with "
              + "--protocol udp (one datagram) but was "
              + size);
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1 but was " + repeats);
    }
    if (connections < 1 || connections > 1000) {
      throw new IllegalArgumentException(
          "--connections must be between 1 and 1000 but was " + connections);
    }
    if (sinks < 1 || sinks > 64) {
      throw new IllegalArgumentException("--sinks must be between 1 and 64 but was " + sinks);
    }
    if (partitions < 1 || partitions > 1000) {
      throw new IllegalArgumentException(
          "--partitions must be between 1 and 1000 but was " + partitions);
    }
    for (String name : oursVariables.keySet()) {
      if (Variant.BENCH_OWNED_VARIABLES.contains(name)) {
        throw new IllegalArgumentException(
            "--set "
                + name
                + ": the bench sets this itself (its broker, topic,"
                + " listener and --sinks); set any other edge template variable");
      }
    }
    if (!(rate > 0)) {
      throw new IllegalArgumentException(
          "--rate must be above 0 events/s (or max) but was " + rate);
    }
    return this;
  }
}
