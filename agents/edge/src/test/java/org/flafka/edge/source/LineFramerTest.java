package org.flafka.edge.source;

import static org.flafka.edge.source.RecordingMonitor.frames;
import static org.flafka.edge.source.RecordingMonitor.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LineFramerTest {

  private final RecordingMonitor monitor = new RecordingMonitor();

  private EmbeddedChannel channel(int maxMessageBytes, boolean nulDelimiter) {
    return new EmbeddedChannel(new LineFramer(maxMessageBytes, nulDelimiter, monitor));
  }

  @Test
  void joinsFragmentsAndSplitsSeveralMessagesInOneRead() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "<13>a", "bc\n<1", "4>d\n<15>e\n<16>f\n");
    assertEquals(List.of("<13>abc", "<14>d", "<15>e", "<16>f"), frames(ch));
    assertFalse(ch.finish());
  }

  @Test
  void crBeforeLfIsPartOfTheDelimiterButAnyOtherCrIsKept() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "a\r\nb\rc\n\rd\n", "e\r", "\n");
    assertEquals(List.of("a", "b\rc", "\rd", "e"), frames(ch));
  }

  @Test
  void emptyLinesProduceNothing() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "\n\r\n\na\n\n");
    assertEquals(List.of("a"), frames(ch));
  }

  @Test
  void messageOfExactlyTheLimitPassesEvenWithCrLf() {
    EmbeddedChannel ch = channel(3, false);
    write(ch, "abc\r", "\nxyz\n");
    assertEquals(List.of("abc", "xyz"), frames(ch));
    assertEquals(List.of(), monitor.oversize);
  }

  @Test
  void oversizeMessageIsReportedWholeAndTheNextMessageStillArrives() {
    EmbeddedChannel ch = channel(8, false);
    write(ch, "0123456789abc\nok\n");
    assertEquals(List.of("ok"), frames(ch));
    assertEquals(List.of(13L), monitor.oversize);
  }

  @Test
  void oversizeMessageArrivingInPiecesIsDiscardedAsItArrives() {
    EmbeddedChannel ch = channel(8, false);
    write(ch, "0123456789", "abcdef");
    int held = ch.pipeline().get(LineFramer.class).bufferedBytes();
    assertEquals(0, held, "discarded bytes are not buffered");
    write(ch, "gh\r\nnext\n");
    assertEquals(List.of("next"), frames(ch));
    assertEquals(List.of(18L), monitor.oversize);
  }

  @Test
  void lastMessageWithoutDelimiterIsDeliveredAtEndOfStream() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "a\nlast");
    assertEquals(List.of("a"), frames(ch));
    ch.finish();
    assertEquals(List.of("last"), frames(ch));
  }

  @Test
  void oversizeTailAtEndOfStreamIsReported() {
    EmbeddedChannel ch = channel(4, false);
    write(ch, "abcdef");
    ch.finish();
    assertEquals(List.of(), frames(ch));
    assertEquals(List.of(6L), monitor.oversize);
  }

  @Test
  void nulEndsAMessageOnlyWhenEnabled() {
    EmbeddedChannel on = channel(1024, true);
    write(on, "a\0b\n\0");
    assertEquals(List.of("a", "b"), frames(on));

    EmbeddedChannel off = channel(1024, false);
    write(off, "a\0b\n");
    assertEquals(List.of("a\0b"), frames(off));
  }

  @Test
  void bytesThatAreNotUtf8AreCarriedIntact() {
    EmbeddedChannel ch = channel(1024, false);
    byte[] message = {'<', '1', '3', '>', (byte) 0xff, (byte) 0xfe, (byte) 0x80, (byte) 0xc3, 0x28};
    ByteBuf in = Unpooled.buffer();
    in.writeBytes(message).writeByte('\n');
    ch.writeInbound(in);
    ByteBuf frame = ch.readInbound();
    byte[] body = new byte[frame.readableBytes()];
    frame.readBytes(body);
    frame.release();
    assertArrayEquals(message, body);
  }

  @Test
  void longMessageInManySmallReadsArrivesWhole() {
    EmbeddedChannel ch = channel(1 << 20, false);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 2_000; i++) {
      String piece = Integer.toString(i % 10).repeat(500);
      expected.append(piece);
      write(ch, piece);
    }
    write(ch, "\n");
    assertEquals(List.of(expected.toString()), frames(ch));
  }

  /**
   * Random messages, delimiters and read boundaries against what the framing rules say, in heap and
   * direct buffers: the delimiter search reads several bytes at a time, so a delimiter must be
   * found at every offset within a word and across reads.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void randomStreamsSplitAnywhereFrameAsTheRulesSay(boolean nulDelimiter) {
    Random random = new Random(nulDelimiter ? 11 : 7);
    for (int round = 0; round < 50; round++) {
      EmbeddedChannel ch = channel(1024, nulDelimiter);
      StringBuilder stream = new StringBuilder();
      List<String> expected = new ArrayList<>();
      for (int m = 0; m < 40; m++) {
        StringBuilder message = new StringBuilder();
        int length = random.nextInt(4) == 0 ? random.nextInt(4) : random.nextInt(90);
        for (int i = 0; i < length; i++) {
          // printable bytes, a CR now and then, and a NUL that only ends a message with
          // nulDelimiter
          int pick = random.nextInt(40);
          char c = pick == 0 ? '\r' : pick == 1 ? '\0' : (char) (' ' + random.nextInt(95));
          if (c == '\0' && nulDelimiter) {
            expected.add(message.toString());
            stream.append(message).append(c);
            message.setLength(0);
            continue;
          }
          message.append(c);
        }
        String delimiter = random.nextBoolean() ? "\n" : "\r\n";
        stream.append(message).append(delimiter);
        String body = message.toString();
        if (delimiter.equals("\n") && body.endsWith("\r")) {
          body = body.substring(0, body.length() - 1); // that CR and the LF are one CRLF delimiter
        }
        expected.add(body);
      }
      expected.removeIf(String::isEmpty);
      byte[] bytes = stream.toString().getBytes(StandardCharsets.ISO_8859_1);
      for (int at = 0; at < bytes.length; ) {
        int length = Math.min(bytes.length - at, 1 + random.nextInt(64));
        ByteBuf read =
            random.nextBoolean() ? Unpooled.buffer(length) : Unpooled.directBuffer(length);
        ch.writeInbound(read.writeBytes(bytes, at, length));
        at += length;
      }
      assertEquals(expected, frames(ch), "round " + round);
      assertFalse(ch.finish());
    }
  }

  @Test
  void aTrickledMessageNeverHoldsMoreThanTheLimitPlusOneByte() {
    EmbeddedChannel ch = channel(8, false);
    LineFramer framer = ch.pipeline().get(LineFramer.class);
    for (int i = 0; i < 100; i++) {
      write(ch, "x");
      assertTrue(framer.bufferedBytes() <= 9, "held " + framer.bufferedBytes() + " after " + i);
    }
    write(ch, "\nok\n");
    assertEquals(List.of("ok"), frames(ch));
    assertEquals(List.of(100L), monitor.oversize);
  }

  @Test
  void anAbandonedIncompleteMessageIsReportedAndNeverDeliveredAtTheEndOfTheStream() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "<13>done\n<13>half");
    LineFramer framer = ch.pipeline().get(LineFramer.class);
    assertTrue(framer.inFrame());
    framer.abandonFrame("timed out");
    assertFalse(framer.inFrame());
    ch.finish();
    assertEquals(List.of("<13>done"), frames(ch), "the half message is not carried as if whole");
    assertEquals(
        List.of("timed out; the 8 bytes of its incomplete message are dropped"), monitor.errors);
  }

  @Test
  void anAbandonedOversizeMessageIsReportedOnceAsOversize() {
    EmbeddedChannel ch = channel(8, false);
    write(ch, "0123456789", "abcdef");
    LineFramer framer = ch.pipeline().get(LineFramer.class);
    assertTrue(framer.inFrame(), "discarding is inside a frame");
    framer.abandonFrame("timed out");
    ch.finish();
    assertEquals(List.of(16L), monitor.oversize);
    assertEquals(List.of(), monitor.errors);
    assertEquals(List.of(), frames(ch));
  }

  @Test
  void betweenMessagesTheFramerIsNotInsideAFrame() {
    EmbeddedChannel ch = channel(1024, false);
    write(ch, "<13>a\n\n");
    assertFalse(ch.pipeline().get(LineFramer.class).inFrame());
  }
}
