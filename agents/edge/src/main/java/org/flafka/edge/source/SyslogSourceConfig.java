package org.flafka.edge.source;

import static org.flafka.config.ConfigDef.NO_DEFAULT;
import static org.flafka.config.ConfigDef.atLeast;
import static org.flafka.config.ConfigDef.between;
import static org.flafka.config.ConfigDef.listOf;
import static org.flafka.config.ConfigDef.oneOf;
import static org.flafka.config.ConfigDef.zeroOrAtLeast;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/**
 * Every configuration key of {@link SyslogSource}: name, type, default, validator, the protocols it
 * applies to and its doc, in one place. {@link #parse} validates a Flume source context against
 * them; {@link #main} writes the key table into {@code docs/reference/edge-source.md}.
 *
 * <p>Cross-key rules (in {@link #parse}): a key that does not apply to the chosen protocol is an
 * error when the user set it (e.g. {@code tls.keystore} on a udp source; the engine checks it from
 * each key's protocols), a TLS source needs a keystore, client authentication needs a truststore. A
 * key this class does not know (other than Flume's own: type, channels, selector.*, interceptors*)
 * is an error naming the closest known key.
 */
public final class SyslogSourceConfig {

  public static final String PROTOCOL = "protocol";
  private static final String PROTOCOL_DOC =
      "Transport of this listener: udp (RFC 5426), tcp (RFC 6587) or "
          + "tls (RFC 5425). One source instance is one listener; declare one source per port.";

  public static final String BIND = "bind";
  private static final String BIND_DOC =
      "Address to listen on: an IP address or a host name of this machine; "
          + "0.0.0.0 listens on every IPv4 address, :: on every IPv4 and IPv6 address.";

  public static final String PORT = "port";
  private static final String PORT_DOC =
      "Port to listen on. 0 takes a free port: the source logs it, exposes it as "
          + "the ListenPort metric and writes it to portFile when set.";

  public static final String PORT_FILE = "portFile";
  private static final String PORT_FILE_DOC =
      "When set, the bound port is written to this file (decimal, one line) "
          + "once listening, and the file is deleted on stop. For tests and tools that start agents on port 0.";

  public static final String FRAMING = "framing";
  private static final String FRAMING_DOC =
      "How a stream is cut into messages. auto decides per connection from "
          + "its first frame: digits then a space mean octet counting, anything else line framing. octet-counting "
          + "expects 'LEN SP MSG' only (RFC 6587 3.4.1, RFC 5425); newline expects messages ended by LF, a CR right "
          + "before the LF being part of the delimiter (RFC 6587 3.4.2).";

  public static final String NUL_DELIMITER = "framing.nulDelimiter";
  private static final String NUL_DELIMITER_DOC =
      "In line framing, also end a message at a NUL byte (some old "
          + "senders terminate frames with NUL instead of LF). Off by default because it splits any message that "
          + "contains a NUL.";

  public static final String MAX_MESSAGE_BYTES = "maxMessageBytes";
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 65_536;
  private static final String MAX_MESSAGE_BYTES_DOC =
      "Largest message carried, in bytes, framing excluded. A "
          + "larger message is never truncated: it is dropped whole, counted in OversizeCount and EventReadFail, and "
          + "reported in a rate-limited WARN with the sender and size; the connection resumes at the next frame. "
          + "Each TCP/TLS connection buffers at most this many bytes plus a frame header. UDP datagrams are at most "
          + "65507 bytes whatever this says.";

  public static final String BATCH_SIZE = "batchSize";
  public static final int DEFAULT_BATCH_SIZE = 1000;
  private static final String BATCH_SIZE_DOC =
      "Most events put to the channel in one transaction. The channel's "
          + "transactionCapacity must be at least this (Flume checks it at start-up).";

  public static final String BATCH_DURATION_MILLIS = "batchDurationMillis";
  private static final String BATCH_DURATION_MILLIS_DOC =
      "Longest time an event waits for its batch to fill "
          + "before the batch is put to the channel anyway.";

  public static final String MAX_CONNECTIONS = "maxConnections";
  private static final String MAX_CONNECTIONS_DOC =
      "Most open TCP/TLS connections. Connections beyond it are "
          + "closed as soon as they are accepted, counted in ConnectionRefusedCount and reported in a rate-limited "
          + "WARN.";

