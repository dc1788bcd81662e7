package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FramingTest {

  private static String framed(Framing framing, String message) {
    byte[] target = new byte[64];
    int at = framing.writeHeader(target, 0, message.length());
    byte[] body = message.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(body, 0, target, at, body.length);
    int end = framing.writeTrailer(target, at + body.length);
    assertEquals(message.length() + framing.overhead(message.length()), end);
    return new String(target, 0, end, StandardCharsets.US_ASCII);
  }

  @Test
  void octetCountingPrefixesTheDecimalLengthAndASpace() {
    assertEquals("5 hello", framed(Framing.OCTET_COUNTING, "hello"));
    assertEquals("10 0123456789", framed(Framing.OCTET_COUNTING, "0123456789"));
    assertEquals(8, Framing.OCTET_COUNTING.overhead(1_048_576));
  }

  @Test
  void newlineFramingAppendsALineFeedAndDatagramsNothing() {
    assertEquals("hello\n", framed(Framing.NEWLINE, "hello"));
    assertEquals("hello", framed(Framing.NONE, "hello"));
  }

  @Test
  void theFrameCounterCountsOctetCountedFramesSplitAcrossReadsAnywhere() {
    byte[] stream = "5 hello11 hello world3 abc".getBytes(StandardCharsets.US_ASCII);
    for (int split = 0; split <= stream.length; split++) {
      NullReceiver.FrameCounter counter = new NullReceiver.FrameCounter(Framing.OCTET_COUNTING);
      long frames =
          counter.count(stream, 0, split) + counter.count(stream, split, stream.length - split);
      assertEquals(3, frames, "split at " + split);
    }
    NullReceiver.FrameCounter broken = new NullReceiver.FrameCounter(Framing.OCTET_COUNTING);
    assertEquals(1, broken.count("2 ab x2 cd".getBytes(StandardCharsets.US_ASCII), 0, 10));
  }
}
