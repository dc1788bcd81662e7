package org.flafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The prefilled timestamps stay in one layout day, so a run just after midnight counts as any. */
class CoreBenchPrefillTest {
  private static long millis(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static LocalDate day(long millis, ZoneId zone) {
    return Instant.ofEpochMilli(millis).atZone(zone).toLocalDate();
  }

  @Test
  void anHourBackWhenTheDayIsOlderThanAnHour() {
    assertEquals(3600, CoreBench.spreadSeconds(millis("2026-11-28T15:30:00Z"), ZoneOffset.UTC));
  }

  @Test
  void justAfterMidnightTheOldestTimestampIsStillToday() {
    long now = millis("2026-11-29T00:16:40.250Z");
    long spread = CoreBench.spreadSeconds(now, ZoneOffset.UTC);
    assertEquals(1001, spread);
    long oldest = now - (spread - 1) * 1000L;
    assertEquals(day(now, ZoneOffset.UTC), day(oldest, ZoneOffset.UTC));
  }

  @Test
  void atMidnightItselfEveryTimestampIsNow() {
    assertEquals(1, CoreBench.spreadSeconds(millis("2026-11-29T00:00:00Z"), ZoneOffset.UTC));
  }

  @Test
  void theDayIsTheLayoutZones() {
    ZoneId tokyo = ZoneId.of("Asia/Tokyo");
    // 15:30 UTC is 00:30 the next day in Tokyo: half an hour of that day
    long now = millis("2026-11-28T15:30:00Z");
    long spread = CoreBench.spreadSeconds(now, tokyo);
    assertEquals(1801, spread);
    assertEquals(day(now, tokyo), day(now - (spread - 1) * 1000L, tokyo));
  }
}
