package org.flafka.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code flafka bench core} run. {@link #validate()} names the command-line flag of whatever is
 * wrong.
 *
 * @param variants the core agent configurations, run in this order within each repeat (so they
 *     alternate)
 * @param events records each trial is measured on, drained after the warm-up
 * @param warmupEvents records each trial drains before its measure window starts, so the agent's
 *     JIT compilation and first file creations stay outside it; the topic holds {@code warmupEvents
 *     + events}, which every trial drains from the start
 * @param duration the longest measure window: a trial that has not drained the topic by then is
 *     measured on what it drained
 * @param hosts devices the records come from (the {@code host=} buckets)
 * @param partitions partitions of the topic
 * @param hostPartitions how the records are spread over the partitions: 0 as the edge's default
 *     partitioner places them (Kafka's own, every host in every partition), k ≥ 1 as its
 *     host-affinity partitioner with {@code edge_host_partitions: k} (each host in k consecutive
 *     partitions, round-robin)
 * @param size bytes of each record's body
 * @param baseline the variant the others are compared with; need not be among {@code variants}
 * @param oursVariables core template variables for the template variants ({@code --set}); never one
 *     of {@link CoreVariant#BENCH_OWNED_VARIABLES}
 * @param agentJvmOptions JVM options of every variant's agent process; empty for a deployed agent's
 *     ({@code AgentProcess.DEPLOYED_JVM_OPTIONS})
 * @param secure on the secure stack ({@code --secure}, {@link org.flafka.stack.SecurePipeline}):
 *     Kafka over SASL_SSL with Kerberos and HDFS with Kerberos, in the bench's JVM; only the
 *     variants {@link CoreVariant#whyNotSecure()} accepts
 */
public record CoreBenchSettings(
    List<CoreVariant> variants,
    long events,
    long warmupEvents,
    Duration duration,
    int repeats,
    int hosts,
    int partitions,
    int hostPartitions,
    int size,
    CoreVariant baseline,
    Path workDir,
    Map<String, Object> oursVariables,
    List<String> agentJvmOptions,
    boolean secure) {

  /** The smallest body: the syslog line with its id and host needs about this much. */
  public static final int MIN_SIZE = 100;

  public static final int MAX_SIZE = 65536;

  public CoreBenchSettings {
    variants = List.copyOf(variants);
    oursVariables = Collections.unmodifiableMap(new LinkedHashMap<>(oursVariables));
    agentJvmOptions = List.copyOf(agentJvmOptions);
  }

  /** These settings with the directory for the broker's, HDFS's and agents' data and logs. */
  public CoreBenchSettings withWorkDir(Path dir) {
    return new CoreBenchSettings(
        variants,
        events,
        warmupEvents,
        duration,
        repeats,
        hosts,
        partitions,
        hostPartitions,
        size,
        baseline,
        dir,
        oursVariables,
        agentJvmOptions,
        secure);
  }

  /** What the topic holds: the warm-up's records, then the measured ones. */
  public long prefilled() {
    return warmupEvents + events;
  }

  public CoreBenchSettings validate() {
    if (variants.isEmpty()) {
      throw new IllegalArgumentException(
          "--variants names no variant; give some of " + CoreVariant.flagNames());
    }
    if (variants.stream().distinct().count() != variants.size()) {
      throw new IllegalArgumentException(
          "--variants names a variant twice: "
              + variants.stream().map(CoreVariant::flagName).toList());
    }
    if (events < 1 || events > 1_000_000_000L) {
      throw new IllegalArgumentException(
          "--events must be between 1 and 1000000000 but was " + events);
    }
    if (warmupEvents < 0 || warmupEvents > 1_000_000_000L) {
      throw new IllegalArgumentException(
          "--warmup-events must be between 0 and 1000000000 but was " + warmupEvents);
    }
    if (duration.toMillis() < 1000) {
      throw new IllegalArgumentException(
          "--duration must be at least 1s (the longest measure window) but was "
              + duration.toMillis()
              + "ms");
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1 but was " + repeats);
    }
    if (hosts < 1 || hosts > 100_000) {
      throw new IllegalArgumentException("--hosts must be between 1 and 100000 but was " + hosts);
    }
    if (partitions < 1 || partitions > 1000) {
      throw new IllegalArgumentException(
          "--partitions must be between 1 and 1000 but was " + partitions);
    }
    if (hostPartitions < 0 || hostPartitions > partitions) {
      throw new IllegalArgumentException(
          "--host-partitions must be between 0 and --partitions ("
              + partitions
              + ") but was "
              + hostPartitions);
    }
    if (size < MIN_SIZE || size > MAX_SIZE) {
      throw new IllegalArgumentException(
          "--size must be between " + MIN_SIZE + " and " + MAX_SIZE + " bytes but was " + size);
    }
    if (secure) {
      for (CoreVariant variant : variants) {
        String reason = variant.whyNotSecure();
        if (reason != null) {
          throw new IllegalArgumentException(
              "--variants "
                  + variant.flagName()
                  + ": cannot run with --secure: "
                  + reason
                  + ". Fix: leave it out; with --secure run some of "
                  + CoreVariant.secureFlagNames());
        }
      }
    }
    for (String name : oursVariables.keySet()) {
      if (CoreVariant.BENCH_OWNED_VARIABLES.contains(name)) {
        throw new IllegalArgumentException(
            "--set "
                + name
                + ": the bench sets this itself (its broker, topic,"
                + " consumer group, HDFS root and data directory); set any other core template variable");
      }
    }
    return this;
  }
}
