package org.flafka.sweep.local;

import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.flafka.contract.HdfsKerberos;
import org.flafka.stack.KafkaCluster;
import org.flafka.stack.Kdc;
import org.flafka.stack.SecureHdfs;
import org.flafka.stack.SecureKafka;
import org.flafka.stack.StackException;
import org.flafka.sweep.audit.LoadMarkAudit;
import org.flafka.sweep.target.TargetException;

/**
 * The local target's stack as a Cloudera cluster is secured ({@code flafka sweep --secure}): the
 * stack module's {@link SecureKafka} (a KRaft broker whose clients use {@code SASL_SSL} with
 * Kerberos, GSSAPI) and {@link SecureHdfs} (a MiniDFSCluster with Kerberos, block access tokens and
 * data transfer protection {@value SecureHdfs#DATA_TRANSFER_PROTECTION}), both logging in through
 * the JVM's {@link Kdc}, with a test certificate authority for TLS.
 *
 * <p>Each agent has a principal and keytab from the KDC ({@value #EDGE_PRINCIPAL}, {@value
 * #CORE_PRINCIPAL}, the core's for Kafka and HDFS alike); the sweep's own clients (the AdminClient
 * making each run's topic, the audit over HDFS or Kafka) log in as {@value #SWEEP_PRINCIPAL}. Every
 * one of them reaches Kafka over SASL_SSL. The only password the agents need, the trust store's, is
 * in a secrets file (mode 0600) that the rendered configurations refer to, as {@code
 * kafka_secrets_file} does in production; nothing here prints it.
 *
 * <p>Broker and HDFS run in this JVM, not in processes of their own as the plain stack's do: the
 * KDC is one per JVM ({@link Kdc#jvmWide()}) and the secure helpers start from it. The agents,
 * whose CPU the sweep measures, are processes either way.
 */
final class SecureLocalStack implements AutoCloseable {
  static final String EDGE_PRINCIPAL = "flafka-edge";
  static final String CORE_PRINCIPAL = "flafka-core";
  static final String SWEEP_PRINCIPAL = "flafka-sweep";

  /** Where the runs' directories go in HDFS, owned by the core's principal. */
  static final String HDFS_DIR = "/sweep";

  private static final HdfsKerberos.SettingNames SWEEP_LOGIN =
      new HdfsKerberos.SettingNames("the sweep's principal", "the sweep's keytab");

  private final SecureKafka kafka;
  private final SecureHdfs hdfs;
  private final Path edgeKeytab;
  private final Path coreKeytab;
  private final Path sweepKeytab;
  private final Path secretsFile;

  private SecureLocalStack(
      SecureKafka kafka,
      SecureHdfs hdfs,
      Path edgeKeytab,
      Path coreKeytab,
      Path sweepKeytab,
      Path secretsFile) {
    this.kafka = kafka;
    this.hdfs = hdfs;
    this.edgeKeytab = edgeKeytab;
    this.coreKeytab = coreKeytab;
    this.sweepKeytab = sweepKeytab;
    this.secretsFile = secretsFile;
  }

  /**
   * Starts the KDC (if this JVM has none yet), the broker and HDFS, with their files in {@code
   * dir}.
   */
  static SecureLocalStack start(Path dir) {
    SecureKafka kafka = SecureKafka.start(dir.resolve("kafka"));
    SecureHdfs hdfs = null;
    try {
      hdfs = SecureHdfs.start(dir.resolve("hdfs"), kafka.ca());
      Kdc kdc = kafka.kdc();
      Path edgeKeytab = kdc.createPrincipal(EDGE_PRINCIPAL);
      Path coreKeytab = kdc.createPrincipal(CORE_PRINCIPAL);
      Path sweepKeytab = kdc.createPrincipal(SWEEP_PRINCIPAL);
      // an administrator's step: the core's principal may write under the runs' directory
      hdfs.mkdirsOwnedBy(HDFS_DIR, CORE_PRINCIPAL);
      Path secrets =
          writeOwnerOnly(
              dir.resolve("kafka-secrets.properties"),
              Map.of("ssl.truststore.password", kafka.ca().trustStore().password()));
      return new SecureLocalStack(kafka, hdfs, edgeKeytab, coreKeytab, sweepKeytab, secrets);
    } catch (RuntimeException e) {
      if (hdfs != null) {
        hdfs.close();
      }
      kafka.close();
      throw e;
    }
  }

