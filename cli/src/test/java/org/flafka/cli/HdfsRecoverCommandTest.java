package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.flafka.stack.Hdfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka hdfs recover}: publishes the in-progress files under a path, on a local file system
 * and on a real MiniDFSCluster where a writer left one open with flushed data; bad input is one
 * line and exit 2.
 */
class HdfsRecoverCommandTest {

  @Test
  void inProgressFilesUnderALocalPathArePublishedAndOthersLeftAlone(@TempDir Path dir)
      throws Exception {
    Path bucket = Files.createDirectories(dir.resolve("dt=2026-11-27/host=router-1"));
    Files.writeString(bucket.resolve("_core-h-hdfs0.17.log.tmp"), "a\n");
    Files.writeString(bucket.resolve("core-h-hdfs0.16.log"), "b\n");

    FlafkaRun run = flafka("hdfs", "recover", dir.toUri().toString());

    assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out().endsWith("1 in-progress file(s) found, 1 published, 0 not recovered\n"),
        run.out());
    assertEquals("a\n", Files.readString(bucket.resolve("core-h-hdfs0.17.log")));
    assertFalse(Files.exists(bucket.resolve("_core-h-hdfs0.17.log.tmp")));
    assertEquals("b\n", Files.readString(bucket.resolve("core-h-hdfs0.16.log")));
  }

  @Test
  void badInputIsOneLineAndExitsTwo(@TempDir Path dir) {
    for (String[] args :
        new String[][] {
          {"hdfs", "recover", dir.resolve("missing").toUri().toString()},
          {"hdfs", "recover", "--timeout", "soon", dir.toUri().toString()},
          {"hdfs", "recover"},
        }) {
      FlafkaRun run = flafka(args);
      assertEquals(
          ExitCode.INVALID_INPUT, run.exitCode(), String.join(" ", args) + ": " + run.err());
      // One line saying what is wrong (picocli's usage errors add a pointer to --help)
      assertTrue(run.err().startsWith("flafka: "), run.err());
      assertTrue(
          run.err().strip().lines().skip(1).allMatch(line -> line.startsWith("Try ")), run.err());
      assertFalse(run.err().contains("Exception"), run.err());
    }
  }

  @Test
  @Tag("e2e")
  void aFileAWriterLeftOpenInHdfsIsClosedWithItsFlushedDataAndPublished(@TempDir Path dir)
      throws Exception {
    try (Hdfs hdfs = Hdfs.start(dir.resolve("hdfs"))) {
      org.apache.hadoop.fs.Path file =
          new org.apache.hadoop.fs.Path(
              hdfs.uri() + "/syslog/dt=2026-11-27/host=router-1/_core-h-hdfs0.17.log.tmp");
      // A writer that flushes and never closes, holding the lease as a killed agent's would
      FileSystem writer = FileSystem.newInstance(hdfs.uri(), new Configuration());
      try {
        FSDataOutputStream out = writer.create(file, false);
        out.write("line 1\n".getBytes(StandardCharsets.UTF_8));
        out.hflush();

        FlafkaRun run = flafka("hdfs", "recover", hdfs.uri() + "/syslog");

        assertEquals(ExitCode.OK, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("-> core-h-hdfs0.17.log\n"), run.out());
        try (FileSystem fs = FileSystem.newInstance(hdfs.uri(), new Configuration());
            var in =
                fs.open(new org.apache.hadoop.fs.Path(file.getParent(), "core-h-hdfs0.17.log"))) {
          assertEquals("line 1\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      } finally {
        try {
          writer.close();
        } catch (java.io.IOException leaseGone) {
          // The file it held was taken from it, as from a dead writer
        }
      }
    }
  }
}
