package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParseResultTest {
  private final SyslogParser parser = new SyslogParser(Parsing.OPTIONS);

  @Test
  void aReusedResultKeepsNothingFromTheLastMessage() {
    ParseResult reused = new ParseResult();
    byte[] first =
        "<165>1 2003-10-11T22:14:15.003Z host app 1 ID [a b=\"c\"] first"
            .getBytes(StandardCharsets.UTF_8);
    byte[] second = "nothing to see".getBytes(StandardCharsets.UTF_8);
    parser.parse(first, 0, first.length, 1L, reused);
    assertEquals("host", reused.hostname());
    assertEquals(1, reused.sdElementCount());
    ParseResult same = parser.parse(second, 0, second.length, 2L, reused);
    assertSame(reused, same);
    assertEquals(ParseStatus.RAW, reused.status());
    assertNull(reused.hostname());
    assertNull(reused.app());
    assertNull(reused.procid());
    assertNull(reused.msgid());
    assertNull(reused.structuredDataText());
    assertEquals(0, reused.sdElementCount());
    assertEquals(-1, reused.version());
    assertEquals(2L, reused.timestampMillis());
    assertEquals("nothing to see", reused.message());
    assertEquals(parser.parse(second, 2L).toString(), reused.toString());
  }

  @Test
  void stringsAreDecodedOnceAndCached() {
    ParseResult r = parser.parse("<13>Feb  5 17:32:18 host app[1]: m", 0L);
    assertSame(r.hostname(), r.hostname());
    assertSame(r.message(), r.message());
  }

  @Test
  void structuredDataIndexesAreChecked() {
    ParseResult r = parser.parse("<13>1 - host app - - [a b=\"c\"] m", 0L);
    IndexOutOfBoundsException element =
        assertThrows(IndexOutOfBoundsException.class, () -> r.sdId(1));
    assertEquals("structured-data element 1 of 1", element.getMessage());
    IndexOutOfBoundsException param =
        assertThrows(IndexOutOfBoundsException.class, () -> r.sdParamName(0, 1));
    assertEquals("param 1 of 1 in element 0", param.getMessage());
  }

  @Test
  void toStringShowsTheFields() {
    String text =
        parser.parse("<13>1 2003-10-11T22:14:15.003Z host app 7 ID [a b=\"c\"] m", 0L).toString();
    assertEquals(
        "ParseResult{status=ok, format=rfc5424, facility=1, severity=5, version=1,"
            + " timestamp=1065910455003 (message), hostname=\"host\", app=\"app\", procid=\"7\", msgid=\"ID\","
            + " sd={a={b=c}}, message=\"m\"}",
        text);
  }

  @Test
  void rejectsARangeOutsideTheArray() {
    byte[] bytes = new byte[4];
    assertThrows(
        IndexOutOfBoundsException.class, () -> parser.parse(bytes, 2, 3, 0L, new ParseResult()));
  }

  @Test
  void headerValuesAreLowerCaseAndDistinct() {
    Set<String> seen = new HashSet<>();
    for (SyslogFormat format : SyslogFormat.values()) {
      assertTrue(seen.add(format.headerValue()));
      assertEquals(format.headerValue().toLowerCase(java.util.Locale.ROOT), format.headerValue());
    }
    for (Defect defect : Defect.values()) {
      assertTrue(seen.add(defect.headerValue()));
      assertTrue(defect.headerValue().matches("[a-z0-9-]+"), defect.headerValue());
    }
    assertEquals("ok", ParseStatus.OK.headerValue());
    assertEquals("lenient", ParseStatus.LENIENT.headerValue());
    assertEquals("raw", ParseStatus.RAW.headerValue());
    assertEquals("message", TimestampSource.MESSAGE.headerValue());
    assertEquals("received", TimestampSource.RECEIVED.headerValue());
  }

  @Test
  void defectNames() {
    assertEquals("", Defect.names(0));
    assertEquals(
        "missing-pri,missing-hostname",
        Defect.names(Defect.MISSING_HOSTNAME.mask() | Defect.MISSING_PRI.mask()));
  }

  @Test
  void facilityAndSeverityNames() {
    assertEquals("kern", SyslogCodes.facilityName(0));
    assertEquals("local4", SyslogCodes.facilityName(20));
    assertEquals("local7", SyslogCodes.facilityName(23));
    assertNull(SyslogCodes.facilityName(24));
    assertNull(SyslogCodes.facilityName(-1));
    assertEquals("emerg", SyslogCodes.severityName(0));
    assertEquals("debug", SyslogCodes.severityName(7));
    assertNull(SyslogCodes.severityName(8));
  }
}
