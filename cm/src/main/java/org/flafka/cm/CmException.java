package org.flafka.cm;

/**
 * A Cloudera Manager call that failed in a way the user can act on. The message is one line saying
 * what went wrong and what to fix ("Cloudera Manager at https://cm:7183 rejected user 'admin' (HTTP
 * 401): check --cm-user / FLAFKA_CM_PASSWORD"); it never contains the password. The CLI prints the
 * message without a stack trace; the {@link Reason} lets it pick an exit code without parsing text.
 *
 * <p>This module does not depend on the CLI: the CLI maps this exception to its own user-error
 * type.
 */
public class CmException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of problem it is, so callers can choose an exit code or a retry policy. */
  public enum Reason {
    /** A setting is missing or invalid (URL, trust store, password source, API version). */
    INVALID_CONFIG,
    /** The host does not resolve, nothing listens, the connection timed out or was reset. */
    UNREACHABLE,
    /**
     * The TLS handshake failed: an untrusted or mismatched certificate, or TLS against a plain-HTTP
     * port.
     */
    TLS,
    /** HTTP 401: wrong user or password. */
    UNAUTHORIZED,
    /** HTTP 403: the user lacks the CM role for this call. */
    FORBIDDEN,
    /** HTTP 404, or a cluster, service, role or role config group that does not exist. */
    NOT_FOUND,
    /** A CM command (restart, ...) finished unsuccessfully or did not finish in time. */
    COMMAND_FAILED,
    /**
     * The server answered, but not as the CM API does (unexpected status, not JSON, unsupported
     * version).
     */
    UNEXPECTED_RESPONSE
  }

  private final Reason reason;

  public CmException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public CmException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
