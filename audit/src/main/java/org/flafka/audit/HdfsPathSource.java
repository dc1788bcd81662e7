package org.flafka.audit;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.Decompressor;

/**
 * Every event in the files under a path, recursively, as the core agent's HDFS sink writes them
 * (any Hadoop file system: {@code hdfs://}, {@code file://}):
 *
 * <ul>
 *   <li>Avro container files (recognised by their magic bytes, whatever the name): Flume's {@code
 *       avro_event} records, the {@code body} field of each;
 *   <li>anything else: text, one body per line ({@code serializer = text}), decompressed by the
 *       codec Hadoop's {@link CompressionCodecFactory} picks from the file name ({@code .snappy},
 *       {@code .gz}, ...; none for {@code .log}).
 * </ul>
 *
 * Files the sink is still writing end in {@code .tmp} (and start with the template's {@code _}
 * in-use prefix): skipped unless {@link #includingInProgress} (a killed agent leaves them behind),
 * then read as far as they are readable, the codec chosen from the name without {@code .tmp}. Other
 * names starting with {@code _} or {@code .} ({@code _SUCCESS}, checksums) are skipped. What cannot
 * be read becomes a warning in the result.
 */
public final class HdfsPathSource implements DeliverySource {
  private static final String IN_PROGRESS_SUFFIX = ".tmp";
  private static final byte[] AVRO_MAGIC = {'O', 'b', 'j', 1};
  private static final int BUFFER_BYTES = 64 * 1024;

  private final URI fileSystem;
  private final String path;
  private final boolean includeInProgress;
  private final Configuration configuration;
  private final Duration timeout;

  /**
   * Files under {@code path} on {@code fileSystem} (e.g. {@code hdfs://namenode:8020}; null: from
   * path).
   */
  public HdfsPathSource(URI fileSystem, String path) {
    this(fileSystem, path, false, new Configuration(), KafkaTopicSource.DEFAULT_TIMEOUT);
  }

  private HdfsPathSource(
      URI fileSystem,
      String path,
      boolean includeInProgress,
      Configuration configuration,
      Duration timeout) {
    this.fileSystem = fileSystem;
    this.path = path;
    this.includeInProgress = includeInProgress;
    this.configuration = configuration;
    this.timeout = timeout;
  }

  /** Also reads in-progress ({@code .tmp}) files. */
  public HdfsPathSource includingInProgress(boolean include) {
    return new HdfsPathSource(fileSystem, path, include, configuration, timeout);
  }

  /**
   * The Hadoop client configuration (HA name services, Kerberos, ...); copied, then given short
   * timeouts.
   */
  public HdfsPathSource withConfiguration(Configuration newConfiguration) {
    return new HdfsPathSource(
        fileSystem, path, includeInProgress, new Configuration(newConfiguration), timeout);
  }

  /** How long to wait for the NameNode to answer a connection. */
  public HdfsPathSource withTimeout(Duration newTimeout) {
    return new HdfsPathSource(fileSystem, path, includeInProgress, configuration, newTimeout);
  }

  @Override
  public String describe() {
    return "files under " + root();
  }

  private Path root() {
    return fileSystem == null ? new Path(path) : new Path(fileSystem.resolve(path));
  }

  @Override
  public void readInto(Tally tally) throws AuditException {
    Path root = root();
    try (FileSystem fs = FileSystem.newInstance(root.toUri(), failFast())) {
      List<Path> files = new ArrayList<>();
      int skippedInProgress = 0;
      RemoteIterator<LocatedFileStatus> listing = fs.listFiles(root, true);
      while (listing.hasNext()) {
        Path file = listing.next().getPath();
        String name = file.getName();
        if (name.endsWith(IN_PROGRESS_SUFFIX)) {
          if (includeInProgress) {
            files.add(file);
          } else {
            skippedInProgress++;
          }
        } else if (!name.startsWith("_") && !name.startsWith(".")) {
          files.add(file);
        }
      }
      if (skippedInProgress > 0) {
        tally.warn(
            skippedInProgress
                + " in-progress file(s) ("
                + IN_PROGRESS_SUFFIX
                + ") skipped: an agent "
                + "is writing them, or was killed; --include-in-progress reads them");
      }
      files.sort(null);
      CompressionCodecFactory codecs = new CompressionCodecFactory(fs.getConf());
      for (Path file : files) {
        readFile(fs, codecs, file, tally);
      }
    } catch (FileNotFoundException e) {
      throw new AuditException(root + " does not exist: check the path");
    } catch (IOException | IllegalArgumentException e) {
      throw new AuditException(
          "cannot list "
              + root
              + ": "
              + oneLine(e)
              + ": check the path and that the "
              + "NameNode is up",
          e);
    }
  }

  private void readFile(FileSystem fs, CompressionCodecFactory codecs, Path file, Tally tally) {
    long before = tally.records();
    try (InputStream in = new BufferedInputStream(fs.open(file), BUFFER_BYTES)) {
      in.mark(AVRO_MAGIC.length);
      byte[] magic = in.readNBytes(AVRO_MAGIC.length);
      in.reset();
      if (Arrays.equals(magic, AVRO_MAGIC)) {
        readAvro(in, tally);
      } else {
        readText(in, codecs.getCodec(withoutInProgressSuffix(file)), tally, file);
      }
    } catch (IOException | AvroRuntimeException e) {
      tally.warn(
          file
              + ": read "
              + (tally.records() - before)
              + " events, then could not read on: "
              + oneLine(e));
    }
  }

  private static void readAvro(InputStream in, Tally tally) throws IOException {
    try (DataFileStream<GenericRecord> events =
        new DataFileStream<>(in, new GenericDatumReader<>())) {
      GenericRecord event = null;
      while (events.hasNext()) {
        event = events.next(event);
        Object body = event.get("body");
        if (body instanceof ByteBuffer buffer) {
          byte[] bytes = new byte[buffer.remaining()];
          buffer.duplicate().get(bytes);
          tally.record(bytes, 0, bytes.length);
        } else {
          throw new IOException(
              "record without a bytes field 'body' (not Flume's avro_event schema): "
                  + events.getSchema());
        }
      }
    }
  }

  private static void readText(InputStream raw, CompressionCodec codec, Tally tally, Path file)
      throws IOException {
    Decompressor decompressor = codec == null ? null : CodecPool.getDecompressor(codec);
    try (InputStream in = codec == null ? raw : codec.createInputStream(raw, decompressor)) {
      if (!BodyLines.read(in, tally)) {
        tally.warn(file + ": the last line has no newline (cut off while being written?)");
      }
    } catch (EOFException e) {
      throw new EOFException(
          "unexpected end of "
              + (codec == null ? "file" : codec.getDefaultExtension() + " stream")
              + " (cut off while being written?)");
    } finally {
      if (decompressor != null) {
        CodecPool.returnDecompressor(decompressor);
      }
    }
  }

  private static Path withoutInProgressSuffix(Path file) {
    String name = file.getName();
    return name.endsWith(IN_PROGRESS_SUFFIX)
        ? new Path(file.getParent(), name.substring(0, name.length() - IN_PROGRESS_SUFFIX.length()))
        : file;
  }

  /**
   * The client configuration with retries off and short connect timeouts, so a dead NameNode fails
   * fast.
   */
  private Configuration failFast() {
    Configuration conf = new Configuration(configuration);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setInt("ipc.client.connect.timeout", millis);
    conf.setInt("ipc.client.rpc-timeout.ms", millis);
    conf.setBoolean("dfs.client.retry.policy.enabled", false);
    return conf;
  }

  private static String oneLine(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
