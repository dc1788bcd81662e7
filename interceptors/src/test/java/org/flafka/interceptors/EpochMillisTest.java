package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EpochMillisTest {

  @Test
  void acceptsOnlyPlainDecimalNumbersOfAtMost18Digits() {
    assertEquals(1795761005000L, EpochMillis.parse("1795761005000"));
    assertEquals(0, EpochMillis.parse("0"));
    assertEquals(999_999_999_999_999_999L, EpochMillis.parse("999999999999999999"));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse(null));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse(""));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse("-5"));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse("+5"));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse(" 5"));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse("17e9"));
    assertEquals(EpochMillis.INVALID, EpochMillis.parse("1234567890123456789"));
  }
}
