package org.flafka.stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@link Hdfs} as its own process and writes its URI ({@code hdfs://127.0.0.1:port}) to the
 * ready file once clients can use it. Stops cleanly on SIGTERM, deleting its directory.
 *
 * <pre>java -cp &lt;stack classpath&gt; org.flafka.stack.HdfsMain --dir D --ready-file F</pre>
 *
 * {@code --exit-with-parent} stops HDFS when stdin closes, and carries out the lines the parent
 * writes to stdin: {@value #STOP_NAMENODE}, {@value #RESTART_NAMENODE} (writing the NameNode's
 * state to {@value #NAMENODE_FILE} beside the ready file when done).
 */
public final class HdfsMain {
  /** Beside the ready file: the NameNode's state after the last command, "up" or "down". */
  static final String NAMENODE_FILE = "namenode.state";

  static final String STOP_NAMENODE = "stop-namenode";
  static final String RESTART_NAMENODE = "restart-namenode";

  private HdfsMain() {}

  /**
   * Carries out a command from the parent and writes the NameNode's state to {@code stateFile}
   * ("failed: ..." when it could not).
   */
  private static void nameNode(String command, Hdfs hdfs, Path stateFile) {
    try {
      if (hdfs == null) {
        throw new IllegalStateException("HDFS has not started yet");
      }
      switch (command) {
        case STOP_NAMENODE -> hdfs.stopNameNode();
        case RESTART_NAMENODE -> hdfs.restartNameNode();
        default -> throw new IllegalArgumentException("unknown command '" + command + "'");
      }
      ChildProcess.ReadyFile.write(stateFile, hdfs.isNameNodeUp() ? "up" : "down");
    } catch (Exception e) {
      System.err.println("HdfsMain: " + command + " failed: " + e);
      try {
        ChildProcess.ReadyFile.write(stateFile, "failed: " + e.getMessage());
      } catch (IOException ignored) {
        // the parent times out and points at this log
      }
    }
  }

  public static void main(String[] args) throws Exception {
    MainArgs parsed;
    try {
      parsed = MainArgs.parse(args);
      if (!parsed.settings.isEmpty() || !parsed.clientLatency.isZero() || parsed.ports != null) {
        throw new IllegalArgumentException(
            "--set, --client-latency-ms and --port are not supported for HDFS");
      }
    } catch (IllegalArgumentException e) {
      System.err.println(
          "HdfsMain: "
              + e.getMessage()
              + "; usage: HdfsMain --dir DIR --ready-file FILE"
              + " [--exit-with-parent]");
      System.exit(2);
      return;
    }
    AtomicReference<Hdfs> running = new AtomicReference<>();
    Path nameNodeFile = parsed.readyFile.resolveSibling(NAMENODE_FILE);
    CountDownLatch stopRequest =
        parsed.stopRequest(command -> nameNode(command, running.get(), nameNodeFile));
    try {
      Hdfs hdfs = Hdfs.start(parsed.dir);
      running.set(hdfs);
      ChildProcess.ReadyFile.write(parsed.readyFile, hdfs.uri().toString());
      stopRequest.await();
      hdfs.close();
    } catch (Exception e) {
      // the server's own threads would keep a half-started JVM alive; the parent reads this from
      // the log
      System.err.println("HdfsMain: " + e.getMessage());
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
