package org.flafka.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/**
 * What the core agent landed under an HDFS root, read back with Hadoop's and Avro's own readers:
 * every event with the {@code dt=}/{@code host=} bucket and the file it is in.
 *
 * <p>Files still being written (or left open by a killed agent: {@code _<name>.tmp}) are read as
 * they are: HDFS lets a reader see everything the writer has hflushed, and Flume hflushes each
 * batch before it commits the batch's channel transaction, so every committed event is visible.
 * Past the last hflush a reader may see part of a compressed block or Avro block; the reader stops
 * there and marks the file truncated. Those events were never committed, so the agent delivers them
 * again.
 */
final class Landing {

  private static final Pattern BUCKET = Pattern.compile(".*/dt=([^/]+)/host=([^/]*)/([^/]+)$");
  private static final Pattern ID_IN_BODY = Pattern.compile("id=([0-9A-Za-z-]+)");
  static final String IN_USE_PREFIX = "_";
  static final String IN_USE_SUFFIX = ".tmp";

  /**
   * One event as landed; {@code headers} is empty for the text format, which stores bodies only.
   */
  record Landed(String dt, String host, String file, byte[] body, Map<String, String> headers) {

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The event id: the {@code id} header (Avro), else the {@code id=} mark in the body. */
    String id() {
      String header = headers.get("id");
      if (header != null) {
        return header;
      }
      Matcher matcher = ID_IN_BODY.matcher(bodyText());
      return matcher.find() ? matcher.group(1) : null;
    }
  }

  /**
   * One file: its path, whether it is still named as in use, how many events it gave and whether it
   * ended early.
   */
  record LandedFile(String path, boolean inUse, int events, boolean truncated) {}

  private final List<Landed> events;
  private final List<LandedFile> files;

  private Landing(List<Landed> events, List<LandedFile> files) {
    this.events = events;
    this.files = files;
  }

  List<Landed> events() {
    return events;
  }

  List<LandedFile> files() {
    return files;
  }

  /** How many times each id landed. */
  Map<String, Integer> idCounts() {
    Map<String, Integer> counts = new TreeMap<>();
    for (Landed event : events) {
      counts.merge(String.valueOf(event.id()), 1, Integer::sum);
    }
    return counts;
  }

  /** Reads every file under {@code root}. */
  static Landing read(FileSystem fs, Path root) {
    List<Landed> events = new ArrayList<>();
    List<LandedFile> files = new ArrayList<>();
    try {
      if (!fs.exists(root)) {
        return new Landing(events, files);
      }
      RemoteIterator<LocatedFileStatus> listing = fs.listFiles(root, true);
      List<FileStatus> statuses = new ArrayList<>();
      while (listing.hasNext()) {
        statuses.add(listing.next());
      }
      for (FileStatus status : statuses) {
        files.add(readFile(fs, status.getPath(), events));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not list " + root + ": " + e.getMessage(), e);
    }
    return new Landing(events, files);
  }

  private static LandedFile readFile(FileSystem fs, Path path, List<Landed> events)
      throws IOException {
    String pathText = path.toUri().getPath();
    Matcher bucket = BUCKET.matcher(pathText);
    if (!bucket.matches()) {
      throw new AssertionError("file outside the dt=/host= layout: " + pathText);
    }
    String name = bucket.group(3);
    boolean inUse = name.startsWith(IN_USE_PREFIX) && name.endsWith(IN_USE_SUFFIX);
    String finalName =
        inUse
            ? name.substring(IN_USE_PREFIX.length(), name.length() - IN_USE_SUFFIX.length())
            : name;
    int before = events.size();
    boolean truncated;
    if (finalName.endsWith(".avro")) {
      truncated = readAvro(fs, path, bucket.group(1), bucket.group(2), pathText, events);
    } else {
      truncated = readText(fs, path, finalName, bucket.group(1), bucket.group(2), pathText, events);
    }
    return new LandedFile(pathText, inUse, events.size() - before, truncated);
  }

  private static boolean readText(
      FileSystem fs,
      Path path,
      String finalName,
      String dt,
      String host,
      String pathText,
      List<Landed> events)
      throws IOException {
    CompressionCodec codec =
        new CompressionCodecFactory(fs.getConf()).getCodec(new Path(finalName));
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    boolean truncated = false;
    try (InputStream raw = fs.open(path);
        InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) > 0; ) {
        content.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // The part of a compressed block written after the last hflush: nothing committed is in it.
      truncated = true;
    }
    byte[] bytes = content.toByteArray();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        byte[] body = new byte[i - start];
        System.arraycopy(bytes, start, body, 0, body.length);
        events.add(new Landed(dt, host, pathText, body, Map.of()));
        start = i + 1;
      }
    }
    // A last line without its newline was cut by the end of what is visible.
    return truncated || start < bytes.length;
  }

  private static boolean readAvro(
      FileSystem fs, Path path, String dt, String host, String pathText, List<Landed> events)
      throws IOException {
    try (InputStream in = fs.open(path);
        DataFileStream<GenericRecord> records =
            new DataFileStream<>(in, new GenericDatumReader<>())) {
      while (records.hasNext()) {
        GenericRecord record = records.next();
        Map<String, String> headers = new LinkedHashMap<>();
        ((Map<?, ?>) record.get("headers"))
            .forEach((k, v) -> headers.put(k.toString(), v.toString()));
        ByteBuffer body = (ByteBuffer) record.get("body");
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        events.add(new Landed(dt, host, pathText, bytes, headers));
      }
      return false;
    } catch (IOException | AvroRuntimeException e) {
      // A header or block cut at the end of what is visible (Avro reports EOF as
      // AvroRuntimeException).
      return true;
    }
  }
}
