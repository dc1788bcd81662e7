package org.flafka.stack;

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
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.flafka.contract.HdfsKerberos;

/**
 * The pipeline's stack as a Cloudera cluster is secured, for the tools that run edge and core
 * agents on this machine ({@code flafka sweep --secure}, {@code flafka bench edge|core --secure}):
 * {@link SecureKafka} (a KRaft broker whose clients use {@code SASL_SSL} with Kerberos, GSSAPI) and
 * {@link SecureHdfs} (a MiniDFSCluster with Kerberos, block access tokens and data transfer
 * protection {@value SecureHdfs#DATA_TRANSFER_PROTECTION}), both logging in through the JVM's
 * {@link Kdc}, with a test certificate authority for TLS.
 *
 * <p>Each agent has a principal and keytab from the KDC ({@value #EDGE_PRINCIPAL}, {@value
 * #CORE_PRINCIPAL}, the core's for Kafka and HDFS alike); the tool's own clients (an AdminClient
 * making topics, a producer or an audit) log in as {@code flafka-TOOL}. Every one of them reaches
 * Kafka over SASL_SSL. The only password the agents need, the trust store's, is in a secrets file
 * (mode 0600) that the rendered configurations refer to, as {@code kafka_secrets_file} does in
 * production; nothing here prints it.
 *
 * <p>Broker and HDFS run in this JVM, not in processes of their own as the plain stack's do: the
 * KDC is one per JVM ({@link Kdc#jvmWide()}) and the secure helpers start from it. The agents,
 * whose CPU the tools measure, are processes either way.
 */
public final class SecurePipeline implements AutoCloseable {
  public static final String EDGE_PRINCIPAL = "flafka-edge";
  public static final String CORE_PRINCIPAL = "flafka-core";

  private final SecureKafka kafka;
  private final SecureHdfs hdfs;
  private final String tool;
  private final Path edgeKeytab;
  private final Path coreKeytab;
  private final Path clientKeytab;
  private final Path secretsFile;

  private SecurePipeline(
      SecureKafka kafka,
      SecureHdfs hdfs,
      String tool,
      Path edgeKeytab,
      Path coreKeytab,
      Path clientKeytab,
      Path secretsFile) {
    this.kafka = kafka;
    this.hdfs = hdfs;
    this.tool = tool;
    this.edgeKeytab = edgeKeytab;
    this.coreKeytab = coreKeytab;
    this.clientKeytab = clientKeytab;
    this.secretsFile = secretsFile;
  }

  /**
   * Starts the KDC (if this JVM has none yet), the broker and HDFS, with their files in {@code
   * dir}, for {@code tool} ({@code sweep}, {@code bench}): its clients log in as {@code
   * flafka-TOOL}, and the core writes under {@code /TOOL} in HDFS.
   */
  public static SecurePipeline start(Path dir, String tool) {
    return start(dir, tool, true);
  }

  /**
   * {@link #start(Path, String)} for the edge alone: the KDC and the broker, no HDFS (the core's
   * methods then fail), so nothing idle runs beside the agents.
   */
  public static SecurePipeline startWithoutHdfs(Path dir, String tool) {
    return start(dir, tool, false);
  }

  private static SecurePipeline start(Path dir, String tool, boolean withHdfs) {
    SecureKafka kafka = SecureKafka.start(dir.resolve("kafka"));
    SecureHdfs hdfs = null;
    try {
      Kdc kdc = kafka.kdc();
      Path edgeKeytab = kdc.createPrincipal(EDGE_PRINCIPAL);
      Path coreKeytab = kdc.createPrincipal(CORE_PRINCIPAL);
      Path clientKeytab = kdc.createPrincipal(clientPrincipal(tool));
      if (withHdfs) {
        hdfs = SecureHdfs.start(dir.resolve("hdfs"), kafka.ca());
        // an administrator's step: the core's principal may write under the tool's directory
        hdfs.mkdirsOwnedBy("/" + tool, CORE_PRINCIPAL);
      }
      Path secrets =
          writeOwnerOnly(
              dir.resolve("kafka-secrets.properties"),
              Map.of("ssl.truststore.password", kafka.ca().trustStore().password()));
      return new SecurePipeline(kafka, hdfs, tool, edgeKeytab, coreKeytab, clientKeytab, secrets);
    } catch (RuntimeException e) {
      if (hdfs != null) {
        hdfs.close();
      }
      kafka.close();
      throw e;
    }
  }

