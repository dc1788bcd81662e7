package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.contract.HdfsKerberos;
import org.junit.jupiter.api.Test;

/** The Kerberos and data transfer keys of {@link HdfsBucketSinkConfig}. */
class HdfsBucketSinkConfigTest {

  private static Map<String, String> settings(String... keysAndValues) {
    Map<String, String> settings = new HashMap<>();
    settings.put("hdfs.root", "hdfs://nn:8020/data/syslog");
    settings.put("hdfs.filePrefix", "core-hdfs0");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      settings.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return settings;
  }

  @Test
  void withoutAPrincipalTheSinkUsesSimpleAuthenticationAndHadoopsOwnSettings() {
    HdfsBucketSinkConfig config = new HdfsBucketSinkConfig("hdfs0", settings());
    assertFalse(config.kerberos());
    assertEquals("", config.namenodePrincipal());
    assertEquals("", config.dataTransferProtection());
  }

  @Test
  void hostInThePrincipalBecomesThisMachinesHostName() {
    HdfsBucketSinkConfig config =
        new HdfsBucketSinkConfig(
            "hdfs0",
            settings(
                "hdfs.kerberosPrincipal", "flafka-core/_HOST@EXAMPLE.COM",
                "hdfs.kerberosKeytab", "/etc/flafka/hdfs.keytab"));
    assertTrue(config.kerberos());
    assertEquals(
        "flafka-core/" + HdfsKerberos.localHostName() + "@EXAMPLE.COM", config.kerberosPrincipal());
    assertEquals("/etc/flafka/hdfs.keytab", config.kerberosKeytab());
  }

  @Test
  void aPrincipalWithoutAKeytabNamesBothKeys() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () ->
                new HdfsBucketSinkConfig(
                    "HDFS bucket sink hdfs0",
                    settings("hdfs.kerberosPrincipal", "flafka-core/_HOST@EXAMPLE.COM")));
    assertEquals(
        "HDFS bucket sink hdfs0: hdfs.kerberosPrincipal is set but hdfs.kerberosKeytab is not; a"
            + " Kerberos login needs both. Fix: set hdfs.kerberosKeytab, or neither for simple"
            + " authentication.",
        e.getMessage());
  }

  @Test
  void anUnknownDataTransferProtectionNamesTheKeyAndTheChoices() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () ->
                new HdfsBucketSinkConfig(
                    "hdfs0", settings("hdfs.dataTransferProtection", "encrypted")));
    assertTrue(
        e.getMessage()
            .startsWith(
                "hdfs0: invalid value 'encrypted' for key 'hdfs.dataTransferProtection': must be"
                    + " empty or one of authentication, integrity, privacy."),
        e.getMessage());
  }

  @Test
  void theNamenodePrincipalAndProtectionAreHandedToHadoop() {
    HdfsBucketSinkConfig config =
        new HdfsBucketSinkConfig(
            "hdfs0",
            settings(
                "hdfs.namenodePrincipal", "hdfs/_HOST@EXAMPLE.COM",
                "hdfs.dataTransferProtection", "PRIVACY"));
    // _HOST here is the NameNode's host, which Hadoop resolves per connection
    assertEquals("hdfs/_HOST@EXAMPLE.COM", config.namenodePrincipal());
    assertEquals("privacy", config.dataTransferProtection());
  }
}
