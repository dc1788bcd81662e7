package org.flafka.edge.channel;

import static org.flafka.config.ConfigDef.atLeast;
import static org.flafka.config.ConfigDef.between;
import static org.flafka.config.ConfigDef.oneOf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/**
 * Every configuration key of {@link BatchMemoryChannel} in one place. The keys, their meanings and
 * their defaults are those of Flume's {@code MemoryChannel}, plus the {@code buffer.*} keys of the
 * disk buffer (off unless {@code buffer.dir} is set), so a configuration moves between the two by
 * changing its type; what differs is that a bad value is an error naming the key, where Flume's
 * channel logs a warning and uses its default. {@link #main} writes the key table into {@code
 * docs/reference/edge-channel.md}.
 */
public final class BatchMemoryChannelConfig {

  public static final String CAPACITY = "capacity";
  private static final String CAPACITY_DOC =
      "Most events the channel holds, counting those taken by a transaction "
          + "that has not committed yet (a rollback puts them back).";

  public static final String TRANSACTION_CAPACITY = "transactionCapacity";
  private static final String TRANSACTION_CAPACITY_DOC =
      "Most events one transaction puts, and most it takes; at "
          + "most capacity, and at least the batch size of every source and sink on the channel.";

  public static final String KEEP_ALIVE = "keep-alive";
  private static final String KEEP_ALIVE_DOC =
      "Seconds a commit waits for room before it fails (the source then "
          + "holds its senders back or, for UDP, counts what it drops), and a take waits for an event before it returns "
          + "none.";

  public static final String BYTE_CAPACITY = "byteCapacity";
  private static final String BYTE_CAPACITY_DOC =
      "Most bytes of event bodies the channel holds, before the "
          + "byteCapacityBufferPercentage kept for headers, counted in 100-byte slots as Flume does; 0: no limit. The "
          + "guard against a heap full of large messages.";

  public static final String BYTE_CAPACITY_BUFFER_PERCENTAGE = "byteCapacityBufferPercentage";
  private static final String BYTE_CAPACITY_BUFFER_PERCENTAGE_DOC =
      "Share of byteCapacity left for the events' " + "headers and objects, which are not counted.";

  public static final String BUFFER_DIR = "buffer.dir";
  private static final String BUFFER_DIR_DOC =
      "Directory of the disk buffer, one per channel (locked: a second channel or agent on it runs in "
          + "memory only, counted in BufferDiskErrorCount): committed batches the memory queue has no room "
          + "for (Kafka away, or slower than the sources) are appended there whole and read back oldest first, "
          + "so the sources keep accepting; empty: no disk buffer, the channel is Flume's memory channel "
          + "(docs/guides/edge.md, \"The disk buffer\").";

  public static final String BUFFER_MAX_BYTES = "buffer.maxBytes";
  private static final String BUFFER_MAX_BYTES_DOC =
      "Most bytes the disk buffer's files hold; when full, commits wait for room as in a full memory "
          + "channel (TCP senders are held back, UDP drops are counted). The start logs a WARN when the file "
          + "system has less space free.";

  public static final String BUFFER_SEGMENT_BYTES = "buffer.segmentBytes";
  private static final String BUFFER_SEGMENT_BYTES_DOC =
      "Size at which the disk buffer starts a new file; a file is deleted when all its events were "
          + "sent, so this is also the granularity at which a drained backlog frees space.";

  public static final String BUFFER_SPILL_AFTER_MILLIS = "buffer.spillAfterMillis";
  private static final String BUFFER_SPILL_AFTER_MILLIS_DOC =
      "How long a commit waits for room in memory before its batch goes to the disk buffer: sinks that are "
          + "only busy (a burst, an edge sending as fast as Kafka takes) make room sooner, so the disk is not "
          + "used and senders are paced as without a buffer; at the start of an outage the senders wait this once. "
          + "While batches wait on disk, commits go there at once.";

  public static final String BUFFER_FSYNC = "buffer.fsync";
  private static final String BUFFER_FSYNC_DOC =
      "batch: every batch written to the disk buffer is forced to the device before its commit "
          + "returns (survives a power loss); never: the operating system writes it when it chooses "
          + "(survives the agent's death, not the host's).";

