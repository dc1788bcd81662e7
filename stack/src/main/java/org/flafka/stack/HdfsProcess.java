package org.flafka.stack;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link Hdfs} in its own JVM ({@link HdfsMain}), so that an agent's CPU can be measured apart from
 * HDFS's. {@link #close()} stops it (SIGTERM, then SIGKILL after {@link ChildProcess#STOP_GRACE});
 * HDFS also exits if this JVM dies. To stop and restart the NameNode, use the in-JVM {@link Hdfs}.
 */
public final class HdfsProcess implements HdfsCluster, AutoCloseable {
  /** Heap for the HDFS JVM unless the caller passes its own JVM options. */
  public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final ChildProcess process;
  private final URI uri;

  private HdfsProcess(ChildProcess process, URI uri) {
    this.process = process;
    this.uri = uri;
  }

  /**
   * Starts HDFS in a process with its data under {@code dir} and its log in {@code dir/hdfs.log}.
   */
  public static HdfsProcess start(Path dir) {
    return start(dir, DEFAULT_JVM_OPTIONS);
  }

  public static HdfsProcess start(Path dir, List<String> jvmOptions) {
    Path root = Directories.create(dir).toAbsolutePath();
    Path readyFile = root.resolve("hdfs.ready");
    List<String> args =
        List.of(
            "--dir",
            root.resolve("data").toString(),
            "--ready-file",
            readyFile.toString(),
            "--exit-with-parent");
    ChildProcess process =
        ChildProcess.startJava(
            "HDFS process",
            StackClasspath.withProcessLogging(jvmOptions),
            StackClasspath.current(),
            HdfsMain.class.getName(),
            args,
            root,
            root.resolve("hdfs.log"));
    return new HdfsProcess(process, URI.create(process.awaitReadyFile(readyFile, READY_TIMEOUT)));
  }

  @Override
  public URI uri() {
    return uri;
  }

  public long pid() {
    return process.pid();
  }

  /** CPU time the HDFS process has used so far (see {@link ChildProcess#cpuTime()}). */
  public Duration cpuTime() {
    return process.cpuTime();
  }

  public Path log() {
    return process.log();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Stops HDFS cleanly (its data directory is deleted). */
  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "HdfsProcess[" + uri + ", " + process + "]";
  }
}
