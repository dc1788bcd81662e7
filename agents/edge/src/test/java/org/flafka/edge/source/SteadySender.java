package org.flafka.edge.source;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A well-behaved sender on its own thread and connection: {@code count} line-framed messages, one
 * every {@code pause}, so that it keeps sending while a hostile sender misbehaves beside it.
 */
final class SteadySender {

  private final List<String> messages = new ArrayList<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  /** Starts sending on {@code socket} (plain or TLS); the caller closes the socket. */
  SteadySender(Socket socket, String name, int count, Duration pause) {
    for (int i = 0; i < count; i++) {
      messages.add("<13>" + name + " " + i);
    }
    Thread thread =
        new Thread(
            () -> {
              try {
                OutputStream out = socket.getOutputStream();
                for (String message : messages) {
                  out.write((message + "\n").getBytes(StandardCharsets.ISO_8859_1));
                  out.flush();
                  if (!pause.isZero()) {
                    Thread.sleep(pause.toMillis());
                  }
                }
                done.complete(null);
              } catch (IOException | InterruptedException | RuntimeException e) {
                done.completeExceptionally(e);
              }
            },
            "steady-sender-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  /** The bodies the source must deliver, in order. */
  List<String> messages() {
    return messages;
  }

  /** Waits until every message was written; rethrows what stopped the sender. */
  void awaitSent(Duration timeout) throws InterruptedException, TimeoutException {
    try {
      done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("the well-behaved sender failed: " + e.getCause(), e.getCause());
    }
  }
}
