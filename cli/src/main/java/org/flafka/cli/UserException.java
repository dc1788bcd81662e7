package org.flafka.cli;

/**
 * A failure the user can fix. The CLI prints its message as one line, without a stack trace, and
 * exits with {@link #exitCode()}. Write the message as "what is wrong: how to fix it".
 */
public class UserException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  public UserException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public UserException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** An invalid flag, file or value. */
  public static UserException invalidInput(String message) {
    return new UserException(ExitCode.INVALID_INPUT, message);
  }

  /** The machine or a service is not as needed (port in use, broker unreachable). */
  public static UserException unexpectedState(String message) {
    return new UserException(ExitCode.UNEXPECTED_STATE, message);
  }

  public int exitCode() {
    return exitCode;
  }
}
