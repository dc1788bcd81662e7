package org.flafka.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.Hdfs;
import org.flafka.stack.KafkaBroker;

/**
 * The core agent's surroundings for a test class: a real KRaft broker and a real MiniDFSCluster in
 * this JVM, the core configuration rendered from agents/core/templates/core.properties.j2, and an
 * HDFS client of the test's own (never Flume's cached one, which an in-process agent is using).
 */
final class CoreStack implements AutoCloseable {

  private final Path dir;
  private final KafkaBroker kafka;
  private final Hdfs hdfs;
  private final FileSystem fs;

  private CoreStack(Path dir, KafkaBroker kafka, Hdfs hdfs, FileSystem fs) {
    this.dir = dir;
    this.kafka = kafka;
    this.hdfs = hdfs;
    this.fs = fs;
  }

  /**
   * Starts the broker and HDFS with their data under {@code dir}, which {@link #close()} deletes.
   */
  static CoreStack start(Path dir) {
    KafkaBroker kafka = KafkaBroker.start(dir.resolve("kafka"));
    Hdfs hdfs = null;
    try {
      hdfs = Hdfs.start(dir.resolve("hdfs"));
      return new CoreStack(
          dir, kafka, hdfs, FileSystem.newInstance(hdfs.uri(), new Configuration()));
    } catch (IOException | RuntimeException e) {
      if (hdfs != null) {
        hdfs.close();
      }
      kafka.close();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  KafkaBroker kafka() {
    return kafka;
  }

  Hdfs hdfs() {
    return hdfs;
  }

  FileSystem fs() {
    return fs;
  }

  /** {@code hdfs://127.0.0.1:<port>/<name>}. */
  String hdfsRoot(String name) {
    return hdfs.uri() + "/" + name;
  }

  /**
   * Template variables for a core agent reading {@code topic} into {@code hdfsRoot}, sized for a
   * test (batches of 100 to 200 events, a 10,000-event channel); {@code overrides} win.
   */
  Map<String, Object> variables(
      String topic, String hdfsRoot, Path dataDir, Map<String, ?> overrides) {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    variables.put("kafka_topic", topic);
    variables.put("core_consumer_group", "core-" + topic);
    variables.put("core_kafka_sources", 1);
    variables.put("core_hdfs_sinks", 1);
    variables.put("core_hdfs_root", hdfsRoot);
    variables.put("core_data_dir", dataDir.toAbsolutePath().toString());
    variables.put("core_source_batch_size", 200);
    variables.put("core_source_batch_duration_millis", 100);
    variables.put("core_hdfs_batch_size", 100);
    variables.put("core_channel_capacity", 10000);
    variables.put("core_channel_transaction_capacity", 1000);
    variables.putAll(overrides);
    return variables;
  }

  /** The core agent's properties, rendered from the template. */
  static String render(Map<String, Object> variables) {
    return AgentTemplates.render(Tier.CORE, variables);
  }

  Landing landing(String hdfsRoot) {
    return Landing.read(fs, new org.apache.hadoop.fs.Path(hdfsRoot));
  }

  /**
   * Polls {@code hdfsRoot} until every one of {@code ids} has landed at least once; returns the
   * last reading. Fails naming how many are missing when {@code timeout} passes.
   */
  Landing awaitLanded(String hdfsRoot, Collection<String> ids, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Landing landing = landing(hdfsRoot);
      Set<String> missing = new TreeSet<>(ids);
      missing.removeAll(landing.idCounts().keySet());
      if (missing.isEmpty()) {
        return landing;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            missing.size()
                + " of "
                + ids.size()
                + " events did not land in "
                + hdfsRoot
                + " within "
                + timeout.toSeconds()
                + " s; first missing: "
                + missing.iterator().next());
      }
      sleep(Duration.ofMillis(500));
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      fs.close();
    } finally {
      try {
        hdfs.close();
      } finally {
        kafka.close();
        Files.deleteIfExists(dir);
      }
    }
  }
}
