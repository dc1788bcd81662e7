package org.flafka.cli;

/**
 * The exit codes of every {@code flafka} command, so scripts can tell a user's mistake from our
 * bug.
 */
public final class ExitCode {
  /** Done, as asked. */
  public static final int OK = 0;

  /** The work ran and failed (a broker went away, a trial lost events, a check did not pass). */
  public static final int FAILED = 1;

  /**
   * The user's input is wrong: a flag, a file, a value. Fixable by the user; the message says how.
   */
  public static final int INVALID_INPUT = 2;

  /** The machine is not in a state we can work in: a port in use, Java missing, a stale lock. */
  public static final int UNEXPECTED_STATE = 3;

  /** A bug in flafka: the message asks to rerun with --debug and report it. */
  public static final int INTERNAL = 4;

  private ExitCode() {}
}
