package org.flafka.edge.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.flume.conf.ConfigurationException;

/**
 * A password key's value: the password itself, or a reference {@code ${flafkasecrets:FILE:KEY}} to
 * the key KEY of the properties file FILE (the agent's secrets file, {@code kafka_secrets_file} in
 * the templates). The reference is the one the rendered Kafka client properties use, which Kafka's
 * FileConfigProvider resolves; Flume leaves the unknown prefix alone and passes the string through,
 * so the source resolves it itself. As in Kafka, FILE ends at the first ':' after the prefix and
 * KEY is the rest.
 *
 * <p>{@link #of} checks only the form, so that {@code flafka lint} can parse a configuration on a
 * machine without the secrets file; {@link #value} reads the file, when the source is configured on
 * the agent's host. No message ever holds the password or any value of the file: they name the
 * file, the key and the keys the file does hold.
 */
final class Password {

  /** The provider name the templates register for Kafka's FileConfigProvider. */
  static final String PROVIDER = "flafkasecrets";

  private static final String PREFIX = "${" + PROVIDER + ":";

  private final String component;
  private final String configKey;
  private final String clear;
  private final Path file;
  private final String fileKey;
  private final String writtenBy;

  private Password(
      String component,
      String configKey,
      String clear,
      Path file,
      String fileKey,
      String writtenBy) {
    this.component = component;
    this.configKey = configKey;
    this.clear = clear;
    this.file = file;
    this.fileKey = fileKey;
    this.writtenBy = writtenBy;
  }

  /**
   * The value of {@code configKey}; null when unset. A value that begins with {@code ${} is a
   * reference and must have the form above; any other value is the password itself. {@code
   * writtenBy} says in the fix of a missing key what writes it, e.g. the Ansible variable.
   *
   * @throws ConfigurationException for a reference of another form (without echoing the value,
   *     which may be a password that happens to begin with {@code ${})
   */
  static Password of(String component, String configKey, String raw, String writtenBy) {
    if (raw == null) {
      return null;
    }
    if (!raw.startsWith("${")) {
      return new Password(component, configKey, raw, null, null, writtenBy);
    }
    int colon = raw.indexOf(':', PREFIX.length());
    if (!raw.startsWith(PREFIX) || !raw.endsWith("}") || colon < 0) {
      throw malformed(component, configKey);
    }
    String path = raw.substring(PREFIX.length(), colon);
    String key = raw.substring(colon + 1, raw.length() - 1);
    if (path.isEmpty() || key.isEmpty() || key.contains("}")) {
      throw malformed(component, configKey);
    }
    return new Password(component, configKey, null, Paths.get(path), key, writtenBy);
  }

  private static ConfigurationException malformed(String component, String configKey) {
    return new ConfigurationException(
        component
            + ": invalid value '[hidden]' for key '"
            + configKey
            + "': a value beginning with ${ is a reference and must read "
            + PREFIX
            + "FILE:KEY} (KEY in the properties file FILE). Fix: set "
            + configKey
            + " to "
            + PREFIX
            + "/etc/flafka/kafka-secrets.properties:syslog.tls.keystore.password} or to the password"
            + " itself.");
  }

  /**
   * The password: the value itself, or the referred key read from its file now.
   *
   * @throws ConfigurationException when the file is missing or unreadable or lacks the key
   */
  String value() {
    if (file == null) {
      return clear;
    }
    Properties secrets = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      secrets.load(in);
    } catch (NoSuchFileException e) {
      throw unresolved(
          "the secrets file does not exist",
          "create it, readable by the agent's user only (mode 0400), with a line "
              + fileKey
              + "=<the password> ("
              + writtenBy
              + "), or correct the path in "
              + configKey);
    } catch (AccessDeniedException e) {
      throw unresolved(
          "the secrets file is not readable by the agent's user ("
              + System.getProperty("user.name")
              + ")",
          "make the agent's user its owner, mode 0400");
    } catch (IOException e) {
      throw unresolved(
          "cannot read the secrets file (" + e.getClass().getSimpleName() + ")",
          "make it a properties file readable by the agent's user");
    } catch (IllegalArgumentException e) {
      // Properties.load: a malformed \\uXXXX escape; its message holds no content of the file
      throw unresolved(
          "the secrets file is not a properties file (a malformed \\u escape)",
          "write it as key=value lines, as Java's Properties reads them");
    }
    String value = secrets.getProperty(fileKey);
    if (value == null) {
      throw unresolved(
          "the secrets file holds no key '"
              + fileKey
              + "' (it holds "
              + (secrets.isEmpty()
                  ? "none"
                  : String.join(", ", new TreeSet<>(secrets.stringPropertyNames())))
              + ")",
          "add a line " + fileKey + "=<the password> to it (" + writtenBy + ")");
    }
    return value;
  }

  private ConfigurationException unresolved(String why, String fix) {
    return new ConfigurationException(
        component
            + ": invalid value '"
            + PREFIX
            + file
            + ":"
            + fileKey
            + "}' for key '"
            + configKey
            + "': "
            + why
            + ". Fix: "
            + fix
            + ".");
  }

  /**
   * Where the password is set, for a fix: the key, or the key of the secrets file it refers to,
   * e.g. "syslog.tls.keystore.password in /etc/flafka/kafka-secrets.properties
   * (tls.keystorePassword refers to it)".
   */
  String setting() {
    return file == null ? configKey : fileKey + " in " + file + " (" + configKey + " refers to it)";
  }

  /** The reference as written, or [hidden] for a password given in clear. */
  @Override
  public String toString() {
    return file == null ? "[hidden]" : PREFIX + file + ":" + fileKey + "}";
  }
}
