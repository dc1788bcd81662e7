package org.flafka.syslog;

/** Names of syslog facilities and severities (RFC 5424 section 6.2.1, as syslog.h spells them). */
public final class SyslogCodes {
  private static final String[] FACILITIES = {
    "kern",
    "user",
    "mail",
    "daemon",
    "auth",
    "syslog",
    "lpr",
    "news",
    "uucp",
    "cron",
    "authpriv",
    "ftp",
    "ntp",
    "security",
    "console",
    "solaris-cron",
    "local0",
    "local1",
    "local2",
    "local3",
    "local4",
    "local5",
    "local6",
    "local7"
  };
  private static final String[] SEVERITIES = {
    "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"
  };

  private SyslogCodes() {}

  /** The facility's name ({@code local4} for 20), or null outside 0..23. */
  public static String facilityName(int facility) {
    return facility >= 0 && facility < FACILITIES.length ? FACILITIES[facility] : null;
  }

  /** The severity's name ({@code debug} for 7), or null outside 0..7. */
  public static String severityName(int severity) {
    return severity >= 0 && severity < SEVERITIES.length ? SEVERITIES[severity] : null;
  }
}
