package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the tests of {@code flafka bench edge} and {@code flafka bench core} run and check alike.
 */
final class BenchRuns {
  private BenchRuns() {}

  /**
   * {@code flafka bench BENCH FLAGS} exits 2 with one line on stderr that contains {@code message},
   * nothing on stdout and no stack trace.
   */
  static void assertBadFlagsAreOneLineAndExitTwo(String bench, String flags, String message) {
    String[] args =
        Stream.concat(Stream.of("bench", bench), Stream.of(flags.split(" ")))
            .toArray(String[]::new);
    FlafkaRun run = flafka(args);
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode(), run.err());
    assertEquals("", run.out());
    String first = run.err().lines().findFirst().orElse("");
    assertTrue(first.startsWith("flafka: ") && first.contains(message), run.err());
    assertTrue(
        run.err().lines().noneMatch(line -> line.contains("\tat ")),
        "no stack trace: " + run.err());
  }

  /** {@code --out} in a directory that does not exist fails with exit code 2 before a run. */
  static void assertOutInAMissingDirectoryIsRejected(String bench, Path dir) {
    FlafkaRun run = flafka("bench", bench, "--out", dir.resolve("no/such/report.txt").toString());
    assertEquals(ExitCode.INVALID_INPUT, run.exitCode());
    assertTrue(run.err().contains("not a file in an existing directory"), run.err());
  }

  /** This JVM's live descendant processes, to check that a run leaves none behind. */
  static Set<Long> children() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
