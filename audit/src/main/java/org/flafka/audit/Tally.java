package org.flafka.audit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.flafka.load.Mark;
import org.flafka.load.SentMessages;

/**
 * Counts delivered event bodies against a {@link Manifest}. A {@link DeliverySource} feeds it one
 * body at a time ({@link #record}); {@link #result} sums it up. Memory per device: two bit sets
 * over its sent sequences (seen, seen more than once), about {@code sent / 4} bytes; nothing per
 * record.
 *
 * <p>Each body is classified by its {@link Mark}:
 *
 * <ul>
 *   <li>no mark at all: <em>unmarked</em> (not from the generator, or damaged beyond recognition);
 *   <li>the mark prefix, but no well-formed mark: <em>damaged mark</em>;
 *   <li>a mark of a device the manifest does not list: <em>foreign</em>;
 *   <li>a mark of a listed device with a sequence it never sent (0, or above its count): <em>beyond
 *       sent</em>;
 *   <li>otherwise the sequence counts as delivered (again: duplicated), and, when the manifest can
 *       rebuild the message, a body that differs from it in length or any byte is
 *       <em>corrupted</em>.
 * </ul>
 *
 * Not thread-safe: one source feeds it from one thread.
 */
public final class Tally {
  private static final byte[] PREFIX = Mark.PREFIX.getBytes(StandardCharsets.US_ASCII);

  private final Manifest manifest;
  private final SentMessages sentMessages;
  private final byte[] expected;

  /** Indexed by device number; null where the manifest lists no such device. */
  private final DeviceTally[] devices;

  private final List<String> warnings = new ArrayList<>();
  private long records;
  private long unmarked;
  private long damagedMarks;
  private long foreign;

  public Tally(Manifest manifest) {
    this.manifest = manifest;
    this.sentMessages = manifest.sentMessages();
    this.expected = sentMessages == null ? null : new byte[sentMessages.maxSize()];
    int highest = manifest.devices().stream().mapToInt(Manifest.Device::device).max().orElse(-1);
    this.devices = new DeviceTally[highest + 1];
    for (Manifest.Device device : manifest.devices()) {
      devices[device.device()] = new DeviceTally(device);
    }
  }

  /** Counts one delivered body, {@code length} bytes of {@code body} from {@code offset}. */
  public void record(byte[] body, int offset, int length) {
    records++;
    Mark mark = Mark.find(body, offset, length);
    if (mark == null) {
      if (contains(body, offset, length, PREFIX)) {
        damagedMarks++;
      } else {
        unmarked++;
      }
      return;
    }
    DeviceTally device = mark.device() < devices.length ? devices[mark.device()] : null;
    if (device == null) {
      foreign++;
      return;
    }
    long sequence = mark.sequence();
    if (sequence < 1 || sequence > device.sent) {
      device.beyondSent++;
      return;
    }
    // Bit n stands for sequence n + 1; an int index suffices, DeviceTally refuses larger counts.
    int bit = (int) (sequence - 1);
    if (device.seen.get(bit)) {
      device.duplicates++;
      device.duplicated.set(bit);
    } else {
      device.seen.set(bit);
    }
    if (sentMessages != null && !matches(mark.device(), sequence, body, offset, length)) {
      device.corrupted++;
    }
  }

  /**
   * A note about what could not be read (a truncated file, a skipped one), shown with the result.
   */
  public void warn(String warning) {
    warnings.add(warning);
  }

  /** Bodies recorded so far. */
  public long records() {
    return records;
  }

  /** The result so far, listing at most {@code maxRanges} missing ranges per device. */
  public AuditResult result(String sourceDescription, int maxRanges) {
    List<AuditResult.DeviceAudit> audits = new ArrayList<>();
    for (Manifest.Device device : manifest.devices()) {
      audits.add(devices[device.device()].audit(maxRanges));
    }
    return new AuditResult(
        sourceDescription,
        manifest.source(),
        manifest.complete(),
        sentMessages != null,
        records,
        unmarked,
        damagedMarks,
        foreign,
        audits,
        warnings);
  }

  private boolean matches(int device, long sequence, byte[] body, int offset, int length) {
    if (sentMessages.sizeOf(device, sequence) != length) {
      return false;
    }
    sentMessages.write(device, sequence, expected);
    return Arrays.equals(expected, 0, length, body, offset, offset + length);
  }

  private static boolean contains(byte[] body, int offset, int length, byte[] needle) {
    outer:
    for (int at = offset; at <= offset + length - needle.length; at++) {
      for (int n = 0; n < needle.length; n++) {
        if (body[at + n] != needle[n]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** One device's counts. Bit n of each set stands for sequence n + 1. */
  private static final class DeviceTally {
    final Manifest.Device device;
    final long sent;
    final BitSet seen = new BitSet();
    final BitSet duplicated = new BitSet();
    long duplicates;
    long corrupted;
    long beyondSent;

    DeviceTally(Manifest.Device device) {
      if (device.sent() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "device "
                + device.device()
                + " sent "
                + device.sent()
                + " events; the audit tracks at most "
                + Integer.MAX_VALUE
                + " per device");
      }
      this.device = device;
      this.sent = device.sent();
    }

    AuditResult.DeviceAudit audit(int maxRanges) {
      long delivered = seen.cardinality();
      List<AuditResult.Range> ranges = new ArrayList<>();
      long rangeCount = 0;
      for (int from = seen.nextClearBit(0); from < sent; from = seen.nextClearBit(from)) {
        int to = (int) Math.min(sent, seen.nextSetBit(from) < 0 ? sent : seen.nextSetBit(from));
        if (ranges.size() < maxRanges) {
          ranges.add(new AuditResult.Range(from + 1L, to));
        }
        rangeCount++;
        from = to;
      }
      return new AuditResult.DeviceAudit(
          device.device(),
          device.host(),
          sent,
          delivered,
          sent - delivered,
          duplicates,
          duplicated.cardinality(),
          corrupted,
          beyondSent,
          ranges,
          rangeCount);
    }
  }
}
