package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MarkTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void theMarkIsThirtyFiveBytesOfFixedWidthAscii() {
    assertEquals("flafka:dev=000042;seq=000000012345;", new Mark(42, 12345).toString());
    assertEquals(35, Mark.LENGTH);
    byte[] written = new byte[Mark.LENGTH];
    Mark.write(written, 0, 999_999, 999_999_999_999L);
    assertEquals(
        "flafka:dev=999999;seq=999999999999;", new String(written, StandardCharsets.US_ASCII));
  }

  @Test
  void aMarkIsFoundAnywhereInABody() {
    assertEquals(
        new Mark(42, 12345),
        Mark.find(bytes("<13>Nov 21 06:28:00 h app: flafka:dev=000042;seq=000000012345; text")));
    assertEquals(
        new Mark(7, 1), Mark.find(bytes("\u00c3( junk flafka:dev=000007;seq=000000000001;")));
  }

  @Test
  void aDamagedOrCutMarkIsSkippedAndTheNextWholeOneFound() {
    assertNull(Mark.find(bytes("text flafka:dev=000042;seq=0000000123")));
    assertNull(Mark.find(bytes("flafka:dev=00004x;seq=000000012345; more")));
    assertEquals(
        new Mark(3, 9),
        Mark.find(
            bytes("flafka:dev=000042;seq=00000001234X; then flafka:dev=000003;seq=000000000009;")));
    assertNull(Mark.find(bytes("no mark at all")));
  }

  @Test
  void findLooksOnlyInsideTheGivenRange() {
    byte[] body = bytes("xxflafka:dev=000001;seq=000000000002;yy");
    assertEquals(new Mark(1, 2), Mark.find(body, 2, Mark.LENGTH));
    assertNull(Mark.find(body, 2, Mark.LENGTH - 1));
  }

  @Test
  void outOfRangeNumbersAreRejectedNamingTheValue() {
    assertEquals(
        "device must be in [0, 999999] but was 1000000",
        assertThrows(IllegalArgumentException.class, () -> new Mark(1_000_000, 1)).getMessage());
    assertEquals(
        "sequence must be in [0, 999999999999] but was -1",
        assertThrows(IllegalArgumentException.class, () -> new Mark(1, -1)).getMessage());
  }
}
