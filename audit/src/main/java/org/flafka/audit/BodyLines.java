package org.flafka.audit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream of newline-terminated bodies (Flume's text serializer) into records, without
 * decoding them.
 */
final class BodyLines {
  private static final int CHUNK = 64 * 1024;

  private BodyLines() {}

  /**
   * Records each line of {@code in} (without its newline) in {@code tally}; a last line without a
   * newline is recorded too.
   *
   * @return false if the stream ended inside a line
   */
  static boolean read(InputStream in, Tally tally) throws IOException {
    byte[] chunk = new byte[CHUNK];
    byte[] line = new byte[CHUNK];
    int lineLength = 0;
    for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
      int start = 0;
      for (int at = 0; at < read; at++) {
        if (chunk[at] == '\n') {
          if (lineLength == 0) {
            tally.record(chunk, start, at - start);
          } else {
            line = append(line, lineLength, chunk, start, at - start);
            tally.record(line, 0, lineLength + at - start);
            lineLength = 0;
          }
          start = at + 1;
        }
      }
      line = append(line, lineLength, chunk, start, read - start);
      lineLength += read - start;
    }
    if (lineLength > 0) {
      tally.record(line, 0, lineLength);
      return false;
    }
    return true;
  }

  /**
   * {@code line} with {@code count} bytes of {@code from} appended after its first {@code length},
   * grown if need be.
   */
  private static byte[] append(byte[] line, int length, byte[] from, int offset, int count) {
    byte[] target =
        length + count <= line.length
            ? line
            : Arrays.copyOf(line, Math.max(line.length * 2, length + count));
    System.arraycopy(from, offset, target, length, count);
    return target;
  }
}
