package org.flafka.stack;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import kafka.server.BrokerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * A real Kafka broker and KRaft controller in one node, running in this JVM (about 1.5 s to start).
 * The broker listener binds 127.0.0.1 port 0 and the port it got is read back from the broker; the
 * controller's port must be written into the quorum configuration before start, so it is allocated
 * and the start retried on a bind conflict. {@link #close()} stops the node and deletes its
 * directory.
 *
 * <p>With a client latency the broker listens on an allocated port and advertises a {@link
 * LatencyProxy} in front of it, so every client, bootstrap and metadata alike, reaches it as it
 * would a remote cluster.
 *
 * <p>For a broker in its own process (so an agent's CPU can be measured apart) use {@link
 * KafkaBrokerProcess}.
 */
public final class KafkaBroker implements KafkaCluster, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);

  private static final String BROKER_LISTENER = "PLAINTEXT";
  private static final String CONTROLLER_LISTENER = "CONTROLLER";
  private static final int NODE_ID = 1;
  private static final int START_ATTEMPTS = 3;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final Path dir;
  private final Path dataDir;
  private final KafkaRaftServer server;

  /** In front of the broker listener, or null. */
  private final LatencyProxy proxy;

  private final String bootstrapServers;
  private boolean closed;

  private KafkaBroker(
      Path dir, Path dataDir, KafkaRaftServer server, LatencyProxy proxy, String bootstrapServers) {
    this.dir = dir;
    this.dataDir = dataDir;
    this.server = server;
    this.proxy = proxy;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * Starts a broker with its data in {@code dir/kraft}; {@link #close()} deletes that, and {@code
   * dir} if it is then empty.
   */
  public static KafkaBroker start(Path dir) {
    return start(dir, Map.of());
  }

  /**
   * Starts a broker as {@link #start(Path)} does, with {@code overrides} applied over the
   * single-node defaults (e.g. {@code num.network.threads}); the listener and quorum settings are
   * the stack's and cannot be overridden.
   */
  public static KafkaBroker start(Path dir, Map<String, String> overrides) {
    return start(dir, overrides, Duration.ZERO);
  }

  /**
   * Starts a broker as {@link #start(Path, Map)} does, which its clients reach through a {@link
   * LatencyProxy} that delays each direction by {@code clientLatency} (none when zero).
   */
  public static KafkaBroker start(Path dir, Map<String, String> overrides, Duration clientLatency) {
    return start(dir, overrides, clientLatency, Map.of());
  }

  /**
   * Starts a broker as {@link #start(Path, Map, Duration)} does, with more listeners besides the
   * PLAINTEXT one the stack's own clients use: {@code extraListeners} maps a listener name to its
   * security protocol; each binds {@code localhost} port 0 ({@link #boundPort(String)}), so clients
   * reach it by that name (Kerberos service principals and certificates name the host). Their
   * settings ({@code listener.name.<name>.*}) come with {@code overrides} (see {@link
   * SecureKafka}).
   */
  static KafkaBroker start(
      Path dir,
      Map<String, String> overrides,
      Duration clientLatency,
      Map<String, String> extraListeners) {
    if (!clientLatency.isZero() && !extraListeners.isEmpty()) {
      throw new StackException("a broker with a client latency has no extra listeners");
    }
    Directories.create(dir);
    for (int attempt = 1; ; attempt++) {
      Path dataDir = dir.resolve("kraft");
      Directories.deleteRecursively(dataDir);
      int listenerPort = clientLatency.isZero() ? 0 : FreePort.allocate();
      LatencyProxy proxy =
          clientLatency.isZero()
              ? null
              : LatencyProxy.start(new InetSocketAddress("127.0.0.1", listenerPort), clientLatency);
      KafkaConfig config =
          KafkaConfig.fromProps(
              config(
                  dataDir,
                  FreePort.allocate(),
                  listenerPort,
                  proxy == null ? 0 : proxy.port(),
                  overrides,
                  extraListeners));
      try {
        format(config, dataDir);
      } catch (RuntimeException e) {
        closeProxy(proxy);
        throw e;
      }
      KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
      try {
        server.startup();
      } catch (RuntimeException e) {
        shutdown(server);
        closeProxy(proxy);
        if (FreePort.isBindConflict(e) && attempt < START_ATTEMPTS) {
          LOG.info("Kafka could not bind its ports, retrying with new ones: {}", e.getMessage());
          continue;
        }
        Directories.deleteOwned(dataDir, dir);
        throw new StackException("Kafka broker in " + dir + " did not start: " + e.getMessage(), e);
      }
      int port;
      try {
        port = proxy != null ? proxy.port() : boundBrokerPort(server);
      } catch (RuntimeException e) {
        shutdown(server);
        Directories.deleteOwned(dataDir, dir);
        throw e;
      }
      KafkaBroker broker = new KafkaBroker(dir, dataDir, server, proxy, "127.0.0.1:" + port);
      try {
        broker.awaitRegistered();
      } catch (RuntimeException e) {
        broker.close();
        throw e;
      }
      LOG.info("Kafka broker ready at {} (data in {})", broker.bootstrapServers, dir);
      return broker;
    }
  }

  /**
   * @param listenerPort the broker listener's port, 0 for any
   * @param advertisedPort the port to advertise for it instead, 0 for the one it binds
   */
  private static Properties config(
      Path dataDir,
      int controllerPort,
      int listenerPort,
      int advertisedPort,
      Map<String, String> overrides,
      Map<String, String> extraListeners) {
    Map<String, String> settings = new LinkedHashMap<>();
    // One node, so every internal topic must make do with one replica
    // (docs/reference/dependencies.md, "A Kafka broker inside the tests")
    settings.put("offsets.topic.replication.factor", "1");
    settings.put("offsets.topic.num.partitions", "5");
    settings.put("transaction.state.log.replication.factor", "1");
    settings.put("transaction.state.log.min.isr", "1");
    settings.put("share.coordinator.state.topic.replication.factor", "1");
    settings.put("share.coordinator.state.topic.min.isr", "1");
    settings.put("min.insync.replicas", "1");
    settings.put("default.replication.factor", "1");
    // Consumers join at once instead of waiting 3 s for more members
    settings.put("group.initial.rebalance.delay.ms", "0");
    settings.put("num.partitions", "1");
    settings.putAll(overrides);

    settings.put("process.roles", "broker,controller");
    settings.put("node.id", Integer.toString(NODE_ID));
    settings.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    settings.put("controller.listener.names", CONTROLLER_LISTENER);
    settings.put(
        "listeners",
        BROKER_LISTENER
            + "://127.0.0.1:"
            + listenerPort
            + ","
            + CONTROLLER_LISTENER
            + "://127.0.0.1:"
            + controllerPort);
    StringBuilder protocols =
        new StringBuilder(BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
    extraListeners.forEach(
        (name, protocol) -> {
          settings.merge("listeners", "," + name + "://localhost:0", String::concat);
          protocols.append(',').append(name).append(':').append(protocol);
        });
    if (advertisedPort != 0) {
      settings.put("advertised.listeners", BROKER_LISTENER + "://127.0.0.1:" + advertisedPort);
    }
    settings.put("inter.broker.listener.name", BROKER_LISTENER);
    settings.put("listener.security.protocol.map", protocols.toString());
    settings.put("log.dirs", dataDir.toAbsolutePath().toString());
    Properties props = new Properties();
    props.putAll(settings);
    return props;
  }

  private static void format(KafkaConfig config, Path dataDir) {
    try {
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setControllerListenerName(CONTROLLER_LISTENER)
          .setMetadataLogDirectory(config.metadataLogDir())
          .addDirectory(dataDir.toAbsolutePath().toString())
          .run();
    } catch (Exception e) {
      throw new StackException(
          "could not format Kafka storage in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * KafkaRaftServer keeps its BrokerServer private; the bound port is only known there. Reading the
   * field is the one place this class depends on Kafka internals: if a Kafka upgrade renames it,
   * this fails loudly, not silently.
   */
  private static int boundBrokerPort(KafkaRaftServer server) {
    return boundPort(server, BROKER_LISTENER);
  }

  /**
   * The port the broker bound for {@code listener} (one of the extra listeners it started with).
   */
  int boundPort(String listener) {
    return boundPort(server, listener);
  }

  private static int boundPort(KafkaRaftServer server, String listener) {
    try {
      Field field = KafkaRaftServer.class.getDeclaredField("broker");
      field.setAccessible(true);
      @SuppressWarnings("unchecked")
      Option<BrokerServer> broker = (Option<BrokerServer>) field.get(server);
      return broker.get().boundPort(ListenerName.normalised(listener));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new StackException(
          "cannot read the broker's bound port from KafkaRaftServer (Kafka internals changed?): "
              + e,
          e);
    }
  }

  /** Waits until the broker is unfenced: only then does it appear in metadata and accept topics. */
  private void awaitRegistered() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        try {
          if (!admin.describeCluster().nodes().get().isEmpty()) {
            return;
          }
        } catch (ExecutionException e) {
          LOG.debug("broker not ready yet: {}", e.getCause().toString());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StackException("interrupted while waiting for the Kafka broker", e);
        }
        if (System.nanoTime() > deadline) {
          throw new StackException(
              "Kafka broker at "
                  + bootstrapServers
                  + " did not register within "
                  + READY_TIMEOUT.toSeconds()
                  + " s");
        }
        ChildProcess.sleep(Duration.ofMillis(50));
      }
    }
  }

  /**
   * The proxy every client of a broker started with a client latency goes through, to black-hole
   * the broker for them ({@link LatencyProxy#blackHole()}); null without one.
   */
  public LatencyProxy clientProxy() {
    return proxy;
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The directory holding the broker's data. */
  public Path dir() {
    return dir;
  }

  /**
   * Stops the broker, waits until it has released its ports, and deletes its data (see {@link
   * #start(Path)}).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    shutdown(server);
    closeProxy(proxy);
    Directories.deleteOwned(dataDir, dir);
    LOG.info("Kafka broker at {} stopped", bootstrapServers);
  }

  /** Closes the broker's latency proxy, if it has one. */
  private static void closeProxy(LatencyProxy proxy) {
    if (proxy != null) {
      proxy.close();
    }
  }

  private static void shutdown(KafkaRaftServer server) {
    server.shutdown();
    server.awaitShutdown();
  }

  @Override
  public String toString() {
    return "KafkaBroker[" + bootstrapServers + ", " + dir + "]";
  }
}
