package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HDFS as a secure cluster has it, in this JVM: Hadoop's MiniDFSCluster (one NameNode, one
 * DataNode) with Kerberos logins from the JVM's {@link Kdc}, block access tokens, data transfer
 * protection {@value #DATA_TRANSFER_PROTECTION} (SASL on the DataNode's data port, encrypted), and
 * HTTPS only for both web servers, with certificates from a {@link CertificateAuthority}: a
 * DataNode on unprivileged ports refuses to start securely without SASL data transfer and HTTPS.
 * Reached as {@code localhost}: the service principal is {@value #SERVICE_PRINCIPAL}.
 *
 * <p>Hadoop's Kerberos settings are JVM-wide ({@link UserGroupInformation}'s configuration is
 * static, and the NameNode makes its principal the JVM's login user): while this cluster runs,
 * every Hadoop client in the JVM is a Kerberos client. {@link #close()} puts the JVM back on simple
 * authentication, so the plain {@link Hdfs} of later tests in the same JVM works as before.
 */
public final class SecureHdfs implements HdfsCluster, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SecureHdfs.class);

  /** The NameNode's and DataNode's principal, without the realm. */
  public static final String SERVICE_PRINCIPAL = "hdfs/localhost";

  /** The web servers' (SPNEGO) principal, without the realm. */
  public static final String HTTP_PRINCIPAL = "HTTP/localhost";

  public static final String DATA_TRANSFER_PROTECTION = "privacy";

  private static final String SSL_SERVER_RESOURCE = "flafka-ssl-server.xml";
  private static final String SSL_CLIENT_RESOURCE = "flafka-ssl-client.xml";

  private final Path dir;
  private final Path baseDir;
  private final MiniDFSCluster cluster;
  private final URI uri;
  private final UserGroupInformation superuser;
  private boolean closed;

  private SecureHdfs(
      Path dir, Path baseDir, MiniDFSCluster cluster, UserGroupInformation superuser) {
    this.dir = dir;
    this.baseDir = baseDir;
    this.cluster = cluster;
    this.superuser = superuser;
    this.uri = URI.create("hdfs://localhost:" + cluster.getNameNodePort());
  }

  /**
   * Starts the JVM's KDC if need be, and HDFS with its data in {@code dir/dfs}, its keytabs and TLS
   * stores in {@code dir/secrets}; {@code ca} signs the web servers' certificates.
   */
  public static SecureHdfs start(Path dir, CertificateAuthority ca) {
    Kdc kdc = Kdc.jvmWide();
    Path root = Directories.create(dir).toAbsolutePath();
    Path baseDir = root.resolve("dfs");
    Path secrets = Directories.create(root.resolve("secrets"));
    Path serviceKeytab = kdc.createPrincipal(SERVICE_PRINCIPAL);
    Path httpKeytab = kdc.createPrincipal(HTTP_PRINCIPAL);
    CertificateAuthority.Store serverStore = ca.issue("hdfs-localhost");
    writeSslResource(
        secrets.resolve(SSL_SERVER_RESOURCE),
        Map.of(
            "ssl.server.keystore.location", serverStore.path().toString(),
            "ssl.server.keystore.password", serverStore.password(),
            "ssl.server.keystore.keypassword", serverStore.password(),
            "ssl.server.keystore.type", "pkcs12",
            "ssl.server.truststore.location", ca.trustStore().path().toString(),
            "ssl.server.truststore.password", ca.trustStore().password(),
            "ssl.server.truststore.type", "pkcs12"));
    writeSslResource(
        secrets.resolve(SSL_CLIENT_RESOURCE),
        Map.of(
            "ssl.client.truststore.location", ca.trustStore().path().toString(),
            "ssl.client.truststore.password", ca.trustStore().password(),
            "ssl.client.truststore.type", "pkcs12"));

    Configuration conf = new Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("dfs.replication", "1");
    conf.set("dfs.namenode.rpc-address", "localhost:0");
    conf.set("dfs.namenode.https-address", "localhost:0");
    conf.set("dfs.datanode.address", "localhost:0");
    conf.set("dfs.datanode.https.address", "localhost:0");
    conf.set("dfs.datanode.ipc.address", "localhost:0");
    conf.set("dfs.namenode.kerberos.principal", Kdc.qualified(SERVICE_PRINCIPAL));
    conf.set("dfs.namenode.keytab.file", serviceKeytab.toString());
    conf.set("dfs.datanode.kerberos.principal", Kdc.qualified(SERVICE_PRINCIPAL));
    conf.set("dfs.datanode.keytab.file", serviceKeytab.toString());
    conf.set("dfs.web.authentication.kerberos.principal", Kdc.qualified(HTTP_PRINCIPAL));
    conf.set("dfs.web.authentication.kerberos.keytab", httpKeytab.toString());
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", DATA_TRANSFER_PROTECTION);
    conf.set("dfs.http.policy", "HTTPS_ONLY");
    conf.setBoolean("dfs.webhdfs.enabled", false);
    // Hadoop reads the TLS settings of its web servers from a class path resource by name
    conf.set("dfs.https.server.keystore.resource", SSL_SERVER_RESOURCE);
    conf.set("dfs.client.https.keystore.resource", SSL_CLIENT_RESOURCE);
    conf.set("hadoop.ssl.server.conf", SSL_SERVER_RESOURCE);
    conf.set("hadoop.ssl.client.conf", SSL_CLIENT_RESOURCE);
    conf.set("dfs.heartbeat.interval", "1");
    conf.set("dfs.namenode.safemode.extension", "0");
    conf.set("dfs.namenode.file.close.num-committed-allowed", "1");

    // Configuration finds a resource through the thread's context class loader, and the NameNode
    // and DataNode read theirs on this thread while the cluster is built.
    Thread thread = Thread.currentThread();
    ClassLoader original = thread.getContextClassLoader();
    try (URLClassLoader withSslResources =
        new URLClassLoader(new URL[] {secrets.toUri().toURL()}, original)) {
      thread.setContextClassLoader(withSslResources);
      UserGroupInformation.setConfiguration(conf);
      MiniDFSCluster cluster =
          new MiniDFSCluster.Builder(conf, baseDir.toFile())
              .numDataNodes(1)
              .format(true)
              .checkExitOnShutdown(false)
              .build();
      cluster.waitActive();
      UserGroupInformation superuser =
          UserGroupInformation.loginUserFromKeytabAndReturnUGI(
              Kdc.qualified(SERVICE_PRINCIPAL), serviceKeytab.toString());
      SecureHdfs hdfs = new SecureHdfs(root, baseDir, cluster, superuser);
      LOG.info("secure HDFS ready at {} (data in {})", hdfs.uri, root);
      return hdfs;
    } catch (IOException | RuntimeException e) {
      Directories.deleteOwned(baseDir, root);
      throw new StackException("secure HDFS in " + root + " did not start: " + e.getMessage(), e);
    } finally {
      thread.setContextClassLoader(original);
    }
  }

  private static void writeSslResource(Path file, Map<String, String> properties) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    new TreeMap<>(properties)
        .forEach(
            (key, value) ->
                xml.append("  <property><name>")
                    .append(key)
                    .append("</name><value>")
                    .append(value)
                    .append("</value></property>\n"));
    xml.append("</configuration>\n");
    try {
      Files.writeString(file, xml);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new StackException("could not write " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public URI uri() {
    return uri;
  }

  /**
   * What a client needs besides its own principal and keytab: Kerberos, the NameNode's principal
   * and the data transfer protection.
   */
  @Override
  public Configuration clientConfiguration() {
    Configuration conf = HdfsCluster.super.clientConfiguration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("dfs.namenode.kerberos.principal", Kdc.qualified(SERVICE_PRINCIPAL));
    conf.set("dfs.data.transfer.protection", DATA_TRANSFER_PROTECTION);
    return conf;
  }

  /** A new client logged in as the cluster's superuser ({@value #SERVICE_PRINCIPAL}). */
  @Override
  public FileSystem newFileSystem() {
    return asSuperuser(() -> FileSystem.newInstance(uri, clientConfiguration()));
  }

  /**
   * Creates {@code path} (and its parents) owned by {@code user}, the short name a principal maps
   * to (e.g. {@code flafka-core} for {@code flafka-core/localhost@FLAFKA.TEST}), as an
   * administrator prepares a directory for an agent.
   */
  public void mkdirsOwnedBy(String path, String user) {
    asSuperuser(
        () -> {
          try (FileSystem fs = FileSystem.newInstance(uri, clientConfiguration())) {
            org.apache.hadoop.fs.Path dirPath = new org.apache.hadoop.fs.Path(path);
            fs.mkdirs(dirPath, new FsPermission((short) 0755));
            fs.setOwner(dirPath, user, null);
          }
          return null;
        });
  }

  private <T> T asSuperuser(PrivilegedExceptionAction<T> action) {
    try {
      return superuser.doAs(action);
    } catch (IOException e) {
      throw new UncheckedIOException("secure HDFS at " + uri + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while talking to secure HDFS at " + uri, e);
    }
  }

  /** The directory holding the NameNode's and DataNode's data. */
  public Path dir() {
    return dir;
  }

  /** Shuts HDFS down, deletes its data and puts the JVM back on simple authentication. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    cluster.shutdown(true);
    Directories.deleteOwned(baseDir, dir);
    UserGroupInformation.reset();
    UserGroupInformation.setConfiguration(new Configuration());
    LOG.info("secure HDFS at {} stopped; this JVM is back on simple authentication", uri);
  }

  @Override
  public String toString() {
    return "SecureHdfs[" + uri + ", " + dir + "]";
  }
}
