package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.flafka.chaos.Fault;
import org.junit.jupiter.api.Test;

/** {@code flafka chaos}'s flags; the faults themselves run in the chaos module's FaultSuiteTest. */
class ChaosCommandTest {

  @Test
  void theHelpNamesEveryFault() {
    FlafkaRun help = flafka("chaos", "--help");
    assertEquals(0, help.exitCode(), help.toString());
    String text = help.out().replaceAll("\\s+", " ");
    for (Fault fault : Fault.values()) {
      assertTrue(text.contains(fault.flagName()), fault.flagName() + " missing from " + help);
    }
  }

  @Test
  void anUnknownFaultIsOneLineNamingTheFaults() {
    FlafkaRun run = flafka("chaos", "--fault", "disk-on-fire");
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode(), run.toString());
    assertEquals(1, run.err().strip().lines().count(), run.toString());
    assertTrue(
        run.err().contains("disk-on-fire") && run.err().contains("edge-disk-full"), run.toString());
  }
}
