package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaConfigOptionTest {
  @TempDir Path tmp;

  private KafkaConfigOption option(String content, String mode) throws Exception {
    Path file = tmp.resolve("client.properties");
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    KafkaConfigOption option = new KafkaConfigOption();
    option.file = file;
    return option;
  }

  @Test
  void theFileIsReadAsKafkaClientProperties() throws Exception {
    KafkaConfigOption option =
        option("security.protocol=SSL\nssl.truststore.location=/etc/ca.p12\n", "rw-------");
    assertEquals(
        Map.of("security.protocol", "SSL", "ssl.truststore.location", "/etc/ca.p12"),
        option.properties());
  }

  @Test
  void withoutTheOptionThereAreNoProperties() {
    assertEquals(Map.of(), new KafkaConfigOption().properties());
    assertNull(new KafkaConfigOption().exposureWarning());
  }

  @Test
  void bootstrapServersInTheFileIsRefusedNamingTheOptionToUseInstead() throws Exception {
    UserException e =
        assertThrows(
            UserException.class,
            () -> option("bootstrap.servers=k:9093\n", "rw-------").properties());
    assertTrue(e.getMessage().contains("sets bootstrap.servers"), e.getMessage());
    assertTrue(e.getMessage().contains("Fix: remove it"), e.getMessage());
  }

  @Test
  void aMissingFileIsOneLineNamingIt() {
    KafkaConfigOption option = new KafkaConfigOption();
    option.file = tmp.resolve("absent.properties");
    UserException e = assertThrows(UserException.class, option::properties);
    assertEquals("--kafka-config '" + option.file + "' does not exist", e.getMessage());
  }

  @Test
  void aClearPasswordOthersCanReadIsWarnedAboutButAReferenceOrAPrivateFileIsNot() throws Exception {
    String clear = "ssl.truststore.password=changeit\n";
    String warning = option(clear, "rw-r--r--").exposureWarning();
    assertTrue(warning != null && warning.contains("ssl.truststore.password"), warning);
    assertTrue(warning.contains("Fix: chmod 600"), warning);
    assertNull(option(clear, "rw-------").exposureWarning());
    assertNull(
        option("ssl.truststore.password=${file:/home/me/s.properties:p}\n", "rw-r--r--")
            .exposureWarning());
    assertTrue(
        option(
                "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required"
                    + " username=\"u\" password=\"p\";\n",
                "rw-r-----")
            .exposureWarning()
            .contains("sasl.jaas.config"));
  }
}
