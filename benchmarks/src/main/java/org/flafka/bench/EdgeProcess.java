package org.flafka.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.ThreadCpu;

/**
 * The process one trial measures: a Flume agent, or rsyslogd for an rsyslog variant's comparison.
 */
interface EdgeProcess {

  long pid();

  /** CPU time (user + system) the process has used so far. */
  Duration cpuTime();

  boolean isAlive();

  /** SIGKILL: a trial's process is never needed after its window. */
  void kill();

  /** Its stdout and stderr. */
  Path log();

  /** The port its source bound, once bound: for an agent started on port 0. */
  OptionalInt boundPort();

  /** Its own counts so far, read at one instant. */
  Counts counts();

  /**
   * Events its source committed to its channel and its sinks drained from their channels; -1 each
   * where it keeps no such count.
   */
  record Counts(long sourceAccepted, long sinkDrained) {
    static final Counts NONE = new Counts(-1, -1);
  }

  /** How its threads group in the report's "by threads" table. */
  ThreadCpu.ThreadGroups threadGroups();

  /** Whether it is a JVM that {@code --jfr} can record. */
  boolean isJvm();

  /** A Flume agent process: every variant but the rsyslog ones. */
  static EdgeProcess of(AgentProcess agent, String sourceName) {
    return new EdgeProcess() {
      @Override
      public long pid() {
        return agent.pid();
      }

      @Override
      public Duration cpuTime() {
        return agent.cpuTime();
      }

      @Override
      public boolean isAlive() {
        return agent.isAlive();
      }

      @Override
      public void kill() {
        agent.kill();
      }

      @Override
      public Path log() {
        return agent.log();
      }

      @Override
      public OptionalInt boundPort() {
        long bound = agent.metrics().source(sourceName, "ListenPort");
        return bound > 0 ? OptionalInt.of((int) bound) : OptionalInt.empty();
      }

      @Override
      public Counts counts() {
        AgentMetrics metrics = agent.metrics();
        long drained = 0;
        for (String sink : agent.components().sinks()) {
          drained += metrics.sink(sink, "EventDrainSuccessCount");
        }
        return new Counts(metrics.source(sourceName, "EventAcceptedCount"), drained);
      }

      @Override
      public ThreadCpu.ThreadGroups threadGroups() {
        return ThreadCpu.ThreadGroups.FLUME_AGENT;
      }

      @Override
      public boolean isJvm() {
        return true;
      }
    };
  }
}
