package org.flafka.sweep.local;

import java.nio.file.Path;

/**
 * A stand-in for the sweep's JVM in {@link ReaperTest}: starts a reaper and a long-running child,
 * prints the child's pid, and waits to be killed.
 */
public final class ReaperParent {
  private ReaperParent() {}

  public static void main(String[] args) throws Exception {
    Reaper reaper = Reaper.start(Path.of(args[0]));
    Process child = new ProcessBuilder("sleep", "600").start();
    reaper.track();
    System.out.println(child.pid());
    System.out.flush();
    Thread.sleep(600_000);
  }
}
