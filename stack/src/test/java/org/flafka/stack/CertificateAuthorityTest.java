package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CA's stores, read back as a TLS peer reads them: chains, names, usages, files, handshakes.
 */
class CertificateAuthorityTest {
  @TempDir static Path dir;
  private static CertificateAuthority ca;
  private static CertificateAuthority.Store server;
  private static CertificateAuthority.Store client;

  @BeforeAll
  static void create() {
    ca = CertificateAuthority.create(dir.resolve("ca"), "Flafka test CA");
    server = ca.issue("localhost");
    client = ca.issue("flafka-edge");
  }

  private static KeyStore load(CertificateAuthority.Store store) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store.path())) {
      keys.load(in, store.password().toCharArray());
    }
    return keys;
  }

  @Test
  void anIssuedCertificateChainsToTheCaAndIsValidForLocalhostAsServerAndClient() throws Exception {
    KeyStore keys = load(server);
    X509Certificate leaf = (X509Certificate) keys.getCertificate("localhost");
    X509Certificate caCertificate = (X509Certificate) load(ca.trustStore()).getCertificate("ca");
    assertEquals(2, keys.getCertificateChain("localhost").length, "leaf and CA");
    assertEquals(caCertificate, keys.getCertificate("ca"), "the CA as a trusted entry too");
    assertEquals("CN=localhost", leaf.getSubjectX500Principal().getName());
    assertEquals("CN=Flafka test CA", leaf.getIssuerX500Principal().getName());
    assertEquals(3, leaf.getVersion());
    leaf.checkValidity();
    assertEquals(
        Set.of(List.of(2, "localhost"), List.of(7, "127.0.0.1")),
        Set.copyOf(leaf.getSubjectAlternativeNames()));
    assertEquals(List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"), leaf.getExtendedKeyUsage());
    assertEquals(-1, leaf.getBasicConstraints(), "not a CA");
    assertTrue(caCertificate.getBasicConstraints() >= 0, "the CA is one");
    assertTrue(caCertificate.getKeyUsage()[5], "the CA signs certificates");
    assertArrayEquals(
        caCertificate.getExtensionValue("2.5.29.14"),
        // the authority key identifier's [0] keyIdentifier, inside its OCTET STRING wrapping
        subjectKeyIdOf(leaf.getExtensionValue("2.5.29.35")));
    validate(leaf, caCertificate);
  }

  /** The SKI extension value (OCTET STRING of an OCTET STRING) made from an AKI's key id. */
  private static byte[] subjectKeyIdOf(byte[] authorityKeyIdentifier) {
    // OCTET STRING { SEQUENCE { [0] keyId } }: the key id is the last 20 bytes
    byte[] keyId =
        Arrays.copyOfRange(
            authorityKeyIdentifier,
            authorityKeyIdentifier.length - 20,
            authorityKeyIdentifier.length);
    return Der.octetString(Der.octetString(keyId));
  }

  @Test
  void aCertificateOfAnotherCaDoesNotValidate() throws Exception {
    CertificateAuthority other = CertificateAuthority.create(dir.resolve("other"), "Other CA");
    X509Certificate stranger =
        (X509Certificate) load(other.issue("stranger")).getCertificate("stranger");
    X509Certificate caCertificate = (X509Certificate) load(ca.trustStore()).getCertificate("ca");
    assertThrows(CertPathValidatorException.class, () -> validate(stranger, caCertificate));
  }

  @Test
  void everyStoreIsItsOwnersOnlyAndThePemIsTheCasCertificate() throws Exception {
    for (Path file : List.of(server.path(), client.path(), ca.trustStore().path())) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
          file.toString());
    }
    try (InputStream in = Files.newInputStream(ca.certificate())) {
      assertEquals(
          load(ca.trustStore()).getCertificate("ca"),
          CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
  }

  @Test
  void mutualTlsWithHostnameVerificationSucceedsBetweenTwoIssuedIdentities() throws Exception {
    SSLContext serverContext = context(server);
    SSLContext clientContext = context(client);
    try (SSLServerSocket listening = listen(serverContext)) {
      listening.setNeedClientAuth(true);
      CompletableFuture<String> peer =
          CompletableFuture.supplyAsync(
              () -> {
                try (SSLSocket accepted = (SSLSocket) listening.accept()) {
                  accepted.startHandshake();
                  return accepted.getSession().getPeerPrincipal().getName();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      // the client checks the server's name as Kafka's clients do (HTTPS endpoint identification)
      try (SSLSocket socket =
          (SSLSocket)
              clientContext
                  .getSocketFactory()
                  .createSocket("localhost", listening.getLocalPort())) {
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        assertEquals("CN=localhost", socket.getSession().getPeerPrincipal().getName());
      }
      assertEquals("CN=flafka-edge", peer.get(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void aClientTrustingAnotherCaRefusesTheServer() throws Exception {
    CertificateAuthority other = CertificateAuthority.create(dir.resolve("untrusted"), "Untrusted");
    SSLContext serverContext = context(other.issue("localhost"));
    SSLContext clientContext = context(client);
    try (SSLServerSocket listening = listen(serverContext)) {
      CompletableFuture.runAsync(
          () -> {
            try (SSLSocket accepted = (SSLSocket) listening.accept()) {
              accepted.startHandshake();
            } catch (Exception e) {
              // the client hangs up
            }
          });
      try (SSLSocket socket =
          (SSLSocket)
              clientContext
                  .getSocketFactory()
                  .createSocket("localhost", listening.getLocalPort())) {
        assertThrows(SSLHandshakeException.class, socket::startHandshake);
      }
    }
  }

  private static SSLServerSocket listen(SSLContext context) throws Exception {
    return (SSLServerSocket)
        context.getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  /** Validates {@code leaf} as a TLS peer does, with {@code ca} the only trust anchor. */
  private static void validate(X509Certificate leaf, X509Certificate ca) throws Exception {
    PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX")
        .validate(
            CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf)), parameters);
  }

  /** Keys from {@code identity}, trust from this test's CA. */
  private static SSLContext context(CertificateAuthority.Store identity) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(load(identity), identity.password().toCharArray());
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(load(ca.trustStore()));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }
}
