package org.flafka.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made in the test with the JDK's {@code keytool} (as a process, as an
 * operator would): a CA key pair, a trust store holding only its certificate, and key stores for
 * named identities whose certificates it signs, valid for {@code localhost} and {@code 127.0.0.1}.
 * Every store is PKCS12, owner-readable only, with a random password that never appears on a
 * command line (keytool reads it from its environment).
 */
public final class CertificateAuthority {
  /** A PKCS12 store and its password. */
  public record Store(Path path, String password) {
    @Override
    public String toString() {
      return "Store[" + path + "]";
    }
  }

  private static final String PASSWORD_VARIABLE = "FLAFKA_STORE_PASSWORD";
  private static final String KEYTOOL =
      Path.of(System.getProperty("java.home"), "bin", "keytool").toString();

  private final Path dir;
  private final Store caStore;
  private final Path caCertificate;
  private final Store trustStore;

  private CertificateAuthority(Path dir, Store caStore, Path caCertificate, Store trustStore) {
    this.dir = dir;
    this.caStore = caStore;
    this.caCertificate = caCertificate;
    this.trustStore = trustStore;
  }

  /** Creates a CA named {@code name} in {@code dir} (created if missing). */
  public static CertificateAuthority create(Path dir, String name) {
    Directories.create(dir);
    Store ca = new Store(dir.resolve("ca.p12"), newPassword());
    keytool(
        ca.password(),
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + name,
        "-ext",
        "bc:c",
        "-validity",
        "30",
        "-storetype",
        "PKCS12",
        "-keystore",
        ca.path().toString());
    Path caCertificate = dir.resolve("ca.pem");
    keytool(
        ca.password(),
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        ca.path().toString(),
        "-file",
        caCertificate.toString());
    Store trust = new Store(dir.resolve("truststore.p12"), newPassword());
    keytool(
        trust.password(),
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        caCertificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trust.path().toString());
    ownerOnly(ca.path());
    ownerOnly(trust.path());
    return new CertificateAuthority(dir, ca, caCertificate, trust);
  }

  /**
   * A key store holding a new key pair for {@code commonName} and its certificate chain up to this
   * CA; the certificate is valid for {@code localhost} and {@code 127.0.0.1}, as a server or a
   * client.
   */
  public Store issue(String commonName) {
    Store store = new Store(dir.resolve(commonName + ".p12"), newPassword());
    Path request = dir.resolve(commonName + ".csr");
    Path certificate = dir.resolve(commonName + ".pem");
    keytool(
        store.password(),
        "-genkeypair",
        "-alias",
        commonName,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + commonName,
        "-validity",
        "30",
        "-storetype",
        "PKCS12",
        "-keystore",
        store.path().toString());
    keytool(
        store.password(),
        "-certreq",
        "-alias",
        commonName,
        "-keystore",
        store.path().toString(),
        "-file",
        request.toString());
    keytool(
        caStore.password(),
        "-gencert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        caStore.path().toString(),
        "-infile",
        request.toString(),
        "-outfile",
        certificate.toString(),
        "-validity",
        "30",
        "-ext",
        "SAN=dns:localhost,ip:127.0.0.1",
        "-ext",
        "EKU=serverAuth,clientAuth");
    keytool(
        store.password(),
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        caCertificate.toString(),
        "-keystore",
        store.path().toString());
    keytool(
        store.password(),
        "-importcert",
        "-alias",
        commonName,
        "-file",
        certificate.toString(),
        "-keystore",
        store.path().toString());
    ownerOnly(store.path());
    return store;
  }

  /** A PKCS12 trust store holding this CA's certificate only. */
  public Store trustStore() {
    return trustStore;
  }

  /** This CA's certificate, PEM (a trust store of type PEM, which needs no password). */
  public Path certificate() {
    return caCertificate;
  }

  private static String newPassword() {
    byte[] bytes = new byte[12];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static void ownerOnly(Path file) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new StackException("could not restrict " + file + " to its owner: " + e, e);
    }
  }

  /** Runs keytool with {@code -storepass:env}, so the password stays off the process list. */
  private static void keytool(String storePassword, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(KEYTOOL);
    command.addAll(List.of(arguments));
    command.add("-storepass:env");
    command.add(PASSWORD_VARIABLE);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put(PASSWORD_VARIABLE, storePassword);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new StackException("keytool " + arguments[0] + " did not finish within 60 s");
      }
      if (process.exitValue() != 0) {
        throw new StackException(
            "keytool " + String.join(" ", arguments) + " failed: " + output.strip());
      }
    } catch (IOException e) {
      throw new StackException("could not run " + KEYTOOL + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while running keytool", e);
    }
  }
}
