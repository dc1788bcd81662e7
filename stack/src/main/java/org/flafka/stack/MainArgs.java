package org.flafka.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * The command line shared by the stack's process mains ({@link KafkaBrokerMain}, {@link HdfsMain}):
 * {@code --dir D --ready-file F [--set key=value]... [--exit-with-parent]}.
 */
final class MainArgs {
  static final String USAGE_TAIL =
      "--dir DIR --ready-file FILE [--set key=value]... [--client-latency-ms N]"
          + " [--port N --controller-port N] [--exit-with-parent]";

  final Path dir;
  final Path readyFile;
  final Map<String, String> settings;

  /**
   * Added to each direction of every client connection (the broker's {@link LatencyProxy}); zero
   * for none.
   */
  final Duration clientLatency;

  final boolean exitWithParent;

  /**
   * The broker's listener and controller ports, which make it keep its data for a restart on them;
   * null for free ports and fresh data.
   */
  final KafkaBroker.Ports ports;

  private MainArgs(
      Path dir,
      Path readyFile,
      Map<String, String> settings,
      Duration clientLatency,
      boolean exitWithParent,
      KafkaBroker.Ports ports) {
    this.dir = dir;
    this.readyFile = readyFile;
    this.settings = settings;
    this.clientLatency = clientLatency;
    this.exitWithParent = exitWithParent;
    this.ports = ports;
  }

  /** Parses {@code args}; throws IllegalArgumentException with a one-line message on a mistake. */
  static MainArgs parse(String[] args) {
    Path dir = null;
    Path readyFile = null;
    Map<String, String> settings = new LinkedHashMap<>();
    Duration clientLatency = Duration.ZERO;
    boolean exitWithParent = false;
    int port = 0;
    int controllerPort = 0;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--dir" -> dir = Path.of(value(args, ++i, arg));
        case "--ready-file" -> readyFile = Path.of(value(args, ++i, arg));
        case "--set" -> {
          String setting = value(args, ++i, arg);
          int eq = setting.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--set needs key=value, got '" + setting + "'");
          }
          settings.put(setting.substring(0, eq), setting.substring(eq + 1));
        }
        case "--client-latency-ms" -> {
          String millis = value(args, ++i, arg);
          try {
            clientLatency = Duration.ofMillis(Long.parseLong(millis));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                arg + " needs a whole number of milliseconds, got '" + millis + "'");
          }
          if (clientLatency.isNegative()) {
            throw new IllegalArgumentException(arg + " must be 0 or more, got " + millis);
          }
        }
        case "--exit-with-parent" -> exitWithParent = true;
        case "--port" -> port = port(value(args, ++i, arg), arg);
        case "--controller-port" -> controllerPort = port(value(args, ++i, arg), arg);
        default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    if (dir == null || readyFile == null) {
      throw new IllegalArgumentException("--dir and --ready-file are required");
    }
    if ((port == 0) != (controllerPort == 0)) {
      throw new IllegalArgumentException("--port and --controller-port go together");
    }
    if (port != 0 && !clientLatency.isZero()) {
      throw new IllegalArgumentException(
          "--port and --client-latency-ms do not go together: a restarted process would lose the"
              + " proxy's connections");
    }
    return new MainArgs(
        dir,
        readyFile,
        settings,
        clientLatency,
        exitWithParent,
        port == 0 ? null : new KafkaBroker.Ports(port, controllerPort));
  }

  private static int port(String text, String flag) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + " needs a port from 1 to 65535, got '" + text + "'");
  }

  private static String value(String[] args, int index, String flag) {
    if (index >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[index];
  }

  /**
   * Starts listening for a request to stop and returns the latch it opens: SIGTERM or SIGINT, or,
   * with --exit-with-parent, stdin reaching end of file (the parent holds the other end of the
   * pipe, so this happens when the parent dies, even by SIGKILL). Call it before starting the
   * server, await the latch, then shut the server down on the main thread and exit. Not a shutdown
   * hook: Hadoop cannot shut down inside one (its ShutdownHookManager refuses changes once the JVM
   * is exiting).
   */
  CountDownLatch stopRequest() {
    return stopRequest(line -> {});
  }

  /**
   * {@link #stopRequest()}, handing each line the parent writes to stdin to {@code commands} (with
   * --exit-with-parent), on a thread of its own, one at a time.
   */
  CountDownLatch stopRequest(Consumer<String> commands) {
    CountDownLatch stop = new CountDownLatch(1);
    for (String name : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(name), signal -> stop.countDown());
    }
    if (exitWithParent) {
      Thread watch =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                  for (String line; (line = in.readLine()) != null; ) {
                    commands.accept(line.strip());
                  }
                } catch (IOException e) {
                  // a broken pipe means the parent is gone, the same as end of file
                }
                stop.countDown();
              },
              "parent-watch");
      watch.setDaemon(true);
      watch.start();
    }
    return stop;
  }
}
