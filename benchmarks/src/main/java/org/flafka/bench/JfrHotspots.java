package org.flafka.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where an agent spends its CPU, from the Java execution samples ({@code jdk.ExecutionSample}) of
 * JFR recordings: samples per thread group, per method at the top of the stack (self) and per
 * method anywhere on the stack (inclusive, each method counted once per sample). Native samples
 * (I/O in the kernel) and GC are not in these events; compare the sample count with the process CPU
 * to see how much they miss.
 */
public final class JfrHotspots {
  private final Map<String, Integer> threads = new HashMap<>();
  private final Map<String, Integer> self = new HashMap<>();
  private final Map<String, Integer> inclusive = new HashMap<>();
  private int samples;

  /** Reads the execution samples of every recording in {@code files}. */
  public static JfrHotspots read(List<Path> files) throws IOException {
    JfrHotspots hotspots = new JfrHotspots();
    for (Path file : files) {
      for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
        if (event.getEventType().getName().equals("jdk.ExecutionSample")) {
          hotspots.add(event);
        }
      }
    }
    return hotspots;
  }

  private void add(RecordedEvent event) {
    RecordedStackTrace stack = event.getStackTrace();
    if (stack == null || stack.getFrames().isEmpty()) {
      return;
    }
    samples++;
    String thread =
        event.getThread("sampledThread") == null
            ? "?"
            : threadGroup(event.getThread("sampledThread").getJavaName());
    threads.merge(thread, 1, Integer::sum);
    List<RecordedFrame> frames = stack.getFrames();
    self.merge(name(frames.get(0).getMethod()), 1, Integer::sum);
    Set<String> seen = new HashSet<>();
    for (RecordedFrame frame : frames) {
      String method = name(frame.getMethod());
      if (seen.add(method)) {
        inclusive.merge(method, 1, Integer::sum);
      }
    }
  }

  /**
   * A thread's name with its number dropped, so a pool's threads add up (netty-worker-3 ->
   * netty-worker-N).
   */
  static String threadGroup(String name) {
    return name == null ? "?" : name.replaceAll("\\d+", "N");
  }

  private static String name(RecordedMethod method) {
    String type = method.getType().getName();
    return type.substring(type.lastIndexOf('.', type.lastIndexOf('.') - 1) + 1)
        + "."
        + method.getName();
  }

  public int samples() {
    return samples;
  }

  /**
   * Text tables: the top {@code limit} rows of threads, self methods and inclusive methods, with
   * shares.
   */
  public String format(int limit) {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "%,d execution samples%n", samples));
    table(text, "thread (numbers folded)", threads, limit);
    table(text, "self (top of stack)", self, limit);
    table(text, "inclusive (anywhere on the stack)", inclusive, limit);
    return text.toString();
  }

  private void table(StringBuilder text, String title, Map<String, Integer> counts, int limit) {
    text.append(String.format(Locale.ROOT, "  %-70s %8s %6s%n", title, "samples", "share"));
    counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(limit)
        .forEach(
            e ->
                text.append(
                    String.format(
                        Locale.ROOT,
                        "  %-70s %8d %5.1f%%%n",
                        abbreviate(e.getKey()),
                        e.getValue(),
                        100.0 * e.getValue() / Math.max(1, samples))));
  }

  private static String abbreviate(String text) {
    return text.length() <= 70 ? text : "…" + text.substring(text.length() - 69);
  }
}
