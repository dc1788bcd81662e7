package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class HdfsProcessTest {
  @TempDir Path tmp;

  @Test
  void hdfsInItsOwnProcessServesClientsAndStopsWithoutLeftovers() throws IOException {
    long pid;
    try (HdfsProcess hdfs = HdfsProcess.start(tmp.resolve("hdfs"), AgentConfigs.TEST_JVM_OPTIONS)) {
      pid = hdfs.pid();
      assertTrue(hdfs.uri().toString().startsWith("hdfs://127.0.0.1:"), hdfs.uri().toString());
      try (FileSystem fs = hdfs.newFileSystem()) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/remote/file.txt");
        HdfsTest.write(fs, file, "across processes");
        assertEquals("across processes", HdfsTest.read(fs, file));
      }
    }
    assertFalse(
        ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        "the HDFS process is gone");
    assertFalse(Files.exists(tmp.resolve("hdfs/data")), "a clean stop deletes the HDFS data");
  }

  @Test
  void theNameNodeOfHdfsInItsOwnProcessStopsAndComesBackOnItsPortWithItsFiles() throws IOException {
    try (HdfsProcess hdfs = HdfsProcess.start(tmp.resolve("hdfs"), AgentConfigs.TEST_JVM_OPTIONS)) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/kept/file.txt");
      try (FileSystem fs = hdfs.newFileSystem()) {
        HdfsTest.write(fs, file, "written before the outage");
      }

      hdfs.stopNameNode();
      try (FileSystem fs = FileSystem.newInstance(hdfs.uri(), HdfsTest.noRetries(hdfs))) {
        assertThrows(IOException.class, () -> fs.exists(file), "no NameNode, no file system");
      }

      hdfs.restartNameNode();
      try (FileSystem fs = hdfs.newFileSystem()) {
        assertEquals("written before the outage", HdfsTest.read(fs, file));
      }
      assertTrue(hdfs.isAlive(), "the process served both commands and runs on");
    }
  }
}
