package org.flafka.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flafka.load.Mark;

/**
 * What the pipeline under test "delivered" of a {@link LoadRun} of 4 devices x 500 events, with
 * known faults: device 0 lost sequence 7 (its mark damaged) and gained an event beyond what it sent
 * (501); device 1 lost 101-150 and 300; device 2 got sequence 10 three times and 11 twice; device
 * 3's sequence 5 lost its last byte and 6 had a byte changed; plus one event of an unknown device
 * and one without a mark.
 */
final class Deliveries {
  static final int DEVICES = 4;
  static final int CONNECTIONS = 2;
  static final long PER_DEVICE = 500;

  private Deliveries() {}

  /**
   * The damaged deliveries of {@code run}, per device (index 4: the foreign and unmarked events).
   */
  static List<List<byte[]>> byDevice(LoadRun run) {
    List<List<byte[]>> lists = new ArrayList<>();
    for (int n = 0; n <= DEVICES; n++) {
      lists.add(new ArrayList<>());
    }
    for (Map.Entry<Mark, byte[]> sent : run.bodies.entrySet()) {
      int device = sent.getKey().device();
      long sequence = sent.getKey().sequence();
      byte[] body = sent.getValue().clone();
      List<byte[]> list = lists.get(device);
      if (device == 1 && (sequence >= 101 && sequence <= 150 || sequence == 300)) {
        continue;
      }
      if (device == 0 && sequence == 7) {
        int at = markAt(body);
        body[at + Mark.SEQUENCE_OFFSET + 3] = 'X';
      }
      if (device == 2 && (sequence == 10 || sequence == 11)) {
        list.add(body.clone());
        if (sequence == 10) {
          list.add(body.clone());
        }
      }
      if (device == 3 && sequence == 5) {
        body = java.util.Arrays.copyOf(body, body.length - 1);
      }
      if (device == 3 && sequence == 6) {
        body[body.length - 1] ^= 0x01;
      }
      list.add(body);
    }
    byte[] beyond = run.body(0, 1);
    byte[] digits = String.format("%012d", PER_DEVICE + 1).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(digits, 0, beyond, markAt(beyond) + Mark.SEQUENCE_OFFSET, digits.length);
    lists.get(0).add(beyond);
    lists
        .get(DEVICES)
        .add((new Mark(999, 1) + " from another run").getBytes(StandardCharsets.US_ASCII));
    lists
        .get(DEVICES)
        .add(
            "<13>Nov 21 06:28:00 other-host app: not from the load generator"
                .getBytes(StandardCharsets.US_ASCII));
    return lists;
  }

  /** Every delivery, in one list. */
  static List<byte[]> all(LoadRun run) {
    List<byte[]> all = new ArrayList<>();
    byDevice(run).forEach(all::addAll);
    return all;
  }

  /**
   * Checks the faults above were found exactly, with {@code device3Missing} further missing ranges
   * of device 3 and {@code device3ExtraCorrupted} further corrupted events of it.
   */
  static void assertFound(
      AuditResult result, List<AuditResult.Range> device3Missing, long device3ExtraCorrupted) {
    assertTrue(result.bodiesChecked(), "the manifest of flafka load rebuilds every body");
    AuditResult.DeviceAudit dev0 = result.device(0);
    assertEquals(499, dev0.delivered());
    assertEquals(List.of(new AuditResult.Range(7, 7)), dev0.missingRanges());
    assertEquals(1, dev0.beyondSent());
    assertEquals(
        0,
        dev0.corrupted(),
        "intact bodies are not corrupted: SentMessages rebuilds what load sent");

    AuditResult.DeviceAudit dev1 = result.device(1);
    assertEquals(51, dev1.missing());
    assertEquals(
        List.of(new AuditResult.Range(101, 150), new AuditResult.Range(300, 300)),
        dev1.missingRanges());
    assertEquals(2, dev1.missingRangeCount());
    assertEquals(0, dev1.duplicates());

    AuditResult.DeviceAudit dev2 = result.device(2);
    assertEquals(3, dev2.duplicates());
    assertEquals(2, dev2.duplicatedSequences());
    assertEquals(0, dev2.missing());
    assertEquals(PER_DEVICE, dev2.delivered());

    AuditResult.DeviceAudit dev3 = result.device(3);
    assertEquals(2 + device3ExtraCorrupted, dev3.corrupted());
    assertEquals(device3Missing, dev3.missingRanges());

    assertEquals(1, result.damagedMarks());
    assertEquals(1, result.unmarked());
    assertEquals(1, result.foreign());
    assertEquals(1 + 1 + 2 + device3ExtraCorrupted, result.corrupted());
    assertEquals(DEVICES * PER_DEVICE, result.sent());
    assertFalse(result.passed());
  }

  private static int markAt(byte[] body) {
    byte[] prefix = Mark.PREFIX.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int at = 0; at <= body.length - prefix.length; at++) {
      for (int n = 0; n < prefix.length; n++) {
        if (body[at + n] != prefix[n]) {
          continue outer;
        }
      }
      return at;
    }
    throw new AssertionError("no mark in " + new String(body, StandardCharsets.ISO_8859_1));
  }
}
