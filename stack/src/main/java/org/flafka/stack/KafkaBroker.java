package org.flafka.stack;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.file.Files;
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
  private final KafkaConfig config;

  /** The running server; null while {@link #stop() stopped}. */
  private KafkaRaftServer server;

  /** In front of the broker listener, or null. */
  private final LatencyProxy proxy;

  private final String bootstrapServers;

  /** Can {@link #stop()} and {@link #restart()}. */
  private final boolean restartable;

  /** Leaves its data when closed, for a process started again with the same ports. */
  private final boolean keepsDataOnClose;

  /** The port of the listener without a proxy in front, or 0. */
  private final int directPort;

  private boolean closed;

  private KafkaBroker(
      Path dir,
      Path dataDir,
      KafkaConfig config,
      KafkaRaftServer server,
      LatencyProxy proxy,
      String bootstrapServers,
      boolean restartable,
      boolean keepsDataOnClose,
      int directPort) {
    this.dir = dir;
    this.dataDir = dataDir;
    this.config = config;
    this.server = server;
    this.proxy = proxy;
    this.bootstrapServers = bootstrapServers;
    this.restartable = restartable;
    this.keepsDataOnClose = keepsDataOnClose;
    this.directPort = directPort;
  }

  /**
   * Fixed ports of a restartable broker: its listener's, its controller's and, for a broker behind
   * a proxy, its direct listener's (else 0).
   */
  record Ports(int listener, int controller, int direct) {
    Ports(int listener, int controller) {
      this(listener, controller, 0);
    }

    static Ports allocate() {
      return new Ports(FreePort.allocate(), FreePort.allocate());
    }

    static Ports allocateWithDirect() {
      return new Ports(FreePort.allocate(), FreePort.allocate(), FreePort.allocate());
    }
  }

  /** The listener clients use to bypass a restartable broker's proxy. */
  private static final String DIRECT_LISTENER = "DIRECT";

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
    return start(
        dir, overrides, clientLatency.isZero() ? null : clientLatency, extraListeners, null, false);
  }

  /**
   * Starts a broker that can be stopped and started again on the same ports with the same data, as
   * a broker restarted in the field is: {@link #stop()}, {@link #restart()}. Clients reach it
   * through a {@link LatencyProxy} without delay, which stays up while the broker is stopped and
   * can black-hole their traffic instead ({@link #clientProxy()}); clients that bootstrap from
   * {@link #directBootstrapServers()} bypass the proxy (the core in the data centre, while a site's
   * link is down). Its data stays in {@code dir/kraft} until {@link #close()}.
   */
  public static KafkaBroker startRestartable(Path dir, Map<String, String> overrides) {
    return start(dir, overrides, Duration.ZERO, Map.of(), Ports.allocateWithDirect(), true);
  }

  /**
   * The address of a {@link #startRestartable restartable} broker's direct listener, which no proxy
   * stands in front of; its metadata names that listener, so such clients stay off the proxy.
   */
  public String directBootstrapServers() {
    if (directPort == 0) {
      throw new StackException(this + " has no direct listener");
    }
    return "127.0.0.1:" + directPort;
  }

  /**
   * Starts a broker on {@code ports}, without a proxy, keeping its data in {@code dir/kraft}: the
   * data of an earlier broker started there is used again ({@link KafkaBrokerMain} with {@code
   * --keep-data}, so a process restarted with the same ports is the same broker).
   */
  static KafkaBroker startKeepingData(Path dir, Map<String, String> overrides, Ports ports) {
    return start(dir, overrides, null, Map.of(), ports, false);
  }

  /**
   * @param clientLatency the delay of a proxy in front of the listener, null for no proxy
   * @param fixedPorts the ports to use, keeping the data; null for any free ones and fresh data
   * @param restartable whether {@link #stop()} and {@link #restart()} may be called; else a broker
   *     on fixed ports leaves its data when closed
   */
  private static KafkaBroker start(
      Path dir,
      Map<String, String> overrides,
      Duration clientLatency,
      Map<String, String> extraListeners,
      Ports fixedPorts,
      boolean restartable) {
    if (clientLatency != null && !extraListeners.isEmpty()) {
      throw new StackException("a broker with a client latency has no extra listeners");
    }
    Directories.create(dir);
    boolean keepData = fixedPorts != null;
    for (int attempt = 1; ; attempt++) {
      Path dataDir = dir.resolve("kraft");
      if (!keepData) {
        Directories.deleteRecursively(dataDir);
      }
      int listenerPort =
          keepData ? fixedPorts.listener() : clientLatency == null ? 0 : FreePort.allocate();
      int controllerPort = keepData ? fixedPorts.controller() : FreePort.allocate();
      // A proxy of a broker that is not restartable is tried again with the broker's new ports
      LatencyProxy proxy =
          clientLatency == null
              ? null
              : LatencyProxy.start(new InetSocketAddress("127.0.0.1", listenerPort), clientLatency);
      int directPort = keepData ? fixedPorts.direct() : 0;
      Properties props =
          config(
              dataDir,
              controllerPort,
              listenerPort,
              proxy == null ? 0 : proxy.port(),
              overrides,
              extraListeners);
      if (directPort != 0) {
        props.setProperty(
            "listeners",
            props.getProperty("listeners") + "," + DIRECT_LISTENER + "://127.0.0.1:" + directPort);
        props.setProperty(
            "advertised.listeners",
            props.getProperty("advertised.listeners")
                + ","
                + DIRECT_LISTENER
                + "://127.0.0.1:"
                + directPort);
        props.setProperty(
            "listener.security.protocol.map",
            props.getProperty("listener.security.protocol.map")
                + ","
                + DIRECT_LISTENER
                + ":PLAINTEXT");
      }
      KafkaConfig config = KafkaConfig.fromProps(props);
      try {
        if (!keepData || !Files.exists(dataDir.resolve("meta.properties"))) {
          format(config, dataDir);
        }
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
        if (!keepData && FreePort.isBindConflict(e) && attempt < START_ATTEMPTS) {
          LOG.info("Kafka could not bind its ports, retrying with new ones: {}", e.getMessage());
          continue;
        }
        if (!keepData) {
          Directories.deleteOwned(dataDir, dir);
        }
        throw new StackException("Kafka broker in " + dir + " did not start: " + e.getMessage(), e);
      }
      int port;
      try {
        port = proxy != null ? proxy.port() : boundBrokerPort(server);
      } catch (RuntimeException e) {
        shutdown(server);
        if (!keepData) {
          Directories.deleteOwned(dataDir, dir);
        }
        throw e;
      }
      KafkaBroker broker =
          new KafkaBroker(
              dir,
              dataDir,
              config,
              server,
              proxy,
              "127.0.0.1:" + port,
              restartable,
              keepData && !restartable,
              directPort);
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

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The directory holding the broker's data. */
  public Path dir() {
    return dir;
  }

  /**
   * The proxy in front of a {@link #startRestartable restartable} broker (or one with a client
   * latency), to black-hole its clients' traffic.
   */
  public LatencyProxy clientProxy() {
    if (proxy == null) {
      throw new StackException(this + " has no proxy in front of it");
    }
    return proxy;
  }

  /**
   * Stops a {@link #startRestartable restartable} broker, as a broker shut down for maintenance is:
   * its port refuses connections (the proxy closes each at once) until {@link #restart()}.
   */
  public synchronized void stop() {
    requireRestartable("stop");
    if (server != null) {
      shutdown(server);
      server = null;
      LOG.info("Kafka broker at {} stopped; its data stays in {}", bootstrapServers, dataDir);
    }
  }

  /**
   * Starts a stopped {@link #startRestartable restartable} broker again on the same ports with the
   * same data, and waits until it accepts clients.
   */
  public synchronized void restart() {
    requireRestartable("restart");
    if (server != null) {
      return;
    }
    KafkaRaftServer restarted = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      restarted.startup();
    } catch (RuntimeException e) {
      shutdown(restarted);
      throw new StackException("Kafka broker in " + dir + " did not restart: " + e.getMessage(), e);
    }
    server = restarted;
    awaitRegistered();
    LOG.info("Kafka broker at {} restarted", bootstrapServers);
  }

  public synchronized boolean isRunning() {
    return server != null;
  }

  private void requireRestartable(String what) {
    if (!restartable || closed) {
      throw new StackException(
          "cannot " + what + " " + this + ": only an open broker from startRestartable can");
    }
  }

  /**
   * Stops the broker, waits until it has released its ports, and deletes its data (see {@link
   * #start(Path)}); a broker {@link #startKeepingData keeping its data} leaves it.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (server != null) {
      shutdown(server);
      server = null;
    }
    closeProxy(proxy);
    if (!keepsDataOnClose) {
      Directories.deleteOwned(dataDir, dir);
    }
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
