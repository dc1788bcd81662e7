package org.flafka.contract;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Reads a consumer's record headers as the core needs them: which of a fixed set of names each has,
 * and its value as text, without the copies Kafka's {@code Header} API makes.
 *
 * <p>Why: a consumer's record headers hold their key and value as slices of the record's bytes
 * until {@code key()} or {@code value()} is called, which then copy them (each under a lock) into a
 * new String or array; a name must then be hashed for a map lookup, and a value copied once more
 * into its String. Here the key's bytes are compared with the names' bytes, grouped by length, and
 * the name's own String is returned; the value's String is made from its slice directly. The slices
 * are Kafka's private fields {@code RecordHeader.keyBuffer} and {@code valueBuffer}, read through
 * {@link VarHandle}s; where they cannot be read (another Kafka version, a header made from a String
 * or an array, one already read through its API) {@code key()} and {@code value()} are used, with
 * the same result. RecordHeaderReaderTest checks that the pinned Kafka's fields are found, so an
 * upgrade that moves them fails a test instead of slowing the core unseen.
 */
final class RecordHeaderReader {

  /** {@code RecordHeader.keyBuffer}, or null when this Kafka has no such field. */
  private static final VarHandle KEY_BUFFER = bufferHandle("keyBuffer");

  /** {@code RecordHeader.valueBuffer}, or null when this Kafka has no such field. */
  private static final VarHandle VALUE_BUFFER = bufferHandle("valueBuffer");

  /** Names by the length of their UTF-8 bytes: {@code byLength[n]} holds those of n bytes. */
  private final String[][] namesByLength;

  private final byte[][][] bytesByLength;

  RecordHeaderReader(Collection<String> names) {
    int longest = 0;
    for (String name : names) {
      longest = Math.max(longest, name.getBytes(StandardCharsets.UTF_8).length);
    }
    namesByLength = new String[longest + 1][0];
    bytesByLength = new byte[longest + 1][0][];
    for (String name : names) {
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      int n = bytes.length;
      namesByLength[n] = Arrays.copyOf(namesByLength[n], namesByLength[n].length + 1);
      namesByLength[n][namesByLength[n].length - 1] = name;
      bytesByLength[n] = Arrays.copyOf(bytesByLength[n], bytesByLength[n].length + 1);
      bytesByLength[n][bytesByLength[n].length - 1] = bytes;
    }
  }

  /** Whether this Kafka's record headers are read from their bytes (else through their API). */
  static boolean readsBytes() {
    return KEY_BUFFER != null && VALUE_BUFFER != null;
  }

  /**
   * The name {@code header} has, as the String instance given to the constructor, or null when it
   * has none of them.
   */
  String name(Header header) {
    ByteBuffer raw = slice(KEY_BUFFER, header);
    if (raw == null) {
      return name(header.key());
    }
    int length = raw.remaining();
    if (length >= namesByLength.length) {
      return null;
    }
    byte[][] candidates = bytesByLength[length];
    for (int i = 0; i < candidates.length; i++) {
      if (equal(raw, candidates[i])) {
        return namesByLength[length][i];
      }
    }
    return null;
  }

  /** The name equal to {@code key}, as the String instance given to the constructor, or null. */
  String name(String key) {
    int length = key.length(); // UTF-8 bytes are at least as many as chars
    for (int n = length; n < namesByLength.length; n++) {
      for (String name : namesByLength[n]) {
        if (name.equals(key)) {
          return name;
        }
      }
    }
    return null;
  }

  /** Compares without moving the buffer's position, which {@code key()} still reads from. */
  private static boolean equal(ByteBuffer raw, byte[] name) {
    int from = raw.position();
    if (raw.hasArray()) {
      int start = raw.arrayOffset() + from;
      return Arrays.equals(raw.array(), start, start + name.length, name, 0, name.length);
    }
    for (int i = 0; i < name.length; i++) {
      if (raw.get(from + i) != name[i]) {
        return false;
      }
    }
    return true;
  }

  /** The value of {@code header} decoded as UTF-8, or null when it has none. */
  static String text(Header header) {
    ByteBuffer raw = slice(VALUE_BUFFER, header);
    if (raw == null) {
      byte[] value = header.value();
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
    if (raw.hasArray()) {
      return new String(
          raw.array(), raw.arrayOffset() + raw.position(), raw.remaining(), StandardCharsets.UTF_8);
    }
    byte[] value = new byte[raw.remaining()];
    raw.get(raw.position(), value);
    return new String(value, StandardCharsets.UTF_8);
  }

  /**
   * The bytes of {@code header} that {@code field} holds, or null when they are not there (read
   * through the API already, or never a slice).
   */
  private static ByteBuffer slice(VarHandle field, Header header) {
    if (field == null || !(header instanceof RecordHeader)) {
      return null;
    }
    return (ByteBuffer) field.get(header);
  }

  private static VarHandle bufferHandle(String field) {
    try {
      return MethodHandles.privateLookupIn(RecordHeader.class, MethodHandles.lookup())
          .findVarHandle(RecordHeader.class, field, ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
