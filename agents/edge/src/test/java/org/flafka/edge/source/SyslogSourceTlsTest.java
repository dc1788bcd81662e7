package org.flafka.edge.source;

import static org.flafka.edge.source.SourceHarness.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.contract.Headers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS (RFC 5425) with certificates made at test time by the JDK's keytool: no private key is
 * committed.
 */
class SyslogSourceTlsTest {

  private static final String PASSWORD = "test-only";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Map<String, String> CHANNEL =
      Map.of("capacity", "1000", "transactionCapacity", "1000");

  @TempDir static Path dir;
  private static Path serverKeystore;
  private static Path clientKeystore;

  /** Trusts the client certificate: the server's truststore. */
  private static Path clientCa;

  /** Trusts the server certificate: the client's truststore. */
  private static KeyStore serverCa;

  @BeforeAll
  static void makeCertificates() throws Exception {
    serverKeystore = keytoolKeypair("server");
    clientKeystore = keytoolKeypair("client");
    serverCa = trusting(serverKeystore, "server");
    clientCa = dir.resolve("client-ca.p12");
    try (var out = Files.newOutputStream(clientCa)) {
      trusting(clientKeystore, "client").store(out, PASSWORD.toCharArray());
    }
  }

  private static Path keytoolKeypair(String name) throws IOException, InterruptedException {
    Path file = dir.resolve(name + ".p12");
    Path keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool");
    Process process =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
    return file;
  }

  /** A truststore holding the certificate of {@code alias} in {@code keystore}. */
  private static KeyStore trusting(Path keystore, String alias) throws Exception {
    KeyStore keys = load(keystore);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry(alias, keys.getCertificate(alias));
    return trust;
  }

