package org.flafka.stack;

import java.util.concurrent.CountDownLatch;

/**
 * Runs {@link Hdfs} as its own process and writes its URI ({@code hdfs://127.0.0.1:port}) to the
 * ready file once clients can use it. Stops cleanly on SIGTERM, deleting its directory.
 *
 * <pre>java -cp &lt;stack classpath&gt; org.flafka.stack.HdfsMain --dir D --ready-file F</pre>
 *
 * {@code --exit-with-parent} stops HDFS when stdin closes.
 */
public final class HdfsMain {
  private HdfsMain() {}

  public static void main(String[] args) throws Exception {
    MainArgs parsed;
    try {
      parsed = MainArgs.parse(args);
      if (!parsed.settings.isEmpty() || !parsed.clientLatency.isZero()) {
        throw new IllegalArgumentException(
            "--set and --client-latency-ms are not supported for HDFS");
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
    CountDownLatch stopRequest = parsed.stopRequest();
    try {
      Hdfs hdfs = Hdfs.start(parsed.dir);
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
