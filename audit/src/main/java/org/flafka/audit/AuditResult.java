package org.flafka.audit;

import java.util.List;

/**
 * What an audit found. Per device: {@code delivered + missing = sent}, where delivered counts
 * distinct sequences that arrived at least once (intact or not); duplicates and corrupted bodies
 * are counted on top.
 *
 * @param source what was read, e.g. {@code kafka 127.0.0.1:9092 topic syslog}
 * @param manifest where the manifest came from
 * @param manifestComplete the load run ended as planned (when not, "beyond sent" records are
 *     expected)
 * @param bodiesChecked bodies were compared with the exact messages sent (else only marks were
 *     checked)
 * @param records bodies read
 * @param unmarked bodies without any mark (not from the load generator, or damaged beyond
 *     recognition)
 * @param damagedMarks bodies with the mark's prefix but no well-formed mark (cut or overwritten)
 * @param foreign bodies with a well-formed mark of a device the manifest does not list
 * @param warnings what could not be read (truncated files, skipped in-progress files)
 */
public record AuditResult(
    String source,
    String manifest,
    boolean manifestComplete,
    boolean bodiesChecked,
    long records,
    long unmarked,
    long damagedMarks,
    long foreign,
    List<DeviceAudit> devices,
    List<String> warnings) {

  /** Sequences {@code first} to {@code last}, both included. */
  public record Range(long first, long last) {
    @Override
    public String toString() {
      return first == last ? Long.toString(first) : first + "-" + last;
    }
  }

  /**
   * One device's result.
   *
   * @param delivered distinct sequences that arrived, intact or corrupted
   * @param missing sequences sent that never arrived
   * @param duplicates records beyond the first of a sequence
   * @param duplicatedSequences distinct sequences that arrived more than once
   * @param corrupted records with this device's mark whose body differs from what was sent
   * @param beyondSent records with this device's mark and a sequence it did not send (0 or above
   *     {@code sent})
   * @param missingRanges the first missing ranges, in order
   * @param missingRangeCount how many missing ranges there are in all
   */
  public record DeviceAudit(
      int device,
      String host,
      long sent,
      long delivered,
      long missing,
      long duplicates,
      long duplicatedSequences,
      long corrupted,
      long beyondSent,
      List<Range> missingRanges,
      long missingRangeCount) {

    public DeviceAudit {
      missingRanges = List.copyOf(missingRanges);
    }

    /** Something is missing, duplicated, corrupted or unexpected. */
    public boolean hasProblems() {
      return missing > 0 || duplicates > 0 || corrupted > 0 || beyondSent > 0;
    }
  }

  public AuditResult {
    devices = List.copyOf(devices);
    warnings = List.copyOf(warnings);
  }

  public long sent() {
    return devices.stream().mapToLong(DeviceAudit::sent).sum();
  }

  public long delivered() {
    return devices.stream().mapToLong(DeviceAudit::delivered).sum();
  }

  public long missing() {
    return devices.stream().mapToLong(DeviceAudit::missing).sum();
  }

  public long duplicates() {
    return devices.stream().mapToLong(DeviceAudit::duplicates).sum();
  }

  public long beyondSent() {
    return devices.stream().mapToLong(DeviceAudit::beyondSent).sum();
  }

  /** Every corrupted record: devices' corrupted bodies, damaged marks and unmarked records. */
  public long corrupted() {
    return devices.stream().mapToLong(DeviceAudit::corrupted).sum() + damagedMarks + unmarked;
  }

  /**
   * Nothing missing and nothing corrupted (duplicates, foreign and beyond-sent records are
   * allowed).
   */
  public boolean passed() {
    return missing() == 0 && corrupted() == 0;
  }

  /** The device called {@code device}, or null. */
  public DeviceAudit device(int device) {
    return devices.stream().filter(d -> d.device() == device).findFirst().orElse(null);
  }
}
