package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.flume.Event;
import org.apache.flume.event.SimpleEvent;
import org.flafka.syslog.SyslogParser;

/**
 * Whatever the bytes and the sender: the SyslogInterceptor returns the same event, never changes
 * its body, never throws, and sets a path-safe host, the one tools compute from the parser's
 * hostname and the peer.
 */
class SyslogInterceptorPropertiesTest {

  private static final List<String> SEEDS =
      List.of(
          "<34>Oct 11 22:14:15 mymachine su[12]: 'su root' failed",
          "<165>1 2003-10-11T22:14:15.003Z Host.Example.COM app 1 ID47 [x@1 a=\"b\"] m",
          "<166>:Nov 21 06:58:49 UTC: %ASA-6-302013: Built outbound",
          "<189>Nov 21 06:58:49 10.1.2.3 12345: Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: list 101",
          "<189>RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: %PKT_INFRA-LINK-3-UPDOWN : up",
          "<13>Mar 10 01:00:00 [fe80::1%eth0] app: m",
          "<13>1 1993-03-01T00:00:00Z ..hidden app - - - m");

  private final MutableClock clock = new MutableClock("2026-11-21T07:00:00Z");

  @Property(tries = 1500)
  void arbitraryBytes(
      @ForAll @Size(max = 300) byte[] body,
      @ForAll("peers") String peer,
      @ForAll("lowerCase") String lowerCase) {
    check(body, peer, lowerCase);
  }

  @Property(tries = 1500)
  void mutatedMessages(
      @ForAll("mutated") byte[] body,
      @ForAll("peers") String peer,
      @ForAll("lowerCase") String lowerCase) {
    check(body, peer, lowerCase);
  }

  private void check(byte[] body, String peer, String lowerCase) {
    SyslogInterceptor interceptor =
        new SyslogInterceptor(
            new SyslogInterceptorConfig(
                Map.of("host.lowercase", lowerCase, "host.max.length", "16")),
            clock);
    byte[] copy = body.clone();
    Event event = new SimpleEvent();
    event.setBody(body);
    Map<String, String> headers = new HashMap<>();
    headers.put("received", "1795244400000");
    if (peer != null) {
      headers.put("peer", peer);
    }
    event.setHeaders(headers);
    assertSame(event, interceptor.intercept(event));
    assertSame(body, event.getBody());
    assertArrayEquals(copy, event.getBody(), "body unchanged");
    String host = event.getHeaders().get("host");
    assertNotNull(host);
    assertTrue(
        host.matches(
            Boolean.parseBoolean(lowerCase) ? "[a-z0-9.\\-_]{1,16}" : "[A-Za-z0-9.\\-_]{1,16}"),
        host);
    assertTrue(host.charAt(0) != '.' && host.charAt(0) != '_', host);
    String hostname = new SyslogParser().parse(body, 1795244400000L).hostname();
    assertEquals(
        HostNames.hostHeader(hostname, peer, Boolean.parseBoolean(lowerCase), 16),
        host,
        "the host flafka parse shows");
  }

  @Provide
  Arbitrary<String> peers() {
    return Arbitraries.oneOf(
        Arbitraries.just(null),
        Arbitraries.just("10.20.30.40"),
        Arbitraries.strings().ofMaxLength(40));
  }

  @Provide
  Arbitrary<String> lowerCase() {
    return Arbitraries.of("true", "false");
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    Arbitrary<byte[]> seed = Arbitraries.of(SEEDS).map(s -> s.getBytes(StandardCharsets.UTF_8));
    Arbitrary<int[]> edit =
        Combinators.combine(
                Arbitraries.integers().between(0, 10_000), Arbitraries.integers().between(0, 255))
            .as((at, value) -> new int[] {at, value});
    return Combinators.combine(seed, edit.list().ofMaxSize(5))
        .as(
            (bytes, edits) -> {
              byte[] mutated = bytes.clone();
              for (int[] e : edits) {
                mutated[e[0] % mutated.length] = (byte) e[1];
              }
              return mutated;
            });
  }
}
