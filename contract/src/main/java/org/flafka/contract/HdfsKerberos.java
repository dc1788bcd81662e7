package org.flafka.contract;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Kerberos logins to HDFS from a keytab, for the core's HDFS sink and {@code flafka audit}: the
 * client settings a Kerberized HDFS needs, a login that does not touch the JVM's login user (each
 * sink or tool has its own {@link UserGroupInformation}, so two principals can live in one agent),
 * ticket renewal, and one line naming the setting to fix when the login fails.
 *
 * <p>Hadoop's {@code UserGroupInformation} keeps its configuration in a static field: once a JVM
 * has logged in with Kerberos, every Hadoop client in it is a Kerberos client.
 */
public final class HdfsKerberos {
  /** The token in a principal that stands for this machine's host name, as in Hadoop's configs. */
  public static final String HOST_PLACEHOLDER = "_HOST";

  /**
   * How the caller names its principal and keytab settings in error lines, e.g. {@code
   * hdfs.kerberosKeytab (template: hdfs_kerberos_keytab)} or {@code --hdfs-keytab}.
   */
  public record SettingNames(String principal, String keytab) {}

  /** A login that failed, its message one line naming the setting to fix. */
  public static final class LoginFailure extends IOException {
    private static final long serialVersionUID = 1L;

    LoginFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private HdfsKerberos() {}

  /**
   * {@code principal} with {@value #HOST_PLACEHOLDER} replaced by this machine's fully qualified
   * host name in lower case, as Hadoop resolves its own service principals; one configuration then
   * serves every agent host, each with its own keytab.
   */
  public static String resolveHost(String principal) {
    if (!principal.contains(HOST_PLACEHOLDER)) {
      return principal;
    }
    return principal.replace(HOST_PLACEHOLDER, localHostName());
  }

  /** This machine's canonical host name in lower case: what {@value #HOST_PLACEHOLDER} becomes. */
  public static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(
          "cannot resolve this machine's host name for " + HOST_PLACEHOLDER + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * Sets {@code conf} (and Hadoop's JVM-wide security configuration) to Kerberos and logs {@code
   * principal} in from {@code keytab}, without making it the JVM's login user.
   *
   * @param principal with its realm; {@value #HOST_PLACEHOLDER} already resolved
   * @throws LoginFailure one line naming what failed and the setting to fix
   */
  public static UserGroupInformation login(
      Configuration conf, String principal, String keytab, SettingNames names) throws LoginFailure {
    Path keytabPath = Path.of(keytab);
    if (!Files.isRegularFile(keytabPath)) {
      throw failure(
          "Kerberos login to HDFS failed: keytab '" + keytab + "' does not exist",
          names.keytab(),
          "place the keytab of '" + principal + "' there, readable by this user only (mode 0400)",
          null);
    }
    if (!Files.isReadable(keytabPath)) {
      throw failure(
          "Kerberos login to HDFS failed: keytab '"
              + keytab
              + "' is not readable by user "
              + System.getProperty("user.name"),
          names.keytab(),
          "make it owned by this user (mode 0400)",
          null);
    }
    conf.set("hadoop.security.authentication", "kerberos");
    configureJvm(conf);
    try {
      return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab);
    } catch (IOException | RuntimeException e) {
      throw explain(e, principal, keytab, names);
    }
  }

  private static synchronized void configureJvm(Configuration conf) {
    if (!UserGroupInformation.isSecurityEnabled()) {
      UserGroupInformation.setConfiguration(conf);
    }
  }

  /**
   * Logs in again from the keytab when the ticket is close to expiry (Hadoop's threshold: 80% of
   * its lifetime); cheap otherwise, so callers may call it before every batch. An agent that runs
   * for months needs it: a ticket lives about a day.
   *
   * @throws LoginFailure one line naming the setting to fix
   */
  public static void renew(
      UserGroupInformation user, String principal, String keytab, SettingNames names)
      throws LoginFailure {
    try {
      user.checkTGTAndReloginFromKeytab();
    } catch (IOException | RuntimeException e) {
      throw explain(e, principal, keytab, names);
    }
  }

  /** The one-line failure for a Kerberos login's exception chain. */
  static LoginFailure explain(
      Throwable failure, String principal, String keytab, SettingNames names) {
    String chain = FailureChain.text(failure).toLowerCase(Locale.ROOT);
    if (chain.contains("unable to obtain password from user")
        || chain.contains("is being asked for a password")) {
      return failure(
          "Kerberos login to HDFS failed: keytab '"
              + keytab
              + "' holds no key for principal '"
              + principal
              + "'",
          names.principal() + " or " + names.keytab(),
          "name the principal the keytab was made for (klist -kt lists it), or place that"
              + " principal's keytab there",
          failure);
    }
    if (chain.contains("client not found in kerberos database")) {
      return failure(
          "Kerberos login to HDFS failed: the KDC does not know principal '" + principal + "'",
          names.principal(),
          "name the principal the keytab was made for, with its realm",
          failure);
    }
    if (chain.contains("pre-authentication information was invalid")
        || chain.contains("checksum failed")
        || chain.contains("integrity check on decrypted field failed")
        || chain.contains("clients credentials have been revoked")
        || chain.contains("client's entry in database has expired")
        || chain.contains("password has expired")) {
      return failure(
          "Kerberos login to HDFS failed for principal '"
              + principal
              + "': its keytab is out of date or the principal expired",
          names.keytab(),
          "export a new keytab for the principal (its keys changed) or renew the principal",
          failure);
    }
    if (chain.contains("cannot contact any kdc")
        || chain.contains("cannot locate kdc")
        || chain.contains("connection refused")
        || chain.contains("receive timed out")) {
      return failure(
          "Kerberos login to HDFS failed: no KDC answered for principal '"
              + principal
              + "' ("
              + FailureChain.rootMessage(failure)
              + ")",
          "the realm's kdc in /etc/krb5.conf (or -Djava.security.krb5.conf)",
          "name a KDC this host can reach",
          failure);
    }
    return failure(
        "Kerberos login to HDFS failed for principal '"
            + principal
            + "': "
            + FailureChain.rootMessage(failure),
        names.principal() + " and " + names.keytab(),
        "check the principal, its keytab and the host's krb5.conf",
        failure);
  }

  private static LoginFailure failure(String what, String setting, String fix, Throwable cause) {
    return new LoginFailure(what + "; setting: " + setting + ". Fix: " + fix + ".", cause);
  }
}