  public static final String MAX_CONNECTIONS_PER_ADDRESS = "maxConnectionsPerAddress";
  private static final String MAX_CONNECTIONS_PER_ADDRESS_DOC =
      "Most open TCP/TLS connections from one sender address, so that one sender cannot take every "
          + "place maxConnections allows. Connections beyond it are closed as soon as they are accepted, counted "
          + "in ConnectionRefusedPerAddressCount and reported in a rate-limited WARN; other addresses are not "
          + "affected. A device needs one or a few; raise it when many senders reach the source through one "
          + "address (a NAT or a load balancer that rewrites the source address).";

  public static final String FRAME_TIMEOUT_SECONDS = "tcp.frameTimeoutSeconds";
  private static final String FRAME_TIMEOUT_SECONDS_DOC =
      "Close a connection that has been inside a frame for this many seconds without completing it: "
          + "bytes arrived, no message came of them (a sender trickling bytes, an endless line, an octet count "
          + "never filled). What it held of the frame is dropped and counted (FramingErrorCount, or OversizeCount "
          + "for an oversize one), the close in FrameTimeoutCount; 0 never closes. A connection that sent complete "
          + "messages and then nothing is not inside a frame (see tcp.idleTimeoutSeconds), nor is one paused "
          + "because the channel is full.";

  public static final String IDLE_TIMEOUT_SECONDS = "tcp.idleTimeoutSeconds";
  private static final String IDLE_TIMEOUT_SECONDS_DOC =
      "Close a connection that has sent nothing for this many "
          + "seconds; 0 never closes idle connections. A connection paused because the channel is full is never "
          + "idle.";

  public static final String WORKER_THREADS = "tcp.workerThreads";
  private static final String WORKER_THREADS_DOC =
      "Threads that read, frame and batch TCP/TLS connections; each "
          + "has its own batch. 0 means one per processor, at most 4.";

  public static final String UDP_RECEIVE_BUFFER_BYTES = "udp.receiveBufferBytes";
  private static final String UDP_RECEIVE_BUFFER_BYTES_DOC =
      "Socket receive buffer (SO_RCVBUF) asked for. The "
          + "kernel caps it at net.core.rmem_max; the source logs what it got and exposes it as the "
          + "UdpReceiveBufferBytes metric. Raise net.core.rmem_max on edge hosts.";

  public static final String UDP_RECEIVE_THREADS = "udp.receiveThreads";
  private static final String UDP_RECEIVE_THREADS_DOC =
      "Sockets bound to the UDP port, each read by its own "
          + "thread with its own batch. Above 1 they share the port through SO_REUSEPORT (Linux), and the kernel "
          + "spreads senders over them by source address and port: one sender always reaches the same socket, so its "
          + "messages keep their order, and one sender never uses more than one thread. Each socket gets "
          + "udp.receiveBufferBytes.";

  public static final String UDP_TRANSPORT = "udp.transport";
  private static final String UDP_TRANSPORT_DOC =
      "How the UDP sockets are read. auto: Netty's native epoll transport where its library loads "
          + "(x86-64 Linux), which reads up to 64 datagrams per system call (recvmmsg), else Java's NIO, which "
          + "reads one per call, with a WARN at start that says why. epoll: the native transport or no start. "
          + "nio: Java's NIO always. The INFO line at start names the transport in use.";

  public static final String UDP_QUEUE_BYTES = "udp.queueBytes";
  private static final String UDP_QUEUE_BYTES_DOC =
      "Memory, per socket, for datagrams read and not yet parsed. Above 0 each socket's thread only reads "
          + "datagrams and hands them on, and a second thread per socket parses them and puts them to the channel "
          + "(as rsyslog's imudp and its main queue do): what the parsing cannot take at once (a JVM's first seconds, "
          + "before its compiler has caught up; a burst; a channel put that waits) waits here, where the kernel's "
          + "receive buffer (udp.receiveBufferBytes) holds only milliseconds of a fast sender. Holds each "
          + "datagram's bytes, its sender's address and 13; allocated once, when the socket opens. While it is full "
          + "the socket is not read, and what the kernel then drops is counted in UdpSocketDropCount. 0: one thread "
          + "per socket reads, parses and puts.";

