package org.flafka.stack;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link Hdfs} in its own JVM ({@link HdfsMain}), so that an agent's CPU can be measured apart from
 * HDFS's. {@link #close()} stops it (SIGTERM, then SIGKILL after {@link ChildProcess#STOP_GRACE});
 * HDFS also exits if this JVM dies. {@link #stopNameNode()} and {@link #restartNameNode()} take the
 * NameNode away and bring it back on the same port, as {@link Hdfs}'s do, by a command on the
 * process's stdin.
 */
public final class HdfsProcess implements HdfsCluster, AutoCloseable {
  /** Heap for the HDFS JVM unless the caller passes its own JVM options. */
  public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final ChildProcess process;
  private final URI uri;
  private final Path readyFile;

  private HdfsProcess(ChildProcess process, URI uri, Path readyFile) {
    this.process = process;
    this.uri = uri;
    this.readyFile = readyFile;
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
    return new HdfsProcess(
        process, URI.create(process.awaitReadyFile(readyFile, READY_TIMEOUT)), readyFile);
  }

  @Override
  public URI uri() {
    return uri;
  }

  /**
   * Stops the NameNode; clients fail or retry until {@link #restartNameNode()}. The DataNode keeps
   * running.
   */
  public synchronized void stopNameNode() {
    nameNode(HdfsMain.STOP_NAMENODE, "down");
  }

  /** Starts the NameNode again on the same port and waits until the DataNode has reported to it. */
  public synchronized void restartNameNode() {
    nameNode(HdfsMain.RESTART_NAMENODE, "up");
  }

  private void nameNode(String command, String expected) {
    Path stateFile = readyFile.resolveSibling(HdfsMain.NAMENODE_FILE);
    try {
      Files.deleteIfExists(stateFile);
    } catch (IOException e) {
      throw new StackException("could not delete " + stateFile + ": " + e.getMessage(), e);
    }
    process.send(command);
    String state = process.awaitReadyFile(stateFile, READY_TIMEOUT);
    if (!state.equals(expected)) {
      throw new StackException(
          "HDFS process: " + command + " left the NameNode " + state + "; see " + log());
    }
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
