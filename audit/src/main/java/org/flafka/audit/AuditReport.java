package org.flafka.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * An {@link AuditResult} as text for people or JSON for scripts. Devices are listed when they have
 * a problem, or all of them with {@code allDevices}.
 */
public final class AuditReport {
  private AuditReport() {}

  /** A summary table, then one line per device, then warnings and the verdict. */
  public static String text(AuditResult result, boolean allDevices) {
    StringBuilder out = new StringBuilder();
    out.append("audit of ")
        .append(result.source())
        .append(" against ")
        .append(result.manifest())
        .append('\n');
    row(out, "sent", result.sent(), "");
    row(out, "delivered", result.delivered(), "distinct sequences");
    row(out, "missing", result.missing(), "");
    row(out, "duplicated", result.duplicates(), "records beyond the first of a sequence");
    row(
        out,
        "corrupted",
        result.corrupted(),
        result.bodiesChecked()
            ? "bodies compared with what was sent, plus damaged marks and unmarked"
            : "marks only: the manifest cannot rebuild the bodies");
    row(out, "  damaged marks", result.damagedMarks(), "");
    row(out, "  unmarked", result.unmarked(), "no mark at all");
    row(out, "foreign", result.foreign(), "marks of devices not in the manifest");
    row(
        out,
        "beyond sent",
        result.beyondSent(),
        result.manifestComplete()
            ? "marks with sequences the devices did not send"
            : "the load run ended early: partly sent buffers may arrive");
    row(out, "records read", result.records(), "");
    long withProblems =
        result.devices().stream().filter(AuditResult.DeviceAudit::hasProblems).count();
    out.append(
        String.format(
            Locale.ROOT,
            "devices: %d, with problems: %d%n",
            result.devices().size(),
            withProblems));
    for (AuditResult.DeviceAudit device : result.devices()) {
      if (allDevices || device.hasProblems()) {
        out.append(deviceLine(device)).append('\n');
      }
    }
    for (String warning : result.warnings()) {
      out.append("warning: ").append(warning).append('\n');
    }
    out.append(
            result.passed()
                ? "PASSED: nothing missing or corrupted"
                : String.format(
                    Locale.ROOT,
                    "FAILED: %,d missing, %,d corrupted",
                    result.missing(),
                    result.corrupted()))
        .append('\n');
    return out.toString();
  }

  /**
   * e.g. {@code dev 000042 dev-000042.site: sent 5000, delivered 4949, missing 51: 1201-1250, 3001;
   * duplicated 2}.
   */
  static String deviceLine(AuditResult.DeviceAudit device) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "dev %06d %s: sent %d, delivered %d",
                device.device(),
                device.host(),
                device.sent(),
                device.delivered()));
    if (device.missing() > 0) {
      StringJoiner ranges = new StringJoiner(", ");
      device.missingRanges().forEach(range -> ranges.add(range.toString()));
      line.append(", missing ").append(device.missing()).append(": ").append(ranges);
      long more = device.missingRangeCount() - device.missingRanges().size();
      if (more > 0) {
        line.append(" and ").append(more).append(" more range(s)");
      }
    }
    if (device.duplicates() > 0) {
      line.append("; duplicated ")
          .append(device.duplicates())
          .append(" (")
          .append(device.duplicatedSequences())
          .append(device.duplicatedSequences() == 1 ? " sequence)" : " sequences)");
    }
    if (device.corrupted() > 0) {
      line.append("; corrupted ").append(device.corrupted());
    }
    if (device.beyondSent() > 0) {
      line.append("; beyond sent ").append(device.beyondSent());
    }
    return line.toString();
  }

  /** The same as one JSON object. */
  public static String json(AuditResult result, boolean allDevices) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeStringField("source", result.source());
      json.writeStringField("manifest", result.manifest());
      json.writeBooleanField("passed", result.passed());
      json.writeBooleanField("bodiesChecked", result.bodiesChecked());
      json.writeBooleanField("manifestComplete", result.manifestComplete());
      json.writeNumberField("sent", result.sent());
      json.writeNumberField("delivered", result.delivered());
      json.writeNumberField("missing", result.missing());
      json.writeNumberField("duplicated", result.duplicates());
      json.writeNumberField("corrupted", result.corrupted());
      json.writeNumberField("damagedMarks", result.damagedMarks());
      json.writeNumberField("unmarked", result.unmarked());
      json.writeNumberField("foreign", result.foreign());
      json.writeNumberField("beyondSent", result.beyondSent());
      json.writeNumberField("records", result.records());
      json.writeArrayFieldStart("devices");
      for (AuditResult.DeviceAudit device : result.devices()) {
        if (allDevices || device.hasProblems()) {
          writeDevice(json, device);
        }
      }
      json.writeEndArray();
      json.writeArrayFieldStart("warnings");
      for (String warning : result.warnings()) {
        json.writeString(warning);
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text + "\n";
  }

  private static void writeDevice(JsonGenerator json, AuditResult.DeviceAudit device)
      throws IOException {
    json.writeStartObject();
    json.writeNumberField("device", device.device());
    json.writeStringField("host", device.host());
    json.writeNumberField("sent", device.sent());
    json.writeNumberField("delivered", device.delivered());
    json.writeNumberField("missing", device.missing());
    json.writeNumberField("duplicated", device.duplicates());
    json.writeNumberField("duplicatedSequences", device.duplicatedSequences());
    json.writeNumberField("corrupted", device.corrupted());
    json.writeNumberField("beyondSent", device.beyondSent());
    json.writeArrayFieldStart("missingRanges");
    for (AuditResult.Range range : device.missingRanges()) {
      json.writeStartArray();
      json.writeNumber(range.first());
      json.writeNumber(range.last());
      json.writeEndArray();
    }
    json.writeEndArray();
    json.writeNumberField("missingRangeCount", device.missingRangeCount());
    json.writeEndObject();
  }

  private static void row(StringBuilder out, String name, long value, String note) {
    out.append(
        String.format(
            Locale.ROOT, "%-16s %,15d%s%n", name, value, note.isEmpty() ? "" : "  " + note));
  }
}