  /** Flume's MemoryChannel's defaultCapacity (private there), and so this channel's. */
  public static final int DEFAULT_CAPACITY = 100;

  /** Flume's MemoryChannel's defaultTransCapacity (private there), and so this channel's. */
  public static final int DEFAULT_TRANSACTION_CAPACITY = 100;

  /** Flume's MemoryChannel's defaultKeepAlive, in seconds. */
  public static final int DEFAULT_KEEP_ALIVE = 3;

  /** Flume's MemoryChannel counts body bytes in slots of this size. */
  public static final int BYTES_PER_SLOT = 100;

  /** Flume's MemoryChannel's default too, so either channel type holds the same bytes. */
  public static final int DEFAULT_BYTE_CAPACITY_BUFFER_PERCENTAGE = 20;

  public static final long DEFAULT_BUFFER_MAX_BYTES = 4L << 30;

  public static final long DEFAULT_BUFFER_SEGMENT_BYTES = 64L << 20;

  static final ConfigDef DEFINITION =
      new ConfigDef(Kind.CHANNEL)
          .define(CAPACITY, Type.INT, DEFAULT_CAPACITY, null, atLeast(1), CAPACITY_DOC)
          .define(
              TRANSACTION_CAPACITY,
              Type.INT,
              DEFAULT_TRANSACTION_CAPACITY,
              null,
              atLeast(1),
              TRANSACTION_CAPACITY_DOC)
          .define(KEEP_ALIVE, Type.INT, DEFAULT_KEEP_ALIVE, null, atLeast(0), KEEP_ALIVE_DOC)
          .define(
              BYTE_CAPACITY,
              Type.LONG,
              -1L,
              "80% of the JVM's maximum heap",
              atLeast(0L),
              BYTE_CAPACITY_DOC)
          .define(
              BYTE_CAPACITY_BUFFER_PERCENTAGE,
              Type.INT,
              DEFAULT_BYTE_CAPACITY_BUFFER_PERCENTAGE,
              null,
              between(0, 99),
              BYTE_CAPACITY_BUFFER_PERCENTAGE_DOC)
          .define(BUFFER_DIR, Type.STRING, "", null, null, BUFFER_DIR_DOC)
          .define(
              BUFFER_MAX_BYTES,
              Type.LONG,
              DEFAULT_BUFFER_MAX_BYTES,
              null,
              atLeast(1L),
              BUFFER_MAX_BYTES_DOC)
          .define(
              BUFFER_SEGMENT_BYTES,
              Type.LONG,
              DEFAULT_BUFFER_SEGMENT_BYTES,
              null,
              atLeast(1L),
              BUFFER_SEGMENT_BYTES_DOC)
          .define(
              BUFFER_SPILL_AFTER_MILLIS,
              Type.INT,
              500,
              null,
              atLeast(0),
              BUFFER_SPILL_AFTER_MILLIS_DOC)
          .define(
              BUFFER_FSYNC, Type.STRING, "batch", null, oneOf("batch", "never"), BUFFER_FSYNC_DOC);

  private final int capacity;
  private final int transactionCapacity;
  private final long keepAliveNanos;
  private final long byteSlots;
  private final Path bufferDir;
  private final long bufferMaxBytes;
  private final long bufferSegmentBytes;
  private final boolean bufferSyncEachBatch;
  private final long bufferSpillAfterNanos;

  private BatchMemoryChannelConfig(String component, Map<String, String> props, long maxHeapBytes) {
    ConfigDef.Values v = DEFINITION.parse(component, props);
    capacity = v.getInt(CAPACITY);
    transactionCapacity = v.getInt(TRANSACTION_CAPACITY);
    checkCapacities(component, capacity, transactionCapacity);
    keepAliveNanos = v.getInt(KEEP_ALIVE) * 1_000_000_000L;
    long bytes = v.getLong(BYTE_CAPACITY);
    if (bytes < 0) {
      bytes = (long) (maxHeapBytes * 0.8);
    }
    byteSlots = byteSlots(bytes, v.getInt(BYTE_CAPACITY_BUFFER_PERCENTAGE));
    String dir = v.getString(BUFFER_DIR).strip();
    bufferDir = dir.isEmpty() ? null : Path.of(dir);
    bufferMaxBytes = v.getLong(BUFFER_MAX_BYTES);
    bufferSegmentBytes = v.getLong(BUFFER_SEGMENT_BYTES);
    bufferSyncEachBatch = v.getString(BUFFER_FSYNC).equals("batch");
    bufferSpillAfterNanos = v.getInt(BUFFER_SPILL_AFTER_MILLIS) * 1_000_000L;
  }

