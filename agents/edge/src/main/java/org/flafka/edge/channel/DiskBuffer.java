package org.flafka.edge.channel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;

/**
 * The disk overflow of {@link BatchMemoryChannel}: committed batches the memory queue had no room
 * for, appended whole ({@link BatchRecord}) to segment files in one directory and read back oldest
 * first. Not thread-safe: the channel calls it holding its lock.
 *
 * <p>A segment is a file named by its number, {@code 00000000004294967296.seg}; batches are
 * appended to the newest until it reaches the segment size, then a new one starts. A batch read
 * back becomes {@link BufferedEvent}s that remember their segment; the segment is deleted when
 * every batch in it was read and every event taken from it was committed, so an agent killed while
 * sending the backlog sends again, after its restart, what Kafka may not have acknowledged
 * (duplicates, never gaps).
 *
 * <p>At start ({@link #open}) the segments found are checked record by record: a segment ends at
 * its first record that is cut short or fails its checksum (the tail of a write the agent did not
 * live to finish; that batch's commit had not returned), which is counted, logged and cut off, so
 * the file holds only whole records.
 *
 * <p>One buffer per directory: {@link #open} takes a lock on {@value #LOCK_FILE} in it and fails
 * while another channel (in this agent or another) holds it, since two writers would each send the
 * other's batches and delete its segments.
 *
 * <p>A failed write (a full or read-only file system, a deleted directory) cuts the segment back to
 * its last whole record and closes it to writes; the next write starts a new segment. The caller
 * decides when to try again.
 */
final class DiskBuffer {
  static final String SUFFIX = ".seg";

  /** The file whose lock says that a channel has the directory. */
  static final String LOCK_FILE = "in_use.lock";

  /**
   * The first segment's number: leaves room below it for a segment written at a clean stop with
   * events older than any on disk ({@link #prepend}).
   */
  static final long FIRST_SEGMENT = 1L << 32;

  /** What a start found and had to cut off. */
  record Recovery(int segments, long events, int tornRecords, long tornBytes) {}

  /** An event read back from a segment, which it keeps alive until committed. */
  static final class BufferedEvent extends SimpleEvent {
    final Segment segment;

    BufferedEvent(Segment segment, Map<String, String> headers) {
      this.segment = segment;
      setHeaders(headers);
    }
  }

  static final class Segment {
    final long number;
    final Path path;
    FileChannel file;

    /** Bytes of whole records; where the next write goes. */
    long end;

    /** Where the next read starts. */
    long readPosition;

    /** Events written and not yet committed by a take. */
    long outstanding;

    /** No more writes: full, failed, or found at start. */
    boolean sealed;

    /** Written-at times of the batches not yet read, oldest first, and their event counts. */
    final ArrayDeque<long[]> unread = new ArrayDeque<>();

    Segment(long number, Path path, FileChannel file) {
      this.number = number;
      this.path = path;
      this.file = file;
    }
  }

  private final Path dir;
  private FileChannel lockFile;
  private FileLock dirLock;
  private final long maxBytes;
  private final long segmentBytes;
  private final boolean syncEachBatch;
  private final ArrayDeque<Segment> segments = new ArrayDeque<>();
  private long nextNumber = FIRST_SEGMENT;
  private long bytes;
  private long unreadEvents;
  private long corruptEvents;

