package org.flafka.sweep.cm;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where a {@link CmTarget} runs trials and what it may not discover by itself. Null means
 * "discover": the only cluster, the only FLUME (KAFKA) service, the AGENT role config group whose
 * name says edge (core), the brokers from the KAFKA service's roles, the syslog host from the edge
 * role's host.
 *
 * @param cluster CM cluster name
 * @param flumeService FLUME service holding both agent groups
 * @param edgeGroup role config group whose one AGENT role runs the edge agent
 * @param coreGroup role config group whose one AGENT role runs the core agent
 * @param kafkaService KAFKA service whose brokers the agents use (only to discover {@code
 *     kafkaBootstrap})
 * @param kafkaBootstrap {@code host:port,...} for the agents and the sweep's AdminClient
 * @param hdfsRoot where the core agent writes, one directory per run below it; the audit reads it
 *     from here
 * @param agentDataDir directory on the agents' hosts for file channels, one directory per run below
 *     it
 * @param syslogPort the edge's syslog port on its host
 * @param syslogHost where the load is sent: the edge role's host
 * @param edgeBindAddress address the edge listens on
 * @param workDir local directory for the runs' manifests
 * @param runPrefix prefix of every topic, consumer group and directory a run creates, unique per
 *     sweep
 * @param kafkaClient Kafka client properties of a secure cluster (security.protocol, sasl.*, ssl.*,
 *     config.providers: {@code flafka sweep --kafka-config}) for every Kafka client the target
 *     makes; empty for PLAINTEXT
 * @param edgeVariables template variables of the edge agent that describe its host rather than a
 *     configuration to measure: on a secure cluster its Kafka login (principal, keytab, trust store
 *     and secrets file paths as they are on that host; {@code flafka sweep --edge-vars}). Never
 *     swept, never in the results; the target's own variables (servers, ports, paths) are not among
 *     them
 * @param coreVariables the same for the core agent ({@code --core-vars}), with its HDFS login
 */
public record CmTargetSettings(
    String cluster,
    String flumeService,
    String edgeGroup,
    String coreGroup,
    String kafkaService,
    String kafkaBootstrap,
    URI hdfsRoot,
    String agentDataDir,
    int syslogPort,
    String syslogHost,
    String edgeBindAddress,
    Path workDir,
    String runPrefix,
    Map<String, String> kafkaClient,
    Map<String, Object> edgeVariables,
    Map<String, Object> coreVariables) {

  /**
   * The edge's syslog port when none is given: above 1024 (CM runs Flume as the unprivileged flume
   * user).
   */
  public static final int DEFAULT_SYSLOG_PORT = 5140;

  public static final String DEFAULT_AGENT_DATA_DIR = "/var/lib/flume-ng/flafka-sweep";
  public static final String DEFAULT_EDGE_BIND_ADDRESS = "0.0.0.0";

  public CmTargetSettings {
    Objects.requireNonNull(hdfsRoot, "hdfsRoot");
    Objects.requireNonNull(agentDataDir, "agentDataDir");
    Objects.requireNonNull(edgeBindAddress, "edgeBindAddress");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(runPrefix, "runPrefix");
    kafkaClient = kafkaClient == null ? Map.of() : Map.copyOf(kafkaClient);
    edgeVariables = edgeVariables == null ? Map.of() : Map.copyOf(edgeVariables);
    coreVariables = coreVariables == null ? Map.of() : Map.copyOf(coreVariables);
    if (syslogPort < 1 || syslogPort > 65535) {
      throw new IllegalArgumentException("syslog port must be 1..65535, not " + syslogPort);
    }
  }

  /** Settings whose agents need no variables of their own (a cluster without security). */
  public CmTargetSettings(
      String cluster,
      String flumeService,
      String edgeGroup,
      String coreGroup,
      String kafkaService,
      String kafkaBootstrap,
      URI hdfsRoot,
      String agentDataDir,
      int syslogPort,
      String syslogHost,
      String edgeBindAddress,
      Path workDir,
      String runPrefix,
      Map<String, String> kafkaClient) {
    this(
        cluster,
        flumeService,
        edgeGroup,
        coreGroup,
        kafkaService,
        kafkaBootstrap,
        hdfsRoot,
        agentDataDir,
        syslogPort,
        syslogHost,
        edgeBindAddress,
        workDir,
        runPrefix,
        kafkaClient,
        Map.of(),
        Map.of());
  }
}
