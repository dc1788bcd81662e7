package org.flafka.chaos;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite in {@code ./mvnw verify}: the cases of {@code flafka chaos} against the default
 * configurations, with outages shortened to keep the build's time (20 s unless {@value
 * #OUTAGE_PROPERTY} says otherwise); {@code flafka chaos} runs the 2-minute versions and writes
 * docs/reliability.md.
 *
 * <p>{@link Fault#EDGE_BLACK_HOLE} runs in {@code flafka chaos} only: EdgeKafkaOutageTest
 * black-holes Kafka under the default edge over TCP and UDP in every build, and the broker stopped
 * here takes the edge through the same disk buffer.
 */
@Tag("e2e")
class FaultSuiteTest {
  static final String OUTAGE_PROPERTY = "flafka.chaos.outageSeconds";

  /**
   * Load before and after each fault: long enough for both agents to be busy, short for the build.
   */
  private static final Duration LEAD_AND_TAIL = Duration.ofSeconds(6);

  private static final List<String> AGENT_JVM_OPTIONS =
      List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  @TempDir Path dir;

  // Four cases, each with two agent JVMs started on the shared 2-core machine and a settle wait
  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void theDefaultCoreLosesNothingAndWritesNothingTwiceThroughEachFault() {
    List<CaseResult> results =
        run(List.of(Fault.CORE_KILL, Fault.HDFS_AWAY, Fault.BROKER_RESTART, Fault.DATANODE_AWAY));
    assertEveryCasePassed(results);
  }

  @Test
  @Timeout(value = 25, unit = TimeUnit.MINUTES)
  void theDefaultEdgeKeepsEveryEventThroughKafkaOutagesAndKillsAndCountsWhatAFullDiskCosts() {
    List<CaseResult> results =
        run(
            List.of(
                Fault.EDGE_KILL,
                Fault.EDGE_KILL_IN_OUTAGE,
                Fault.EDGE_BROKER_STOPPED,
                Fault.EDGE_DISK_FULL));
    assertEveryCasePassed(results);
    // A kill destroys what the edge had not accepted: the case must see the pipeline drained short
    // of the count and stop waiting, not wait out the settle timeout and call it a timeout
    results.stream()
        .filter(result -> result.acceptedBeforeKill() >= 0)
        .forEach(
            result ->
                assertTrue(
                    result.recovery() != null || result.drainedShort(),
                    result.chaosCase().name()
                        + " neither recovered nor drained short: "
                        + ReliabilityTable.line(result)));
  }

  private List<CaseResult> run(List<Fault> faults) {
    Duration outage = Duration.ofSeconds(Long.getLong(OUTAGE_PROPERTY, 20));
    ChaosSettings settings =
        new ChaosSettings(
            dir,
            ChaosSettings.casesOf(faults),
            outage,
            LEAD_AND_TAIL,
            LEAD_AND_TAIL,
            1_000,
            Duration.ofSeconds(120),
            false,
            AGENT_JVM_OPTIONS);
    return new Chaos(settings, line -> System.out.println("chaos: " + line))
        .run(Chaos.defaultRuntime());
  }

  private static void assertEveryCasePassed(List<CaseResult> results) {
    assertAll(
        results.stream()
            .map(
                result ->
                    (Executable)
                        () ->
                            assertTrue(
                                result.passed(),
                                result.chaosCase().name()
                                    + " must find "
                                    + result.chaosCase().fault().expect()
                                    + ": "
                                    + ReliabilityTable.line(result))));
  }
}
