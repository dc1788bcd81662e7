package org.flafka.syslog.layeringfixture;

import picocli.CommandLine;

/**
 * Deliberately bad, for LayeringTest only: a parser class that depends on something outside the
 * JDK.
 */
public final class BadParser {
  private BadParser() {}

  public static String usage() {
    return new CommandLine(new Object()).getCommandName();
  }
}