  public static final String UDP_CHANNEL_FULL_TIMEOUT_MILLIS = "udp.channelFullTimeoutMillis";
  private static final String UDP_CHANNEL_FULL_TIMEOUT_MILLIS_DOC =
      "UDP cannot push back: with udp.queueBytes 0, when the channel "
          + "refuses a batch, reading pauses (the socket buffer absorbs what arrives) and the batch is retried for "
          + "this long, then dropped and counted in ChannelFullDropCount. With a queue (udp.queueBytes above 0) the "
          + "batch is retried until the channel takes it while the queue holds what arrives, and what the kernel "
          + "drops once it is full is counted in UdpSocketDropCount. TCP and TLS never drop: they stop reading until "
          + "the channel takes the batch.";

  public static final String TLS_KEYSTORE = "tls.keystore";
  private static final String TLS_KEYSTORE_DOC =
      "Keystore file holding the server's private key and certificate "
          + "chain. Required for tls.";

  public static final String TLS_KEYSTORE_PASSWORD = "tls.keystorePassword";
  private static final String TLS_KEYSTORE_PASSWORD_DOC =
      "Password of the keystore and of the key in it: a reference ${flafkasecrets:FILE:KEY} to the "
          + "key KEY of the properties file FILE, read when the source is configured (the edge template "
          + "renders ${flafkasecrets:<kafka_secrets_file>:syslog.tls.keystore.password}, never the "
          + "password), or the password itself. A value beginning with ${ must be such a reference.";

  public static final String TLS_KEYSTORE_TYPE = "tls.keystoreType";
  private static final String TLS_KEYSTORE_TYPE_DOC =
      "Keystore format, as the JDK's KeyStore.getInstance names " + "it (PKCS12, JKS).";

  public static final String TLS_CLIENT_AUTH = "tls.clientAuth";
  private static final String TLS_CLIENT_AUTH_DOC =
      "Whether senders must present a certificate that "
          + "tls.truststore trusts: none, optional (checked when presented) or required.";

  public static final String TLS_TRUSTSTORE = "tls.truststore";
  private static final String TLS_TRUSTSTORE_DOC =
      "Truststore with the CA certificates that sign sender "
          + "certificates. Required when tls.clientAuth is optional or required.";

  public static final String TLS_TRUSTSTORE_PASSWORD = "tls.truststorePassword";
  private static final String TLS_TRUSTSTORE_PASSWORD_DOC =
      "Password of the truststore: a reference ${flafkasecrets:FILE:KEY} as for "
          + "tls.keystorePassword (syslog.tls.truststore.password by convention), or the password itself.";

  /** The key of the edge's secrets file that the template's tls.keystorePassword refers to. */
  public static final String SECRETS_KEYSTORE_PASSWORD = "syslog.tls.keystore.password";

  public static final String TLS_TRUSTSTORE_TYPE = "tls.truststoreType";
  private static final String TLS_TRUSTSTORE_TYPE_DOC = "Truststore format (PKCS12, JKS).";

  public static final String TLS_HANDSHAKE_TIMEOUT_SECONDS = "tls.handshakeTimeoutSeconds";
  private static final String TLS_HANDSHAKE_TIMEOUT_SECONDS_DOC =
      "Close a connection whose TLS handshake has not completed this many seconds after it was "
          + "accepted; counted in HandshakeTimeoutCount.";

  public static final String TLS_PROTOCOLS = "tls.protocols";
  private static final String TLS_PROTOCOLS_DOC = "TLS versions offered.";

  /** The largest UDP payload over IPv4 (65535 - 8 UDP header - 20 IP header). */
  static final int MAX_UDP_PAYLOAD = 65_507;

  private static final Set<String> ALL = protocols(Protocol.UDP, Protocol.TCP, Protocol.TLS);
  private static final Set<String> STREAM = protocols(Protocol.TCP, Protocol.TLS);
  private static final Set<String> UDP_ONLY = protocols(Protocol.UDP);
  private static final Set<String> TLS_ONLY = protocols(Protocol.TLS);

  /** The ids of {@code protocols}: the values of the protocol key a key applies to. */
  private static Set<String> protocols(Protocol... protocols) {
    return ConfigDef.values(Arrays.stream(protocols).map(Protocol::id).toArray(String[]::new));
  }

