package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --hdfs-config}, {@code --hdfs-principal}, {@code --hdfs-keytab} without a cluster. */
class HdfsSecurityOptionsTest {
  @TempDir Path tmp;

  @Test
  void theConfigFileIsReadAsHadoopClientProperties() throws Exception {
    HdfsSecurityOptions options = new HdfsSecurityOptions();
    options.config = tmp.resolve("hdfs-client.properties");
    Files.writeString(
        options.config,
        "dfs.namenode.kerberos.principal=hdfs/_HOST@EXAMPLE.COM\n"
            + "dfs.data.transfer.protection=privacy\n");
    Configuration conf = options.configuration();
    assertEquals("hdfs/_HOST@EXAMPLE.COM", conf.get("dfs.namenode.kerberos.principal"));
    assertEquals("privacy", conf.get("dfs.data.transfer.protection"));
  }

  @Test
  void withoutAPrincipalThereIsNoLogin() {
    assertNull(new HdfsSecurityOptions().login(new Configuration()));
  }

  @Test
  void aPrincipalWithoutAKeytabNamesBothOptions() {
    HdfsSecurityOptions options = new HdfsSecurityOptions();
    options.principal = "me@EXAMPLE.COM";
    UserException e = assertThrows(UserException.class, () -> options.login(new Configuration()));
    assertEquals("a Kerberos login needs both --hdfs-principal and --hdfs-keytab", e.getMessage());
  }

  @Test
  void aMissingKeytabIsOneLineNamingTheOptionToFix() {
    HdfsSecurityOptions options = new HdfsSecurityOptions();
    options.principal = "me@EXAMPLE.COM";
    options.keytab = tmp.resolve("me.keytab");
    UserException e = assertThrows(UserException.class, () -> options.login(new Configuration()));
    assertEquals(
        "Kerberos login to HDFS failed: keytab '"
            + options.keytab
            + "' does not exist; setting: --hdfs-keytab. Fix: place the keytab of"
            + " 'me@EXAMPLE.COM' there, readable by this user only (mode 0400).",
        e.getMessage());
  }

  @Test
  void aClusterThatRefusesSimpleAuthenticationGetsTheKerberosOptionsNamed() {
    HdfsSecurityOptions options = new HdfsSecurityOptions();
    String hint =
        options.kerberosHint(
            "cannot list hdfs://nn:8020/data: SIMPLE authentication is not enabled. "
                + " Available:[TOKEN, KERBEROS]: check the path and that the NameNode is up");
    assertTrue(hint.contains("requires Kerberos; setting: --hdfs-principal"), hint);
    assertTrue(hint.contains("Fix: "), hint);
    assertNull(options.kerberosHint("cannot list hdfs://nn:8020/data: Connection refused"));
    options.principal = "me@EXAMPLE.COM";
    assertNull(
        options.kerberosHint("SIMPLE authentication is not enabled.  Available:[KERBEROS]"),
        "with a login, the failure is something else");
  }
}
