package org.flafka.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CmClientConfigTest {
  private static final Map<String, String> ENV = Map.of("FLAFKA_CM_PASSWORD", "hunter2-secret");

  private static CmClientConfig config(String... pairs) {
    Map<String, String> settings = new HashMap<>();
    settings.put(CmClientConfig.URL, "https://cm.example.com:7183");
    for (int i = 0; i < pairs.length; i += 2) {
      settings.put(pairs[i], pairs[i + 1]);
    }
    return CmClientConfig.from(settings, ENV);
  }

  @Test
  void defaults() {
    CmClientConfig config = config();
    assertEquals("https://cm.example.com:7183", config.url().toString());
    assertEquals("admin", config.user());
    assertEquals("FLAFKA_CM_PASSWORD", config.passwordSource());
    assertEquals("hunter2-secret", new String(config.password()));
    assertEquals(OptionalInt.empty(), config.apiVersion());
    assertTrue(config.truststorePath().isEmpty());
    assertEquals(Duration.ofSeconds(10), config.connectTimeout());
    assertEquals(Duration.ofSeconds(60), config.requestTimeout());
    assertEquals(Duration.ofSeconds(5), config.commandPollInterval());
    assertEquals(Duration.ofMinutes(10), config.commandTimeout());
  }

  @Test
  void neverShowsThePassword() {
    String text = config().toString();
    assertFalse(text.contains("hunter2"), text);
    assertTrue(text.contains("password=[hidden, from FLAFKA_CM_PASSWORD]"), text);
  }

  @Test
  void keysAreDocumentedAndMapToFlags() {
    assertEquals(12, CmClientConfig.KEYS.size());
    assertTrue(CmClientConfig.KEYS.stream().allMatch(k -> !k.doc().isBlank()));
    assertEquals("--cm-password-file", CmClientConfig.flag(CmClientConfig.PASSWORD_FILE));
  }

  @Test
  void readsThePasswordFromTheFirstLineOfAFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("pw");
    Files.writeString(file, "from-file\nignored\n");
    CmClientConfig config = config(CmClientConfig.PASSWORD_FILE, file.toString());
    assertEquals("from-file", new String(config.password()));
    assertEquals("--cm-password-file " + file, config.passwordSource());
  }

  @Test
  void pinsAnApiVersionWithOrWithoutTheV() {
    assertEquals(OptionalInt.of(33), config(CmClientConfig.API_VERSION, "v33").apiVersion());
    assertEquals(OptionalInt.of(19), config(CmClientConfig.API_VERSION, "19").apiVersion());
  }

  @Test
  void keepsAGatewayPathPrefix() {
    assertEquals(
        "https://gw.example.com:8443/gateway/cm-api",
        config(CmClientConfig.URL, "https://gw.example.com:8443/gateway/cm-api/").url().toString());
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "cm.url|cm.example.com:7183|--cm-url 'cm.example.com:7183' must start with http:// or https://",
        "cm.url|ftp://cm:21|--cm-url 'ftp://cm:21' must start with http:// or https://",
        "cm.url|https://cm:7183/api/v32|--cm-url 'https://cm:7183/api/v32' ends in /api...: give the server root "
            + "(flafka adds /api/vN; pin a version with --cm-api-version)",
        "cm.url|https://admin:pw@cm:7183|--cm-url 'https://admin:pw@cm:7183' must not carry a query, fragment or "
            + "user: give the user with --cm-user",
        "cm.api.version|18|--cm-api-version '18' must be between 19 and 48 (the versions this client is written for)",
        "cm.api.version|latest|--cm-api-version 'latest' is not a version number such as 32 or v32",
        "cm.request.timeout.ms|0|--cm-request-timeout-ms '0' must be greater than 0",
        "cm.command.timeout.ms|10m|--cm-command-timeout-ms '10m' is not a whole number of milliseconds",
        "cm.truststore.type|PEM|--cm-truststore-type 'PEM' must be PKCS12 or JKS",
        "cm.user|' '|--cm-user must not be empty"
      })
  void rejectsBadValuesNamingKeyValueAndRule(String key, String value, String message) {
    CmException e = assertThrows(CmException.class, () -> config(key, value));
    assertEquals(CmException.Reason.INVALID_CONFIG, e.reason());
    assertEquals(message, e.getMessage());
  }

  @Test
  void aMissingUrlOrPasswordSaysWhereToPutIt(@TempDir Path dir) {
    CmException noUrl = assertThrows(CmException.class, () -> CmClientConfig.from(Map.of(), ENV));
    assertEquals(
        "--cm-url is required: the Cloudera Manager server, e.g. https://cm.example.com:7183",
        noUrl.getMessage());
    CmException noPassword =
        assertThrows(
            CmException.class,
            () -> CmClientConfig.from(Map.of(CmClientConfig.URL, "http://cm:7180"), Map.of()));
    assertEquals(
        "no Cloudera Manager password: set the environment variable FLAFKA_CM_PASSWORD or give "
            + "--cm-password-file",
        noPassword.getMessage());
    Path missing = dir.resolve("absent");
    CmException noFile =
        assertThrows(
            CmException.class, () -> config(CmClientConfig.PASSWORD_FILE, missing.toString()));
    assertEquals("--cm-password-file " + missing + " does not exist", noFile.getMessage());
    CmException unknown = assertThrows(CmException.class, () -> config("cm.pasword.file", "x"));
    assertTrue(
        unknown
            .getMessage()
            .startsWith(
                "unknown Cloudera Manager setting(s) [cm.pasword.file]: known are "
                    + "cm.api.version, "),
        unknown.getMessage());
  }
}
