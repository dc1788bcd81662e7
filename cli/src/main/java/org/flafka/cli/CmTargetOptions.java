package org.flafka.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.sweep.cm.CmTargetSettings;
import picocli.CommandLine.Option;

/**
 * {@code flafka sweep --target cm}: which agents, brokers and HDFS path of the cluster a sweep uses
 * (the connection to Cloudera Manager itself is {@link CmOptions}). Unset names are discovered
 * through CM where it can tell them.
 */
final class CmTargetOptions {
  @Option(
      names = "--cm-cluster",
      paramLabel = "NAME",
      description = "CM target: the cluster (default: the only one).")
  String cluster;

  @Option(
      names = "--cm-flume-service",
      paramLabel = "NAME",
      description = "CM target: the FLUME service of both agents (default: the only one).")
  String flumeService;

  @Option(
      names = "--cm-edge-group",
      paramLabel = "NAME",
      description =
          "CM target: the AGENT role config group (with one role) that runs the edge agent (default:"
              + " the one group whose name says 'edge').")
  String edgeGroup;

  @Option(
      names = "--cm-core-group",
      paramLabel = "NAME",
      description =
          "CM target: the AGENT role config group (with one role) that runs the core agent (default:"
              + " the one group whose name says 'core').")
  String coreGroup;

  @Option(
      names = "--cm-kafka-service",
      paramLabel = "NAME",
      description = "CM target: the KAFKA service whose brokers to use (default: the only one).")
  String kafkaService;

  @Option(
      names = "--kafka-bootstrap",
      paramLabel = "HOST:PORT[,...]",
      description =
          "CM target: the brokers, for the agents and for making topics (default: the KAFKA"
              + " service's broker hosts and port from CM).")
  String kafkaBootstrap;

  @Option(
      names = "--hdfs-root",
      paramLabel = "URI",
      description =
          "CM target (required): where the core agent writes, one directory per run, and the audit"
              + " reads, e.g. hdfs://nameservice1/tmp/flafka-sweep.")
  String hdfsRoot;

  @Option(
      names = "--agent-data-dir",
      paramLabel = "DIR",
      description =
          "CM target: a directory on the agents' hosts for file channels (default: "
              + CmTargetSettings.DEFAULT_AGENT_DATA_DIR
              + ").")
  String agentDataDir;

  @Option(
      names = "--syslog-host",
      paramLabel = "HOST",
      description = "CM target: where the load is sent (default: the edge role's host).")
  String syslogHost;

  @Option(
      names = "--edge-bind-address",
      paramLabel = "ADDRESS",
      description =
          "CM target: the address the edge agent listens on (default: "
              + CmTargetSettings.DEFAULT_EDGE_BIND_ADDRESS
              + ").")
  String edgeBindAddress;

  /** The first of these flags that is set, for "applies to --target cm only", or null. */
  String firstSet() {
    Map<String, Object> flags = new LinkedHashMap<>();
    flags.put("--cm-cluster", cluster);
    flags.put("--cm-flume-service", flumeService);
    flags.put("--cm-edge-group", edgeGroup);
    flags.put("--cm-core-group", coreGroup);
    flags.put("--cm-kafka-service", kafkaService);
    flags.put("--kafka-bootstrap", kafkaBootstrap);
    flags.put("--hdfs-root", hdfsRoot);
    flags.put("--agent-data-dir", agentDataDir);
    flags.put("--syslog-host", syslogHost);
    flags.put("--edge-bind-address", edgeBindAddress);
    return flags.entrySet().stream()
        .filter(flag -> flag.getValue() != null)
        .map(Map.Entry::getKey)
        .findFirst()
        .orElse(null);
  }

  /**
   * The settings of a CM target working in {@code workDir}, naming what it makes with {@code
   * runPrefix}, its Kafka clients configured with {@code kafkaClient} ({@code --kafka-config}).
   */
  CmTargetSettings settings(
      Path workDir, Integer port, String runPrefix, Map<String, String> kafkaClient) {
    return new CmTargetSettings(
        cluster,
        flumeService,
        edgeGroup,
        coreGroup,
        kafkaService,
        kafkaBootstrap,
        validate(),
        agentDataDir != null ? agentDataDir : CmTargetSettings.DEFAULT_AGENT_DATA_DIR,
        port != null ? port : CmTargetSettings.DEFAULT_SYSLOG_PORT,
        syslogHost,
        edgeBindAddress != null ? edgeBindAddress : CmTargetSettings.DEFAULT_EDGE_BIND_ADDRESS,
        workDir,
        runPrefix,
        kafkaClient);
  }

  /**
   * Checks the flags a CM target cannot do without, before anything connects; returns the HDFS
   * root.
   */
  URI validate() {
    if (hdfsRoot == null || hdfsRoot.isBlank()) {
      throw UserException.invalidInput(
          "--target cm needs --hdfs-root: the HDFS directory the core agent writes"
              + " into and the audit reads from this machine, e.g. hdfs://nameservice1/tmp/flafka-sweep");
    }
    URI root;
    try {
      root = new URI(hdfsRoot.strip());
    } catch (URISyntaxException e) {
      throw UserException.invalidInput(
          "--hdfs-root '"
              + hdfsRoot
              + "' is not a URI ("
              + e.getReason()
              + "): give e.g. hdfs://nameservice1/tmp/flafka-sweep");
    }
    if (root.getScheme() == null
        || root.getPath() == null
        || !root.getPath().startsWith("/")
        || root.getPath().replaceAll("/+", "/").equals("/")) {
      throw UserException.invalidInput(
          "--hdfs-root '"
              + hdfsRoot
              + "' must be a file system URI with a"
              + " directory below the root, e.g. hdfs://nameservice1/tmp/flafka-sweep");
    }
    if (kafkaBootstrap != null
        && !kafkaBootstrap.matches("[^,:\\s]+:\\d{1,5}(,[^,:\\s]+:\\d{1,5})*")) {
      throw UserException.invalidInput(
          "--kafka-bootstrap '" + kafkaBootstrap + "' must be host:port[,host:port...]");
    }
    return root;
  }
}
