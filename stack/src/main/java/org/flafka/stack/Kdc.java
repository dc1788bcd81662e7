package org.flafka.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kerby.kerberos.kerb.KrbException;
import org.apache.kerby.kerberos.kerb.server.KdcConfigKey;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * A real Kerberos KDC (Apache Kerby, the one inside Hadoop's MiniKdc) on 127.0.0.1 over TCP, for
 * the secure stack's principals and keytabs.
 *
 * <p>There is one per JVM ({@link #jvmWide()}): the JDK reads {@code java.security.krb5.conf} once
 * and caches it (refreshing needs a JDK-internal class), so a second KDC on another port would be
 * invisible to the Kerberos clients already in this JVM. It stops when the JVM exits. Processes
 * started for a test (agents) find it through {@link #jvmOptions()}.
 */
public final class Kdc {
  public static final String REALM = "FLAFKA.TEST";

  /** The longest life of a ticket this KDC issues unless a test shortens it: Kerby's default. */
  public static final Duration DEFAULT_MAXIMUM_TICKET_LIFETIME = Duration.ofDays(1);

  private static Kdc jvmWide;

  private final Path dir;
  private final Path krb5Conf;
  private final SimpleKdcServer server;
  private final AtomicInteger keytabs = new AtomicInteger();

  private Kdc(Path dir, Path krb5Conf, SimpleKdcServer server) {
    this.dir = dir;
    this.krb5Conf = krb5Conf;
    this.server = server;
  }

  /**
   * The KDC of this JVM, started on first use (about a second), with {@code
   * java.security.krb5.conf} pointing at it.
   */
  public static synchronized Kdc jvmWide() {
    if (jvmWide == null) {
      String already = System.getProperty("java.security.krb5.conf");
      if (already != null) {
        throw new StackException(
            "java.security.krb5.conf is already set to "
                + already
                + "; the stack's KDC must be this JVM's only Kerberos configuration");
      }
      jvmWide = start();
      System.setProperty("java.security.krb5.conf", jvmWide.krb5Conf.toString());
      Kdc kdc = jvmWide;
      Runtime.getRuntime().addShutdownHook(new Thread(kdc::stop, "kdc-stop"));
    }
    return jvmWide;
  }

  private static Kdc start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("flafka-kdc");
    } catch (IOException e) {
      throw new StackException("could not create the KDC's directory: " + e.getMessage(), e);
    }
    int port = FreePort.allocate();
    try {
      SimpleKdcServer server = new SimpleKdcServer();
      server.setWorkDir(dir.toFile());
      server.setKdcRealm(REALM);
      server.setKdcHost("127.0.0.1");
      server.setAllowUdp(false);
      server.setAllowTcp(true);
      server.setKdcTcpPort(port);
      server.init();
      server.start();
      Path krb5Conf = dir.resolve("krb5.conf");
      Files.writeString(krb5Conf, krb5Conf(port));
      return new Kdc(dir, krb5Conf, server);
    } catch (KrbException | IOException e) {
      throw new StackException(
          "the KDC in " + dir + " did not start on port " + port + ": " + e.getMessage(), e);
    }
  }

  /**
   * TCP only (udp_preference_limit = 1), the KDC above it; no reverse DNS, so a service principal
   * is the host name the client was given.
   */
  private static String krb5Conf(int port) {
    return String.format(
        Locale.ROOT,
        """
        [libdefaults]
          default_realm = %1$s
          udp_preference_limit = 1
          dns_lookup_kdc = false
          dns_lookup_realm = false
          rdns = false
          ticket_lifetime = 24h
          forwardable = true

        [realms]
          %1$s = {
            kdc = 127.0.0.1:%2$d
          }
        """,
        REALM,
        port);
  }

  /**
   * Creates {@code principal} (without the realm, e.g. {@code edge} or {@code kafka/localhost})
   * with a random key and writes its keytab, readable by its owner only. Test classes share this
   * JVM's KDC: a principal that already exists (a service principal such as {@code kafka/localhost}
   * another class's cluster made) keeps its keys, and the keytab holds them.
   *
   * @return the keytab
   */
  public synchronized Path createPrincipal(String principal) {
    Path keytab =
        dir.resolve(principal.replace('/', '_') + "-" + keytabs.incrementAndGet() + ".keytab");
    try {
      if (server.getKadmin().getPrincipal(principal + "@" + REALM) == null) {
        server.createPrincipal(principal + "@" + REALM);
      }
      server.exportPrincipal(principal + "@" + REALM, keytab.toFile());
      Files.setPosixFilePermissions(keytab, PosixFilePermissions.fromString("rw-------"));
    } catch (KrbException | IOException e) {
      throw new StackException(
          "could not create principal " + principal + " in the KDC: " + e.getMessage(), e);
    }
    return keytab;
  }

  /**
   * Sets the longest life of the tickets this KDC issues from now on, so a test can watch clients
   * outlive their first tickets; tickets already issued keep theirs. The KDC is the JVM's: a test
   * that shortens it puts back {@link #DEFAULT_MAXIMUM_TICKET_LIFETIME} when it ends.
   */
  public synchronized void setMaximumTicketLifetime(Duration lifetime) {
    server.getKdcConfig().setLong(KdcConfigKey.MAXIMUM_TICKET_LIFETIME, lifetime.toSeconds());
  }

  /** Deletes {@code principal}: its keytab then names a principal the KDC no longer knows. */
  public synchronized void deletePrincipal(String principal) {
    try {
      server.deletePrincipal(principal + "@" + REALM);
    } catch (KrbException e) {
      throw new StackException(
          "could not delete principal " + principal + ": " + e.getMessage(), e);
    }
  }

  /** {@code principal@REALM}. */
  public static String qualified(String principal) {
    return principal + "@" + REALM;
  }

  /** The krb5.conf naming this KDC. */
  public Path krb5Conf() {
    return krb5Conf;
  }

  /** What a JVM started for a test needs to find this KDC. */
  public java.util.List<String> jvmOptions() {
    return java.util.List.of("-Djava.security.krb5.conf=" + krb5Conf);
  }

  private void stop() {
    try {
      server.stop();
    } catch (KrbException e) {
      // The JVM is exiting; nothing is left to tell
    }
    Directories.deleteRecursively(dir);
  }
}
