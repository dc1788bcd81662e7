package org.flafka.interceptors;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.SyslogFacts;
import org.flafka.syslog.SyslogParser;

/**
 * Has a parser read sample messages before the agent's first real one, so that the JIT compiles the
 * parse path while no device waits on it. An agent that starts cold parses several times slower for
 * its first second or so; over TCP that only delays senders, but a UDP socket's receive buffer
 * overflows and the kernel drops what devices send meanwhile. Flume initializes a source's
 * interceptors before it starts the source, so the warm-up ends before any port opens.
 *
 * <p>It runs the parser and the fact derivations the interceptor runs ({@link SyslogFacts}, {@link
 * HostNames}), not the interceptor's own per-event code: that code writes the event's header map,
 * and a warm-up with a map of another class than the source's would teach the JIT the wrong one.
 * Nothing it parses reaches an event, a channel or a counter.
 */
final class ParserWarmUp {
  /**
   * One message of each form the parser tells apart on the common paths, shaped as devices send
   * them; {@code ParserWarmUpTest} checks that each is read as the form it stands for.
   */
  static final List<String> SAMPLES =
      List.of(
          "<165>1 2026-11-28T16:39:50.123456+01:00 web-01.example.net nginx 2211 ACCESS"
              + " [meta@32473 site=\"par-03\"] GET /index.html 200 5120",
          "<13>Nov 28 16:39:50 server-7 sshd[4242]: Accepted publickey for deploy from 10.1.2.3"
              + " port 52144 ssh2",
          "<189>112233: router-3: *Nov 28 16:39:50.123 UTC: %LINK-3-UPDOWN: Interface"
              + " GigabitEthernet0/1, changed state to down",
          "<187>4711: Nov 28 16:39:50.456: %SYS-5-CONFIG_I: Configured from console by admin on"
              + " vty0 (10.0.0.9)",
          "<166>Nov 28 2026 16:39:50: %ASA-6-302013: Built outbound TCP connection 8812 for"
              + " outside:203.0.113.7/443 (203.0.113.7/443) to inside:10.2.0.5/51515",
          "<134>Nov 28 16:39:50 fw-edge-2 kernel: [UFW BLOCK] IN=eth0 OUT= SRC=198.51.100.4"
              + " DST=10.0.0.1 PROTO=TCP SPT=4431 DPT=22",
          "<30>1 2026-11-28T15:39:50Z - - - - - a message with nothing but the time",
          "link flapped on port 12 without any header at all");

  private ParserWarmUp() {}

  /**
   * Parses {@code messages} samples with {@code parser}, deriving each fact as the interceptor
   * would; returns a value made from every derived fact, so that the JIT cannot leave any of the
   * work out.
   */
  static long run(SyslogParser parser, int messages, boolean hostLowerCase, int hostMaxLength) {
    byte[][] bodies =
        SAMPLES.stream()
            .map(sample -> sample.getBytes(StandardCharsets.UTF_8))
            .toArray(byte[][]::new);
    ParseResult result = new ParseResult();
    long received = System.currentTimeMillis();
    long kept = 0;
    for (int i = 0; i < messages; i++) {
      byte[] body = bodies[i % bodies.length];
      parser.parse(body, 0, body.length, received, result);
      kept += length(SyslogFacts.facility(result));
      kept += length(SyslogFacts.severity(result));
      kept += length(SyslogFacts.app(result));
      kept += length(SyslogFacts.procid(result));
      kept += length(SyslogFacts.msgid(result));
      kept += length(SyslogFacts.format(result));
      kept += length(SyslogFacts.parse(result));
      kept += length(SyslogFacts.timestampSource(result));
      kept += length(SyslogFacts.timestampRejected(result));
      kept += result.timestampMillis();
      if (result.hostnameOffset() >= 0) {
        kept +=
            length(
                HostNames.sanitize(
                    body,
                    result.hostnameOffset(),
                    result.hostnameLength(),
                    hostLowerCase,
                    hostMaxLength));
      }
    }
    return kept;
  }

  private static int length(String value) {
    return value == null ? 0 : value.length();
  }
}
