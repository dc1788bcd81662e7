package org.flafka.sweep.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reaper kills a JVM's children when that JVM is killed outright, and nothing when it ends
 * normally.
 */
class ReaperTest {
  @TempDir Path dir;

  @Test
  void childrenDieWithAKilledParent() throws Exception {
    Process parent =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ReaperParent.class.getName(),
                dir.resolve("pids").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    long childPid;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(parent.getInputStream(), StandardCharsets.US_ASCII))) {
      childPid = Long.parseLong(out.readLine().trim());
    }
    ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();
    assertTrue(child.isAlive());
    assertTrue(
        Files.readString(dir.resolve("pids")).contains(Long.toString(childPid)),
        "the child is tracked");

    parent.destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
    assertTrue(
        child.onExit().toCompletableFuture().completeOnTimeout(null, 10, TimeUnit.SECONDS).join()
                != null
            || !child.isAlive(),
        "the reaper killed the orphaned child");
    assertFalse(child.isAlive());
  }

  @Test
  void aNormalEndKillsNothing() throws Exception {
    Process bystander = new ProcessBuilder("sleep", "600").start();
    try {
      Reaper reaper = Reaper.start(dir.resolve("pids"));
      reaper.track();
      assertTrue(Files.readString(dir.resolve("pids")).contains(Long.toString(bystander.pid())));
      reaper.close();
      assertFalse(Files.exists(dir.resolve("pids")), "the reaper removes its file when it ends");
      assertFalse(ProcessHandle.of(reaper.pid()).map(ProcessHandle::isAlive).orElse(false));
      assertTrue(bystander.isAlive(), "closing the reaper kills nothing");
    } finally {
      bystander.destroyForcibly();
      assertEquals(137, bystander.waitFor());
    }
  }
}
