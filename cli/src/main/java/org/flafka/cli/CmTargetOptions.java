package org.flafka.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.render.AgentTemplates;
import org.flafka.render.TemplateVariable;
import org.flafka.render.TemplateVariableException;
import org.flafka.render.Tier;
import org.flafka.sweep.cm.CmTargetSettings;
import org.flafka.sweep.space.Knobs;
import org.flafka.sweep.space.Space;
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

  @Option(
      names = EDGE_VARS,
      paramLabel = "FILE",
      description =
          "CM target: template variables of the edge agent that describe its host, not a"
              + " configuration to measure: on a secure cluster its Kafka login"
              + " (kafka_security_protocol, kafka_sasl_mechanism, kafka_kerberos_principal, paths"
              + " of its keytab, trust store and kafka_secrets_file on its host). YAML name: value"
              + " pairs, as flafka render --vars; never swept, not in the results.")
  Path edgeVars;

  @Option(
      names = CORE_VARS,
      paramLabel = "FILE",
      description =
          "CM target: the same for the core agent, with its HDFS login (hdfs_kerberos_principal,"
              + " hdfs_kerberos_keytab, hdfs_namenode_principal, hdfs_data_transfer_protection).")
  Path coreVars;

  static final String EDGE_VARS = "--edge-vars";
  static final String CORE_VARS = "--core-vars";

  private Map<String, Object> edgeVariables = Map.of();
  private Map<String, Object> coreVariables = Map.of();

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
    flags.put(EDGE_VARS, edgeVars);
    flags.put(CORE_VARS, coreVars);
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
        kafkaClient,
        edgeVariables,
        coreVariables);
  }

  /**
   * Reads and checks {@code --edge-vars} and {@code --core-vars} against {@code space}, before
   * anything connects; {@link #settings} then carries them.
   */
  void readAgentVariables(Space space) {
    edgeVariables = agentVariables(Tier.EDGE, EDGE_VARS, edgeVars, space);
    coreVariables = agentVariables(Tier.CORE, CORE_VARS, coreVars, space);
  }

  /**
   * The variables in {@code file} ({@code option}), each a variable of the tier's template with a
   * valid value, and none the target's own (servers, ports, paths it sets per run) nor one the
   * space sets or sweeps: the space's value would be silently overridden, or the sweep would
   * measure one thing and report another.
   */
  static Map<String, Object> agentVariables(Tier tier, String option, Path file, Space space) {
    if (file == null) {
      return Map.of();
    }
    Map<String, TemplateVariable> known = new LinkedHashMap<>();
    AgentTemplates.variables(tier).forEach(variable -> known.put(variable.name(), variable));
    Map<String, Object> variables = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry :
        TemplateVariableOptions.readVarsFile(file, option).entrySet()) {
      String name = entry.getKey();
      String where = option + " '" + file + "': ";
      TemplateVariable variable = known.get(name);
      if (variable == null) {
        throw UserException.invalidInput(
            where
                + "'"
                + name
                + "' is not a variable of the "
                + tier.id()
                + " template. Fix: remove it, or check its name with flafka render "
                + tier.id()
                + " --list-variables");
      }
      if (Knobs.TARGET_OWNED.contains(name)) {
        throw UserException.invalidInput(
            where
                + "'"
                + name
                + "' is set by the cm target for each run (servers, ports, paths, names)."
                + " Fix: remove it"
                + ("kafka_bootstrap_servers".equals(name)
                    ? " and give the brokers with --kafka-bootstrap"
                    : ""));
      }
      if (space.fixed().containsKey(name) || space.dimensionNames().contains(name)) {
        throw UserException.invalidInput(
            where
                + "'"
                + name
                + "' is also "
                + (space.fixed().containsKey(name) ? "set" : "swept")
                + " by space '"
                + space.name()
                + "'. Fix: keep it in one place: the agent's host and login in "
                + option
                + ", what to measure in the space");
      }
      try {
        variables.put(name, variable.coerce(entry.getValue()));
      } catch (TemplateVariableException e) {
        throw UserException.invalidInput(where + e.getMessage());
      }
    }
    return variables;
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
