package org.flafka.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flafka.load.Protocol;

/**
 * What one {@code flafka chaos} run does; {@link #validate()} names the flag of whatever is wrong.
 *
 * @param workDir where the broker, HDFS and the agents keep their files
 * @param cases the faults to run, each over one transport, in order
 * @param outage how long a fault lasts (an agent killed stays down {@link #KILL_DOWNTIME} instead)
 * @param lead how long the load runs before the fault
 * @param tail how long the load runs after the fault has ended
 * @param rate events per second the load offers
 * @param settleTimeout longest wait, after the load has ended, for the pipeline to drain
 * @param protectionOff run every case with its protection switched off ({@link
 *     Fault#protectionOff}), to show that the case fails without it
 * @param agentJvmOptions JVM options of the agents; empty for the stack's defaults
 */
public record ChaosSettings(
    Path workDir,
    List<Case> cases,
    Duration outage,
    Duration lead,
    Duration tail,
    double rate,
    Duration settleTimeout,
    boolean protectionOff,
    List<String> agentJvmOptions) {

  /** How long a killed agent stays down before it is started again. */
  public static final Duration KILL_DOWNTIME = Duration.ofSeconds(5);

  /**
   * How long before the kill of {@code edge-kill} the edge's accepted count is read: what it
   * accepted by then, Kafka must have. Sinks that keep up send each event as they take it, so this
   * is many times what an event takes to be acknowledged (linger and a round trip); events accepted
   * in the last milliseconds before a SIGKILL are still in the producer's buffer, and no memory
   * channel keeps those.
   */
  public static final Duration KILL_ACCEPTED_LAG = Duration.ofSeconds(1);

  /** One fault over one transport. */
  public record Case(Fault fault, Protocol transport) {
    public String name() {
      return fault.flagName() + "-" + transport.flagName();
    }
  }

  public ChaosSettings {
    cases = List.copyOf(cases);
    agentJvmOptions = List.copyOf(agentJvmOptions);
  }

  /** Every fault over each of its transports. */
  public static List<Case> allCases() {
    return casesOf(List.of(Fault.values()));
  }

  /** {@code faults}, each over each of its transports. */
  public static List<Case> casesOf(List<Fault> faults) {
    List<Case> cases = new ArrayList<>();
    for (Fault fault : faults) {
      for (Protocol transport : fault.transports()) {
        cases.add(new Case(fault, transport));
      }
    }
    return cases;
  }

  /** Whether {@code fault} is expected to pass in this run. */
  public boolean expectedToPass(Fault fault) {
    return !protectionOff || !fault.hasProtectionSwitch();
  }

  public ChaosSettings validate() {
    if (cases.isEmpty()) {
      throw new IllegalArgumentException("--fault: give at least one fault");
    }
    if (outage.isNegative() || outage.isZero()) {
      throw new IllegalArgumentException("--outage must be longer than 0 but was " + outage);
    }
    if (lead.compareTo(Duration.ofSeconds(2)) < 0) {
      throw new IllegalArgumentException("--lead must be at least 2 s but was " + lead);
    }
    if (tail.isNegative()) {
      throw new IllegalArgumentException("--tail must be 0 or more but was " + tail);
    }
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("--rate must be a number of events/s above 0");
    }
    if (settleTimeout.compareTo(Duration.ofSeconds(10)) < 0) {
      throw new IllegalArgumentException(
          "--settle-timeout must be at least 10 s but was " + settleTimeout);
    }
    Duration shortest = KILL_DOWNTIME.multipliedBy(2).plusSeconds(2);
    if (outage.compareTo(shortest) < 0
        && cases.stream().anyMatch(c -> c.fault() == Fault.EDGE_KILL_IN_OUTAGE)) {
      throw new IllegalArgumentException(
          "--outage must be at least "
              + shortest.toSeconds()
              + " s for --fault "
              + Fault.EDGE_KILL_IN_OUTAGE.flagName()
              + " (the kill comes halfway, and the edge stays down "
              + KILL_DOWNTIME.toSeconds()
              + " s) but was "
              + outage.toSeconds()
              + " s");
    }
    for (Case c : cases) {
      if (!c.fault().transports().contains(c.transport())) {
        throw new IllegalArgumentException(
            "--transport "
                + c.transport().flagName()
                + " does not apply to --fault "
                + c.fault().flagName());
      }
    }
    return this;
  }
}
