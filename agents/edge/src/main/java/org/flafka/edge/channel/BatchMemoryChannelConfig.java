package org.flafka.edge.channel;

import static org.flafka.config.ConfigDef.atLeast;
import static org.flafka.config.ConfigDef.between;

import java.io.IOException;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/**
 * Every configuration key of {@link BatchMemoryChannel} in one place. The keys, their meanings and
 * their defaults are those of Flume's {@code MemoryChannel}, so a configuration moves between the
 * two by changing its type; what differs is that a bad value is an error naming the key, where
 * Flume's channel logs a warning and uses its default. {@link #main} writes the key table into
 * {@code docs/reference/edge-channel.md}.
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
              BYTE_CAPACITY_BUFFER_PERCENTAGE_DOC);

  private final int capacity;
  private final int transactionCapacity;
  private final long keepAliveNanos;
  private final long byteSlots;

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
