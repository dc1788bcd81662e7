package org.flafka.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import javax.security.auth.login.LoginException;
import org.junit.jupiter.api.Test;

/**
 * The one-line explanations of failed HDFS logins, from the exception chains Hadoop wraps around
 * the JDK's Kerberos login (the phrases are the JDK's).
 */
class HdfsKerberosTest {
  private static final HdfsKerberos.SettingNames NAMES =
      new HdfsKerberos.SettingNames("--hdfs-principal", "--hdfs-keytab");

  private static String explain(String jdkMessage) {
    IOException hadoops =
        new IOException(
            "Login failure for core/h@R from keytab /k.keytab", new LoginException(jdkMessage));
    return HdfsKerberos.explain(hadoops, "core/h@R", "/k.keytab", NAMES).getMessage();
  }

  @Test
  void aKeytabWithoutThePrincipalsKeyNamesBothSettings() {
    assertEquals(
        "Kerberos login to HDFS failed: keytab '/k.keytab' holds no key for principal 'core/h@R';"
            + " setting: --hdfs-principal or --hdfs-keytab. Fix: name the principal the keytab was"
            + " made for (klist -kt lists it), or place that principal's keytab there.",
        explain("Unable to obtain password from user\n"));
  }

  @Test
  void aPrincipalTheKdcDoesNotKnowNamesThePrincipalSetting() {
    assertEquals(
        "Kerberos login to HDFS failed: the KDC does not know principal 'core/h@R'; setting:"
            + " --hdfs-principal. Fix: name the principal the keytab was made for, with its realm.",
        explain("Client not found in Kerberos database (6)"));
  }

  @Test
  void anOutOfDateKeytabNamesTheKeytabSetting() {
    assertEquals(
        "Kerberos login to HDFS failed for principal 'core/h@R': its keytab is out of date or the"
            + " principal expired; setting: --hdfs-keytab. Fix: export a new keytab for the"
            + " principal (its keys changed) or renew the principal.",
        explain("Pre-authentication information was invalid (24)"));
  }

  @Test
  void anUnknownFailureStillNamesBothSettingsAndTheRootCause() {
    assertEquals(
        "Kerberos login to HDFS failed for principal 'core/h@R': something new; setting:"
            + " --hdfs-principal and --hdfs-keytab. Fix: check the principal, its keytab and the"
            + " host's krb5.conf.",
        explain("something new"));
  }

  @Test
  void hostInAPrincipalBecomesThisHostsNameAndOtherPrincipalsStayAsTheyAre() {
    assertEquals(
        "core/" + HdfsKerberos.localHostName() + "@R", HdfsKerberos.resolveHost("core/_HOST@R"));
    assertEquals("core/h@R", HdfsKerberos.resolveHost("core/h@R"));
  }
}
