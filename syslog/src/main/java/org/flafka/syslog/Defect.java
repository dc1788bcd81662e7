package org.flafka.syslog;

/**
 * A deviation from the recognised format that the parser tolerated. Any recorded defect makes the
 * status {@link ParseStatus#LENIENT}. {@link ParseResult#defects()} is a bit set over {@link
 * #mask()}; {@link #names(long)} renders it as a comma-separated list of {@link #headerValue()}s.
 */
public enum Defect {
  /**
   * No {@code <PRI>}; facility and severity absent. Permitted by {@link
   * Leniency#PERMIT_MISSING_PRI}.
   */
  MISSING_PRI("missing-pri", Leniency.PERMIT_MISSING_PRI),
  /**
   * Whitespace before the message proper. Permitted by {@link Leniency#PERMIT_LEADING_WHITESPACE}.
   */
  LEADING_WHITESPACE("leading-whitespace", Leniency.PERMIT_LEADING_WHITESPACE),
  /**
   * Spaces between {@code <PRI>} and the header. Permitted by {@link
   * Leniency#PERMIT_SPACE_AFTER_PRI}.
   */
  SPACE_AFTER_PRI("space-after-pri", Leniency.PERMIT_SPACE_AFTER_PRI),
  /** No timestamp in an RFC 3164 header. Permitted by {@link Leniency#PERMIT_MISSING_TIMESTAMP}. */
  MISSING_TIMESTAMP("missing-timestamp", Leniency.PERMIT_MISSING_TIMESTAMP),
  /** No hostname in an RFC 3164 header. Permitted by {@link Leniency#PERMIT_MISSING_HOSTNAME}. */
  MISSING_HOSTNAME("missing-hostname", Leniency.PERMIT_MISSING_HOSTNAME),
  /** RFC 5424 without its version digit. Permitted by {@link Leniency#PERMIT_MISSING_VERSION}. */
  MISSING_VERSION("missing-version", Leniency.PERMIT_MISSING_VERSION),
  /** An RFC 5424 version starting with 0. Permitted by {@link Leniency#PERMIT_VERSION_ZERO}. */
  VERSION_ZERO("version-zero", Leniency.PERMIT_VERSION_ZERO),
  /**
   * A space instead of 'T' in an RFC 3339 stamp. Permitted by {@link
   * Leniency#PERMIT_SPACE_IN_ISO_TIMESTAMP}.
   */
  SPACE_IN_ISO_TIMESTAMP("space-in-iso-timestamp", Leniency.PERMIT_SPACE_IN_ISO_TIMESTAMP),
  /**
   * RFC 5424 structured data broke the grammar. Permitted by {@link
   * Leniency#PERMIT_MALFORMED_STRUCTURED_DATA}.
   */
  MALFORMED_STRUCTURED_DATA("malformed-structured-data", Leniency.PERMIT_MALFORMED_STRUCTURED_DATA),
  /** '@' in the hostname. Permitted by {@link Leniency#PERMIT_AT_SIGNS_IN_HOSTNAME}. */
  AT_SIGN_IN_HOSTNAME("at-sign-in-hostname", Leniency.PERMIT_AT_SIGNS_IN_HOSTNAME),
  /** '/' in the hostname. Permitted by {@link Leniency#PERMIT_SLASHES_IN_HOSTNAME}. */
  SLASH_IN_HOSTNAME("slash-in-hostname", Leniency.PERMIT_SLASHES_IN_HOSTNAME),
  /**
   * '[' or ']' in the hostname. Permitted by {@link Leniency#PERMIT_SQUARE_BRACKETS_IN_HOSTNAME}.
   */
  SQUARE_BRACKET_IN_HOSTNAME(
      "square-bracket-in-hostname", Leniency.PERMIT_SQUARE_BRACKETS_IN_HOSTNAME),
  /**
   * A year inside an RFC 3164 timestamp. Recognised by {@link Leniency#DETECT_YEAR_IN_TIMESTAMP}.
   */
  YEAR_IN_TIMESTAMP("year-in-timestamp", Leniency.DETECT_YEAR_IN_TIMESTAMP),
  /**
   * A field that should be there is cut off or out of range (PRI above 191, a version other than 1,
   * a nil or empty field where a value must be, a header that stops early); the rest was still
   * read.
   */
  MALFORMED_HEADER("malformed-header", null),
  /**
   * A timestamp that names an impossible date or time (Feb 30, 25:00); the receive time is used.
   */
  INVALID_TIMESTAMP("invalid-timestamp", null),
  /**
   * A timestamp outside the plausibility window around the receive time; the receive time is used.
   */
  IMPLAUSIBLE_TIMESTAMP("implausible-timestamp", null),
  /** An RFC 3339 timestamp without a UTC offset; the default zone was used. */
  MISSING_TIME_ZONE("missing-time-zone", null),
  /** A time-zone name the parser does not know; the default zone was used. */
  UNKNOWN_TIME_ZONE("unknown-time-zone", null);

  private final String headerValue;
  private final Leniency permittedBy;

  Defect(String headerValue, Leniency permittedBy) {
    this.headerValue = headerValue;
    this.permittedBy = permittedBy;
  }

  /** The lower-case name, e.g. {@code missing-hostname}. */
  public String headerValue() {
    return headerValue;
  }

  /** The switch that allows this defect, or null when it is always tolerated. */
  public Leniency permittedBy() {
    return permittedBy;
  }

  /** This defect's bit in {@link ParseResult#defects()}. */
  public long mask() {
    return 1L << ordinal();
  }

  private static final Defect[] VALUES = values();

  /**
   * The header names of the defects in {@code mask}, comma-separated in declaration order; "" for
   * none.
   */
  public static String names(long mask) {
    if (mask == 0) {
      return "";
    }
    StringBuilder names = new StringBuilder();
    for (Defect defect : VALUES) {
      if ((mask & defect.mask()) != 0) {
        if (names.length() > 0) {
          names.append(',');
        }
        names.append(defect.headerValue);
      }
    }
    return names.toString();
  }
}
