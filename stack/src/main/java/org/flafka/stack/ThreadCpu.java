package org.flafka.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The CPU time of every thread of a process, from Linux's {@code /proc/<pid>/task/<tid>/stat}, so a
 * benchmark can say which threads spent a process's CPU (its sinks, its source, JIT compilation,
 * garbage collection) rather than only how much. Unlike a sampling profiler this costs nothing in
 * the measured process and counts time spent outside Java code (kernel socket work, JNI
 * compression, the JVM's own threads).
 *
 * <p>Times are in clock ticks of {@link #TICKS_PER_SECOND}: Linux reports them in USER_HZ, which is
 * 100 on every architecture the JDK runs on (it is part of the kernel's ABI).
 */
public final class ThreadCpu {
  public static final int TICKS_PER_SECOND = 100;

  /**
   * One thread: its name as the kernel has it (at most 15 bytes) and the ticks it has run so far.
   */
  record Thread(String name, long ticks) {}

  private final Map<Long, Thread> threads;

  private ThreadCpu(Map<Long, Thread> threads) {
    this.threads = Collections.unmodifiableMap(threads);
  }

  /**
   * The threads of process {@code pid} now; empty where /proc cannot be read (not Linux, or the
   * process is gone).
   */
  public static ThreadCpu of(long pid) {
    return read(Path.of("/proc", Long.toString(pid), "task"));
  }

  static ThreadCpu read(Path taskDir) {
    Map<Long, Thread> threads = new HashMap<>();
    try (Stream<Path> tasks = Files.list(taskDir)) {
      tasks.forEach(
          task -> {
            try {
              String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
              long ticks = ticks(Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII));
              threads.put(Long.parseLong(task.getFileName().toString()), new Thread(name, ticks));
            } catch (IOException | RuntimeException e) {
              // The thread ended between the listing and the read: it has no time left to count.
            }
          });
    } catch (IOException e) {
      // No such process any more, or no /proc: nothing to count.
      return new ThreadCpu(Map.of());
    }
    return new ThreadCpu(threads);
  }

  /**
   * utime + stime of one {@code stat} line. The name field in parentheses may itself hold spaces
   * and parentheses, so the fields are counted from the last ')'.
   */
  static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
    // After the name: state is field 3 of stat(5), utime 14 and stime 15, i.e. indexes 11 and 12
    // here.
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /**
   * CPU seconds spent between {@code before} and this sample, summed per group of {@code grouping}
   * (which maps a thread name to its group), in the order of the groups' names. A thread that
   * started in between counts from zero; one that ended in between is lost (its last ticks are
   * unknown), which a caller sampling a steady process can ignore.
   */
  public Map<String, Double> secondsSince(ThreadCpu before, ThreadGroups grouping) {
    Map<String, Double> seconds = new TreeMap<>();
    threads.forEach(
        (tid, now) -> {
          Thread then = before.threads.get(tid);
          long ticks = now.ticks - (then != null && then.name.equals(now.name) ? then.ticks : 0);
          seconds.merge(grouping.groupOf(now.name), ticks / (double) TICKS_PER_SECOND, Double::sum);
        });
    return seconds;
  }

  int size() {
    return threads.size();
  }

  /** Names the group a thread belongs to, from its (kernel-truncated) name. */
  @FunctionalInterface
  public interface ThreadGroups {
    /** The group of the JIT compiler threads in {@link #FLUME_AGENT}. */
    String JIT_COMPILER = "JIT compiler";

    String groupOf(String threadName);

    /**
     * The threads of a Flume agent, by what they do: the sink runners, the Kafka producers' network
     * threads, the HDFS sinks' own threads (Flume's HDFS sink hands every append, flush and close
     * to a call runner thread named hdfs-<sink>-call-runner-N, and rolls on
     * hdfs-<sink>-roll-timer-N), the pollable sources' runners (Kafka sources), JIT compilers, the
     * garbage collector and VM threads; everything else (an event-driven source's event loops or
     * MINA processors, timers, metrics) is "source and other".
     */
    ThreadGroups FLUME_AGENT =
        name -> {
          if (name.startsWith("SinkRunner")) {
            return "sink runners";
          }
          if (name.startsWith("kafka-producer")) {
            return "Kafka producer I/O";
          }
          if (name.startsWith("hdfs-")) {
            return "HDFS sink threads";
          }
          if (name.startsWith("PollableSource")) {
            return "pollable source runners";
          }
          if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return JIT_COMPILER;
          }
          if (name.startsWith("GC Thread")
              || name.startsWith("G1 ")
              || name.equals("VM Thread")
              || name.startsWith("VM Periodic")) {
            return "GC and VM";
          }
          return "source and other";
        };
  }
}
