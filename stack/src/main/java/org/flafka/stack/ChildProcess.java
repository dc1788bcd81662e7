package org.flafka.stack;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A JVM the stack started as a child process (broker, HDFS, Flume agent), its stdout and stderr
 * going to one log file. Children never outlive the JVM that started them when it exits normally or
 * on SIGTERM/SIGINT (a shutdown hook kills them); the stack's own mains also exit when their stdin
 * closes, which covers the parent being SIGKILLed.
 */
public final class ChildProcess implements AutoCloseable {
  /** How long {@link #stop()} waits after SIGTERM before it sends SIGKILL. */
  public static final Duration STOP_GRACE = Duration.ofSeconds(30);

  /** A line of a Java stack trace below its exception: "\tat ..." or "\t... 12 more". */
  private static final Pattern STACK_FRAME = Pattern.compile("\\s+(at |\\.\\.\\. \\d+ more)");

  private static final Set<ChildProcess> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> LIVE.forEach(ChildProcess::kill), "flafka-stack-children"));
  }

  private final String description;
  private final Process process;
  private final Path log;

  /** Where this run's output starts in the log: a restart in the same directory appends to it. */
  private final long logStart;

  private ChildProcess(String description, Process process, Path log, long logStart) {
    this.description = description;
    this.process = process;
    this.log = log;
    this.logStart = logStart;
  }

  /**
   * Starts {@code java <jvmOptions> -cp <classpath> <mainClass> <args>} with the JDK running this
   * JVM, in {@code workDir}, output appended to {@code log}.
   */
  static ChildProcess startJava(
      String description,
      List<String> jvmOptions,
      String classpath,
      String mainClass,
      List<String> args,
      Path workDir,
      Path log) {
    return start(description, javaCommand(jvmOptions, classpath, mainClass, args), workDir, log);
  }

  /** {@code java <jvmOptions> -cp <classpath> <mainClass> <args>} with the JDK running this JVM. */
  static List<String> javaCommand(
      List<String> jvmOptions, String classpath, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  /**
   * Starts {@code command} in {@code workDir}, stdout and stderr appended to {@code log}; killed
   * with this JVM like every child.
   */
  public static ChildProcess start(
      String description, List<String> command, Path workDir, Path log) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // stdin stays a pipe held by this JVM: our mains exit when it closes (see ParentWatch)
    try {
      long logStart = Files.exists(log) ? Files.size(log) : 0;
      ChildProcess child = new ChildProcess(description, builder.start(), log, logStart);
      LIVE.add(child);
      return child;
    } catch (IOException e) {
      throw new StackException("could not start " + description + ": " + e.getMessage(), e);
    }
  }

  public long pid() {
    return process.pid();
  }

  /**
   * Writes {@code line} to the child's stdin: a command for the stack's mains, which read their
   * stdin line by line (see {@code HdfsMain}).
   */
  void send(String line) {
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException e) {
      throw new StackException(
          "could not write to " + description + ": " + e.getMessage() + "; see " + log, e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The file holding the process's stdout and stderr. */
  public Path log() {
    return log;
  }

  /**
   * CPU time (user + system, all threads) the process has used so far: utime + stime from
   * /proc/[pid]/stat, which the JDK reads and converts from clock ticks. Zero once the process has
   * exited.
   */
  public Duration cpuTime() {
    return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /**
   * SIGTERM, wait up to {@link #STOP_GRACE} for a clean shutdown, then SIGKILL. Returns the exit
   * code.
   */
  public int stop() {
    return stop(STOP_GRACE);
  }

  /** {@link #stop()} with {@code grace} instead of {@link #STOP_GRACE} before the SIGKILL. */
  public int stop(Duration grace) {
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        return kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return kill();
    }
    return finish();
  }

  /** SIGKILL, as a crash would; waits until the process is gone. Returns the exit code (137). */
  public int kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    boolean interrupted = false;
    while (true) {
      try {
        process.waitFor();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return finish();
  }

  private int finish() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    LIVE.remove(this);
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      stop();
    } else {
      finish();
    }
  }

  /**
   * Waits until the child has written {@code readyFile} (see {@link ReadyFile}) and returns its
   * content. Fails, killing the child, if it exits first or does not get ready within {@code
   * timeout}.
   */
  String awaitReadyFile(Path readyFile, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String content = ReadyFile.read(readyFile);
      if (content != null) {
        return content;
      }
      if (!process.isAlive()) {
        int code = finish();
        throw new StackException(
            description
                + " exited with code "
                + code
                + " before it was ready; see "
                + log
                + ":\n"
                + logTail(20));
      }
      if (System.nanoTime() > deadline) {
        kill();
        throw new StackException(
            description
                + " was not ready after "
                + timeout.toSeconds()
                + " s and was killed; see "
                + log
                + ":\n"
                + logTail(20));
      }
      sleep(Duration.ofMillis(100));
    }
  }

  /**
   * What this process has written to its log so far (earlier runs in the same directory left out).
   */
  public String output() {
    try (SeekableByteChannel channel = Files.newByteChannel(log)) {
      channel.position(Math.min(logStart, channel.size()));
      return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  /**
   * The last {@code lines} lines of this process's output, for error messages, without the frames
   * of stack traces (their exception and {@code Caused by} lines stay): the CLI prints a failure as
   * one line, where the frames would bury the reason.
   */
  public String logTail(int lines) {
    List<String> all =
        output().lines().filter(line -> !STACK_FRAME.matcher(line).lookingAt()).toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  String description() {
    return description;
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while waiting", e);
    }
  }

  @Override
  public String toString() {
    return description + " (pid " + process.pid() + ", log " + log + ")";
  }

  /**
   * A one-line file a child writes once it is ready; written atomically so readers never see half
   * of it.
   */
  static final class ReadyFile {
    private ReadyFile() {}

    static void write(Path file, String content) throws IOException {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, content + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The content without the trailing newline, or null when the file does not exist yet. */
    static String read(Path file) {
      try {
        return Files.readString(file, StandardCharsets.UTF_8).strip();
      } catch (NoSuchFileException notYet) {
        return null;
      } catch (IOException e) {
        throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
      }
    }
  }
}