  /**
   * The cross-field rule of the two capacities: a transaction must fit in the channel.
   *
   * @throws ConfigurationException when {@code transactionCapacity} exceeds {@code capacity}
   */
  public static void checkCapacities(String component, long capacity, long transactionCapacity) {
    if (transactionCapacity > capacity) {
      throw ConfigDef.error(
          component,
          TRANSACTION_CAPACITY
              + " = "
              + transactionCapacity
              + " is larger than "
              + CAPACITY
              + " = "
              + capacity
              + ", so a full transaction could never commit",
          "raise " + CAPACITY + " or lower " + TRANSACTION_CAPACITY);
    }
  }

  /**
   * Body bytes a channel of {@code byteCapacity} holds, less {@code bufferPercentage} kept for
   * headers, in slots of {@link #BYTES_PER_SLOT}, as Flume's MemoryChannel counts them; {@code
   * Long.MAX_VALUE} (no limit) when that is less than one slot (0 included), as in Flume.
   */
  public static long byteSlots(long byteCapacity, long bufferPercentage) {
    long slots = (long) (byteCapacity * (1 - bufferPercentage / 100.0) / BYTES_PER_SLOT);
    return slots < 1 ? Long.MAX_VALUE : slots;
  }

  /**
   * Validates a channel's Flume context. {@code component} names the channel in error messages,
   * e.g. "memory channel ch0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public static BatchMemoryChannelConfig parse(String component, Map<String, String> props) {
    return new BatchMemoryChannelConfig(component, props, Runtime.getRuntime().maxMemory());
  }

  static BatchMemoryChannelConfig parse(
      String component, Map<String, String> props, long maxHeapBytes) {
    return new BatchMemoryChannelConfig(component, props, maxHeapBytes);
  }

  public int capacity() {
    return capacity;
  }

  public int transactionCapacity() {
    return transactionCapacity;
  }

  long keepAliveNanos() {
    return keepAliveNanos;
  }

  /**
   * Body bytes the channel may hold, in slots of {@link #BYTES_PER_SLOT}; {@code Long.MAX_VALUE}
   * for no limit.
   */
  long byteSlots() {
    return byteSlots;
  }

  /** The disk buffer's directory, or null for none. */
  Path bufferDir() {
    return bufferDir;
  }

  long bufferMaxBytes() {
    return bufferMaxBytes;
  }

  long bufferSegmentBytes() {
    return bufferSegmentBytes;
  }

  boolean bufferSyncEachBatch() {
    return bufferSyncEachBatch;
  }

  long bufferSpillAfterNanos() {
    return bufferSpillAfterNanos;
  }

  // ---- documentation ----

  static final String DOC_BEGIN =
      "<!-- BEGIN GENERATED by org.flafka.edge.channel.BatchMemoryChannelConfig: do not edit -->";
  static final String DOC_END = "<!-- END GENERATED -->";

  /** The generated part of docs/reference/edge-channel.md: the key table. */
  static String generatedDoc() {
    return DOC_BEGIN
        + "\n\n### Configuration keys\n\n"
        + DEFINITION.keyTable(false)
        + "\n"
        + DOC_END;
  }

  static String withGeneratedDoc(String doc) {
    return ConfigDef.withGeneratedRegion(doc, DOC_BEGIN, DOC_END, generatedDoc());
  }

  /**
   * Prints the generated documentation, or with {@code --write FILE} rewrites its region in FILE in
   * place.
   */
  public static void main(String[] args) throws IOException {
    ConfigDef.writeDocs(args, "BatchMemoryChannelConfig", DOC_BEGIN, DOC_END, generatedDoc());
  }
}