  static final ConfigDef DEFINITION =
      new ConfigDef(Kind.SOURCE)
          .appliesTo(
              PROTOCOL, "protocols", Arrays.stream(Protocol.values()).map(Protocol::id).toList())
          .define(
              PROTOCOL,
              Type.STRING,
              NO_DEFAULT,
              null,
              oneOf("udp", "tcp", "tls"),
              ALL,
              PROTOCOL_DOC)
          .define(BIND, Type.STRING, "0.0.0.0", null, null, ALL, BIND_DOC)
          .define(
              PORT,
              Type.INT,
              NO_DEFAULT,
              "514 (udp, tcp), 6514 (tls)",
              between(0, 65535),
              ALL,
              PORT_DOC)
          .define(PORT_FILE, Type.STRING, null, null, null, ALL, PORT_FILE_DOC)
          .define(
              FRAMING,
              Type.STRING,
              "auto",
              null,
              oneOf("auto", "octet-counting", "newline"),
              STREAM,
              FRAMING_DOC)
          .define(NUL_DELIMITER, Type.BOOLEAN, false, null, null, STREAM, NUL_DELIMITER_DOC)
          .define(
              MAX_MESSAGE_BYTES,
              Type.INT,
              DEFAULT_MAX_MESSAGE_BYTES,
              null,
              between(1, 256 * 1024 * 1024),
              ALL,
              MAX_MESSAGE_BYTES_DOC)
          .define(BATCH_SIZE, Type.INT, DEFAULT_BATCH_SIZE, null, atLeast(1), ALL, BATCH_SIZE_DOC)
          .define(
              BATCH_DURATION_MILLIS,
              Type.INT,
              100,
              null,
              atLeast(1),
              ALL,
              BATCH_DURATION_MILLIS_DOC)
          .define(MAX_CONNECTIONS, Type.INT, 2000, null, atLeast(1), STREAM, MAX_CONNECTIONS_DOC)
          .define(
              MAX_CONNECTIONS_PER_ADDRESS,
              Type.INT,
              1000,
              null,
              atLeast(1),
              STREAM,
              MAX_CONNECTIONS_PER_ADDRESS_DOC)
          .define(
              FRAME_TIMEOUT_SECONDS,
              Type.INT,
              60,
              null,
              between(0, 86_400),
              STREAM,
              FRAME_TIMEOUT_SECONDS_DOC)
          .define(
              IDLE_TIMEOUT_SECONDS, Type.INT, 0, null, atLeast(0), STREAM, IDLE_TIMEOUT_SECONDS_DOC)
          .define(WORKER_THREADS, Type.INT, 0, null, between(0, 256), STREAM, WORKER_THREADS_DOC)
          .define(
              UDP_RECEIVE_BUFFER_BYTES,
              Type.INT,
              4 * 1024 * 1024,
              null,
              atLeast(1024),
              UDP_ONLY,
              UDP_RECEIVE_BUFFER_BYTES_DOC)
          .define(
              UDP_RECEIVE_THREADS,
              Type.INT,
              1,
              null,
              between(1, 64),
              UDP_ONLY,
              UDP_RECEIVE_THREADS_DOC)
          .define(
              UDP_TRANSPORT,
              Type.STRING,
              "auto",
              null,
              oneOf("auto", "epoll", "nio"),
              UDP_ONLY,
              UDP_TRANSPORT_DOC)
          .define(
              UDP_QUEUE_BYTES,
              Type.INT,
              64 * 1024 * 1024,
              null,
              zeroOrAtLeast(DatagramQueue.MIN_CAPACITY_BYTES),
              UDP_ONLY,
              UDP_QUEUE_BYTES_DOC)
          .define(
              UDP_CHANNEL_FULL_TIMEOUT_MILLIS,
              Type.INT,
              1000,
              null,
              atLeast(0),
              UDP_ONLY,
              UDP_CHANNEL_FULL_TIMEOUT_MILLIS_DOC)
          .define(
              TLS_KEYSTORE,
              Type.STRING,
              NO_DEFAULT,
              "(none; required for tls)",
              null,
              TLS_ONLY,
              TLS_KEYSTORE_DOC)
          .define(
              TLS_KEYSTORE_PASSWORD,
              Type.PASSWORD,
              null,
              null,
              null,
              TLS_ONLY,
              TLS_KEYSTORE_PASSWORD_DOC)
          .define(
              TLS_KEYSTORE_TYPE, Type.STRING, "PKCS12", null, null, TLS_ONLY, TLS_KEYSTORE_TYPE_DOC)
          .define(
              TLS_CLIENT_AUTH,
              Type.STRING,
              "none",
              null,
              oneOf("none", "optional", "required"),
              TLS_ONLY,
              TLS_CLIENT_AUTH_DOC)
          .define(TLS_TRUSTSTORE, Type.STRING, null, null, null, TLS_ONLY, TLS_TRUSTSTORE_DOC)
          .define(
              TLS_TRUSTSTORE_PASSWORD,
              Type.PASSWORD,
              null,
              null,
              null,
              TLS_ONLY,
              TLS_TRUSTSTORE_PASSWORD_DOC)
          .define(
              TLS_TRUSTSTORE_TYPE,
              Type.STRING,
              "PKCS12",
              null,
              null,
              TLS_ONLY,
              TLS_TRUSTSTORE_TYPE_DOC)
          .define(
              TLS_HANDSHAKE_TIMEOUT_SECONDS,
              Type.INT,
              10,
              null,
              between(1, 3600),
              TLS_ONLY,
              TLS_HANDSHAKE_TIMEOUT_SECONDS_DOC)
          .define(
              TLS_PROTOCOLS,
              Type.STRING,
              "TLSv1.3,TLSv1.2",
              null,
              listOf("TLSv1.3", "TLSv1.2"),
              TLS_ONLY,
              TLS_PROTOCOLS_DOC);

