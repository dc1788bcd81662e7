package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.flafka.cm.CmClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code flafka sweep --target cm} line that {@code flafka cm-emulator} prints runs as printed:
 * {@code flafka sweep}'s own parser takes it, and its CM options find the password with no
 * environment variable set, from a file only its owner can read; the password is not in the line.
 */
class CmEmulatorSweepLineTest {
  @TempDir Path dir;

  @Test
  void thePrintedSweepLineNamesAPasswordFileTheSweepReadsWithoutAnyVariable() throws Exception {
    Path passwordFile = dir.resolve("cm-password");
    Files.createFile(
        passwordFile,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(passwordFile, "s3cret-pw\n", StandardCharsets.UTF_8);

    String line =
        CmEmulatorCommand.sweepCommand(
            "http://127.0.0.1:7180",
            "operator",
            passwordFile,
            "flume-AGENT-2",
            "hdfs://127.0.0.1:8020/flafka-sweep",
            dir.resolve("agents"),
            5140);

    assertFalse(line.contains("s3cret-pw"), line);
    List<String> words = Arrays.asList(line.split(" "));
    assertEquals(List.of("flafka", "sweep"), words.subList(0, 2));
    SweepCommand sweep = new SweepCommand();
    new CommandLine(sweep).parseArgs(words.subList(2, words.size()).toArray(String[]::new));

    CmClientConfig config = sweep.cm.clientConfig(Map.of());
    assertEquals("operator", config.user());
    assertTrue(config.passwordSource().contains(passwordFile.toString()), config.passwordSource());
  }

  @Test
  void theDefaultUserIsLeftToTheSweepsOwnDefault() {
    String line =
        CmEmulatorCommand.sweepCommand(
            "http://127.0.0.1:7180",
            "admin",
            dir.resolve("pw"),
            "flume-AGENT-2",
            "hdfs://h:1/x",
            dir.resolve("agents"),
            1);
    assertFalse(line.contains("--cm-user"), line);
    assertTrue(line.contains("--cm-password-file " + dir.resolve("pw")), line);
  }
}
