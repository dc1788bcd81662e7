package org.flafka.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.CmException;
import picocli.CommandLine.Option;

/**
 * The Cloudera Manager connection flags ({@code --cm-url}, {@code --cm-user}, {@code
 * --cm-password-file}, ...), one per {@link CmClientConfig} key the client's messages name; the
 * password otherwise comes from FLAFKA_CM_PASSWORD, never from a flag. {@code --cm-url} is checked
 * when connecting (not by picocli), so a command where CM is optional ({@code sweep --target
 * local}) can carry these flags. Errors become one-line user errors.
 */
final class CmOptions {
  @Option(
      names = "--cm-url",
      paramLabel = "URL",
      description = "Cloudera Manager (or CM emulator) root, e.g. https://cm.example.com:7183.")
  String url;

  @Option(
      names = "--cm-user",
      paramLabel = "USER",
      defaultValue = "admin",
      description = "CM user (default: ${DEFAULT-VALUE}).")
  String user;

  @Option(
      names = "--cm-password-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the CM password (default: the FLAFKA_CM_PASSWORD variable).")
  Path passwordFile;

  @Option(
      names = "--cm-truststore-path",
      paramLabel = "FILE",
      description = "Trust store with the CA of CM's certificate.")
  Path truststore;

  @Option(
      names = "--cm-truststore-password-env",
      paramLabel = "VARIABLE",
      description =
          "Environment variable with the trust store's password (default: FLAFKA_CM_TRUSTSTORE_PASSWORD).")
  String truststorePasswordEnv;

  @Option(
      names = "--cm-truststore-type",
      paramLabel = "PKCS12|JKS",
      description = "Trust store type (default: from the file name, .jks = JKS, else PKCS12).")
  String truststoreType;

  @Option(
      names = "--cm-api-version",
      paramLabel = "N",
      description = "Pin the CM API version (default: negotiated).")
  String apiVersion;

  @Option(
      names = "--cm-command-timeout-ms",
      paramLabel = "MS",
      description = "How long to wait for a CM command such as a restart (default: 600000).")
  String commandTimeoutMs;

  @Option(
      names = "--cm-command-poll-interval-ms",
      paramLabel = "MS",
      description = "How often a running CM command is polled (default: 5000).")
  String commandPollIntervalMs;

  @Option(
      names = "--cm-connect-timeout-ms",
      paramLabel = "MS",
      description = "TCP and TLS connect timeout (default: 10000).")
  String connectTimeoutMs;

  @Option(
      names = "--cm-request-timeout-ms",
      paramLabel = "MS",
      description = "Timeout of one CM API call (default: 60000).")
  String requestTimeoutMs;

  /**
   * Connects (checking URL, credentials and TLS); a CmException becomes a UserException with its
   * message.
   */
  CmClient connect(Map<String, String> environment) {
    try {
      return CmClient.connect(clientConfig(environment));
    } catch (CmException e) {
      throw asUserError(e);
    }
  }

  /**
   * The client settings these options give, with the password from {@code environment} when no file
   * is named; a CmException names the flag to fix.
   */
  CmClientConfig clientConfig(Map<String, String> environment) throws CmException {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(CmClientConfig.URL, url);
    settings.put(CmClientConfig.USER, user);
    if (passwordFile != null) {
      settings.put(CmClientConfig.PASSWORD_FILE, passwordFile.toString());
    }
    if (truststore != null) {
      settings.put(CmClientConfig.TRUSTSTORE_PATH, truststore.toString());
    }
    putIfSet(settings, CmClientConfig.TRUSTSTORE_PASSWORD_ENV, truststorePasswordEnv);
    putIfSet(settings, CmClientConfig.TRUSTSTORE_TYPE, truststoreType);
    putIfSet(settings, CmClientConfig.API_VERSION, apiVersion);
    putIfSet(settings, CmClientConfig.CONNECT_TIMEOUT_MS, connectTimeoutMs);
    putIfSet(settings, CmClientConfig.COMMAND_TIMEOUT_MS, commandTimeoutMs);
    putIfSet(settings, CmClientConfig.COMMAND_POLL_INTERVAL_MS, commandPollIntervalMs);
    putIfSet(settings, CmClientConfig.REQUEST_TIMEOUT_MS, requestTimeoutMs);
    return CmClientConfig.from(settings, environment);
  }

  private static void putIfSet(Map<String, String> settings, String key, String value) {
    if (value != null) {
      settings.put(key, value);
    }
  }

  static UserException asUserError(CmException e) {
    return e.reason() == CmException.Reason.INVALID_CONFIG
        ? UserException.invalidInput(e.getMessage())
        : UserException.unexpectedState(e.getMessage());
  }
}
