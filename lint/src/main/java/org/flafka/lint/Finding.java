package org.flafka.lint;

/**
 * One problem {@code flafka lint} found: which rule, where (a property key or component), what is
 * wrong and how to fix it. Printed as one line.
 */
public record Finding(Severity severity, String rule, String where, String problem, String fix) {

  /** How bad a finding is; any {@link #ERROR} makes {@code flafka lint} exit 1. */
  public enum Severity {
    /** The agent will lose events, drop a component at start-up, or fail under load. */
    ERROR,
    /** It works, but wastes resources or risks surprises. */
    WARNING
  }

  static Finding error(String rule, String where, String problem, String fix) {
    return new Finding(Severity.ERROR, rule, where, problem, fix);
  }

  static Finding warning(String rule, String where, String problem, String fix) {
    return new Finding(Severity.WARNING, rule, where, problem, fix);
  }

  /** {@code ERROR [rule] where: problem. Fix: fix.} */
  @Override
  public String toString() {
    return severity + " [" + rule + "] " + where + ": " + problem + ". Fix: " + fix + ".";
  }
}
