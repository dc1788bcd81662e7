package org.flafka.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The fault suite's results as the table of docs/reliability.md, and as one progress line per case.
 * The page keeps its prose; {@link #replaceIn} swaps only what lies between the markers of one
 * block: {@value #BEGIN} and {@value #END} for runs with the protections on, the same with {@value
 * #PROTECTION_OFF} after "results" for runs with them off.
 */
public final class ReliabilityTable {
  public static final String BEGIN = "<!-- flafka chaos: results begin -->";
  public static final String END = "<!-- flafka chaos: results end -->";

  /** What the markers of the block of runs with the protections off add after "results". */
  public static final String PROTECTION_OFF = " with protection off";

  private ReliabilityTable() {}

  /** One line per case for progress output. */
  public static String line(CaseResult result) {
    return String.format(
        Locale.ROOT,
        "%s over %s%s: sent %,d, delivered %,d, missing %,d%s, duplicated %,d, recovered %s: %s%s",
        result.chaosCase().fault().flagName(),
        result.chaosCase().transport().flagName(),
        result.protectionOff() ? " (protection off)" : "",
        result.sent(),
        result.delivered(),
        result.missing(),
        result.acceptedBeforeKill() >= 0
            ? String.format(
                Locale.ROOT, " (of what the edge accepted: %,d)", result.missingOfAccepted())
            : "",
        result.duplicated(),
        recovery(result),
        verdict(result),
        result.note().isEmpty() ? "" : " (" + result.note() + ")");
  }

  /**
   * The table: one row per case, with the run's settings, date and machine above it, so every
   * figure says where it came from.
   */
  public static String markdown(
      List<CaseResult> results,
      ChaosSettings settings,
      String command,
      String date,
      String machine) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Run `%s` on %s, %s: outages of %d s, load of %,.0f events/s (%d s before the fault, %d s"
                + " after it), default configurations%s.%n%n",
            command,
            date,
            machine,
            settings.outage().toSeconds(),
            settings.rate(),
            settings.lead().toSeconds(),
            settings.tail().toSeconds(),
            settings.protectionOff() ? " with each case's protection switched off" : ""));
    out.append(
        "| fault | transport | protection | sent | delivered | missing | duplicated | time to recover"
            + " | expected | result | notes |\n");
    out.append("|---|---|---|---:|---:|---:|---:|---:|---|---|---|\n");
    for (CaseResult result : results) {
      Fault fault = result.chaosCase().fault();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %,d | %,d | %,d%s | %,d | %s | %s | %s | %s |%n",
              fault.flagName(),
              result.chaosCase().transport().flagName(),
              (result.protectionOff()
                      ? fault.hasProtectionSwitch() ? "**off**: " : "(no switch) "
                      : "")
                  + fault.protection(),
              result.sent(),
              result.delivered(),
              result.missing(),
              result.acceptedBeforeKill() >= 0
                  ? String.format(Locale.ROOT, " (of accepted: %,d)", result.missingOfAccepted())
                  : "",
              result.duplicated(),
              recovery(result),
              result.expectedToPass() ? fault.expect().toString() : "to fail",
              result.passed() ? "pass" : "**fail**",
              result.note().replace("|", "\\|")));
    }
    return out.toString();
  }

  /**
   * Replaces the results block of {@code page} with {@code table}: the block of runs with the
   * protections off when {@code protectionOff}.
   */
  public static void replaceIn(Path page, String table, boolean protectionOff) throws IOException {
    String begin = protectionOff ? BEGIN.replace(" results", " results" + PROTECTION_OFF) : BEGIN;
    String end = protectionOff ? END.replace(" results", " results" + PROTECTION_OFF) : END;
    String text = Files.readString(page, StandardCharsets.UTF_8);
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from < 0 || to < from) {
      throw new IOException(
          page + " has no results block: add the lines " + begin + " and " + end + " to it");
    }
    String updated = text.substring(0, from + begin.length()) + "\n" + table + text.substring(to);
    Files.writeString(page, updated, StandardCharsets.UTF_8);
  }

  private static String recovery(CaseResult result) {
    if (result.recovery() != null) {
      return String.format(Locale.ROOT, "%.1f s", result.recovery().toMillis() / 1000.0);
    }
    return result.drainedShort()
        ? "never: what is missing was lost"
        : "not within the settle timeout";
  }

  private static String verdict(CaseResult result) {
    if (result.asExpected()) {
      return result.passed() ? "pass" : "failed, as expected";
    }
    return result.passed() ? "passed, not expected to" : "FAIL";
  }
}
