package org.flafka.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code --kafka-config FILE}, the one way every Kafka-using command is told how to reach a secure
 * cluster: a Kafka client properties file, as Kafka's own tools take with {@code --command-config}
 * (security.protocol, sasl.mechanism, sasl.jaas.config, ssl.*). Passwords stay out of the command
 * line; in the file they may be {@code ${provider:file:key}} references (config.providers), as the
 * agents' rendered configurations have them (docs/guides/security.md).
 */
final class KafkaConfigOption {
  static final String NAME = "--kafka-config";

  @Option(
      names = NAME,
      paramLabel = "FILE",
      description =
          "Kafka client properties for a secure cluster (security.protocol, sasl.*, ssl.*), as"
              + " Kafka's --command-config; keep it readable by you only when it holds a password.")
  Path file;

  /**
   * The file's properties, empty without the option.
   *
   * @throws UserException when the file cannot be read or sets what the command sets itself
   */
  Map<String, String> properties() {
    if (file == null) {
      return Map.of();
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (NoSuchFileException e) {
      throw UserException.invalidInput(NAME + " '" + file + "' does not exist");
    } catch (IOException | IllegalArgumentException e) {
      throw UserException.invalidInput(
          NAME + " '" + file + "' is not a readable properties file: " + e.getMessage());
    }
    Map<String, String> client = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(key -> client.put(key, properties.getProperty(key)));
    if (client.containsKey("bootstrap.servers")) {
      throw UserException.invalidInput(
          NAME
              + " '"
              + file
              + "' sets bootstrap.servers, which the command's own option gives. Fix: remove it"
              + " from the file");
    }
    return client;
  }

  /**
   * A warning when the file holds a password in clear and others may read it, else null. Not an
   * error: the user may be alone on the machine, but should know.
   */
  String exposureWarning() {
    if (file == null) {
      return null;
    }
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      boolean shared =
          permissions.contains(PosixFilePermission.OTHERS_READ)
              || permissions.contains(PosixFilePermission.GROUP_READ);
      if (!shared) {
        return null;
      }
      for (Map.Entry<String, String> entry : properties().entrySet()) {
        String key = entry.getKey().toLowerCase(Locale.ROOT);
        String value = entry.getValue();
        boolean password =
            key.endsWith("password") && !value.startsWith("${")
                || key.equals("sasl.jaas.config") && value.matches("(?s).*password=\"[^$].*");
        if (password) {
          return NAME
              + " '"
              + file
              + "' holds a password ("
              + entry.getKey()
              + ") and others can read it. Fix: chmod 600 it, or move the password to a file"
              + " only you can read and refer to it with config.providers";
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
    return null;
  }
}
