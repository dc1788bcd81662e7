package org.flafka.edge.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SyslogSourceConfigTest {

  private static final String R1 = "syslog source r1";

  private static Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  private static SyslogSourceConfig parse(String... keyValues) {
    return SyslogSourceConfig.parse(R1, props(keyValues));
  }

  private static String error(String... keyValues) {
    return assertThrows(ConfigurationException.class, () -> parse(keyValues)).getMessage();
  }

  @Test
  void defaults() {
    SyslogSourceConfig tcp = parse("protocol", "tcp");
    assertEquals(Protocol.TCP, tcp.protocol());
    assertEquals("0.0.0.0", tcp.bind());
    assertEquals(514, tcp.port());
    assertEquals(Framing.AUTO, tcp.framing());
    assertEquals(65_536, tcp.maxMessageBytes());
    assertEquals(1000, tcp.batchSize());
    assertEquals(100, tcp.batchDurationMillis());
    assertEquals(2000, tcp.maxConnections());
    assertEquals(1000, tcp.maxConnectionsPerAddress());
    assertEquals(60, tcp.frameTimeoutSeconds());
    assertEquals(0, tcp.idleTimeoutSeconds());
    assertEquals(514, parse("protocol", "UDP").port());
    assertEquals(4 * 1024 * 1024, parse("protocol", "udp").udpReceiveBufferBytes());
    SyslogSourceConfig tls = parse("protocol", "tls", "tls.keystore", "/k.p12");
    assertEquals(6514, tls.port());
    assertEquals("PKCS12", tls.tlsKeystoreType());
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), tls.tlsProtocols());
    assertEquals(10, tls.tlsHandshakeTimeoutSeconds());
    assertEquals(0, parse("protocol", "tcp", "port", "0").port());
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "protocol|sctp|invalid value 'sctp' for key 'protocol': must be one of udp, tcp, tls. "
            + "Fix: set protocol to one of udp, tcp, tls.",
        "batchSize|0|invalid value '0' for key 'batchSize': must be at least 1. Fix: set batchSize to at least 1.",
        "batchSize|1k|invalid value '1k' for key 'batchSize': must be a whole number between -2147483648 and "
            + "2147483647. Fix: set batchSize to a whole number between -2147483648 and 2147483647.",
        "port|65536|invalid value '65536' for key 'port': must be between 0 and 65535. "
            + "Fix: set port to between 0 and 65535.",
        "framing|octet|invalid value 'octet' for key 'framing': must be one of auto, octet-counting, newline. "
            + "Fix: set framing to one of auto, octet-counting, newline.",
        "framing.nulDelimiter|ture|invalid value 'ture' for key 'framing.nulDelimiter': must be true or false. "
            + "Fix: set framing.nulDelimiter to true or false.",
        "maxMessageBytes|0|invalid value '0' for key 'maxMessageBytes': must be between 1 and 268435456. "
            + "Fix: set maxMessageBytes to between 1 and 268435456.",
        "maxConnectionsPerAddress|0|invalid value '0' for key 'maxConnectionsPerAddress': must be at least 1. "
            + "Fix: set maxConnectionsPerAddress to at least 1.",
        "tcp.frameTimeoutSeconds|-1|invalid value '-1' for key 'tcp.frameTimeoutSeconds': must be between 0 and "
            + "86400. Fix: set tcp.frameTimeoutSeconds to between 0 and 86400.",
      })
  void invalidValuesNameKeyValueRuleAndFix(String key, String value, String message) {
    assertEquals(
        R1 + ": " + message, error("protocol", key.equals("protocol") ? value : "tcp", key, value));
  }

  @Test
  void aHandshakeTimeoutOfZeroIsRefusedBecauseItWouldNeverCloseAStalledHandshake() {
    assertEquals(
        R1
            + ": invalid value '0' for key 'tls.handshakeTimeoutSeconds': must be between 1 and 3600. "
            + "Fix: set tls.handshakeTimeoutSeconds to between 1 and 3600.",
        error("protocol", "tls", "tls.keystore", "/k.p12", "tls.handshakeTimeoutSeconds", "0"));
  }

  @Test
  void missingProtocol() {
    assertEquals(
        R1
            + ": missing required key 'protocol' (one of udp, tcp, tls). Fix: add protocol = tcp "
            + "(or udp, tls) to the source.",
        error("port", "514"));
  }

  @Test
  void tlsWithoutKeystore() {
    assertEquals(
        R1
            + ": a tls source needs a keystore but 'tls.keystore' is not set. Fix: add tls.keystore = "
            + "/path/to/server.p12 and tls.keystorePassword (or use protocol = tcp).",
        error("protocol", "tls"));
  }

  @Test
  void clientAuthWithoutTruststore() {
    assertEquals(
        R1
            + ": tls.clientAuth=required needs a truststore to check sender certificates but "
            + "'tls.truststore' is not set. Fix: add tls.truststore = /path/to/ca.p12 or set tls.clientAuth = none.",
        error("protocol", "tls", "tls.keystore", "/k.p12", "tls.clientAuth", "required"));
  }

  @Test
  void keyForAnotherProtocolIsAnError() {
    assertEquals(
        R1
            + ": key 'tls.keystore' does not apply to protocol=udp (it applies to tls). Fix: remove "
            + "tls.keystore or set protocol to one it applies to.",
        error("protocol", "udp", "tls.keystore", "/k"));
    assertEquals(
        R1
            + ": key 'framing' does not apply to protocol=udp (it applies to tcp, tls). Fix: remove "
            + "framing or set protocol to one it applies to.",
        error("protocol", "udp", "framing", "newline"));
    assertEquals(
        R1
            + ": key 'udp.receiveBufferBytes' does not apply to protocol=tcp (it applies to udp). Fix: "
            + "remove udp.receiveBufferBytes or set protocol to one it applies to.",
        error("protocol", "tcp", "udp.receiveBufferBytes", "1048576"));
  }

  @Test
  void passwordsAreNeverEchoed() {
    // no rule applies to a password today; whatever rule may later, its error must not show the
    // value
    SyslogSourceConfig tls =
        parse("protocol", "tls", "tls.keystore", "/k", "tls.keystorePassword", "s3cret");
    assertEquals("s3cret", tls.tlsKeystorePassword());
    ConfigDef.Key password =
        SyslogSourceConfig.DEFINITION.key(SyslogSourceConfig.TLS_KEYSTORE_PASSWORD);
    assertEquals(
        R1
            + ": invalid value '[hidden]' for key 'tls.keystorePassword': must be short. Fix: set "
            + "tls.keystorePassword to short.",
        ConfigDef.invalid(R1, password, "s3cret", "must be short").getMessage());
  }

  @TempDir Path secretsDir;

  private Path secretsFile(String content) throws Exception {
    Path file = secretsDir.resolve("kafka-secrets.properties");
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  private static String reference(Path file, String key) {
    return "${flafkasecrets:" + file + ":" + key + "}";
  }

  private SyslogSourceConfig tlsWithPassword(String keystorePassword) {
    return parse("protocol", "tls", "tls.keystore", "/k", "tls.keystorePassword", keystorePassword);
  }

  @Test
  void aKeystorePasswordReferenceIsReadFromTheSecretsFile() throws Exception {
    Path file =
        secretsFile("sasl.password=kafka-one\nsyslog.tls.keystore.password=the-listeners\n");
    SyslogSourceConfig tls =
        tlsWithPassword(reference(file, SyslogSourceConfig.SECRETS_KEYSTORE_PASSWORD));
    assertEquals("the-listeners", tls.tlsKeystorePassword());
    assertEquals(
        "syslog.tls.keystore.password in " + file + " (tls.keystorePassword refers to it)",
        tls.tlsKeystorePasswordSetting());
  }

  @Test
  void aTruststorePasswordReferenceIsReadFromTheSecretsFileToo() throws Exception {
    Path file = secretsFile("syslog.tls.truststore.password=the-cas\n");
    SyslogSourceConfig tls =
        parse(
            "protocol",
            "tls",
            "tls.keystore",
            "/k",
            "tls.clientAuth",
            "required",
            "tls.truststore",
            "/t",
            "tls.truststorePassword",
            reference(file, "syslog.tls.truststore.password"));
    assertEquals("the-cas", tls.tlsTruststorePassword());
  }

  @Test
  void parsingAReferenceDoesNotReadTheFileSoLintWorksWithoutIt() {
    Path missing = secretsDir.resolve("not-on-this-machine.properties");
    SyslogSourceConfig tls = tlsWithPassword(reference(missing, "syslog.tls.keystore.password"));
    assertThrows(ConfigurationException.class, tls::tlsKeystorePassword);
  }

  @Test
  void aReferenceToAMissingSecretsFileIsOneLineNamingTheFileTheKeyAndTheFix() {
    Path missing = secretsDir.resolve("missing.properties");
    String ref = reference(missing, "syslog.tls.keystore.password");
    ConfigurationException e =
        assertThrows(ConfigurationException.class, tlsWithPassword(ref)::tlsKeystorePassword);
    assertEquals(
        R1
            + ": invalid value '"
            + ref
            + "' for key 'tls.keystorePassword': the secrets file does not exist. Fix: create it,"
            + " readable by the agent's user only (mode 0400), with a line"
            + " syslog.tls.keystore.password=<the password> (Ansible writes it to kafka_secrets_file"
            + " from flafka_agent_edge_tls_keystore_password), or correct the path in"
            + " tls.keystorePassword.",
        e.getMessage());
  }

  @Test
  void anUnreadableSecretsFileIsNamedAndNothingOfItIsShown() throws Exception {
    // root reads any file whatever its mode, so a directory stands for a file the agent cannot read
    Path directory = Files.createDirectory(secretsDir.resolve("secrets.d"));
    String ref = reference(directory, "syslog.tls.keystore.password");
    String message =
        assertThrows(ConfigurationException.class, tlsWithPassword(ref)::tlsKeystorePassword)
            .getMessage();
    assertEquals(
        R1
            + ": invalid value '"
            + ref
            + "' for key 'tls.keystorePassword': cannot read the secrets file (IOException). Fix:"
            + " make it a properties file readable by the agent's user.",
        message);
  }

  @Test
  void aMalformedSecretsFileIsNamedWithoutItsContent() throws Exception {
    Path file = secretsFile("syslog.tls.keystore.password=s3cret\\uZZZZ\n");
    String message =
        assertThrows(
                ConfigurationException.class,
                tlsWithPassword(reference(file, "syslog.tls.keystore.password"))
                    ::tlsKeystorePassword)
            .getMessage();
    assertTrue(message.contains("the secrets file is not a properties file"), message);
    assertFalse(message.contains("s3cret"), message);
  }

  @Test
  void aSecretsFileWithoutTheKeyNamesTheKeysItHoldsButNoValue() throws Exception {
    Path file = secretsFile("ssl.truststore.password=trust-me\nsasl.password=kafka-one\n");
    String ref = reference(file, "syslog.tls.keystore.password");
    String message =
        assertThrows(ConfigurationException.class, tlsWithPassword(ref)::tlsKeystorePassword)
            .getMessage();
    assertEquals(
        R1
            + ": invalid value '"
            + ref
            + "' for key 'tls.keystorePassword': the secrets file holds no key"
            + " 'syslog.tls.keystore.password' (it holds sasl.password, ssl.truststore.password)."
            + " Fix: add a line syslog.tls.keystore.password=<the password> to it (Ansible writes"
            + " it to kafka_secrets_file from flafka_agent_edge_tls_keystore_password).",
        message);
    assertFalse(message.contains("trust-me") || message.contains("kafka-one"), message);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "${file:/etc/flafka/kafka-secrets.properties:syslog.tls.keystore.password}",
        "${flafkasecrets:/etc/flafka/kafka-secrets.properties}",
        "${flafkasecrets::syslog.tls.keystore.password}",
        "${flafkasecrets:/etc/flafka/kafka-secrets.properties:}",
        "${s3cret"
      })
  void aValueBeginningWithADollarBraceMustBeAWholeReferenceAndIsNotEchoed(String value) {
    String message = error("protocol", "tls", "tls.keystore", "/k", "tls.keystorePassword", value);
    assertEquals(
        R1
            + ": invalid value '[hidden]' for key 'tls.keystorePassword': a value beginning with ${"
            + " is a reference and must read ${flafkasecrets:FILE:KEY} (KEY in the properties file"
            + " FILE). Fix: set tls.keystorePassword to"
            + " ${flafkasecrets:/etc/flafka/kafka-secrets.properties:syslog.tls.keystore.password}"
            + " or to the password itself.",
        message);
  }

  @Test
  void unknownKeysAreErrorsWithASuggestionButFlumesOwnKeysAreNot() {
    assertEquals(
        1000,
        parse(
                "protocol",
                "tcp",
                "type",
                "x",
                "channels",
                "c1",
                "selector.type",
                "replicating",
                "interceptors",
                "i1",
                "interceptors.i1.type",
                "static")
            .batchSize());
    String known =
        "protocol, bind, port, portFile, framing, framing.nulDelimiter, maxMessageBytes, batchSize, "
            + "batchDurationMillis, maxConnections, maxConnectionsPerAddress, tcp.frameTimeoutSeconds, "
            + "tcp.idleTimeoutSeconds, tcp.workerThreads, udp.receiveBufferBytes, "
            + "udp.receiveThreads, udp.transport, udp.queueBytes, udp.channelFullTimeoutMillis, tls.keystore, tls.keystorePassword, tls.keystoreType, "
            + "tls.clientAuth, tls.truststore, tls.truststorePassword, tls.truststoreType, "
            + "tls.handshakeTimeoutSeconds, tls.protocols";
    assertEquals(
        R1
            + ": unknown keys 'batchsize' (did you mean 'batchSize'?), 'portt' (did you mean 'port'?). "
            + "Fix: remove them or use one of "
            + known
            + ".",
        error("protocol", "tcp", "batchsize", "10", "portt", "1", "channels", "c1"));
    assertEquals(
        R1 + ": unknown key 'channel'. Fix: remove it or use one of " + known + ".",
        error("protocol", "tcp", "channel", "c1"));
  }

  @Test
  void docsAreCurrent() throws Exception {
    Path doc = Paths.get("../../docs/reference/edge-source.md");
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    assertEquals(
        SyslogSourceConfig.withGeneratedDoc(text),
        text,
        "docs/reference/edge-source.md is out of date: regenerate it with the command in its Reference section");
  }
}
