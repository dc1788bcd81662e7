package org.flafka.syslog;

/**
 * The message format the parser recognised. {@link #headerValue()} is the value of the {@code
 * format} header. The parser decides the format once, from the bytes after {@code <PRI>}, and never
 * re-parses.
 */
public enum SyslogFormat {
  /** RFC 5424: {@code <PRI>1 TIMESTAMP HOST APP PROCID MSGID SD MSG}. */
  RFC5424("rfc5424"),
  /**
   * RFC 3164 / BSD syslog: {@code <PRI>Mmm dd hh:mm:ss HOST TAG[PID]: MSG} and its many deviations.
   */
  RFC3164("rfc3164"),
  /**
   * Cisco ASA, PIX and FWSM: a {@code %ASA-6-302013:} (or {@code %PIX-}, {@code %FWSM-}) mnemonic.
   */
  CISCO_ASA("cisco-asa"),
  /**
   * Cisco IOS, NX-OS and IOS-XR: optional sequence number, optional {@code *}/{@code .} clock-sync
   * mark, a timestamp or an uptime, then a {@code %FACILITY-SEVERITY-MNEMONIC:} tag.
   */
  CISCO_IOS("cisco-ios"),
  /**
   * Fortinet FortiGate: {@code key=value} pairs ({@code date=… time=… devname=…}) without a syslog
   * header.
   */
  FORTIGATE("fortigate"),
  /** Snare for Windows / MSWinEventLog: TAB-separated fields after an RFC 3164-like header. */
  SNARE("snare"),
  /**
   * Cisco Meraki (MX, MR, MS): {@code [<PRI>1 ]EPOCH.NANOS DEVICE CATEGORY text}, alone or after a
   * relay's RFC 3164 header; the device name is the hostname, the category ({@code events}, {@code
   * flows}, {@code urls}, ...) the app.
   */
  MERAKI("meraki"),
  /** Nothing recognisable: {@link ParseStatus#RAW}. */
  UNKNOWN("unknown");

  private final String headerValue;

  SyslogFormat(String headerValue) {
    this.headerValue = headerValue;
  }

  /**
   * The lower-case value for the {@code format} header, e.g. {@code rfc5424}, {@code cisco-asa}.
   */
  public String headerValue() {
    return headerValue;
  }
}
