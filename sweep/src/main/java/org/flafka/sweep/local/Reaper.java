package org.flafka.sweep.local;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Kills this JVM's child processes if this JVM dies without running its shutdown hooks (SIGKILL, a
 * crash, the OOM killer). A small shell waits on a pipe from this JVM; the kernel closes the pipe
 * when this JVM dies, however it dies, and the shell then SIGKILLs every pid in a file this JVM
 * keeps current. Flume agents do not watch their parent the way the stack's broker and HDFS mains
 * do, so without this they would outlive a killed sweep. {@link #close()} empties the file first,
 * so a normal end kills nothing.
 */
final class Reaper implements AutoCloseable {
  private final Path pidFile;
  private final Process shell;
  private final OutputStream pipe;

  private Reaper(Path pidFile, Process shell) {
    this.pidFile = pidFile;
    this.shell = shell;
    this.pipe = shell.getOutputStream();
  }

  static Reaper start(Path pidFile) {
    try {
      Files.createDirectories(pidFile.getParent());
      Files.writeString(pidFile, "", StandardCharsets.US_ASCII);
      String quoted = "'" + pidFile.toAbsolutePath().toString().replace("'", "'\\''") + "'";
      Process shell =
          new ProcessBuilder(
                  "/bin/sh",
                  "-c",
                  "cat >/dev/null; pids=$(cat "
                      + quoted
                      + " 2>/dev/null); [ -n \"$pids\" ] && kill -9 $pids 2>/dev/null;"
                      + " rm -f "
                      + quoted)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return new Reaper(pidFile, shell);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start the process reaper (/bin/sh): " + e.getMessage(), e);
    }
  }

  /**
   * Records every current descendant of this JVM (but the reaper) as a process to kill if this JVM
   * dies.
   */
  synchronized void track() {
    Set<Long> own = new HashSet<>();
    own.add(shell.pid());
    shell.descendants().forEach(handle -> own.add(handle.pid()));
    String pids =
        ProcessHandle.current()
            .descendants()
            .filter(handle -> !own.contains(handle.pid()))
            .map(handle -> Long.toString(handle.pid()))
            .collect(Collectors.joining(" "));
    write(pids);
  }

  private void write(String pids) {
    try {
      Path tmp = pidFile.resolveSibling(pidFile.getFileName() + ".tmp");
      Files.writeString(tmp, pids + "\n", StandardCharsets.US_ASCII);
      Files.move(tmp, pidFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + pidFile + ": " + e.getMessage(), e);
    }
  }

  long pid() {
    return shell.pid();
  }

  /** Forgets every pid and lets the shell exit. */
  @Override
  public synchronized void close() {
    write("");
    try {
      pipe.close();
      shell.waitFor();
    } catch (IOException e) {
      shell.destroyForcibly();
    } catch (InterruptedException e) {
      shell.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
