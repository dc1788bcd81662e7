package org.flafka.cm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed server certificate made with the JDK's own {@code keytool}, in a temporary
 * directory: the server's key store and a trust store holding only its certificate.
 */
final class TestTls {
  static final String PASSWORD = "changeit-test";

  final Path keyStore;
  final Path trustStore;

  private TestTls(Path keyStore, Path trustStore) {
    this.keyStore = keyStore;
    this.trustStore = trustStore;
  }

  /** A certificate for {@code san} (keytool syntax, e.g. {@code dns:localhost,ip:127.0.0.1}). */
  static TestTls create(Path dir, String san) throws IOException, InterruptedException {
    Path keyStore = dir.resolve("server.p12");
    Path certificate = dir.resolve("server.crt");
    Path trustStore = dir.resolve("trust.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "cm",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=cm-test",
        "-ext",
        "SAN=" + san,
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "cm",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "cm-ca",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        PASSWORD);
    return new TestTls(keyStore, trustStore);
  }

  /** The server side: presents the certificate. */
  SSLContext serverContext() throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      store.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
