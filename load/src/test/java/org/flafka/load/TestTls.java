package org.flafka.load;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocketFactory;

/**
 * A self-signed server certificate made for one test by the JDK's own keytool, with the trust store
 * a client needs to accept it.
 */
final class TestTls {
  static final char[] PASSWORD = "changeit".toCharArray();

  final SSLServerSocketFactory serverSockets;

  /** A PKCS12 trust store holding the certificate, password {@link #PASSWORD}. */
  final Path truststore;

  private TestTls(SSLServerSocketFactory serverSockets, Path truststore) {
    this.serverSockets = serverSockets;
    this.truststore = truststore;
  }

  /**
   * A certificate whose subject alternative name is {@code subjectAltName} in keytool's syntax
   * ({@code ip:127.0.0.1}, {@code dns:edge.example}), trusted by {@code directory/name-trust.p12}.
   */
  static TestTls create(Path directory, String name, String subjectAltName) throws Exception {
    Path keys = directory.resolve(name + "-keys.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process =
        new ProcessBuilder(
                List.of(
                    keytool,
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=flafka-load-test",
                    "-ext",
                    "SAN=" + subjectAltName,
                    "-validity",
                    "2",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    keys.toString(),
                    "-storepass",
                    new String(PASSWORD)))
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    KeyStore serverStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keys)) {
      serverStore.load(in, PASSWORD);
    }
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(serverStore, PASSWORD);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), null, null);

    KeyStore trustStore = KeyStore.getInstance("PKCS12");
    trustStore.load(null, null);
    trustStore.setCertificateEntry("receiver", serverStore.getCertificate("server"));
    Path truststore = directory.resolve(name + "-trust.p12");
    try (OutputStream out = Files.newOutputStream(truststore)) {
      trustStore.store(out, PASSWORD);
    }
    return new TestTls(context.getServerSocketFactory(), truststore);
  }
}