  enum ClientAuth {
    NONE,
    OPTIONAL,
    REQUIRED
  }

  private final String component;
  private final Protocol protocol;
  private final String bind;
  private final int port;
  private final Path portFile;
  private final Framing framing;
  private final boolean nulDelimiter;
  private final int maxMessageBytes;
  private final int batchSize;
  private final int batchDurationMillis;
  private final int maxConnections;
  private final int maxConnectionsPerAddress;
  private final int frameTimeoutSeconds;
  private final int idleTimeoutSeconds;
  private final int workerThreads;
  private final int udpReceiveBufferBytes;
  private final int udpReceiveThreads;
  private final int udpChannelFullTimeoutMillis;
  private final int udpQueueBytes;
  private final String udpTransport;
  private final Path tlsKeystore;
  private final Password tlsKeystorePassword;
  private final String tlsKeystoreType;
  private final ClientAuth tlsClientAuth;
  private final Path tlsTruststore;
  private final Password tlsTruststorePassword;
  private final String tlsTruststoreType;
  private final List<String> tlsProtocols;
  private final int tlsHandshakeTimeoutSeconds;

  private SyslogSourceConfig(String component, Map<String, String> props) {
    this.component = component;
    ConfigDef.Values v = DEFINITION.parse(component, props);
    if (v.get(PROTOCOL) == NO_DEFAULT) {
      throw new ConfigurationException(
          component
              + ": missing required key '"
              + PROTOCOL
              + "' (one of udp, tcp, tls). Fix: add "
              + PROTOCOL
              + " = tcp (or udp, tls) to the source.");
    }
    protocol = Protocol.of((String) v.get(PROTOCOL));
    bind = (String) v.get(BIND);
    port = v.get(PORT) == NO_DEFAULT ? protocol.defaultPort() : (Integer) v.get(PORT);
    portFile = emptyMeansNull(v, PORT_FILE) == null ? null : Paths.get(v.getString(PORT_FILE));
    framing = Framing.of((String) v.get(FRAMING));
    nulDelimiter = (Boolean) v.get(NUL_DELIMITER);
    maxMessageBytes = (Integer) v.get(MAX_MESSAGE_BYTES);
    batchSize = (Integer) v.get(BATCH_SIZE);
    batchDurationMillis = (Integer) v.get(BATCH_DURATION_MILLIS);
    maxConnections = (Integer) v.get(MAX_CONNECTIONS);
    maxConnectionsPerAddress = (Integer) v.get(MAX_CONNECTIONS_PER_ADDRESS);
    frameTimeoutSeconds = (Integer) v.get(FRAME_TIMEOUT_SECONDS);
    idleTimeoutSeconds = (Integer) v.get(IDLE_TIMEOUT_SECONDS);
    int threads = (Integer) v.get(WORKER_THREADS);
    workerThreads = threads > 0 ? threads : Math.min(4, Runtime.getRuntime().availableProcessors());
    udpReceiveBufferBytes = (Integer) v.get(UDP_RECEIVE_BUFFER_BYTES);
    udpReceiveThreads = (Integer) v.get(UDP_RECEIVE_THREADS);
    udpChannelFullTimeoutMillis = (Integer) v.get(UDP_CHANNEL_FULL_TIMEOUT_MILLIS);
    udpQueueBytes = (Integer) v.get(UDP_QUEUE_BYTES);
    udpTransport = (String) v.get(UDP_TRANSPORT);

    tlsClientAuth = ClientAuth.valueOf(((String) v.get(TLS_CLIENT_AUTH)).toUpperCase(Locale.ROOT));
    tlsKeystoreType = (String) v.get(TLS_KEYSTORE_TYPE);
    tlsKeystorePassword =
        Password.of(
            component,
            TLS_KEYSTORE_PASSWORD,
            (String) v.get(TLS_KEYSTORE_PASSWORD),
            "Ansible writes it to kafka_secrets_file from flafka_agent_edge_tls_keystore_password");
    tlsTruststoreType = (String) v.get(TLS_TRUSTSTORE_TYPE);
    tlsTruststorePassword =
        Password.of(
            component,
            TLS_TRUSTSTORE_PASSWORD,
            (String) v.get(TLS_TRUSTSTORE_PASSWORD),
            "with Ansible, place the whole file through flafka_agent_secret_files");
    tlsProtocols = ConfigDef.splitList((String) v.get(TLS_PROTOCOLS));
    tlsHandshakeTimeoutSeconds = (Integer) v.get(TLS_HANDSHAKE_TIMEOUT_SECONDS);
    tlsTruststore =
        emptyMeansNull(v, TLS_TRUSTSTORE) == null ? null : Paths.get(v.getString(TLS_TRUSTSTORE));
    if (protocol == Protocol.TLS && v.get(TLS_KEYSTORE) == NO_DEFAULT) {
      throw new ConfigurationException(
          component
              + ": a tls source needs a keystore but '"
              + TLS_KEYSTORE
              + "' is not set. Fix: add "
              + TLS_KEYSTORE
              + " = /path/to/server.p12 and "
              + TLS_KEYSTORE_PASSWORD
              + " (or use protocol = tcp).");
    }
    tlsKeystore =
        v.get(TLS_KEYSTORE) == NO_DEFAULT ? null : Paths.get((String) v.get(TLS_KEYSTORE));
    if (tlsClientAuth != ClientAuth.NONE && tlsTruststore == null) {
      throw new ConfigurationException(
          component
              + ": "
              + TLS_CLIENT_AUTH
              + "="
              + tlsClientAuth.name().toLowerCase(Locale.ROOT)
              + " needs a truststore to check sender certificates but '"
              + TLS_TRUSTSTORE
              + "' is not set. Fix: add "
              + TLS_TRUSTSTORE
              + " = /path/to/ca.p12 or set "
              + TLS_CLIENT_AUTH
              + " = none.");
    }
  }

