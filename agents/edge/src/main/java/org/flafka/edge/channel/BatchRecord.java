package org.flafka.edge.channel;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.CRC32C;
import org.apache.flume.Event;

/**
 * One committed put transaction as the disk buffer stores it: a record of a whole batch, so a batch
 * is on disk entirely or not at all, and one write (and one checksum) serves all its events.
 *
 * <pre>
 *   +-------+--------+-------+----------------------------------------------------------+
 *   | magic | length | crc32c| payload (length bytes)                                   |
 *   | int   | int    | int   | written-at ms (long), events (int), then for each event: |
 *   |       |        |       |   headers (int), each: key, value; body                  |
 *   +-------+--------+-------+----------------------------------------------------------+
 *   a key, a value or a body: its length in bytes (int), then the bytes (UTF-8 for text)
 * </pre>
 *
 * The checksum covers the payload. A record cut short (the agent killed while writing it) or whose
 * checksum does not match is not a record: {@link #check} says so, and the reader stops at it
 * instead of handing out what it cannot vouch for.
 */
final class BatchRecord {
  /** "FLBR": tells a record's start from the zeros of a file extended but not written. */
  static final int MAGIC = 0x464c4252;

  static final int HEADER_BYTES = 12;

  /** Refuses a length field no batch can have, so a damaged one is not read as a huge record. */
  static final int MAX_PAYLOAD_BYTES = Integer.MAX_VALUE - 64;

  private BatchRecord() {}

  /** The record of {@code events}, header included, ready to append. */
  static ByteBuffer encode(List<Event> events, long writtenAtMillis) {
    int size = HEADER_BYTES + Long.BYTES + Integer.BYTES;
    List<byte[][]> headerBytes = new ArrayList<>(events.size());
    for (Event event : events) {
      Map<String, String> headers = event.getHeaders();
      byte[][] encoded = new byte[headers.size() * 2][];
      int i = 0;
      for (Map.Entry<String, String> header : headers.entrySet()) {
        encoded[i++] = header.getKey().getBytes(StandardCharsets.UTF_8);
        encoded[i++] = header.getValue().getBytes(StandardCharsets.UTF_8);
      }
      headerBytes.add(encoded);
      size += Integer.BYTES;
      for (byte[] text : encoded) {
        size += Integer.BYTES + text.length;
      }
      size += Integer.BYTES + body(event).length;
    }
    ByteBuffer record = ByteBuffer.allocate(size);
    record.position(HEADER_BYTES);
    record.putLong(writtenAtMillis);
    record.putInt(events.size());
    for (int e = 0; e < events.size(); e++) {
      byte[][] encoded = headerBytes.get(e);
      record.putInt(encoded.length / 2);
      for (byte[] text : encoded) {
        record.putInt(text.length).put(text);
      }
      byte[] body = body(events.get(e));
      record.putInt(body.length).put(body);
    }
    CRC32C crc = new CRC32C();
    crc.update(record.array(), HEADER_BYTES, size - HEADER_BYTES);
    record.putInt(0, MAGIC).putInt(4, size - HEADER_BYTES).putInt(8, (int) crc.getValue());
    record.flip();
    record.position(0);
    return record;
  }

  private static byte[] body(Event event) {
    byte[] body = event.getBody();
    return body == null ? new byte[0] : body;
  }

  /**
   * The payload length a record header announces, or -1 when {@code header} (its first {@link
   * #HEADER_BYTES} bytes) cannot start a record.
   */
  static int payloadLength(ByteBuffer header) {
    if (header.getInt(0) != MAGIC) {
      return -1;
    }
    int length = header.getInt(4);
    return length < Long.BYTES + Integer.BYTES || length > MAX_PAYLOAD_BYTES ? -1 : length;
  }

  /** Whether {@code payload} is the one whose checksum {@code header} holds. */
  static boolean check(ByteBuffer header, ByteBuffer payload) {
    CRC32C crc = new CRC32C();
    crc.update(payload.duplicate());
    return (int) crc.getValue() == header.getInt(8);
  }

  static long writtenAtMillis(ByteBuffer payload) {
    return payload.getLong(0);
  }

  static int eventCount(ByteBuffer payload) {
    return payload.getInt(Long.BYTES);
  }

  /** The events of a checked payload, each made by {@code make} from its headers and body. */
  static List<Event> decode(ByteBuffer payload, Function<Map<String, String>, Event> make) {
    ByteBuffer in = payload.duplicate();
    in.position(Long.BYTES);
    int count = in.getInt();
    List<Event> events = new ArrayList<>(count);
    for (int e = 0; e < count; e++) {
      int headerCount = in.getInt();
      Map<String, String> headers = new HashMap<>(Math.max(4, headerCount * 2));
      for (int h = 0; h < headerCount; h++) {
        String key = text(in);
        headers.put(key, text(in));
      }
      Event event = make.apply(headers);
      byte[] body = new byte[in.getInt()];
      in.get(body);
      event.setBody(body);
      events.add(event);
    }
    return events;
  }

  private static String text(ByteBuffer in) {
    byte[] bytes = new byte[in.getInt()];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