  private static KeyStore load(Path file) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD.toCharArray());
    }
    return store;
  }

  private static Map<String, String> source(String... keyValues) {
    Map<String, String> props =
        new HashMap<>(
            Map.of(
                "protocol",
                "tls",
                "bind",
                "127.0.0.1",
                "port",
                "0",
                "batchDurationMillis",
                "20",
                "tls.keystore",
                serverKeystore.toString(),
                "tls.keystorePassword",
                PASSWORD));
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  private static SSLSocket connect(SourceHarness harness, boolean withClientCertificate)
      throws Exception {
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(serverCa);
    KeyManagerFactory keys = null;
    if (withClientCertificate) {
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(load(clientKeystore), PASSWORD.toCharArray());
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
    SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", harness.source.getPort());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static List<String> bodies(List<Event> events) {
    List<String> bodies = new ArrayList<>();
    events.forEach(e -> bodies.add(new String(e.getBody(), StandardCharsets.ISO_8859_1)));
    return bodies;
  }

  @Test
  void octetCountedMessagesArriveOverTls13() throws Exception {
    try (SourceHarness harness = new SourceHarness(source(), CHANNEL);
        SSLSocket socket = connect(harness, false)) {
      socket.startHandshake();
      assertEquals("TLSv1.3", socket.getSession().getProtocol());
      OutputStream out = socket.getOutputStream();
      out.write("10 <13>hello\n7 <14>bye".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      List<Event> events = harness.take(2, WAIT);
      assertEquals(List.of("<13>hello\n", "<14>bye"), bodies(events));
      assertEquals("127.0.0.1", events.get(0).getHeaders().get(Headers.PEER));
    }
  }

  @Test
  void lineFramingIsStillDetectedOverTls() throws Exception {
    try (SourceHarness harness = new SourceHarness(source("tls.protocols", "TLSv1.2"), CHANNEL);
        SSLSocket socket = connect(harness, false)) {
      socket.getOutputStream().write("<13>one\n<13>two\n".getBytes(StandardCharsets.ISO_8859_1));
      assertEquals(List.of("<13>one", "<13>two"), bodies(harness.take(2, WAIT)));
      assertEquals("TLSv1.2", socket.getSession().getProtocol());
    }
  }

  @Test
  void requiredClientAuthenticationRefusesASenderWithoutCertificate() throws Exception {
    try (SourceHarness harness =
        new SourceHarness(
            source(
                "tls.clientAuth",
                "required",
                "tls.truststore",
                clientCa.toString(),
                "tls.truststorePassword",
                PASSWORD),
            CHANNEL)) {
      try (SSLSocket anonymous = connect(harness, false)) {
        assertThrows(
            IOException.class,
            () -> {
              anonymous
                  .getOutputStream()
                  .write("<13>anonymous\n".getBytes(StandardCharsets.ISO_8859_1));
              anonymous.getOutputStream().flush();
              if (anonymous.getInputStream().read() == -1) {
                throw new IOException("closed by the source");
              }
            });
      }
      assertTrue(
          await(() -> harness.counter().getConnectionErrorCount() == 1, WAIT),
          harness.counter().toString());
      try (SSLSocket known = connect(harness, true)) {
        known.getOutputStream().write("<13>known\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(List.of("<13>known"), bodies(harness.take(1, WAIT)));
      }
    }
  }

  @Test
  void aKeystorePasswordReferenceIsReadFromTheSecretsFileAndTheListenerServes() throws Exception {
    Path secrets = dir.resolve("reference-secrets.properties");
    Files.writeString(
        secrets, "syslog.tls.keystore.password=" + PASSWORD + "\n", StandardCharsets.UTF_8);
    Map<String, String> props =
        source(
            "tls.keystorePassword",
            "${flafkasecrets:" + secrets + ":syslog.tls.keystore.password}");
    try (SourceHarness harness = new SourceHarness(props, CHANNEL);
        SSLSocket socket = connect(harness, false)) {
      socket.getOutputStream().write("<13>by reference\n".getBytes(StandardCharsets.ISO_8859_1));
      assertEquals(List.of("<13>by reference"), bodies(harness.take(1, WAIT)));
    }
  }

  @Test
  void aWrongPasswordInTheSecretsFileNamesTheSecretsFilesKey() throws Exception {
    Path secrets = dir.resolve("wrong-secrets.properties");
    Files.writeString(secrets, "syslog.tls.keystore.password=wrong\n", StandardCharsets.UTF_8);
    Map<String, String> props =
        source(
            "tls.keystorePassword",
            "${flafkasecrets:" + secrets + ":syslog.tls.keystore.password}");
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> new SourceHarness(props, CHANNEL));
    assertEquals(
        "syslog source r1: cannot read tls.keystore '"
            + serverKeystore
            + "': wrong password. Fix: set syslog.tls.keystore.password in "
            + secrets
            + " (tls.keystorePassword refers to it) to the file's password.",
        e.getMessage());
  }

  @Test
  void wrongKeystorePasswordIsAConfigurationErrorNamingKeyAndFix() {
    Map<String, String> props = source("tls.keystorePassword", "wrong");
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> new SourceHarness(props, CHANNEL));
    assertEquals(
        "syslog source r1: cannot read tls.keystore '"
            + serverKeystore
            + "': wrong password. Fix: set "
            + "tls.keystorePassword to the file's password.",
        e.getMessage());
  }

  @Test
  void missingKeystoreFileIsAConfigurationErrorNamingKeyAndFix() {
    Path missing = dir.resolve("nope.p12");
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> new SourceHarness(source("tls.keystore", missing.toString()), CHANNEL));
    assertEquals(
        "syslog source r1: tls.keystore '"
            + missing
            + "' does not exist. Fix: set tls.keystore to the "
            + "path of the PKCS12 file.",
        e.getMessage());
  }

  @Test
  void plainTextOnTheTlsPortClosesTheConnectionAndIsCounted() throws Exception {
    try (SourceHarness harness = new SourceHarness(source(), CHANNEL);
        java.net.Socket plain = new java.net.Socket("127.0.0.1", harness.source.getPort())) {
      plain.setSoTimeout(10_000);
      plain.getOutputStream().write("<13>plain text\n".getBytes(StandardCharsets.ISO_8859_1));
      assertEquals(-1, plain.getInputStream().read());
      assertTrue(await(() -> harness.counter().getConnectionErrorCount() == 1, WAIT));
      assertEquals(0, harness.counter().getEventReceivedCount());
    }
  }

  @Test
  void aClientThatNeverFinishesTheHandshakeIsClosedAndCountedWhileAnotherKeepsSending()
      throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tls.handshakeTimeoutSeconds", "1"), CHANNEL);
        SSLSocket good = connect(harness, false);
        java.net.Socket silent = new java.net.Socket("127.0.0.1", harness.source.getPort());
        java.net.Socket stalled = new java.net.Socket("127.0.0.1", harness.source.getPort())) {
      SteadySender sender = new SteadySender(good, "good", 150, Duration.ofMillis(10));
      silent.setSoTimeout(10_000);
      stalled.setSoTimeout(10_000);
      // the first bytes of a TLS record holding a ClientHello, then nothing
      stalled.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02});
      stalled.getOutputStream().flush();
      assertEquals(-1, silent.getInputStream().read(), "closed by the source");
      assertEquals(-1, stalled.getInputStream().read(), "closed by the source");
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodies(harness.take(150, WAIT)));
      assertTrue(await(() -> harness.counter().getHandshakeTimeoutCount() == 2, WAIT));
      assertEquals(0, harness.counter().getConnectionErrorCount(), "counted once, as a timeout");
      assertEquals(150, harness.counter().getEventReceivedCount());
    }
  }

  @Test
  void aTlsClientTricklingAnIncompleteMessageIsClosedAfterTheFrameTimeoutAQuietOneIsNot()
      throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp.frameTimeoutSeconds", "1"), CHANNEL);
        SSLSocket good = connect(harness, false);
        SSLSocket slow = connect(harness, false)) {
      good.startHandshake();
      slow.startHandshake();
      // both quiet for longer than the frame timeout: between frames, so neither is closed
      Thread.sleep(1500);
      SteadySender sender = new SteadySender(good, "good", 150, Duration.ofMillis(10));
      byte[] trickle = "<13>never ends".getBytes(StandardCharsets.ISO_8859_1);
      try {
        for (byte b : trickle) {
          slow.getOutputStream().write(b);
          slow.getOutputStream().flush();
          Thread.sleep(100);
        }
      } catch (IOException closed) {
        // the source closed the connection: what the test expects
      }
      assertEquals(-1, readOrClosed(slow), "closed by the source");
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodies(harness.take(150, WAIT)));
      assertTrue(await(() -> harness.counter().getFrameTimeoutCount() == 1, WAIT));
      assertEquals(1, harness.counter().getFramingErrorCount(), "its incomplete message dropped");
      assertEquals(151, harness.counter().getEventReceivedCount());
    }
  }

  @Test
  void aTlsRecordTrickledAByteAtATimeIsClosedAfterTheFrameTimeoutAndNothingOfItDelivered()
      throws Exception {
    try (SourceHarness harness =
            new SourceHarness(source("tcp.frameTimeoutSeconds", "1"), CHANNEL);
        SSLSocket good = connect(harness, false);
        TricklingRelay relay =
            new TricklingRelay(harness.source.getPort(), Duration.ofMillis(100));
        SSLSocket slow = connect(relay.port())) {
      slow.startHandshake();
      relay.trickle();
      SteadySender sender = new SteadySender(good, "good", 150, Duration.ofMillis(10));
      // one TLS record of some 40 bytes holding a whole message: at a byte per 100 ms the source
      // holds part of a record, its framer nothing, when the second is up
      slow.getOutputStream().write("<13>inside one record\n".getBytes(StandardCharsets.ISO_8859_1));
      slow.getOutputStream().flush();
      assertEquals(-1, readOrClosed(slow), "closed by the source");
      sender.awaitSent(WAIT);
      assertEquals(sender.messages(), bodies(harness.take(151, Duration.ofSeconds(3))));
      assertTrue(await(() -> harness.counter().getFrameTimeoutCount() == 1, WAIT));
      assertEquals(0, harness.counter().getFramingErrorCount(), "no message was begun");
      assertEquals(150, harness.counter().getEventReceivedCount());
    }
  }

  /** A TLS client trusting the server, through {@code port} (a relay in front of the source). */
  private static SSLSocket connect(int port) throws Exception {
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(serverCa);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    return socket;
  }

  /**
   * -1 when the source closed the connection, whether the socket sees an end or a reset; -2 when it
   * stayed open for the socket's timeout.
   */
  private static int readOrClosed(SSLSocket socket) {
    try {
      return socket.getInputStream().read();
    } catch (java.net.SocketTimeoutException e) {
      return -2;
    } catch (IOException e) {
      return -1;
    }
  }
}
