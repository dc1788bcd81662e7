package org.flafka.edge.source;

/**
 * Told by a framer about input it could not turn into a message, so it can be counted and reported:
 * nothing is dropped without a call here. Called on the connection's event loop.
 */
interface FramingMonitor {

  /**
   * A message of {@code size} bytes was longer than the limit; it was dropped whole, never
   * truncated.
   */
  void oversize(long size);

  /** Input that is not a valid frame; {@code problem} says what was wrong and what was skipped. */
  void framingError(String problem);
}
