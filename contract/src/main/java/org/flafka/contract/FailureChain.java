package org.flafka.contract;

/**
 * An exception chain as text, for the security failures' one-line explanations ({@link
 * KafkaSecurityFailure}, {@link HdfsKerberos}): the phrases they match come from the JDK, Kafka or
 * Hadoop at any depth of the chain.
 */
final class FailureChain {
  private static final int MAX_DEPTH = 20;

  private FailureChain() {}

  /** Every cause's class and message, one per line, outermost first. */
  static String text(Throwable failure) {
    StringBuilder text = new StringBuilder();
    int depth = 0;
    for (Throwable t = failure; t != null && depth < MAX_DEPTH; t = t.getCause(), depth++) {
      text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
      if (t.getCause() == t) {
        break;
      }
    }
    return text.toString();
  }

  /** The innermost cause's message on one line, or its class name when it has none. */
  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    int depth = 0;
    while (root.getCause() != null && root.getCause() != root && depth++ < MAX_DEPTH) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null ? root.getClass().getSimpleName() : message.strip().replace('\n', ' ');
  }
}