  /** A path key's value; null when unset or blank (an empty path names no file). */
  private static String emptyMeansNull(ConfigDef.Values values, String key) {
    String value = values.getString(key);
    return value == null || value.isEmpty() ? null : value;
  }

  /**
   * Validates a source's Flume context. {@code component} names the source in error messages, e.g.
   * "syslog source r1".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public static SyslogSourceConfig parse(String component, Map<String, String> props) {
    return new SyslogSourceConfig(component, props);
  }

  String component() {
    return component;
  }

  Protocol protocol() {
    return protocol;
  }

  String bind() {
    return bind;
  }

  int port() {
    return port;
  }

  Path portFile() {
    return portFile;
  }

  Framing framing() {
    return framing;
  }

  boolean nulDelimiter() {
    return nulDelimiter;
  }

  /** The largest message carried, in bytes (framing excluded). */
  public int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** Events put to the channel per transaction: at most the channel's transactionCapacity. */
  public int batchSize() {
    return batchSize;
  }

  int batchDurationMillis() {
    return batchDurationMillis;
  }

  int maxConnections() {
    return maxConnections;
  }

  int maxConnectionsPerAddress() {
    return maxConnectionsPerAddress;
  }

  /** 0: never. */
  int frameTimeoutSeconds() {
    return frameTimeoutSeconds;
  }

