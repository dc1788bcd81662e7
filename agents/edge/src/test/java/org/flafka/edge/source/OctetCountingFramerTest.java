package org.flafka.edge.source;

import static org.flafka.edge.source.RecordingMonitor.frames;
import static org.flafka.edge.source.RecordingMonitor.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OctetCountingFramerTest {

  private final RecordingMonitor monitor = new RecordingMonitor();

  private EmbeddedChannel channel(int maxMessageBytes) {
    return new EmbeddedChannel(new OctetCountingFramer(maxMessageBytes, monitor));
  }

  @Test
  void splitsBackToBackFramesAcrossFragmentedReads() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "5 hel", "lo6", " world!1", "0 <13>hello\n");
    assertEquals(List.of("hello", "world!", "<13>hello\n"), frames(ch));
    assertEquals(List.of(), monitor.errors);
  }

  @Test
  void countsWithTheDigitsZeroAndNineAndLeadingZeros() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "10 0123456789", "9 abcdefghi", "09 987654321", "0003 xyz");
    assertEquals(List.of("0123456789", "abcdefghi", "987654321", "xyz"), frames(ch));
    assertEquals(List.of(), monitor.errors);
  }

  @ParameterizedTest(name = "header {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the bytes just outside '0'..'9': '/' is 0x2f, ':' is 0x3a
        "/3 abc|expected a digit at byte 1 of the frame header, got 0x2f",
        ":3 abc|expected a digit at byte 1 of the frame header, got 0x3a",
        "1/ abc|expected a digit or a space at byte 2 of the frame header, got 0x2f",
        "1: abc|expected a digit or a space at byte 2 of the frame header, got 0x3a",
        "<13>abc|expected a digit at byte 1 of the frame header, got 0x3c",
      })
  void aByteOutsideTheDigitsIsAFramingErrorAndTheStreamResumesAfterTheNextLf(
      String bad, String problem) {
    EmbeddedChannel ch = channel(1024);
    write(ch, bad + "\n", "3 xyz");
    assertEquals(List.of("xyz"), frames(ch));
    assertEquals(
        List.of("bad octet-counting header: " + problem + "; skipping to the next LF"),
        monitor.errors);
  }

  @Test
  void lengthsThatOverflowAreFramingErrors() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "2147483648 x\n3 abc", "12345678901 y\n3 def");
    assertEquals(List.of("abc", "def"), frames(ch));
    assertEquals(
        List.of(
            "bad octet-counting header: the octet count 2147483648 is larger than 2147483647; skipping to the next LF",
            "bad octet-counting header: the octet count has more than 10 digits; skipping to the next LF"),
        monitor.errors);
  }

  @Test
  void oversizeMessageIsSkippedExactlyAndTheNextOneArrives() {
    EmbeddedChannel ch = channel(4);
    write(ch, "6 abc", "d", "ef3 xyz", "4 four");
    assertEquals(List.of("xyz", "four"), frames(ch));
    assertEquals(List.of(6L), monitor.oversize);
    assertEquals(0, ch.pipeline().get(OctetCountingFramer.class).bufferedBytes());
  }

  @Test
  void largestRepresentableLengthIsOversizeNotAnError() {
    EmbeddedChannel ch = channel(100);
    write(ch, "2147483647 abc");
    assertEquals(List.of(2147483647L), monitor.oversize);
    assertEquals(List.of(), monitor.errors);
  }

  @Test
  void zeroLengthIsAnEmptyMessageAndProducesNothing() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "0 5 hello");
    assertEquals(List.of("hello"), frames(ch));
  }

  @Test
  void separatorsBetweenFramesAreSkippedButALfInsideTheCountIsKept() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "3 abc\n3 def\r\n\0 4 ghi\n");
    assertEquals(List.of("abc", "def", "ghi\n"), frames(ch));
  }

  @Test
  void connectionClosedInsideAMessageIsAFramingError() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "3 abc10 abc");
    ch.finish();
    assertEquals(List.of("abc"), frames(ch));
    assertEquals(
        List.of(
            "the connection closed after 3 of the 10 bytes of an octet-counted message; "
                + "the partial message is dropped"),
        monitor.errors);
  }

  @Test
  void anAbandonedIncompleteBodyIsReportedAndNeverDeliveredAtTheEndOfTheStream() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "2 ok10 <13>ha");
    OctetCountingFramer framer = ch.pipeline().get(OctetCountingFramer.class);
    assertTrue(framer.inFrame());
    framer.abandonFrame("timed out");
    assertFalse(framer.inFrame());
    ch.finish();
    assertEquals(List.of("ok"), frames(ch));
    assertEquals(
        List.of("timed out; 6 of the 10 bytes of its octet-counted message are dropped"),
        monitor.errors);
  }

  @Test
  void anAbandonedOversizeFrameIsNotReportedTwice() {
    EmbeddedChannel ch = channel(4);
    write(ch, "100 abc");
    OctetCountingFramer framer = ch.pipeline().get(OctetCountingFramer.class);
    assertTrue(framer.inFrame(), "skipping the oversize body is inside a frame");
    framer.abandonFrame("timed out");
    ch.finish();
    assertEquals(List.of(100L), monitor.oversize);
    assertEquals(List.of(), monitor.errors);
  }

  @Test
  void anAbandonedHalfHeaderIsReported() {
    EmbeddedChannel ch = channel(1024);
    write(ch, "12");
    OctetCountingFramer framer = ch.pipeline().get(OctetCountingFramer.class);
    assertTrue(framer.inFrame());
    framer.abandonFrame("timed out");
    ch.finish();
    assertEquals(
        List.of("timed out; the 2 bytes of its incomplete header are dropped"), monitor.errors);
  }
}
