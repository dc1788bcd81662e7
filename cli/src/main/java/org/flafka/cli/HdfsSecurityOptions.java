package org.flafka.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.contract.HdfsKerberos;
import picocli.CommandLine.Option;

/**
 * How a command reaches a secure HDFS: {@code --hdfs-config FILE}, Hadoop client properties (the
 * NameNodes' principal, data transfer protection, HA name services), as {@code --kafka-config} is
 * Kafka's, and a Kerberos login from a keytab ({@code --hdfs-principal}, {@code --hdfs-keytab}). A
 * keytab is the only secret, and it stays a file: nothing secret is ever a command-line value
 * (docs/guides/security.md).
 */
final class HdfsSecurityOptions {
  static final String CONFIG = "--hdfs-config";
  static final String PRINCIPAL = "--hdfs-principal";
  static final String KEYTAB = "--hdfs-keytab";

  private static final HdfsKerberos.SettingNames SETTING_NAMES =
      new HdfsKerberos.SettingNames(PRINCIPAL, KEYTAB);

  @Option(
      names = CONFIG,
      paramLabel = "FILE",
      description =
          "Hadoop client properties for HDFS (dfs.namenode.kerberos.principal,"
              + " dfs.data.transfer.protection, HA name services), key=value lines.")
  Path config;

  @Option(
      names = PRINCIPAL,
      paramLabel = "PRINCIPAL",
      description =
          "Log in to HDFS with Kerberos as this principal (with its realm; _HOST: this host's"
              + " name), from --hdfs-keytab.")
  String principal;

  @Option(names = KEYTAB, paramLabel = "FILE", description = "The keytab of --hdfs-principal.")
  Path keytab;

  /** Whether any of the options was given. */
  boolean given() {
    return config != null || principal != null || keytab != null;
  }

  /**
   * The Hadoop client configuration: Hadoop's defaults and class path files, then {@code
   * --hdfs-config}'s properties.
   *
   * @throws UserException when the file cannot be read
   */
  Configuration configuration() {
    Configuration conf = new Configuration();
    if (config == null) {
      return conf;
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(config)) {
      properties.load(reader);
    } catch (NoSuchFileException e) {
      throw UserException.invalidInput(CONFIG + " '" + config + "' does not exist");
    } catch (IOException | IllegalArgumentException e) {
      throw UserException.invalidInput(
          CONFIG + " '" + config + "' is not a readable properties file: " + e.getMessage());
    }
    properties.stringPropertyNames().forEach(key -> conf.set(key, properties.getProperty(key)));
    return conf;
  }

  /**
   * The Kerberos login, or null without {@code --hdfs-principal}; sets {@code conf} to Kerberos.
   *
   * @throws UserException one line naming the option to fix when the login fails
   */
  UserGroupInformation login(Configuration conf) {
    if (principal == null && keytab == null) {
      return null;
    }
    if (principal == null || keytab == null) {
      throw UserException.invalidInput(
          "a Kerberos login needs both " + PRINCIPAL + " and " + KEYTAB);
    }
    String resolved;
    try {
      resolved = HdfsKerberos.resolveHost(principal);
    } catch (IllegalStateException e) {
      throw UserException.invalidInput(e.getMessage() + " in " + PRINCIPAL);
    }
    try {
      return HdfsKerberos.login(conf, resolved, keytab.toString(), SETTING_NAMES);
    } catch (HdfsKerberos.LoginFailure e) {
      throw new UserException(ExitCode.INVALID_INPUT, e.getMessage(), e);
    }
  }

  /**
   * The fix for an HDFS failure that says the cluster wants Kerberos while the command used simple
   * authentication, else null.
   */
  String kerberosHint(String failure) {
    if (failure != null
        && failure.contains("SIMPLE authentication is not enabled")
        && principal == null) {
      return "the cluster requires Kerberos; setting: "
          + PRINCIPAL
          + " and "
          + KEYTAB
          + " (and "
          + CONFIG
          + " with dfs.namenode.kerberos.principal). Fix: log in as a principal with a keytab.";
    }
    return null;
  }
}
