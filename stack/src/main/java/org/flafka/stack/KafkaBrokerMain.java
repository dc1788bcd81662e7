package org.flafka.stack;

import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link KafkaBroker} as its own process and writes its bootstrap address ({@code
 * 127.0.0.1:port}) to the ready file once it accepts clients. Stops cleanly on SIGTERM, deleting
 * its directory unless it keeps its data (below).
 *
 * <pre>
 * java -cp &lt;stack classpath&gt; org.flafka.stack.KafkaBrokerMain --dir D --ready-file F [--set key=value]...
 * </pre>
 *
 * {@code --set} overrides a broker setting; {@code --client-latency-ms N} puts a {@link
 * LatencyProxy} of N ms each way in front of the broker; {@code --port N --controller-port M} bind
 * those ports and keep the data in {@code D} when stopping, so a process started again with the
 * same arguments is the same broker restarted; {@code --exit-with-parent} stops the broker when
 * stdin closes.
 */
public final class KafkaBrokerMain {
  private KafkaBrokerMain() {}

  public static void main(String[] args) throws Exception {
    MainArgs parsed;
    try {
      parsed = MainArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(
          "KafkaBrokerMain: " + e.getMessage() + "; usage: KafkaBrokerMain " + MainArgs.USAGE_TAIL);
      System.exit(2);
      return;
    }
    CountDownLatch stopRequest = parsed.stopRequest();
    try {
      KafkaBroker broker =
          parsed.ports == null
              ? KafkaBroker.start(parsed.dir, parsed.settings, parsed.clientLatency)
              : KafkaBroker.startKeepingData(parsed.dir, parsed.settings, parsed.ports);
      ChildProcess.ReadyFile.write(parsed.readyFile, broker.bootstrapServers());
      stopRequest.await();
      broker.close();
    } catch (Exception e) {
      // the server's own threads would keep a half-started JVM alive; the parent reads this from
      // the log
      System.err.println("KafkaBrokerMain: " + e.getMessage());
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
