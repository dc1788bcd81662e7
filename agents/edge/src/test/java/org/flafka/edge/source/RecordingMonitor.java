package org.flafka.edge.source;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FramingMonitor} that remembers what it was told, plus helpers to drive framers in an
 * EmbeddedChannel.
 */
final class RecordingMonitor implements FramingMonitor {
  final List<Long> oversize = new ArrayList<>();
  final List<String> errors = new ArrayList<>();

  @Override
  public void oversize(long size) {
    oversize.add(size);
  }

  @Override
  public void framingError(String problem) {
    errors.add(problem);
  }

  /** Writes each chunk as one read (ISO-8859-1, so every char is one byte). */
  static void write(EmbeddedChannel channel, String... chunks) {
    for (String chunk : chunks) {
      channel.writeInbound(Unpooled.wrappedBuffer(chunk.getBytes(StandardCharsets.ISO_8859_1)));
    }
  }

  /** Drains the decoded frames, releasing them, as ISO-8859-1 strings (byte for byte). */
  static List<String> frames(EmbeddedChannel channel) {
    List<String> frames = new ArrayList<>();
    ByteBuf frame;
    while ((frame = channel.readInbound()) != null) {
      frames.add(frame.toString(StandardCharsets.ISO_8859_1));
      frame.release();
    }
    return frames;
  }
}