  private static String clientPrincipal(String tool) {
    return "flafka-" + tool;
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
  public String describe() {
    return "Kafka SASL_SSL (GSSAPI) at "
        + kafka.saslSslBootstrapServers()
        + (hdfs == null
            ? ""
            : ", HDFS with Kerberos (" + SecureHdfs.DATA_TRANSFER_PROTECTION + ") at " + hdfs.uri())
        + "; KDC realm "
        + Kdc.REALM;
  }

  private SecureHdfs hdfs() {
    if (hdfs == null) {
      throw new IllegalStateException("this secure stack was started without HDFS");
    }
    return hdfs;
  }

  /** The SASL_SSL listener, the only one the agents and the tool's clients are given. */
  public String bootstrapServers() {
    return kafka.saslSslBootstrapServers();
  }

  public URI hdfsUri() {
    return hdfs().uri();
  }

  /** The HDFS directory the core's principal writes under: {@code /TOOL}. */
  public String hdfsDir() {
    return "/" + tool;
  }

  /** The tool's own Kafka client settings: SASL_SSL as {@code flafka-TOOL}, with the bootstrap. */
  public Map<String, String> clientSettings() {
    return kafka.gssapiClient(clientPrincipal(tool), clientKeytab);
  }

  /**
   * The tool's own view of the cluster for topics: the AdminClient logs in as {@code flafka-TOOL}
   * over SASL_SSL.
   */
  public KafkaCluster client() {
    Map<String, String> client = clientSettings();
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

  /**
   * What the tool's HDFS client needs besides its login: Kerberos, the NameNode's principal and the
   * data transfer protection.
   */
  public Configuration hdfsClientConfiguration() {
    return hdfs().clientConfiguration();
  }

  /**
   * Logs {@code flafka-TOOL} in to HDFS with {@code conf} (from {@link
   * #hdfsClientConfiguration()}).
   *
   * @throws HdfsKerberos.LoginFailure one line naming what failed
   */
  public UserGroupInformation clientLogin(Configuration conf) throws HdfsKerberos.LoginFailure {
    String principal = clientPrincipal(tool);
    return HdfsKerberos.login(
        conf,
        Kdc.qualified(principal),
        clientKeytab.toString(),
        new HdfsKerberos.SettingNames("the " + tool + "'s principal", "the " + tool + "'s keytab"));
  }

  /**
   * A client as the cluster's administrator (the HDFS superuser), for what an operator does between
   * runs: list and delete what an agent wrote.
   */
  public FileSystem adminFileSystem() {
    return hdfs().newFileSystem();
  }

  /** The edge's template variables for Kafka over SASL_SSL with its own principal. */
  public Map<String, Object> edgeVariables() {
    return kafkaVariables(EDGE_PRINCIPAL, edgeKeytab);
  }

  /**
   * The core's template variables: Kafka as for the edge, and its HDFS sinks logging in with the
   * same principal; {@code core_hdfs_root} is {@code runName} under {@link #hdfsDir()}.
   */
  public Map<String, Object> coreVariables(String runName) {
    Map<String, Object> variables = kafkaVariables(CORE_PRINCIPAL, coreKeytab);
    variables.put("core_hdfs_root", coreHdfsRoot(runName));
    variables.put("hdfs_kerberos_principal", Kdc.qualified(CORE_PRINCIPAL));
    variables.put("hdfs_kerberos_keytab", coreKeytab.toString());
    variables.put("hdfs_namenode_principal", Kdc.qualified(SecureHdfs.SERVICE_PRINCIPAL));
    variables.put("hdfs_data_transfer_protection", SecureHdfs.DATA_TRANSFER_PROTECTION);
    return variables;
  }

  /** Where the core of {@code runName} writes: a URI under {@link #hdfsDir()}. */
  public String coreHdfsRoot(String runName) {
    return hdfs().uri() + hdfsDir() + "/" + runName;
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
  public List<String> agentJvmOptions(List<String> options) {
    return Stream.concat(options.stream(), kafka.jvmOptions().stream()).toList();
  }

  /**
   * Stops HDFS and the broker. From a shutdown hook (Ctrl-C) Hadoop refuses to shut down (its own
   * hook manager is closed by then); the servers' threads then end with the JVM.
   */
  @Override
  public void close() {
    try {
      if (hdfs != null) {
        hdfs.close();
      }
    } catch (RuntimeException exiting) {
      // only while the JVM exits: see above
    } finally {
      kafka.close();
    }
  }
}
