package org.flafka.cm.emulator;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.KafkaCluster;

/**
 * Settings of a {@link CmEmulator}. Build with {@link #builder(Path)}; every setting has a default
 * but the work directory (agents' configuration files, logs and file channels go below it).
 *
 * @param workDir where each role's agent runs ({@code <workDir>/<role>/})
 * @param port port on 127.0.0.1; 0 picks a free one ({@link CmEmulator#url()} says which)
 * @param user HTTP basic user
 * @param password HTTP basic password
 * @param agents number of Flume AGENT roles (1..20); role 1 is in the base group, the others each
 *     in a group of their own, because on one host agents sharing a configuration would share its
 *     ports
 * @param kafka the broker behind the KAFKA service, or null for none. Broker metrics come from its
 *     BrokerTopicMetrics MBeans, so only a broker in this JVM ({@code KafkaBroker}) has them;
 *     consumer lag comes through AdminClient from any broker
 * @param sampleInterval how often metrics are sampled (CM: about a minute; tests: a second)
 * @param runtime the agents' classpath, or null for {@code AgentRuntime.locate()} plus the kit's
 *     plugins
 * @param agentJvmOptions JVM options of each agent process: what CM's AGENT role config group calls
 *     Java Configuration Options for Flume Agent ({@code flume_agent_java_opts}), e.g. where a
 *     test's KDC is ({@code -Djava.security.krb5.conf=...}) as CM's Kerberos integration gives its
 *     roles
 * @param initialConfigs role index (1-based) → Flume configuration to set and start the role with
 *     at start-up
 * @param apiVersion highest API version claimed by {@code GET /api/version} (the spec checked is
 *     v32)
 */
public record CmEmulatorConfig(
    Path workDir,
    int port,
    String user,
    String password,
    int agents,
    KafkaCluster kafka,
    Duration sampleInterval,
    AgentRuntime runtime,
    List<String> agentJvmOptions,
    Map<Integer, AgentConfig> initialConfigs,
    int apiVersion,
    String cluster,
    String flumeService,
    String kafkaService,
    String hostname) {

  /** An agent's two CM settings: {@code agent_name} and {@code agent_config_file}. */
  public record AgentConfig(String agentName, String configFile) {}

  public static final int MAX_AGENTS = 20;

  public CmEmulatorConfig {
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (agents < 1 || agents > MAX_AGENTS) {
      throw new IllegalArgumentException("agents must be 1.." + MAX_AGENTS + ", got " + agents);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (sampleInterval.isNegative() || sampleInterval.isZero()) {
      throw new IllegalArgumentException("sampleInterval must be positive, got " + sampleInterval);
    }
    agentJvmOptions = List.copyOf(agentJvmOptions);
    initialConfigs = Map.copyOf(initialConfigs);
    for (Integer index : initialConfigs.keySet()) {
      if (index < 1 || index > agents) {
        throw new IllegalArgumentException(
            "initial configuration for role " + index + " but there are " + agents + " roles");
      }
    }
  }

  public static Builder builder(Path workDir) {
    return new Builder(workDir);
  }

  /**
   * Builder with the defaults: admin/admin, one agent, no Kafka, 10 s samples, v32, "Cluster 1".
   */
  public static final class Builder {
    private final Path workDir;
    private int port;
    private String user = "admin";
    private String password = "admin";
    private int agents = 1;
    private KafkaCluster kafka;
    private Duration sampleInterval = Duration.ofSeconds(10);
    private AgentRuntime runtime;
    private List<String> agentJvmOptions = List.of("-Xms64m", "-Xmx512m");
    private Map<Integer, AgentConfig> initialConfigs = Map.of();
    private int apiVersion = 32;
    private String cluster = "Cluster 1";
    private String flumeService = "flume";
    private String kafkaService = "kafka";
    private String hostname = "localhost";

    private Builder(Path workDir) {
      this.workDir = workDir;
    }

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder credentials(String user, String password) {
      this.user = user;
      this.password = password;
      return this;
    }

    public Builder agents(int agents) {
      this.agents = agents;
      return this;
    }

    public Builder kafka(KafkaCluster kafka) {
      this.kafka = kafka;
      return this;
    }

    public Builder sampleInterval(Duration sampleInterval) {
      this.sampleInterval = sampleInterval;
      return this;
    }

    public Builder runtime(AgentRuntime runtime) {
      this.runtime = runtime;
      return this;
    }

    public Builder agentJvmOptions(List<String> agentJvmOptions) {
      this.agentJvmOptions = agentJvmOptions;
      return this;
    }

    public Builder initialConfigs(Map<Integer, AgentConfig> initialConfigs) {
      this.initialConfigs = initialConfigs;
      return this;
    }

    public Builder apiVersion(int apiVersion) {
      this.apiVersion = apiVersion;
      return this;
    }

    public Builder names(
        String cluster, String flumeService, String kafkaService, String hostname) {
      this.cluster = cluster;
      this.flumeService = flumeService;
      this.kafkaService = kafkaService;
      this.hostname = hostname;
      return this;
    }

    public CmEmulatorConfig build() {
      return new CmEmulatorConfig(
          workDir,
          port,
          user,
          password,
          agents,
          kafka,
          sampleInterval,
          runtime,
          agentJvmOptions,
          initialConfigs,
          apiVersion,
          cluster,
          flumeService,
          kafkaService,
          hostname);
    }
  }
}
