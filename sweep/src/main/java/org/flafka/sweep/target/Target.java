package org.flafka.sweep.target;

import java.util.Optional;
import java.util.function.Consumer;
import org.flafka.load.Protocol;
import org.flafka.render.Tier;

/**
 * Where trials run. A trial renders the edge and core configurations, asks the target to {@link
 * #prepare} a run (a fresh topic with the trial's partitions), {@link #startAgents applies} the
 * configurations (local: restart the agent processes; Cloudera Manager: PUT {@code
 * agent_config_file} to the role config groups, restart the roles and poll the commands), sends the
 * load, reads the agents' counters with {@link #sample} (local: Flume's JSON metrics; CM: {@code
 * /timeseries}), and {@link #stopAgents stops} them before the audit reads what landed.
 *
 * <p>Implementations: {@code local} (org.flafka.sweep.local.LocalTarget) and {@code cm}
 * (org.flafka.sweep.cm.CmTarget). Calls come from one thread, one run at a time, except {@link
 * #close}, which may come from a shutdown hook at any moment.
 */
public interface Target extends AutoCloseable {
  /**
   * What the target is, for the report: "local stack: KRaft broker, MiniDFSCluster, Flume agent
   * processes".
   */
  String description();

  /**
   * Gets ready: starts the local stack, or checks the cluster answers. {@code status} takes
   * progress lines.
   */
  void start(Consumer<String> status);

  /**
   * Whether the parts the trials share (broker, HDFS) start with the sweep, cold: then one
   * unrecorded run warms them up before the first trial. A cluster that ran before the sweep is
   * warm.
   */
  default boolean startsCold() {
    return false;
  }

  /**
   * Why a rendered configuration cannot run here (e.g. a plugin class the agent classpath lacks),
   * or empty. The sweep prunes such trials before they run.
   */
  default Optional<String> cannotRun(Tier tier, String properties) {
    return Optional.empty();
  }

  /**
   * Prepares run {@code runName}: a new topic with {@code partitions} partitions (through Kafka's
   * AdminClient, which Cloudera Manager cannot do), a consumer group and HDFS directory of its own,
   * and a listener of {@code protocol} for the load.
   */
  TrialEnvironment prepare(String runName, int partitions, Protocol protocol);

  /** Applies the configurations and (re)starts both agents; returns once every component runs. */
  void startAgents(TrialEnvironment environment, String edgeProperties, String coreProperties);

  /** The agent's counters and CPU now. */
  AgentSample sample(Tier tier);

  /** Stops both agents cleanly, so sinks close their files. */
  void stopAgents();

  /**
   * Stops both agents at once, without flushing or closing anything: for a run that will not be
   * audited (it did not drain), where a clean stop only costs time (a Flume HDFS sink interrupted
   * mid-batch sleeps 5 s before it closes). A clean {@link #stopAgents} where stopping at once is
   * not possible.
   */
  default void killAgents() {
    stopAgents();
  }

  /**
   * Throws a {@link TargetException} if the target itself (broker, HDFS, cluster) is no longer
   * usable.
   */
  void checkHealthy();

  /** Stops everything the target started. Safe to call twice, and from a shutdown hook. */
  @Override
  void close();
}
