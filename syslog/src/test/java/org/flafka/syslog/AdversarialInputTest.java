package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Megabyte inputs built to make a scanner rescan: each must come back (the suite's timeout would
 * catch a quadratic path) with fields inside the input. Speed itself is measured by the JMH
 * benchmark, not here.
 */
class AdversarialInputTest {
  private static final int SIZE = 1 << 20;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[", "]", "\\", " ", ":", "<", "0", "%A-1-", "[a b=\"", "[a b=c", "[a][a]", "a[", "\t1\t",
        "date=", "\"", "Jan ", "1 ", "-"
      })
  void repeatedPatternsAfterEachHeader(String unit) {
    String body = unit.repeat(SIZE / unit.length());
    for (String prefix :
        new String[] {
          "",
          "<13>",
          "<13>1 - h a - - ",
          "<13>Jan  1 00:00:00 host ",
          "<13>Jan  1 00:00:00 host app: ",
          "<189>1: ",
          "<189>date=2019-01-01 "
        }) {
      byte[] bytes = (prefix + body).getBytes(StandardCharsets.UTF_8);
      ParseResult r =
          new SyslogParser().parse(bytes, 0, bytes.length, Parsing.RECEIVED, new ParseResult());
      ResultInvariants.check(r, bytes, 0, bytes.length, Parsing.RECEIVED);
      assertEquals(bytes.length, r.inputLength());
    }
  }
}
