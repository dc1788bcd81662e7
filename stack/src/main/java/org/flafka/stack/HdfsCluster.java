package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * A running single-node HDFS of the local stack, in this JVM ({@link Hdfs}) or in its own process
 * ({@link HdfsProcess}).
 */
public interface HdfsCluster {
  /**
   * The file system URI, {@code hdfs://127.0.0.1:port}: the HDFS sink's path prefix and {@code
   * fs.defaultFS}.
   */
  URI uri();

  /** Client settings for this cluster: one datanode, so one replica. */
  default Configuration clientConfiguration() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", uri().toString());
    conf.set("dfs.replication", "1");
    return conf;
  }

  /**
   * A new client for this cluster, not shared through Hadoop's FileSystem cache (a cached client
   * would outlive a stopped cluster and be closed under other users' feet); the caller closes it.
   */
  default FileSystem newFileSystem() {
    try {
      return FileSystem.newInstance(uri(), clientConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException("could not connect to " + uri() + ": " + e.getMessage(), e);
    }
  }
}
