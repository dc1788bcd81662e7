package org.flafka.stack;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HDFS in this JVM: Hadoop's MiniDFSCluster with one NameNode and one DataNode on 127.0.0.1,
 * from the shaded {@code hadoop-client-minicluster}. The NameNode can be stopped and restarted on
 * the same port to test "HDFS away for a while". {@link #close()} shuts the cluster down and
 * deletes its directory.
 *
 * <p>For HDFS in its own process use {@link HdfsProcess}.
 */
public final class Hdfs implements HdfsCluster, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Hdfs.class);

  private final Path dir;
  private final Path baseDir;
  private final MiniDFSCluster cluster;
  private final URI uri;
  private boolean closed;

  /** The stopped DataNode, to restart, or null. */
  private MiniDFSCluster.DataNodeProperties stoppedDataNode;

  private Hdfs(Path dir, Path baseDir, MiniDFSCluster cluster) {
    this.dir = dir;
    this.baseDir = baseDir;
    this.cluster = cluster;
    this.uri = URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort());
  }

  /**
   * Starts HDFS with its NameNode and DataNode data in {@code dir/dfs}; {@link #close()} deletes
   * that, and {@code dir} if it is then empty.
   */
  public static Hdfs start(Path dir) {
    Path root = Directories.create(dir).toAbsolutePath();
    Path baseDir = root.resolve("dfs");
    Configuration conf = new Configuration();
    conf.set("dfs.replication", "1");
    // Every server port on loopback, chosen by the kernel and read back by MiniDFSCluster
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    // A restarted NameNode hears from the DataNode within a second instead of three
    conf.set("dfs.heartbeat.interval", "1");
    conf.set("dfs.namenode.safemode.extension", "0");
    // A client closing a file asks the NameNode to complete it, usually before the DataNode has
    // reported the last block, and retries after 400 ms: a Flume HDFS sink closing one file per
    // host then takes seconds to stop. One committed (written, not yet reported) last block may
    // close; with one DataNode nothing is at risk.
    conf.set("dfs.namenode.file.close.num-committed-allowed", "1");
    try {
      MiniDFSCluster cluster =
          new MiniDFSCluster.Builder(conf, baseDir.toFile())
              .numDataNodes(1)
              .format(true)
              .checkExitOnShutdown(false)
              .build();
      cluster.waitActive();
      Hdfs hdfs = new Hdfs(root, baseDir, cluster);
      LOG.info("HDFS ready at {} (data in {})", hdfs.uri, root);
      return hdfs;
    } catch (IOException | RuntimeException e) {
      Directories.deleteOwned(baseDir, root);
      throw new StackException("HDFS in " + root + " did not start: " + e.getMessage(), e);
    }
  }

  @Override
  public URI uri() {
    return uri;
  }

  /** The directory holding the NameNode's and DataNode's data. */
  public Path dir() {
    return dir;
  }

  /**
   * Stops the NameNode; clients fail or retry until {@link #restartNameNode()}. The DataNode keeps
   * running.
   */
  public synchronized void stopNameNode() {
    cluster.shutdownNameNode(0);
    LOG.info("HDFS NameNode at {} stopped", uri);
  }

  /** Starts the NameNode again on the same port and waits until the DataNode has reported to it. */
  public synchronized void restartNameNode() {
    try {
      cluster.restartNameNode(0, true);
    } catch (IOException e) {
      throw new StackException(
          "HDFS NameNode at " + uri + " did not restart: " + e.getMessage(), e);
    }
    if (cluster.getNameNodePort() != uri.getPort()) {
      throw new StackException(
          "HDFS NameNode restarted on port "
              + cluster.getNameNodePort()
              + " instead of "
              + uri.getPort());
    }
    LOG.info("HDFS NameNode at {} restarted", uri);
  }

  /**
   * Stops the DataNode, the only one: writes fail (their pipeline has no node left) until {@link
   * #restartDataNode()}, while the NameNode answers.
   */
  public synchronized void stopDataNode() {
    if (stoppedDataNode != null) {
      return;
    }
    stoppedDataNode = cluster.stopDataNode(0);
    LOG.info("HDFS DataNode of {} stopped", uri);
  }

  /** Starts the stopped DataNode again on its ports and waits until it has registered. */
  public synchronized void restartDataNode() {
    if (stoppedDataNode == null) {
      return;
    }
    try {
      cluster.restartDataNode(stoppedDataNode, true);
      cluster.waitActive();
    } catch (IOException e) {
      throw new StackException(
          "HDFS DataNode of " + uri + " did not restart: " + e.getMessage(), e);
    }
    stoppedDataNode = null;
    LOG.info("HDFS DataNode of {} restarted", uri);
  }

  public synchronized boolean isNameNodeUp() {
    return cluster.isNameNodeUp(0);
  }

  /** Shuts HDFS down and deletes its data (see {@link #start(Path)}). */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    cluster.shutdown(true);
    Directories.deleteOwned(baseDir, dir);
    LOG.info("HDFS at {} stopped", uri);
  }

  @Override
  public String toString() {
    return "Hdfs[" + uri + ", " + dir + "]";
  }
}
