package org.flafka.edge.source;

/**
 * What a TCP/TLS framer ({@link LineFramer}, {@link OctetCountingFramer}, {@link FramingDetector})
 * tells the connection about the frame it is in the middle of, so that a connection that never
 * completes its frame can be closed without losing count of what it sent. Called on the
 * connection's event loop.
 */
interface StreamFramer {

  /**
   * True while the framer is inside a frame: it holds part of one, or is skipping the rest of an
   * oversize or malformed one.
   */
  boolean inFrame();

  /**
   * Drops the frame in progress because the connection is being closed for taking too long over it,
   * and reports what it held to the monitor (an oversize message, or the incomplete frame as a
   * framing error with {@code why}); what the monitor was already told about is not reported again.
   * Afterwards the framer holds nothing, so the end of the stream delivers nothing of that frame:
   * an incomplete message is never carried as if it were whole.
   */
  void abandonFrame(String why);
}
