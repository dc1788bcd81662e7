package org.flafka.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flafka.cli.Flafka;
import org.flafka.load.Mark;

/**
 * A real {@code flafka load} run over TCP (newline framing) into a loopback receiver that keeps
 * every byte: the manifest it wrote and the bodies it sent, by mark, for tests to deliver (or not)
 * wherever they audit.
 */
final class LoadRun {
  final Path manifest;

  /** Every body sent, by its mark. */
  final Map<Mark, byte[]> bodies;

  private LoadRun(Path manifest, Map<Mark, byte[]> bodies) {
    this.manifest = manifest;
    this.bodies = bodies;
  }

  /**
   * Sends {@code count} events (sizes 200 to 400 bytes, every format) from {@code devices} devices.
   */
  static LoadRun run(Path dir, int devices, int connections, long count) throws Exception {
    Path manifest = dir.resolve("sent.json");
    ExecutorService receiver = Executors.newFixedThreadPool(connections + 1);
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Future<List<Future<byte[]>>> accepted =
          receiver.submit(
              () -> {
                List<Future<byte[]>> streams = new ArrayList<>();
                for (int n = 0; n < connections; n++) {
                  Socket socket = server.accept();
                  streams.add(
                      receiver.submit(
                          () -> {
                            try (socket;
                                InputStream in = socket.getInputStream()) {
                              return in.readAllBytes();
                            }
                          }));
                }
                return streams;
              });
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          Flafka.execute(
              new PrintWriter(out),
              new PrintWriter(err),
              "load",
              "--target",
              "127.0.0.1:" + server.getLocalPort(),
              "--devices",
              Integer.toString(devices),
              "--connections",
              Integer.toString(connections),
              "--count",
              Long.toString(count),
              "--size",
              "200-400",
              "--mix",
              "rfc5424,rfc3164,asa,pix,ios,junk",
              "--seed",
              "7",
              "--manifest",
              manifest.toString(),
              "--quiet");
      assertEquals(0, code, "flafka load failed: " + err);
      Map<Mark, byte[]> bodies = new LinkedHashMap<>();
      for (Future<byte[]> stream : accepted.get(30, TimeUnit.SECONDS)) {
        byte[] bytes = stream.get(30, TimeUnit.SECONDS);
        int start = 0;
        for (int at = 0; at < bytes.length; at++) {
          if (bytes[at] == '\n') {
            byte[] body = Arrays.copyOfRange(bytes, start, at);
            bodies.put(Mark.find(body), body);
            start = at + 1;
          }
        }
      }
      assertEquals(count, bodies.size(), "bodies received with distinct marks");
      return new LoadRun(manifest, bodies);
    } finally {
      receiver.shutdownNow();
    }
  }

  /** The body device {@code device} sent as sequence {@code sequence}. */
  byte[] body(int device, long sequence) {
    return bodies.get(new Mark(device, sequence)).clone();
  }
}
