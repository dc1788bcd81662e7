package org.flafka.edge.source;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flume.Transaction;

/**
 * Not a test (surefire does not run it): a manual probe of the CPU the source spends per event, until the
 * benchmarks module measures the source against rsyslog and stock Flume. It sends N 200-byte messages over loopback
 * (tcp: newline framed on one connection; udp: one datagram each) into a source with a memory channel that a taker
 * thread drains, twice (the first round warms the JIT), and prints the CPU time of the source's own threads and of
 * the whole process minus the sender and taker threads (that is: source, GC and JIT).
 *
 * <pre>
 * ./mvnw -q -o -pl agents/edge test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/edge-cp.txt \
 *     -Dmdep.includeScope=test
 * java -cp agents/edge/target/classes:agents/edge/target/test-classes:$(cat /tmp/edge-cp.txt) \
 *     org.flafka.edge.source.CpuPerEventProbe tcp 1000000
 * </pre>
 * UDP rounds send as fast as the socket allows; datagrams the kernel drops are simply not accepted.
 */
public final class CpuPerEventProbe {

  private CpuPerEventProbe() {
  }

  public static void main(String[] args) throws Exception {
    String protocol = args[0];
    int count = Integer.parseInt(args[1]);
    Map<String, String> props = new HashMap<>(Map.of("protocol", protocol, "bind", "127.0.0.1", "port", "0",
        "batchSize", "1000"));
    if (!protocol.equals("udp")) {
      props.put("tcp.workerThreads", "1");
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    byte[] message = ("<13>Nov 21 06:28:00 edge-router-7 app[123]: " + "x".repeat(200)).substring(0, 200)
        .getBytes(StandardCharsets.US_ASCII);
    try (SourceHarness harness = new SourceHarness(props, Map.of("capacity", "200000", "transactionCapacity",
        "1000"))) {
      Thread taker = new Thread(() -> drain(harness), "probe-taker");
      taker.setDaemon(true);
      taker.start();
      for (int round = 1; round <= 2; round++) {
        long sourceBefore = sourceThreadsCpu(threads);
        long processBefore = os.getProcessCpuTime();
        long othersBefore = threads.getThreadCpuTime(taker.getId()) + threads.getCurrentThreadCpuTime();
        long acceptedBefore = harness.counter().getEventAcceptedCount();
        long start = System.nanoTime();
        if (protocol.equals("udp")) {
          sendDatagrams(harness.source.getPort(), message, count);
          Thread.sleep(2000);
        } else {
          sendLines(harness.source.getPort(), message, count);
          SourceHarness.await(() -> harness.counter().getEventAcceptedCount() >= acceptedBefore + count,
              Duration.ofMinutes(2));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long accepted = harness.counter().getEventAcceptedCount() - acceptedBefore;
        double millions = accepted / 1e6;
        double source = (sourceThreadsCpu(threads) - sourceBefore) / 1e9;
        double others = (threads.getThreadCpuTime(taker.getId()) + threads.getCurrentThreadCpuTime()
            - othersBefore) / 1e9;
        double rest = (os.getProcessCpuTime() - processBefore) / 1e9 - others;
        System.out.printf("%s round %d: %d events accepted in %.2f s; source threads %.2f CPU-s per million; "
            + "process minus sender and taker %.2f CPU-s per million%n", protocol, round, accepted, seconds,
            source / millions, rest / millions);
      }
      taker.interrupt();
    }
  }

  private static void drain(SourceHarness harness) {
    while (!Thread.currentThread().isInterrupted()) {
      Transaction tx = harness.channel.getTransaction();
      tx.begin();
      int taken = 0;
      while (taken < 1000 && harness.channel.take() != null) {
        taken++;
      }
      tx.commit();
      tx.close();
      if (taken == 0) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  private static void sendLines(int port, byte[] message, int count) throws Exception {
    int perWrite = 1000;
    byte[] lines = new byte[(message.length + 1) * perWrite];
    for (int i = 0; i < perWrite; i++) {
      System.arraycopy(message, 0, lines, i * (message.length + 1), message.length);
      lines[i * (message.length + 1) + message.length] = '\n';
    }
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      for (int i = 0; i < count / perWrite; i++) {
        out.write(lines);
      }
      out.flush();
    }
  }

  private static void sendDatagrams(int port, byte[] message, int count) throws Exception {
    InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    try (DatagramSocket socket = new DatagramSocket()) {
      DatagramPacket packet = new DatagramPacket(message, message.length, to);
      for (int i = 0; i < count; i++) {
        socket.send(packet);
      }
    }
  }

  private static long sourceThreadsCpu(ThreadMXBean threads) {
    long nanos = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("flafka-syslog-source")) {
        nanos += threads.getThreadCpuTime(info.getThreadId());
      }
    }
    return nanos;
  }
}
