package org.flafka.stack;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A certificate authority made in the test's own JVM: a CA key pair, a trust store holding only its
 * certificate, and key stores for named identities whose certificates it signs, valid for {@code
 * localhost} and {@code 127.0.0.1}, as a server or a client. The certificates are what {@code
 * keytool -gencert} makes (X.509 v3, EC P-256 keys, ECDSA with SHA-256, the CA's basic constraints
 * and key usage, the subject alternative names and extended key usages, key identifiers), encoded
 * here ({@link Der}) rather than by keytool processes: a JVM start per keytool step made most of a
 * secure stack's start. Every store is PKCS12, owner-readable only, with a random password that
 * never leaves this process but through {@link Store#password()}. The CA's private key stays in
 * memory.
 */
public final class CertificateAuthority {
  /** A PKCS12 store and its password. */
  public record Store(Path path, String password) {
    @Override
    public String toString() {
      return "Store[" + path + "]";
    }
  }

  private static final Duration VALIDITY = Duration.ofDays(30);

  /** Before now by this much, so that a clock a little behind still accepts a new certificate. */
  private static final Duration BACKDATED = Duration.ofHours(1);

  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String COMMON_NAME = "2.5.4.3";
  private static final String SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
  private static final String KEY_USAGE = "2.5.29.15";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final String BASIC_CONSTRAINTS = "2.5.29.19";
  private static final String AUTHORITY_KEY_IDENTIFIER = "2.5.29.35";
  private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path dir;
  private final String name;
  private final PrivateKey caKey;
  private final X509Certificate caCertificate;
  private final Path caCertificateFile;
  private final Store trustStore;

  private CertificateAuthority(
      Path dir,
      String name,
      PrivateKey caKey,
      X509Certificate caCertificate,
      Path caCertificateFile,
      Store trustStore) {
    this.dir = dir;
    this.name = name;
    this.caKey = caKey;
    this.caCertificate = caCertificate;
    this.caCertificateFile = caCertificateFile;
    this.trustStore = trustStore;
  }

  /** Creates a CA named {@code name} in {@code dir} (created if missing). */
  public static CertificateAuthority create(Path dir, String name) {
    Directories.create(dir);
    try {
      KeyPair keys = newKeyPair();
      byte[] keyId = keyIdentifier(keys.getPublic());
      X509Certificate certificate =
          sign(
              name,
              name,
              keys.getPublic(),
              keys.getPrivate(),
              Der.sequence(
                  extension(BASIC_CONSTRAINTS, true, Der.sequence(Der.bool(true))),
                  // keyCertSign and cRLSign: bits 5 and 6, the last bit unused
                  extension(KEY_USAGE, true, Der.bitString(new byte[] {0x06}, 1)),
                  extension(SUBJECT_KEY_IDENTIFIER, false, Der.octetString(keyId))));
      Path certificateFile = dir.resolve("ca.pem");
      Files.writeString(
          certificateFile,
          "-----BEGIN CERTIFICATE-----\n"
              + Base64.getMimeEncoder(64, new byte[] {'\n'})
                  .encodeToString(certificate.getEncoded())
              + "\n-----END CERTIFICATE-----\n",
          StandardCharsets.US_ASCII);
      KeyStore trust = emptyStore();
      trust.setCertificateEntry("ca", certificate);
      Store trustStore = write(trust, dir.resolve("truststore.p12"));
      return new CertificateAuthority(
          dir, name, keys.getPrivate(), certificate, certificateFile, trustStore);
    } catch (GeneralSecurityException | IOException e) {
      throw new StackException("could not make the certificate authority " + name + ": " + e, e);
    }
  }

  /**
   * A key store holding a new key pair for {@code commonName} and its certificate chain up to this
   * CA (and the CA's certificate as a trusted entry); the certificate is valid for {@code
   * localhost} and {@code 127.0.0.1}, as a server or a client.
   */
  public Store issue(String commonName) {
    try {
      KeyPair keys = newKeyPair();
      byte[] subjectAltNames =
          Der.sequence(
              Der.implicit(2, "localhost".getBytes(StandardCharsets.US_ASCII)),
              Der.implicit(7, new byte[] {127, 0, 0, 1}));
      X509Certificate certificate =
          sign(
              commonName,
              name,
              keys.getPublic(),
              caKey,
              Der.sequence(
                  extension(SUBJECT_ALT_NAME, false, subjectAltNames),
                  extension(
                      EXTENDED_KEY_USAGE,
                      false,
                      Der.sequence(Der.oid(SERVER_AUTH), Der.oid(CLIENT_AUTH))),
                  extension(
                      SUBJECT_KEY_IDENTIFIER,
                      false,
                      Der.octetString(keyIdentifier(keys.getPublic()))),
                  extension(
                      AUTHORITY_KEY_IDENTIFIER,
                      false,
                      Der.sequence(Der.implicit(0, keyIdentifier(caCertificate.getPublicKey()))))));
      KeyStore store = emptyStore();
      Store written = new Store(dir.resolve(commonName + ".p12"), newPassword());
      store.setKeyEntry(
          commonName,
          keys.getPrivate(),
          written.password().toCharArray(),
          new Certificate[] {certificate, caCertificate});
      store.setCertificateEntry("ca", caCertificate);
      return write(store, written);
    } catch (GeneralSecurityException | IOException e) {
      throw new StackException("could not issue a certificate for " + commonName + ": " + e, e);
    }
  }

  /** A PKCS12 trust store holding this CA's certificate only. */
  public Store trustStore() {
    return trustStore;
  }

  /** This CA's certificate, PEM (a trust store of type PEM, which needs no password). */
  public Path certificate() {
    return caCertificateFile;
  }

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }

  /**
   * A key identifier: the SHA-1 of the encoded public key (RFC 5280, 4.2.1.2, asks only for values
   * unique to the key).
   */
  private static byte[] keyIdentifier(PublicKey key) throws GeneralSecurityException {
    return MessageDigest.getInstance("SHA-1").digest(key.getEncoded());
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical
        ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
        : Der.sequence(Der.oid(oid), Der.octetString(value));
  }

  private static byte[] distinguishedName(String commonName) {
    return Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8String(commonName))));
  }

  /** An X.509 v3 certificate (RFC 5280, 4.1) signed with {@code issuerKey}. */
  private static X509Certificate sign(
      String subject, String issuer, PublicKey subjectKey, PrivateKey issuerKey, byte[] extensions)
      throws GeneralSecurityException {
    byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
    Instant now = Instant.now();
    byte[] toBeSigned =
        Der.sequence(
            Der.explicit(0, Der.integer(BigInteger.TWO)),
            Der.integer(new BigInteger(63, RANDOM).add(BigInteger.ONE)),
            algorithm,
            distinguishedName(issuer),
            Der.sequence(Der.utcTime(now.minus(BACKDATED)), Der.utcTime(now.plus(VALIDITY))),
            distinguishedName(subject),
            subjectKey.getEncoded(),
            Der.explicit(3, extensions));
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(issuerKey, RANDOM);
    signer.update(toBeSigned);
    byte[] certificate = Der.sequence(toBeSigned, algorithm, Der.bitString(signer.sign()));
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(certificate));
  }

  private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    return store;
  }

  private static Store write(KeyStore store, Path path)
      throws GeneralSecurityException, IOException {
    return write(store, new Store(path, newPassword()));
  }

  /** Writes {@code store} to a file only its owner can read, created so from the start. */
  private static Store write(KeyStore store, Store file)
      throws GeneralSecurityException, IOException {
    Files.deleteIfExists(file.path());
    Files.createFile(
        file.path(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (OutputStream out = Files.newOutputStream(file.path(), StandardOpenOption.WRITE)) {
      store.store(out, file.password().toCharArray());
    }
    return file;
  }

  private static String newPassword() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
