package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link InProgressFiles} against a real MiniDFSCluster: a file a writer left open with flushed
 * data is found by its prefix, closed by lease recovery with everything flushed, and published
 * under its final name; another writer's file is left alone.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class InProgressFilesTest {

  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  @Test
  void aFileAWriterLeftOpenIsFoundRecoveredAndPublishedWithWhatWasFlushed() throws Exception {
    Path root = new Path(stack.hdfsRoot("in-progress"));
    Path bucket = new Path(root, "dt=2026-11-27/host=router-1");
    Path ours = new Path(bucket, "_core-a-hdfs0.1700000000000.log.tmp");
    Path theirs = new Path(bucket, "_core-b-hdfs0.1700000000001.log.tmp");
    // A writer of its own (its own lease holder) that flushes and never closes: a killed agent
    FileSystem writer = FileSystem.newInstance(root.toUri(), new Configuration());
    try {
      FSDataOutputStream out = writer.create(ours, false);
      out.write("line 1\nline 2\n".getBytes(StandardCharsets.UTF_8));
      out.hflush();
      writer.create(theirs, false).hflush();

      FileSystem fs = stack.fs();
      assertEquals(List.of(ours), InProgressFiles.findInLayout(fs, root, "core-a-hdfs0", 0));
      assertEquals(
          List.of(),
          InProgressFiles.findInLayout(
              fs, root, "core-a-hdfs0", System.currentTimeMillis() + 60_000),
          "buckets not changed since the cut-off are not listed");
      assertEquals(2, InProgressFiles.findUnder(fs, root).size());

      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!InProgressFiles.recoverLease(fs, fs.makeQualified(ours))) {
        assertTrue(System.nanoTime() < deadline, "lease recovery did not close " + ours);
        CoreStack.sleep(Duration.ofMillis(250));
      }
      Path published = InProgressFiles.publish(fs, fs.makeQualified(ours));
      assertEquals("core-a-hdfs0.1700000000000.log", published.getName());
      assertFalse(fs.exists(ours));
      try (var in = fs.open(published)) {
        assertEquals("line 1\nline 2\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      assertTrue(fs.exists(theirs), "another writer's file is not touched");
    } finally {
      writer.close();
    }
  }
}
