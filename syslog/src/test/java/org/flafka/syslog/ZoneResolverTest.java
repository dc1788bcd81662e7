package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The resolver must give java.time's answer (ZonedDateTime.of) for every local time, around every
 * transition.
 */
class ZoneResolverTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Europe/Berlin",
        "America/New_York",
        "Australia/Lord_Howe",
        "America/Sao_Paulo",
        "Asia/Kolkata",
        "Pacific/Apia",
        "Europe/Dublin",
        "UTC",
        "+05:45"
      })
  void agreesWithJavaTime(String zoneName) {
    ZoneId zone = ZoneId.of(zoneName);
    ZoneResolver resolver = new ZoneResolver(zone);
    for (int year : new int[] {1899, 1996, 2011, 2026, 2200}) {
      LocalDateTime start = LocalDateTime.of(year, 1, 1, 0, 0).minusHours(1);
      // every 30 minutes from a whole hour lands in each gap and overlap (none is shorter than 30
      // minutes)
      for (LocalDateTime local = start; local.getYear() <= year; local = local.plusMinutes(30)) {
        long localSeconds = local.toEpochSecond(ZoneOffset.UTC);
        int expected = ZonedDateTime.of(local, zone).getOffset().getTotalSeconds();
        ZonedDateTime shifted = ZonedDateTime.of(local, zone);
        long expectedInstant = shifted.toEpochSecond();
        int actual = resolver.offsetSeconds(local.getYear(), localSeconds);
        assertEquals(
            expectedInstant,
            localSeconds - actual,
            zoneName + " " + local + " (java.time offset " + expected + ", ours " + actual + ")");
      }
    }
  }
}
