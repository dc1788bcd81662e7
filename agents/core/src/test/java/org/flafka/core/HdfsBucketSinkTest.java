package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Sink;
import org.apache.flume.Transaction;
import org.apache.flume.channel.MemoryChannel;
import org.apache.flume.conf.Configurables;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.flafka.stack.AgentMetrics;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HdfsBucketSink} on Hadoop's local file system (a real {@code FileSystem}, the one the
 * Ansible rollout tests use; MiniDFSCluster runs are CoreAgentLayoutTest, CoreAgentCrashTest and
 * CoreAgentHdfsOutageTest, through the template): buckets by the configured zone's date and host,
 * rolls by size and idleness, renames what it closes, and refuses bad settings naming key, value
 * and rule.
 */
@Tag("e2e")
class HdfsBucketSinkTest {

  private static final ZoneId KOLKATA = ZoneId.of("Asia/Kolkata");

  @TempDir Path dir;

  /** A clock the test moves by hand. */
  private static final class ManualClock extends Clock {
    long millis;

    ManualClock(long millis) {
      this.millis = millis;
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneId.of("UTC");
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  private Map<String, String> settings(String... extra) {
    Map<String, String> settings = new HashMap<>();
    settings.put("type", "org.flafka.core.HdfsBucketSink");
    settings.put("channel", "ch");
    settings.put("hdfs.root", dir.resolve("root").toUri().toString());
    settings.put("hdfs.filePrefix", "core-test-hdfs0");
    settings.put("hdfs.timeZone", KOLKATA.getId());
    for (int i = 0; i < extra.length; i += 2) {
      settings.put(extra[i], extra[i + 1]);
    }
    return settings;
  }

  private static MemoryChannel channel() {
    MemoryChannel channel = new MemoryChannel();
    channel.setName("ch");
    Configurables.configure(
        channel, new Context(Map.of("capacity", "10000", "transactionCapacity", "1000")));
    channel.start();
    return channel;
  }

  private static void put(MemoryChannel channel, String host, long timestamp, String body) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    channel.put(
        EventBuilder.withBody(
            body.getBytes(StandardCharsets.UTF_8),
            Map.of("timestamp", Long.toString(timestamp), "host", host)));
    tx.commit();
    tx.close();
  }