  private DiskBuffer(Path dir, long maxBytes, long segmentBytes, boolean syncEachBatch) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.segmentBytes = segmentBytes;
    this.syncEachBatch = syncEachBatch;
  }

  /**
   * Opens the buffer in {@code dir}, creating it if needed, with the segments a previous run left.
   *
   * @throws IOException when the directory cannot be created or read
   */
  static DiskBuffer open(Path dir, long maxBytes, long segmentBytes, boolean syncEachBatch)
      throws IOException {
    DiskBuffer buffer = new DiskBuffer(dir, maxBytes, segmentBytes, syncEachBatch);
    Files.createDirectories(dir);
    Path lockPath = dir.resolve(LOCK_FILE);
    FileChannel lockFile =
        FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock dirLock;
    try {
      dirLock = lockFile.tryLock();
    } catch (OverlappingFileLockException e) {
      dirLock = null; // held by another channel of this agent
    } catch (IOException e) {
      lockFile.close();
      throw e;
    }
    if (dirLock == null) {
      lockFile.close();
      throw new IOException(
          "the directory is in use by another channel or agent (it holds the lock on "
              + lockPath
              + "); give each agent its own edge_data_dir (each channel its own buffer.dir)");
    }
    buffer.lockFile = lockFile;
    buffer.dirLock = dirLock;
    return buffer;
  }

  /** Reads the segments a previous run left; call once, after {@link #open}. */
  Recovery recover() throws IOException {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      listing.forEach(found::add);
    }
    found.sort(null);
    int tornRecords = 0;
    long tornBytes = 0;
    for (Path path : found) {
      long number;
      try {
        String name = path.getFileName().toString();
        number = Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
      } catch (NumberFormatException e) {
        continue; // not ours
      }
      FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      Segment segment = new Segment(number, path, file);
      segment.sealed = true;
      long size = file.size();
      scan(segment);
      if (segment.end < size) {
        tornRecords++;
        tornBytes += size - segment.end;
        file.truncate(segment.end);
        file.force(true);
      }
      if (segment.unread.isEmpty()) {
        file.close();
        Files.deleteIfExists(path);
        continue;
      }
      segments.add(segment);
      bytes += segment.end;
      nextNumber = Math.max(nextNumber, number + 1);
    }
    return new Recovery(segments.size(), unreadEvents, tornRecords, tornBytes);
  }

  /** Finds the whole records of a segment found at start. */
  private void scan(Segment segment) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(BatchRecord.HEADER_BYTES);
    long position = 0;
    long size = segment.file.size();
    while (position + BatchRecord.HEADER_BYTES <= size) {
      header.clear();
      readFully(segment.file, header, position);
      int length = BatchRecord.payloadLength(header);
      if (length < 0 || position + BatchRecord.HEADER_BYTES + length > size) {
        break;
      }
      ByteBuffer payload = ByteBuffer.allocate(length);
      readFully(segment.file, payload, position + BatchRecord.HEADER_BYTES);
      payload.flip();
      if (!BatchRecord.check(header, payload)) {
        break;
      }
      int events = BatchRecord.eventCount(payload);
      segment.unread.add(new long[] {BatchRecord.writtenAtMillis(payload), events});
      segment.outstanding += events;
      unreadEvents += events;
      position += BatchRecord.HEADER_BYTES + length;
    }
    segment.end = position;
  }

  /** Whether batches wait on disk to be read back. */
  boolean hasUnread() {
    return unreadEvents > 0;
  }

  long unreadEvents() {
    return unreadEvents;
  }

  /** Bytes of the segment files. */
  long bytes() {
    return bytes;
  }

  /** When the oldest batch not yet read back was written, or 0 when there is none. */
  long oldestUnreadMillis() {
    for (Segment segment : segments) {
      long[] oldest = segment.unread.peekFirst();
      if (oldest != null) {
        return oldest[0];
      }
    }
    return 0;
  }

  /**
   * Appends one batch, forcing it to the device first when so configured.
   *
   * @return false, writing nothing, when it would take the buffer over its maximum size
   * @throws IOException when the write failed; the segment is cut back to its whole records
   */
  boolean append(List<Event> events, long nowMillis) throws IOException {
    ByteBuffer record = BatchRecord.encode(events, nowMillis);
    if (bytes + record.remaining() > maxBytes) {
      return false;
    }
    Segment segment = segments.peekLast();
    if (segment == null || segment.sealed || segment.end >= segmentBytes) {
      if (segment != null) {
        segment.sealed = true;
      }
      segment = newSegment(nextNumber);
      nextNumber++;
      segments.addLast(segment);
    }
    write(segment, record);
    segment.unread.add(new long[] {nowMillis, events.size()});
    segment.outstanding += events.size();
    unreadEvents += events.size();
    return true;
  }

  /**
   * Writes events older than any on disk (what the memory queue held at a clean stop) to a segment
   * of their own ahead of the others, so a restart sends them first.
   */
  void prepend(List<Event> events, long nowMillis) throws IOException {
    Segment first = segments.peekFirst();
    long number = first == null ? nextNumber++ : first.number - 1;
    Segment segment = newSegment(number);
    segments.addFirst(segment);
    write(segment, BatchRecord.encode(events, nowMillis));
    segment.sealed = true;
    segment.unread.add(new long[] {nowMillis, events.size()});
    segment.outstanding += events.size();
    unreadEvents += events.size();
  }

  private Segment newSegment(long number) throws IOException {
    Files.createDirectories(dir);
    Path path = dir.resolve(String.format(Locale.ROOT, "%020d%s", number, SUFFIX));
    FileChannel file =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    return new Segment(number, path, file);
  }

  private void write(Segment segment, ByteBuffer record) throws IOException {
    int length = record.remaining();
    try {
      long position = segment.end;
      while (record.hasRemaining()) {
        position += segment.file.write(record, position);
      }
      if (syncEachBatch) {
        segment.file.force(false);
      }
    } catch (IOException e) {
      segment.sealed = true;
      try {
        segment.file.truncate(segment.end);
      } catch (IOException | RuntimeException ignored) {
        // the reader stops at segment.end whatever the file holds beyond it
      }
      if (segment.end == 0) {
        forget(segment);
      }
      throw e;
    }
    segment.end += length;
    bytes += length;
  }

  /**
   * Reads back the oldest batch not yet read.
   *
   * @return its events, or null when none is left
   * @throws IOException when the read failed; the batch stays unread
   */
  List<Event> readOldest() throws IOException {
    for (Segment segment : segments) {
      if (segment.readPosition >= segment.end) {
        continue;
      }
      ByteBuffer header = ByteBuffer.allocate(BatchRecord.HEADER_BYTES);
      readFully(segment.file, header, segment.readPosition);
      int length = BatchRecord.payloadLength(header);
      ByteBuffer payload = null;
      if (length >= 0 && segment.readPosition + BatchRecord.HEADER_BYTES + length <= segment.end) {
        payload = ByteBuffer.allocate(length);
        readFully(segment.file, payload, segment.readPosition + BatchRecord.HEADER_BYTES);
        payload.flip();
      }
      if (payload == null || !BatchRecord.check(header, payload)) {
        // Changed under us (this run wrote a whole record there): what is left of the segment
        // cannot be vouched for, so it is given up and counted rather than sent.
        long lost = 0;
        for (long[] batch : segment.unread) {
          lost += batch[1];
        }
        segment.unread.clear();
        unreadEvents -= lost;
        corruptEvents += lost;
        segment.readPosition = segment.end;
        committed(segment, (int) Math.min(Integer.MAX_VALUE, lost));
        return readOldest();
      }
      segment.readPosition += BatchRecord.HEADER_BYTES + length;
      long[] batch = segment.unread.pollFirst();
      unreadEvents -= batch[1];
      return BatchRecord.decode(payload, headers -> new BufferedEvent(segment, headers));
    }
    return null;
  }

  /**
   * Records that {@code count} events read back from {@code segment} were committed by a take, and
   * deletes the segment once nothing in it is left to send.
   */
  void committed(Segment segment, int count) throws IOException {
    segment.outstanding -= count;
    if (segment.outstanding <= 0
        && segment.readPosition >= segment.end
        && segments.contains(segment)) {
      forget(segment);
      segment.file.close();
      Files.deleteIfExists(segment.path);
    }
  }

  /** A segment's events will never be committed (the reader could not read it): give up on them. */
  private void forget(Segment segment) {
    segments.remove(segment);
    bytes -= segment.end;
    if (segment.end == 0) {
      try {
        segment.file.close();
        Files.deleteIfExists(segment.path);
      } catch (IOException ignored) {
        // an empty file left behind holds nothing
      }
    }
  }

  /** Closes every segment file; what they hold stays for the next start. */
  void close() {
    for (Iterator<Segment> it = segments.iterator(); it.hasNext(); ) {
      try {
        Segment segment = it.next();
        segment.file.force(true);
        segment.file.close();
      } catch (IOException ignored) {
        // closing is all that is left to do
      }
    }
    segments.clear();
    try {
      if (dirLock != null) {
        dirLock.release();
      }
      if (lockFile != null) {
        lockFile.close();
      }
    } catch (IOException ignored) {
      // closing the lock file releases the lock
    }
    dirLock = null;
    lockFile = null;
  }

  /**
   * Closes every file without writing or syncing anything, as the end of a killed process does: for
   * tests that kill an agent inside one JVM.
   */
  void abandon() throws IOException {
    for (Segment segment : segments) {
      segment.file.close();
    }
    segments.clear();
    lockFile.close();
  }

  /** Events given up because their record was damaged after this run wrote it. */
  long corruptEvents() {
    return corruptEvents;
  }

  Path dir() {
    return dir;
  }

  private static void readFully(FileChannel file, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      int read = file.read(buffer, at);
      if (read < 0) {
        throw new IOException("unexpected end of " + file + " at byte " + at);
      }
      at += read;
    }
  }
}
