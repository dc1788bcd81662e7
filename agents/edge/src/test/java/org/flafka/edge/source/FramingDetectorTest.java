package org.flafka.edge.source;

import static org.flafka.edge.source.RecordingMonitor.frames;
import static org.flafka.edge.source.RecordingMonitor.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

class FramingDetectorTest {

  private final RecordingMonitor monitor = new RecordingMonitor();

  private EmbeddedChannel channel() {
    return new EmbeddedChannel(
        new FramingDetector(
            "framer",
            monitor,
            () -> new OctetCountingFramer(1024, monitor),
            () -> new LineFramer(1024, false, monitor)));
  }

  @Test
  void priMeansLineFraming() {
    EmbeddedChannel ch = channel();
    write(ch, "<13>a\n<13>b\n");
    assertEquals(List.of("<13>a", "<13>b"), frames(ch));
    assertInstanceOf(LineFramer.class, ch.pipeline().get("framer"));
    assertNull(ch.pipeline().get(FramingDetector.class));
  }

  @Test
  void digitsAndASpaceMeanOctetCountingEvenWhenTheHeaderArrivesInPieces() {
    EmbeddedChannel ch = channel();
    write(ch, "\n1", "0", " <13>hello\n5 after");
    assertEquals(List.of("<13>hello\n", "after"), frames(ch));
    assertInstanceOf(OctetCountingFramer.class, ch.pipeline().get("framer"));
  }

  @Test
  void digitsEndedByAnotherByteMeanLineFraming() {
    EmbeddedChannel ch = channel();
    write(ch, "2024-11-21T06:28:00Z host app: x\n");
    assertEquals(List.of("2024-11-21T06:28:00Z host app: x"), frames(ch));
    assertInstanceOf(LineFramer.class, ch.pipeline().get("framer"));
  }

  @Test
  void moreThanTenDigitsMeanLineFraming() {
    EmbeddedChannel ch = channel();
    write(ch, "12345678901 x\n");
    assertEquals(List.of("12345678901 x"), frames(ch));
  }

  @Test
  void theDecisionIsPerConnection() {
    EmbeddedChannel ch = channel();
    write(ch, "<13>first\n3 abc\n");
    assertEquals(List.of("<13>first", "3 abc"), frames(ch));
  }

  @Test
  void undecidedBytesAtEndOfStreamAreOneMessage() {
    EmbeddedChannel ch = channel();
    write(ch, "12345");
    assertEquals(List.of(), frames(ch));
    ch.finish();
    assertEquals(List.of("12345"), frames(ch));
  }
}
