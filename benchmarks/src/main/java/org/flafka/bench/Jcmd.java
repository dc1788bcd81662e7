package org.flafka.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JFR recordings of an agent process, started and stopped with the JDK's {@code jcmd} around the
 * measure window.
 */
final class Jcmd {
  private static final String RECORDING = "flafka-bench";

  private Jcmd() {}

  /**
   * Starts a profiling recording (the JDK's "profile" settings: Java samples every 10 ms) into
   * {@code file}.
   */
  static void startRecording(long pid, Path file) {
    run(
        pid,
        "JFR.start",
        "name=" + RECORDING,
        "settings=profile",
        "filename=" + file.toAbsolutePath());
  }

  /** Stops the recording, which writes its file. */
  static void stopRecording(long pid) {
    run(pid, "JFR.stop", "name=" + RECORDING);
  }

  private static void run(long pid, String... command) {
    List<String> line = new ArrayList<>();
    line.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
    line.add(Long.toString(pid));
    line.addAll(List.of(command));
    try {
      Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new BenchException(String.join(" ", line) + " did not finish within 60 s");
      }
      if (process.exitValue() != 0
          || output.contains("Could not")
          || output.contains("Exception")) {
        throw new BenchException(
            String.join(" ", line) + " failed: " + output.strip().replace('\n', ' '));
      }
    } catch (IOException e) {
      throw new BenchException(
          "could not run jcmd for --jfr (is this a full JDK?): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted while running jcmd", e);
    }
  }
}