  int idleTimeoutSeconds() {
    return idleTimeoutSeconds;
  }

  int workerThreads() {
    return workerThreads;
  }

  int udpReceiveBufferBytes() {
    return udpReceiveBufferBytes;
  }

  int udpReceiveThreads() {
    return udpReceiveThreads;
  }

  int udpChannelFullTimeoutMillis() {
    return udpChannelFullTimeoutMillis;
  }

  /** 0: each socket's thread parses what it reads. */
  int udpQueueBytes() {
    return udpQueueBytes;
  }

  /** auto, epoll or nio. */
  String udpTransport() {
    return udpTransport;
  }

  Path tlsKeystore() {
    return tlsKeystore;
  }

  /**
   * The keystore's password, read from the secrets file now when the key is a reference; null when
   * unset.
   *
   * @throws ConfigurationException when the secrets file is missing or unreadable or lacks the key
   */
  String tlsKeystorePassword() {
    return tlsKeystorePassword == null ? null : tlsKeystorePassword.value();
  }

  String tlsKeystoreType() {
    return tlsKeystoreType;
  }

  ClientAuth tlsClientAuth() {
    return tlsClientAuth;
  }

  Path tlsTruststore() {
    return tlsTruststore;
  }

  /** Where the keystore's password is set, for a fix (the key, or the secrets file's key). */
  String tlsKeystorePasswordSetting() {
    return tlsKeystorePassword == null ? TLS_KEYSTORE_PASSWORD : tlsKeystorePassword.setting();
  }

  /** Where the truststore's password is set, for a fix. */
  String tlsTruststorePasswordSetting() {
    return tlsTruststorePassword == null
        ? TLS_TRUSTSTORE_PASSWORD
        : tlsTruststorePassword.setting();
  }

  /** As {@link #tlsKeystorePassword()}, for the truststore. */
  String tlsTruststorePassword() {
    return tlsTruststorePassword == null ? null : tlsTruststorePassword.value();
  }

  String tlsTruststoreType() {
    return tlsTruststoreType;
  }

  List<String> tlsProtocols() {
    return tlsProtocols;
  }

  int tlsHandshakeTimeoutSeconds() {
    return tlsHandshakeTimeoutSeconds;
  }

  // ---- documentation ----

  static final String DOC_BEGIN =
      "<!-- BEGIN GENERATED by org.flafka.edge.source.SyslogSourceConfig: do not edit -->";
  static final String DOC_END = "<!-- END GENERATED -->";

  /** The generated part of docs/reference/edge-source.md: the key table, then the metric table. */
  static String generatedDoc() {
    StringBuilder sb = new StringBuilder();
    sb.append(DOC_BEGIN).append("\n\n### Configuration keys\n\n");
    sb.append(DEFINITION.keyTable(true));
    sb.append("\n### Metrics\n\n");
    sb.append(
        "Reported under `SOURCE.<name>` in Flume's JSON metrics and as attributes of the JMX bean "
            + "`org.apache.flume.source:type=<name>`, "
            + "every value as a string. Flume's standard source counters first, then this source's own.\n\n");
    sb.append("| metric | meaning |\n|---|---|\n");
    for (SyslogSourceCounter.Metric metric : SyslogSourceCounter.STANDARD) {
      sb.append("| `")
          .append(metric.attribute())
          .append("` | ")
          .append(metric.doc())
          .append(" |\n");
    }
    for (SyslogSourceCounter.Metric metric : SyslogSourceCounter.METRICS) {
      sb.append("| `")
          .append(metric.attribute())
          .append("` | ")
          .append(metric.doc())
          .append(" |\n");
    }
    sb.append("\n").append(DOC_END);
    return sb.toString();
  }

  /**
   * Replaces the generated region of {@code doc} (between the markers) with {@link
   * #generatedDoc()}.
   */
  static String withGeneratedDoc(String doc) {
    return ConfigDef.withGeneratedRegion(doc, DOC_BEGIN, DOC_END, generatedDoc());
  }

  /**
   * Prints the generated documentation, or with {@code --write FILE} rewrites the generated region
   * of FILE (docs/reference/edge-source.md) in place.
   */
  public static void main(String[] args) throws IOException {
    ConfigDef.writeDocs(args, "SyslogSourceConfig", DOC_BEGIN, DOC_END, generatedDoc());
  }
}
