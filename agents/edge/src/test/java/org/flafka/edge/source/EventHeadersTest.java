package org.flafka.edge.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EventHeadersTest {

  /**
   * Same answers as a LinkedHashMap (insertion order) over random operations, past the initial
   * capacity.
   */
  @Test
  void behavesLikeAnInsertionOrderedMap() {
    String[] names = {
      "timestamp",
      "host",
      "facility",
      "severity",
      "app",
      "procid",
      "msgid",
      "format",
      "parse",
      "received",
      "peer",
      "site",
      "id",
      "key",
      "fanout",
      "timestamp_source",
      "timestamp_rejected",
      "x",
      "y",
      "z"
    };
    Random random = new Random(20261121);
    for (int round = 0; round < 200; round++) {
      Map<String, String> expected = new LinkedHashMap<>();
      EventHeaders actual = new EventHeaders(4);
      for (int op = 0; op < 60; op++) {
        // new String(...): a name equal to the stored one but not the same instance must be found
        // too
        String name = new String(names[random.nextInt(names.length)]);
        String value = random.nextInt(10) == 0 ? null : "v" + random.nextInt(5);
        switch (random.nextInt(6)) {
          case 0, 1 -> assertEquals(expected.put(name, value), actual.put(name, value));
          case 2 ->
              assertEquals(expected.putIfAbsent(name, value), actual.putIfAbsent(name, value));
          case 3 -> assertEquals(expected.remove(name), actual.remove(name));
          case 4 ->
              assertEquals(expected.getOrDefault(name, "none"), actual.getOrDefault(name, "none"));
          default -> {
            assertEquals(expected.containsKey(name), actual.containsKey(name));
            assertEquals(expected.get(name), actual.get(name));
          }
        }
        assertEquals(expected, actual);
        assertEquals(expected.hashCode(), actual.hashCode());
        assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(actual.entrySet()));
        List<String> walked = new ArrayList<>();
        actual.forEach((k, v) -> walked.add(k + "=" + v));
        assertEquals(expected.toString(), "{" + String.join(", ", walked) + "}");
      }
    }
  }

  @Test
  void entriesWriteThroughAndTheIteratorRemoves() {
    EventHeaders headers = headers("host", "a", "site", "s", "id", "1");
    for (Map.Entry<String, String> entry : headers.entrySet()) {
      if (entry.getKey().equals("site")) {
        assertEquals("s", entry.setValue("edge-7"));
      }
    }
    assertEquals("edge-7", headers.get("site"));

    Iterator<Map.Entry<String, String>> it = headers.entrySet().iterator();
    assertThrows(IllegalStateException.class, it::remove);
    it.next();
    it.remove();
    assertThrows(IllegalStateException.class, it::remove);
    assertEquals("site", it.next().getKey());
    assertEquals("id", it.next().getKey());
    assertFalse(it.hasNext());
    assertEquals(Map.of("site", "edge-7", "id", "1"), headers);

    headers.entrySet().clear();
    assertTrue(headers.isEmpty());
    assertNull(headers.get("site"));
  }

  @Test
  void aChangeUnderAnIteratorOrAnEntryFailsInsteadOfReadingTheWrongHeader() {
    EventHeaders headers = headers("host", "a", "site", "s");
    Iterator<Map.Entry<String, String>> it = headers.entrySet().iterator();
    Map.Entry<String, String> host = it.next();
    headers.remove("host");
    assertThrows(ConcurrentModificationException.class, it::next);
    assertThrows(ConcurrentModificationException.class, host::getValue);
    assertThrows(ConcurrentModificationException.class, () -> host.setValue("b"));
    assertEquals(Map.of("site", "s"), headers);
    assertThrows(
        ConcurrentModificationException.class,
        () -> headers.forEach((name, value) -> headers.put("late", value)));
  }

  @Test
  void everyNameIsFoundWhateverItsHashAndAfterRemovals() {
    // The map skips its scan for a name whose hash bit is clear; names sharing a bit (or a whole
    // hash code: "Aa" and "BB"), and names put again after a remove, must still be found.
    EventHeaders headers = new EventHeaders(4);
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < 200; i++) {
      headers.put("h" + i, "v" + i);
      expected.put("h" + i, "v" + i);
    }
    headers.put("Aa", "first");
    headers.put("BB", "second");
    expected.put("Aa", "first");
    expected.put("BB", "second");
    assertEquals(expected, headers);

    headers.remove("Aa");
    expected.remove("Aa");
    assertEquals("second", headers.get("BB"));
    assertFalse(headers.containsKey("Aa"));
    assertNull(headers.put("Aa", "again"));
    assertEquals("again", headers.put("Aa", "replaced"));
    expected.put("Aa", "replaced");
    assertEquals(expected, headers);

    headers.clear();
    assertFalse(headers.containsKey("BB"));
    headers.put("BB", "after clear");
    assertEquals(Map.of("BB", "after clear"), headers);
  }

  @Test
  void nullNamesAreRefusedAndNullValuesKept() {
    EventHeaders headers = new EventHeaders(2);
    assertThrows(NullPointerException.class, () -> headers.put(null, "v"));
    assertThrows(NullPointerException.class, () -> headers.putIfAbsent(null, "v"));
    headers.put("app", null);
    assertTrue(headers.containsKey("app"));
    assertNull(headers.putIfAbsent("app", "sshd"));
    assertEquals("sshd", headers.get("app"));
  }

  private static EventHeaders headers(String... namesAndValues) {
    EventHeaders headers = new EventHeaders(2);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return headers;
  }
}
