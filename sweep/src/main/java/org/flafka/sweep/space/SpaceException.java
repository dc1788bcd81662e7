package org.flafka.sweep.space;

/**
 * A space file the sweep cannot use. The message is one line, {@code <file>:<line>: <key>:
 * <problem>; <fix>}, so the CLI prints it as it is and exits 2.
 */
public final class SpaceException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  SpaceException(String source, int line, String key, String problem) {
    super(
        source
            + (line > 0 ? ":" + line : "")
            + ": "
            + (key == null || key.isEmpty() ? "" : key + ": ")
            + problem.replace('\n', ' '));
  }
}
