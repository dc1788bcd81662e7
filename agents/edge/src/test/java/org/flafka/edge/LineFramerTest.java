package org.flafka.edge;

import static org.flafka.edge.RecordingMonitor.frames;
import static org.flafka.edge.RecordingMonitor.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