  /**
   * Every file under the root by its path relative to it, with its lines (snappy files
   * decompressed).
   */
  private Map<String, List<String>> files() throws IOException {
    Map<String, List<String>> files = new TreeMap<>();
    Path root = dir.resolve("root");
    SnappyCodec codec = ReflectionUtils.newInstance(SnappyCodec.class, new Configuration());
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file :
          walk.filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().endsWith(".crc"))
              .toList()) {
        try (InputStream in = codec.createInputStream(Files.newInputStream(file))) {
          String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          files.put(root.relativize(file).toString(), text.lines().toList());
        }
      }
    }
    return files;
  }

  @Test
  void bucketsByTheZonesDateAndHostRollsBySizeAndIdlenessAndRenamesWhatItCloses() throws Exception {
    // Midnight in Kolkata is 18:30 UTC the day before: a UTC date would put these two events in one
    // bucket
    long midnight = LocalDate.of(2026, 11, 21).atStartOfDay(KOLKATA).toInstant().toEpochMilli();
    ManualClock clock = new ManualClock(midnight + 3_600_000L);
    MemoryChannel channel = channel();
    HdfsBucketSink sink = new HdfsBucketSink(clock);
    sink.setName("hdfs0");
    sink.setChannel(channel);
    Configurables.configure(
        sink,
        new Context(
            settings(
                "hdfs.batchSize",
                "5",
                "hdfs.rollSize",
                "100",
                "hdfs.idleTimeout",
                "60",
                "hdfs.rollInterval",
                "0")));
    sink.start();
    try {
      put(channel, "router-a", midnight - 1, "a-before-midnight");
      put(channel, "router-a", midnight, "a-at-midnight");
      for (int i = 0; i < 12; i++) {
        // Lines of 20 bytes in batches of 5: router-b's file passes 100 bytes with the second batch
        // (8 lines) and is closed after it; the third batch's 4 lines start a new file
        put(channel, "router-b", midnight + i, String.format("b-line-%012d", i));
      }
      for (int batch = 0; batch < 3; batch++) {
        assertEquals(Sink.Status.READY, sink.process());
      }
      Map<String, List<String>> files = files();
      List<String> closedB =
          files.entrySet().stream()
              .filter(
                  e ->
                      e.getKey()
                          .matches("dt=2026-11-21/host=router-b/core-test-hdfs0\\.\\d+\\.snappy"))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no closed router-b file"));
      assertEquals(8, closedB.size(), closedB.toString());
      // Still open, under their in-use names (on HDFS hflush makes their lines readable already,
      // which CoreAgentCrashTest checks; Hadoop's local file system keeps them in its checksum
      // buffer until close)
      assertTrue(
          files.keySet().stream()
              .anyMatch(
                  f ->
                      f.matches(
                          "dt=2026-11-21/host=router-b/_core-test-hdfs0"
                              + "\\.\\d+\\.snappy\\.tmp")),
          files.toString());
      assertTrue(
          files.keySet().stream()
              .anyMatch(
                  f ->
                      f.matches(
                          "dt=2026-11-20/host=router-a/_core-test-hdfs0"
                              + "\\.\\d+\\.snappy\\.tmp")),
          files.toString());

      // 60 s without a write closes the idle files at the next call, even one that takes nothing
      clock.millis += 61_000;
      assertEquals(Sink.Status.BACKOFF, sink.process());
      files = files();
      assertTrue(
          files.keySet().stream().noneMatch(f -> f.contains("/_")), "nothing in use: " + files);
      List<String> bLines = new ArrayList<>();
      files.forEach(
          (file, lines) -> {
            if (file.contains("router-b")) {
              bLines.addAll(lines);
            }
          });
      assertEquals(12, bLines.size(), files.toString());
      assertEquals(List.of("a-before-midnight"), only(files, "dt=2026-11-20/host=router-a/"));
      assertEquals(List.of("a-at-midnight"), only(files, "dt=2026-11-21/host=router-a/"));
    } finally {
      sink.stop();
      channel.stop();
    }
  }

  /** A memory channel whose take fails once, as the Kafka channel's does after a rebalance. */
  private static final class RevokingChannel extends MemoryChannel {
    private int takesBeforeRevoking = -1;

    void revokeAtTake(int take) {
      takesBeforeRevoking = take - 1;
    }

    @Override
    public Event take() {
      if (takesBeforeRevoking == 0) {
        takesBeforeRevoking = -1;
        throw new PartitionsRevokedException(
            "ch: partitions [syslog-0] were given to another reader");
      }
      if (takesBeforeRevoking > 0) {
        takesBeforeRevoking--;
      }
      return super.take();
    }
  }

  @Test
  void aBatchWhosePartitionsMoveToAnotherReaderWritesNothingAndTheNextBatchWritesItOnce()
      throws Exception {
    long now = LocalDate.of(2026, 11, 21).atStartOfDay(KOLKATA).toInstant().toEpochMilli();
    RevokingChannel channel = new RevokingChannel();
    channel.setName("ch");
    Configurables.configure(
        channel, new Context(Map.of("capacity", "10000", "transactionCapacity", "1000")));
    channel.start();
    HdfsBucketSink sink = new HdfsBucketSink(new ManualClock(now));
    sink.setName("hdfs0");
    sink.setChannel(channel);
    Configurables.configure(sink, new Context(settings("hdfs.batchSize", "1000")));
    sink.start();
    try {
      put(channel, "router-1", now, "committed-1");
      put(channel, "router-2", now, "committed-2");
      assertEquals(Sink.Status.READY, sink.process());
      put(channel, "router-1", now, "revoked-1");
      put(channel, "router-2", now, "revoked-2");
      put(channel, "router-3", now, "revoked-3");
      // the batch appends to router-1's and router-2's open files and opens router-3's, then fails
      channel.revokeAtTake(4);
      assertEquals(Sink.Status.READY, sink.process(), "a rebalance is not a failure");
      assertEquals(
          1, AgentMetrics.of(JMXPollUtil.getAllMBeans()).sink("hdfs0", "BatchRevokedCount"));
      // rolled back into the channel, as the Kafka channel's next owner would read them again
      assertEquals(Sink.Status.READY, sink.process());
    } finally {
      sink.stop();
      channel.stop();
    }
    Map<String, List<String>> files = files();
    List<String> lines = new ArrayList<>();
    files.values().forEach(lines::addAll);
    Collections.sort(lines);
    assertEquals(
        List.of("committed-1", "committed-2", "revoked-1", "revoked-2", "revoked-3"),
        lines,
        "each line once: " + files);
  }

  @Test
  void aStopClosesAndRenamesEveryHostsFileWithEveryLine() throws Exception {
    long now = LocalDate.of(2026, 11, 21).atStartOfDay(KOLKATA).toInstant().toEpochMilli();
    MemoryChannel channel = channel();
    HdfsBucketSink sink = new HdfsBucketSink(new ManualClock(now));
    sink.setName("hdfs0");
    sink.setChannel(channel);
    Configurables.configure(sink, new Context(settings("hdfs.batchSize", "1000")));
    sink.start();
    int hosts = 20;
    try {
      for (int line = 0; line < 3; line++) {
        for (int host = 0; host < hosts; host++) {
          put(channel, "router-" + host, now + line, "line-" + line + "-of-router-" + host);
        }
      }
      assertEquals(Sink.Status.READY, sink.process());
    } finally {
      sink.stop();
      channel.stop();
    }
    Map<String, List<String>> files = files();
    assertTrue(files.keySet().stream().noneMatch(f -> f.contains("/_")), "in use: " + files);
    for (int host = 0; host < hosts; host++) {
      assertEquals(
          List.of(
              "line-0-of-router-" + host, "line-1-of-router-" + host, "line-2-of-router-" + host),
          only(files, "dt=2026-11-21/host=router-" + host + "/"));
    }
  }

  private static List<String> only(Map<String, List<String>> files, String bucket) {
    List<List<String>> found =
        files.entrySet().stream()
            .filter(e -> e.getKey().startsWith(bucket))
            .map(Map.Entry::getValue)
            .toList();
    assertEquals(1, found.size(), bucket + " in " + files.keySet());
    return found.get(0);
  }

  @Test
  void badSettingsNameTheKeyTheValueAndTheFix() {
    assertEquals(
        "HDFS bucket sink: missing required key 'hdfs.root'. Fix: add hdfs.root = "
            + "hdfs://nameservice1/data/syslog to the sink.",
        assertThrows(
                ConfigurationException.class,
                () -> new HdfsBucketSinkConfig(Map.of("hdfs.filePrefix", "p")))
            .getMessage());
    assertEquals(
        "HDFS bucket sink: invalid value 'Mars/Olympus' for key 'hdfs.timeZone': must be a Java time "
            + "zone id such as UTC or Europe/Berlin. Fix: set hdfs.timeZone to a Java time zone id such as UTC or "
            + "Europe/Berlin.",
        assertThrows(
                ConfigurationException.class,
                () -> new HdfsBucketSinkConfig(settings("hdfs.timeZone", "Mars/Olympus")))
            .getMessage());
    assertEquals(
        "HDFS bucket sink: invalid value 'lzo' for key 'hdfs.codeC': must be one of snappy, none. "
            + "Fix: set hdfs.codeC to one of snappy, none.",
        assertThrows(
                ConfigurationException.class,
                () -> new HdfsBucketSinkConfig(settings("hdfs.codeC", "lzo")))
            .getMessage());
    // Flume's HDFS sink keys that do not apply here are errors, not silently ignored
    assertTrue(
        assertThrows(
                ConfigurationException.class,
                () -> new HdfsBucketSinkConfig(settings("hdfs.path", "/x/%Y")))
            .getMessage()
            .startsWith(
                "HDFS bucket sink: unknown key 'hdfs.path'. Fix: remove it or use one of hdfs.root, "));
  }
}
