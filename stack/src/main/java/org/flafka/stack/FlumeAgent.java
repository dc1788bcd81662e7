package org.flafka.stack;

/**
 * A real Flume 1.11.0 agent started by the stack from a properties configuration, either in this
 * JVM ({@link InProcessAgent#start}) or as its own process on the production agent classpath
 * ({@link AgentProcess#start}, {@link AgentProcess#builder}).
 *
 * <p>Both runners return only once every declared source, channel and sink is running: Flume
 * silently drops components that fail validation or configuration (docs/reference/dependencies.md,
 * "Flume drops a component it cannot configure"), so a declared component that is missing at
 * start-up fails the start with a {@link StackException} naming it. Components of stock types
 * without metrics counters (netcat source, null and logger sinks) are checked for being dropped but
 * cannot be seen starting.
 */
public interface FlumeAgent extends AutoCloseable {
  /** The agent name ({@code -n}), the prefix of its properties. */
  String name();

  /** What the configuration declares. */
  AgentComponents components();

  /** The agent's current metrics. */
  AgentMetrics metrics();

  /** Stops the agent cleanly: sources, then sinks and channels, as Flume's shutdown does. */
  void stop();

  @Override
  default void close() {
    stop();
  }
}
