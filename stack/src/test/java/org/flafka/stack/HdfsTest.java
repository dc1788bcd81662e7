package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class HdfsTest {
  @TempDir Path tmp;

  @Test
  void writesAndReadsBackAndSurvivesANameNodeRestart() throws IOException {
    Path dir = tmp.resolve("hdfs");
    try (Hdfs hdfs = Hdfs.start(dir)) {
      assertEquals("127.0.0.1", hdfs.uri().getHost());
      org.apache.hadoop.fs.Path before = new org.apache.hadoop.fs.Path("/logs/before.txt");
      try (FileSystem fs = hdfs.newFileSystem()) {
        write(fs, before, "written before the restart");
        assertEquals("written before the restart", read(fs, before));
      }

      hdfs.stopNameNode();
      assertFalse(hdfs.isNameNodeUp());
      try (FileSystem fs = FileSystem.newInstance(hdfs.uri(), noRetries(hdfs))) {
        assertThrows(IOException.class, () -> fs.exists(before), "no NameNode, no file system");
      }

      hdfs.restartNameNode();
      try (FileSystem fs = hdfs.newFileSystem()) {
        assertEquals("written before the restart", read(fs, before));
        org.apache.hadoop.fs.Path after = new org.apache.hadoop.fs.Path("/logs/after.txt");
        write(fs, after, "written after the restart");
        assertEquals("written after the restart", read(fs, after));
      }
    }
    assertFalse(Files.exists(dir), "close deletes the HDFS directory");
  }

  @Test
  void writesFailWhileTheDataNodeIsStoppedAndWorkAgainOnceItIsBack() throws IOException {
    try (Hdfs hdfs = Hdfs.start(tmp.resolve("datanode"))) {
      org.apache.hadoop.fs.Path kept = new org.apache.hadoop.fs.Path("/logs/kept.txt");
      try (FileSystem fs = hdfs.newFileSystem()) {
        write(fs, kept, "written before");

        hdfs.stopDataNode();
        assertThrows(
            IOException.class,
            () -> write(fs, new org.apache.hadoop.fs.Path("/logs/lost.txt"), "no DataNode"),
            "a write needs a DataNode");

        hdfs.restartDataNode();
        assertEquals("written before", read(fs, kept));
        org.apache.hadoop.fs.Path after = new org.apache.hadoop.fs.Path("/logs/after.txt");
        write(fs, after, "written after");
        assertEquals("written after", read(fs, after));
      }
    }
  }

  static org.apache.hadoop.conf.Configuration noRetries(HdfsCluster hdfs) {
    org.apache.hadoop.conf.Configuration conf = hdfs.clientConfiguration();
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    return conf;
  }

  static void write(FileSystem fs, org.apache.hadoop.fs.Path path, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    assertTrue(fs.exists(path));
  }

  static String read(FileSystem fs, org.apache.hadoop.fs.Path path) throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
