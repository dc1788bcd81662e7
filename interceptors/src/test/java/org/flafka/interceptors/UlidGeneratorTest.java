package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class UlidGeneratorTest {

  private static final Pattern ULID = Pattern.compile("[0-7][0-9A-HJKMNP-TV-Z]{25}");

  @Test
  void encodesTimeAndRandomnessAsCrockfordBase32() {
    // Known vectors worked by hand: all zeros, all ones, and time 1 with random 0.
    assertEquals("00000000000000000000000000", UlidGenerator.encode(0, 0, 0));
    assertEquals("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", UlidGenerator.encode((1L << 48) - 1, 0xFFFF, -1L));
    assertEquals("00000000010000000000000000", UlidGenerator.encode(1, 0, 0));
    // Random part 1 is the last digit; 2^64 (high part 1) is the top bit of digit 13 (bits 60..64).
    assertEquals("00000000000000000000000001", UlidGenerator.encode(0, 0, 1));
    assertEquals("0000000000000G000000000000", UlidGenerator.encode(0, 1, 0));
  }

  @Test
  void idsAreWellFormedAndCarryTheClockTime() {
    MutableClock clock = new MutableClock("2026-11-21T06:30:00.123Z");
    UlidGenerator generator = new UlidGenerator(clock, new Random(1));
    String id = generator.next();
    assertTrue(ULID.matcher(id).matches(), id);
    assertEquals(
        Instant.parse("2026-11-21T06:30:00.123Z").toEpochMilli(), UlidGenerator.timestampOf(id));
    assertEquals(clock.millis(), UlidGenerator.timestampOf(id.toLowerCase()));
  }

  @Test
  void idsSortByTimeAcrossMilliseconds() {
    MutableClock clock = new MutableClock(1_700_000_000_000L);
    UlidGenerator generator = new UlidGenerator(clock, new Random(2));
    String previous = generator.next();
    for (int i = 0; i < 1000; i++) {
      clock.advance(1 + (i % 7) * 1000L);
      String next = generator.next();
      assertTrue(next.compareTo(previous) > 0, previous + " then " + next);
      previous = next;
    }
  }

  @Test
  void idsWithinOneMillisecondCountUpByOne() {
    MutableClock clock = new MutableClock(1_700_000_000_000L);
    UlidGenerator generator = new UlidGenerator(clock, new Random(3));
    String first = generator.next();
    String second = generator.next();
    assertEquals(first.substring(0, 10), second.substring(0, 10));
    assertEquals(
        new BigInteger(toBinary(first), 2).add(BigInteger.ONE),
        new BigInteger(toBinary(second), 2));
  }

  @Test
  void counterOverflowMovesToTheNextMillisecondInsteadOfFailing() {
    MutableClock clock = new MutableClock(1000);
    // A source of randomness that starts the sequence one below the 80-bit maximum.
    Random allOnes =
        new Random() {
          @Override
          public int nextInt() {
            return 0xFFFF;
          }

          @Override
          public long nextLong() {
            return -2L;
          }
        };
    UlidGenerator generator = new UlidGenerator(clock, allOnes);
    String a = generator.next();
    String b = generator.next();
    String c = generator.next();
    assertEquals("ZZZZZZZZZZZZZZZY", a.substring(10));
    assertEquals("ZZZZZZZZZZZZZZZZ", b.substring(10));
    assertEquals(1000, UlidGenerator.timestampOf(b));
    assertEquals(1001, UlidGenerator.timestampOf(c));
    assertTrue(c.compareTo(b) > 0, b + " then " + c);
  }

  @Test
  void clockSteppingBackwardsKeepsIdsIncreasing() {
    MutableClock clock = new MutableClock(5_000);
    UlidGenerator generator = new UlidGenerator(clock, new Random(4));
    String before = generator.next();
    clock.set(4_000);
    String after = generator.next();
    assertTrue(after.compareTo(before) > 0, before + " then " + after);
    assertEquals(5_000, UlidGenerator.timestampOf(after));
    clock.set(6_000);
    assertEquals(6_000, UlidGenerator.timestampOf(generator.next()));
  }

  @Test
  void concurrentCallersGetUniqueIds() throws Exception {
    UlidGenerator generator = new UlidGenerator();
    int threads = 4;
    int perThread = 20_000;
    ConcurrentLinkedQueue<List<String>> results = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                List<String> mine = new ArrayList<>(perThread);
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  mine.add(generator.next());
                }
                results.add(mine);
              });
      worker.start();
      workers.add(worker);
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    Set<String> all = new HashSet<>();
    for (List<String> mine : results) {
      // Each thread sees a strictly increasing sequence: the generator is monotonic across threads.
      for (int i = 1; i < mine.size(); i++) {
        assertTrue(mine.get(i).compareTo(mine.get(i - 1)) > 0);
      }
      all.addAll(mine);
    }
    assertEquals(threads * perThread, all.size());
  }

  @Test
  void timestampOfRejectsWhatIsNotAUlid() {
    IllegalArgumentException shortId =
        assertThrows(
            IllegalArgumentException.class,
            () -> UlidGenerator.timestampOf("01ARZ3NDEKTSV4RRFFQ69G5FA"));
    assertEquals(
        "not a ULID (expected 26 characters): 01ARZ3NDEKTSV4RRFFQ69G5FA", shortId.getMessage());
    IllegalArgumentException badChar =
        assertThrows(
            IllegalArgumentException.class,
            () -> UlidGenerator.timestampOf("01ARZ3NDEKTSV4RRFFQ69G5FAU"));
    assertEquals(
        "not a ULID (bad character at 25): 01ARZ3NDEKTSV4RRFFQ69G5FAU", badChar.getMessage());
    IllegalArgumentException tooBig =
        assertThrows(
            IllegalArgumentException.class,
            () -> UlidGenerator.timestampOf("81ARZ3NDEKTSV4RRFFQ69G5FAV"));
    assertEquals(
        "not a ULID (bad character at 0): 81ARZ3NDEKTSV4RRFFQ69G5FAV", tooBig.getMessage());
  }

  @Test
  void decodesTheSpecExample() {
    // The example in the ULID spec: 01ARZ3NDEK is 1469922850259 ms (2016-07-30T23:54:10.259Z).
    assertEquals(1469922850259L, UlidGenerator.timestampOf("01ARZ3NDEKTSV4RRFFQ69G5FAV"));
  }

  private static String toBinary(String ulid) {
    String alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    StringBuilder bits = new StringBuilder();
    for (char c : ulid.toCharArray()) {
      String digit = Integer.toBinaryString(alphabet.indexOf(c));
      bits.append("0".repeat(5 - digit.length())).append(digit);
    }
    return bits.toString();
  }
}
