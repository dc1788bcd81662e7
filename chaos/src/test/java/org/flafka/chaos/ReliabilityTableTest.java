package org.flafka.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.flafka.load.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReliabilityTableTest {
  @TempDir Path dir;

  private static final ChaosSettings SETTINGS =
      new ChaosSettings(
          Path.of("work"),
          ChaosSettings.allCases(),
          Duration.ofMinutes(2),
          Duration.ofSeconds(15),
          Duration.ofSeconds(15),
          2_000,
          Duration.ofMinutes(5),
          false,
          List.of());

  private static CaseResult result(
      Fault fault, Protocol transport, long missing, long accepted, boolean protectionOff) {
    return result(fault, transport, missing, accepted, protectionOff, false);
  }

  private static CaseResult result(
      Fault fault,
      Protocol transport,
      long missing,
      long accepted,
      boolean protectionOff,
      boolean drainedShort) {
    boolean expected = !protectionOff || !fault.hasProtectionSwitch();
    return new CaseResult(
        new ChaosSettings.Case(fault, transport),
        protectionOff,
        Duration.ofMinutes(2),
        10_000,
        10_000 - missing,
        missing,
        3,
        accepted,
        0,
        0,
        missing == 0 ? Duration.ofMillis(12_340) : null,
        drainedShort,
        expected,
        missing == 0,
        "");
  }

  @Test
  void everyCaseIsARowWithItsCountsRecoveryAndWhetherItWasExpectedToPass() {
    String table =
        ReliabilityTable.markdown(
            List.of(
                result(Fault.CORE_KILL, Protocol.TCP, 0, -1, false),
                result(Fault.EDGE_BROKER_STOPPED, Protocol.UDP, 4_000, -1, false),
                result(Fault.CORE_KILL, Protocol.TCP, 1_500, -1, true)),
            SETTINGS,
            "flafka chaos",
            "2026-11-28",
            "2 cores");

    assertTrue(table.contains("outages of 120 s"), table);
    assertTrue(
        table.contains(
            "| core-kill | tcp | Kafka channels: offsets committed after the HDFS flush"
                + " | 10,000 | 10,000 | 0 | 3 | 12.3 s | 0 missing | pass |"),
        table);
    assertTrue(
        table.contains("| 4,000 | 3 | not within the settle timeout | 0 missing | **fail** |"),
        table);
    assertTrue(table.contains("| **off**: Kafka channels"), table);
    assertTrue(table.contains("| to fail | **fail** |"), table);
  }

  @Test
  void aPipelineThatDrainedShortSaysTheRestWasLostNotThatItRanOutOfTime() {
    String table =
        ReliabilityTable.markdown(
            List.of(result(Fault.EDGE_KILL, Protocol.TCP, 120, 9_900, false, true)),
            SETTINGS,
            "flafka chaos",
            "2026-11-29",
            "2 cores");
    assertTrue(
        table.contains("| 120 (of accepted: 20) | 3 | never: what is missing was lost |"), table);
    assertFalse(table.contains("settle timeout"), table);
  }

  @Test
  void aCaseWithoutASwitchSaysSoAndIsExpectedToPassWithTheProtectionsOff() {
    String table =
        ReliabilityTable.markdown(
            List.of(result(Fault.EDGE_DISK_FULL, Protocol.UDP, 0, -1, true)),
            SETTINGS,
            "flafka chaos --protection-off",
            "2026-11-28",
            "2 cores");
    assertTrue(
        table.contains(
            "| edge-disk-full | udp | (no switch) the disk full counted; then TCP held back, UDP"
                + " queued, then dropped and counted | 10,000 | 10,000 | 0 | 3 | 12.3 s | missing = what the"
                + " edge counted as dropped, the disk full counted | pass |"),
        table);
  }

  @Test
  void whatTheEdgeHadNotAcceptedWhenKilledIsNotCountedAgainstIt() {
    CaseResult killed = result(Fault.EDGE_KILL, Protocol.TCP, 120, 9_900, false);
    assertEquals(20, killed.missingOfAccepted(), "120 missing, 100 of them never accepted");
    assertEquals(0, result(Fault.EDGE_KILL, Protocol.TCP, 80, 9_900, false).missingOfAccepted());
    assertEquals(7, result(Fault.HDFS_AWAY, Protocol.TCP, 7, -1, false).missingOfAccepted());
  }

  @Test
  void aRunReplacesOnlyTheResultsBlockOfThePage() throws IOException {
    Path page = dir.resolve("reliability.md");
    Files.writeString(
        page,
        "# Reliability\n\nprose\n\n"
            + ReliabilityTable.BEGIN
            + "\nold table\n"
            + ReliabilityTable.END
            + "\n\nmore prose\n");

    String offBegin = "<!-- flafka chaos: results with protection off begin -->";
    String offEnd = "<!-- flafka chaos: results with protection off end -->";
    Files.writeString(
        page, offBegin + "\nold run unprotected\n" + offEnd + "\n", StandardOpenOption.APPEND);

    ReliabilityTable.replaceIn(page, "new table\n", false);
    ReliabilityTable.replaceIn(page, "new table unprotected\n", true);

    String text = Files.readString(page);
    assertTrue(text.startsWith("# Reliability\n\nprose\n\n"), text);
    assertTrue(
        text.contains(ReliabilityTable.BEGIN + "\nnew table\n" + ReliabilityTable.END), text);
    assertTrue(text.contains("\n\nmore prose\n"), text);
    assertTrue(text.contains(offBegin + "\nnew table unprotected\n" + offEnd), text);
    assertFalse(text.contains("old table"), text);
    assertFalse(text.contains("old run"), text);
  }

  @Test
  void aPageWithoutTheResultsBlockIsRefusedNamingTheMarkers() throws IOException {
    Path page = dir.resolve("other.md");
    Files.writeString(page, "# Nothing here\n");
    IOException refused =
        assertThrows(IOException.class, () -> ReliabilityTable.replaceIn(page, "table\n", false));
    assertTrue(refused.getMessage().contains(ReliabilityTable.BEGIN), refused.getMessage());
  }

  /** The message {@link ChaosSettings#validate()} refuses one case with, over an outage. */
  private static String refusal(Fault fault, Protocol transport, Duration outage) {
    ChaosSettings settings =
        new ChaosSettings(
            Path.of("work"),
            List.of(new ChaosSettings.Case(fault, transport)),
            outage,
            Duration.ofSeconds(15),
            Duration.ofSeconds(15),
            2_000,
            Duration.ofMinutes(5),
            false,
            List.of());
    return assertThrows(IllegalArgumentException.class, settings::validate).getMessage();
  }

  @Test
  void anOutageTooShortForAKillInsideItIsRefusedNamingTheFlags() {
    assertEquals(
        "--outage must be at least 12 s for --fault edge-kill-in-outage (the kill comes halfway,"
            + " and the edge stays down 5 s) but was 10 s",
        refusal(Fault.EDGE_KILL_IN_OUTAGE, Protocol.TCP, Duration.ofSeconds(10)));
  }

  @Test
  void aTransportAFaultDoesNotRunOverIsRefusedNamingTheFlags() {
    assertEquals(
        "--transport udp does not apply to --fault core-kill",
        refusal(Fault.CORE_KILL, Protocol.UDP, Duration.ofMinutes(2)));
  }
}
