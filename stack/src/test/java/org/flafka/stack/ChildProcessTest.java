package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

  /**
   * A child that logs a line, then dies of an exception with a cause, as a failing agent's log
   * ends.
   */
  public static final class FailingMain {
    public static void main(String[] args) {
      System.out.println("starting");
      throw new IllegalStateException("outer reason", new IOException("inner reason"));
    }
  }

  @Test
  void logTailKeepsTheExceptionsAndTheirCausesButNotTheirFrames(@TempDir Path dir)
      throws Exception {
    ChildProcess child =
        ChildProcess.startJava(
            "failing main",
            List.of(),
            System.getProperty("java.class.path"),
            FailingMain.class.getName(),
            List.of(),
            dir,
            dir.resolve("child.log"));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (child.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(1, child.kill(), "exit code of an uncaught exception");

    List<String> tail = child.logTail(20).lines().toList();
    assertEquals("starting", tail.get(0));
    assertTrue(tail.get(1).endsWith("java.lang.IllegalStateException: outer reason"), tail.get(1));
    assertEquals("Caused by: java.io.IOException: inner reason", tail.get(2));
    assertEquals(3, tail.size(), "no stack frames: " + tail);
  }
}
