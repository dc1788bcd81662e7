package org.flafka.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Splits a captured stream into messages, strictly: a malformed frame fails the test. */
final class Frames {
  private Frames() {}

  static List<byte[]> split(byte[] stream, Framing framing) {
    List<byte[]> messages = new ArrayList<>();
    int at = 0;
    while (at < stream.length) {
      if (framing == Framing.NEWLINE) {
        int end = at;
        while (end < stream.length && stream[end] != '\n') {
          end++;
        }
        if (end == stream.length) {
          throw new AssertionError("stream ends without a line feed after byte " + at);
        }
        messages.add(Arrays.copyOfRange(stream, at, end));
        at = end + 1;
      } else {
        int length = 0;
        int digitsStart = at;
        while (stream[at] >= '0' && stream[at] <= '9') {
          length = length * 10 + (stream[at++] - '0');
        }
        if (at == digitsStart || stream[at] != ' ' || stream[digitsStart] == '0') {
          throw new AssertionError("bad octet count at byte " + digitsStart);
        }
        at++;
        if (at + length > stream.length) {
          throw new AssertionError("frame at byte " + digitsStart + " runs past the end");
        }
        messages.add(Arrays.copyOfRange(stream, at, at + length));
        at += length;
      }
    }
    return messages;
  }
}
