package org.flafka.audit;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.flafka.cli.FlafkaRun;
import org.flafka.stack.Hdfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit against a real MiniDFSCluster holding the core agent's file shapes: snappy text through
 * Hadoop's codec, an Avro container file in Flume's avro_event schema, and an in-progress .tmp file
 * cut off mid-line, as a killed agent leaves it.
 */
@Tag("e2e")
class HdfsAuditTest {
  /** Flume's AvroEventSerializer schema (flume-ng-core, org.apache.flume.serialization). */
  private static final Schema AVRO_EVENT =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Event\","
                  + "\"fields\":[{\"name\":\"headers\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},"
                  + "{\"name\":\"body\",\"type\":\"bytes\"}]}");

  private static final String ROOT = "/flume/syslog";

  @TempDir static Path tmp;
  private static Hdfs hdfs;
  private static LoadRun run;

  @BeforeAll
  static void write() throws Exception {
    run =
        LoadRun.run(
            tmp,
            Deliveries.DEVICES,
            Deliveries.CONNECTIONS,
            Deliveries.DEVICES * Deliveries.PER_DEVICE);
    hdfs = Hdfs.start(tmp.resolve("hdfs"));
    List<List<byte[]>> byDevice = Deliveries.byDevice(run);
    String bucket = ROOT + "/dt=2026-11-21/host=";
    try (FileSystem fs = hdfs.newFileSystem()) {
      CompressionCodec snappy = new CompressionCodecFactory(fs.getConf()).getCodecByName("snappy");
      // Devices 0 and 1 and the strangers: snappy text, as serializer = text with hdfs.codeC =
      // snappy writes.
      try (OutputStream out =
          snappy.createOutputStream(
              fs.create(new org.apache.hadoop.fs.Path(bucket + "mixed/core-h-hdfs1.1.snappy")))) {
        for (int device : new int[] {0, 1, Deliveries.DEVICES}) {
          for (byte[] body : byDevice.get(device)) {
            out.write(body);
            out.write('\n');
          }
        }
      }
      // Device 2 and device 3 up to 490: Avro container files with snappy blocks (serializer =
      // avro_event).
      List<byte[]> device3 = byDevice.get(3);
      writeAvro(fs, bucket + "dev-000002.site/core-h-hdfs1.2.avro", byDevice.get(2));
      writeAvro(fs, bucket + "dev-000003.site/core-h-hdfs1.3.avro", device3.subList(0, 490));
      // Device 3's last ten: an uncompressed text file still being written when its agent was
      // killed, the last line cut after its mark.
      try (OutputStream out =
          fs.create(
              new org.apache.hadoop.fs.Path(bucket + "dev-000003.site/_core-h-hdfs1.4.log.tmp"))) {
        for (byte[] body : device3.subList(490, 499)) {
          out.write(body);
          out.write('\n');
        }
        byte[] last = device3.get(499);
        out.write(last, 0, last.length - 20);
      }
      fs.create(new org.apache.hadoop.fs.Path(ROOT + "/_SUCCESS")).close();
    }
  }

  private static void writeAvro(FileSystem fs, String path, List<byte[]> bodies)
      throws IOException {
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(AVRO_EVENT))) {
      writer.setCodec(CodecFactory.snappyCodec());
      writer.create(AVRO_EVENT, fs.create(new org.apache.hadoop.fs.Path(path)));
      for (byte[] body : bodies) {
        GenericRecord event = new GenericData.Record(AVRO_EVENT);
        event.put("headers", Map.of("host", "dev", "parse", "ok"));
        event.put("body", ByteBuffer.wrap(body));
        writer.append(event);
      }
    }
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void findsEveryFaultAcrossSnappyTextAndAvroFiles() throws Exception {
    AuditResult result =
        Audit.run(Manifest.read(run.manifest), new HdfsPathSource(hdfs.uri(), ROOT));

    Deliveries.assertFound(result, List.of(new AuditResult.Range(491, 500)), 0);
    assertEquals(
        List.of(
            "1 in-progress file(s) (.tmp) skipped: an agent is writing them, or was killed; "
                + "--include-in-progress reads them"),
        result.warnings());
    assertEquals("files under " + hdfs.uri() + ROOT, result.source());
  }

  @Test
  void inProgressFilesAreReadAsFarAsTheyGo() throws Exception {
    AuditResult result =
        Audit.run(
            Manifest.read(run.manifest),
            new HdfsPathSource(hdfs.uri(), ROOT).includingInProgress(true));

    // Sequence 500 arrived cut short: delivered, and corrupted.
    Deliveries.assertFound(result, List.of(), 1);
    assertEquals(1, result.warnings().size(), result.warnings().toString());
    assertTrue(
        result
            .warnings()
            .get(0)
            .endsWith(
                "_core-h-hdfs1.4.log.tmp: the last line has no newline "
                    + "(cut off while being written?)"),
        result.warnings().get(0));
  }

  @Test
  void cliReadsHdfsUris() {
    FlafkaRun audit =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--path",
            hdfs.uri() + ROOT,
            "--include-in-progress");

    assertEquals(1, audit.exitCode(), audit.err());
    assertTrue(
        audit.out().contains("dev 000003 dev-000003.site: sent 500, delivered 500; corrupted 3\n"),
        audit.out());
  }

  @Test
  void missingPathAndDeadNameNodeAreOneLineErrors() throws IOException {
    FlafkaRun missing =
        flafka("audit", "--manifest", run.manifest.toString(), "--path", hdfs.uri() + "/nowhere");
    assertEquals(2, missing.exitCode());
    assertEquals(
        "flafka: " + hdfs.uri() + "/nowhere does not exist: check the path\n", missing.err());

    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    long start = System.nanoTime();
    FlafkaRun dead =
        flafka(
            "audit",
            "--manifest",
            run.manifest.toString(),
            "--path",
            "hdfs://127.0.0.1:" + closedPort + ROOT,
            "--timeout",
            "2s");
    assertEquals(2, dead.exitCode(), dead.err());
    assertTrue(
        dead.err().startsWith("flafka: cannot list hdfs://127.0.0.1:" + closedPort + ROOT + ": "),
        dead.err());
    assertTrue(dead.err().endsWith(": check the path and that the NameNode is up\n"), dead.err());
    assertEquals(1, dead.err().lines().count(), dead.err());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(15).toNanos(), "fails fast");
  }
}