  /** The secrets file is created with mode 0600, so no moment exists where others can read it. */
  private static Path writeOwnerOnly(Path file, Map<String, String> entries) {
    try {
      Files.deleteIfExists(file);
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (Map.Entry<String, String> entry : entries.entrySet()) {
          out.write(entry.getKey() + "=" + entry.getValue() + "\n");
        }
      }
      return file;
    } catch (IOException e) {
      throw new StackException(
          "could not write the secrets file " + file + ": " + e.getMessage(), e);
    }
  }

  /** The start-up line: what the stack is and where. */
  String describe() {
    return "Kafka SASL_SSL (GSSAPI) at "
        + kafka.saslSslBootstrapServers()
        + ", HDFS with Kerberos ("
        + SecureHdfs.DATA_TRANSFER_PROTECTION
        + ") at "
        + hdfs.uri()
        + "; KDC realm "
        + Kdc.REALM;
  }

  /** The SASL_SSL listener, the only one the agents and the sweep's clients are given. */
  String bootstrapServers() {
    return kafka.saslSslBootstrapServers();
  }

  URI hdfsUri() {
    return hdfs.uri();
  }

  /**
   * The sweep's own view of the cluster for topics: the AdminClient logs in as {@value
   * #SWEEP_PRINCIPAL} over SASL_SSL.
   */
  KafkaCluster sweepClient() {
    Map<String, String> client = kafka.gssapiClient(SWEEP_PRINCIPAL, sweepKeytab);
    return new KafkaCluster() {
      @Override
      public String bootstrapServers() {
        return kafka.saslSslBootstrapServers();
      }

      @Override
      public Admin admin() {
        Map<String, Object> settings = new LinkedHashMap<>(client);
        settings.put(
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        return Admin.create(settings);
      }
    };
  }

  /** The edge's template variables for Kafka over SASL_SSL with its own principal. */
  Map<String, Object> edgeVariables() {
    return kafkaVariables(EDGE_PRINCIPAL, edgeKeytab);
  }

  /**
   * The core's template variables: Kafka as for the edge, and its HDFS sinks logging in with the
   * same principal; {@code root} under {@link #HDFS_DIR}.
   */
  Map<String, Object> coreVariables(String runName) {
    Map<String, Object> variables = kafkaVariables(CORE_PRINCIPAL, coreKeytab);
    variables.put("core_hdfs_root", hdfs.uri() + HDFS_DIR + "/" + runName);
    variables.put("hdfs_kerberos_principal", Kdc.qualified(CORE_PRINCIPAL));
    variables.put("hdfs_kerberos_keytab", coreKeytab.toString());
    variables.put("hdfs_namenode_principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    variables.put("hdfs_data_transfer_protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    return variables;
  }

  private Map<String, Object> kafkaVariables(String principal, Path keytab) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("kafka_bootstrap_servers", kafka.saslSslBootstrapServers());
    variables.put("kafka_security_protocol", "SASL_SSL");
    variables.put("kafka_sasl_mechanism", "GSSAPI");
    variables.put("kafka_sasl_kerberos_service_name", SecureKafka.SERVICE_NAME);
    variables.put("kafka_kerberos_principal", Kdc.qualified(principal));
    variables.put("kafka_kerberos_keytab", keytab.toString());
    variables.put("kafka_ssl_truststore_location", kafka.ca().trustStore().path().toString());
    variables.put("kafka_ssl_truststore_type", "PKCS12");
    variables.put("kafka_secrets_file", secretsFile.toString());
    return variables;
  }

  /** The agents' JVM options: {@code options}, then where the KDC is. */
  List<String> agentJvmOptions(List<String> options) {
    return Stream.concat(options.stream(), kafka.jvmOptions().stream()).toList();
  }

  /**
   * The audit as {@value #SWEEP_PRINCIPAL}: over HDFS with Kerberos and the cluster's data transfer
   * protection, over Kafka with SASL_SSL.
   */
  LoadMarkAudit audit() {
    Configuration conf = hdfs.clientConfiguration();
    UserGroupInformation login;
    try {
      login =
          HdfsKerberos.login(
              conf, Kdc.qualified(SWEEP_PRINCIPAL), sweepKeytab.toString(), SWEEP_LOGIN);
    } catch (HdfsKerberos.LoginFailure e) {
      throw new TargetException("the sweep's HDFS login failed: " + e.getMessage(), e);
    }
    Map<String, String> kafkaClient =
        new LinkedHashMap<>(kafka.gssapiClient(SWEEP_PRINCIPAL, sweepKeytab));
    kafkaClient.remove("bootstrap.servers");
    return new LoadMarkAudit(kafkaClient, conf, login);
  }

  /**
   * Stops HDFS and the broker. From the sweep's shutdown hook (Ctrl-C) Hadoop refuses to shut down
   * (its own hook manager is closed by then); the servers' threads then end with the JVM.
   */
  @Override
  public void close() {
    try {
      hdfs.close();
    } catch (RuntimeException exiting) {
      // only while the JVM exits: see above
    } finally {
      kafka.close();
    }
  }
}
