package org.flafka.load;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;

/**
 * What a load run sent. Per-device counts follow from each connection's count: a connection sends
 * for its devices in turn (device index k = event mod devices-on-connection), so after M events
 * device k has sent M / D + (k &lt; M mod D ? 1 : 0) events, sequences 1 to that number.
 *
 * @param sentEvents events each connection handed to the kernel
 * @param bytes message bytes sent (framing not counted)
 * @param wireBytes bytes written to the sockets, framing included
 * @param failure why a connection stopped early, or null when the run completed
 * @param targetRefused the failure was the receiver refusing traffic (UDP: ICMP port unreachable),
 *     not a break
 */
public record LoadResult(
    LoadSettings settings,
    long startedMillis,
    long elapsedNanos,
    long[] sentEvents,
    long bytes,
    long wireBytes,
    String failure,
    boolean targetRefused) {

  /** Version of the manifest layout; the audit checks it. */
  public static final int MANIFEST_VERSION = 1;

  public long events() {
    long total = 0;
    for (long events : sentEvents) {
      total += events;
    }
    return total;
  }

  public double elapsedSeconds() {
    return elapsedNanos / 1e9;
  }

  public double eventsPerSecond() {
    return elapsedNanos == 0 ? 0 : events() / elapsedSeconds();
  }

  /** Megabytes (10^6 bytes) of message per second. */
  public double megabytesPerSecond() {
    return elapsedNanos == 0 ? 0 : bytes / 1e6 / elapsedSeconds();
  }

  /** How many events device {@code device} sent: its sequences 1..n all went out. */
  public long sentBy(int device) {
    int connections = settings.connections();
    int connection = device % connections;
    int k = device / connections;
    long events = sentEvents[connection];
    int devicesOn = settings.devicesOn(connection);
    return events / devicesOn + (k < events % devicesOn ? 1 : 0);
  }

  /**
   * Writes the manifest the audit compares against: the run's settings, the mark format and, per
   * device, its host name and how many events it sent (sequences 1 to that number, without gaps).
   */
  public void writeManifest(OutputStream out) throws IOException {
    try (JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeNumberField("manifestVersion", MANIFEST_VERSION);
      json.writeObjectFieldStart("mark");
      json.writeStringField("prefix", Mark.PREFIX);
      json.writeStringField("example", new Mark(42, 12345).toString());
      json.writeNumberField("deviceDigits", Mark.DEVICE_DIGITS);
      json.writeNumberField("sequenceDigits", Mark.SEQUENCE_DIGITS);
      json.writeNumberField("firstSequence", 1);
      json.writeEndObject();
      json.writeStringField("started", Instant.ofEpochMilli(startedMillis).toString());
      json.writeNumberField("elapsedSeconds", elapsedSeconds());
      json.writeStringField("target", LoadSettings.describe(settings.target()));
      json.writeStringField("protocol", settings.protocol().flagName());
      json.writeStringField("framing", settings.framing().flagName());
      json.writeNumberField("connections", settings.connections());
      json.writeStringField("mix", settings.mix().toString());
      json.writeStringField("sizes", settings.sizes().toString());
      json.writeNumberField("seed", settings.seed());
      json.writeNumberField("events", events());
      json.writeNumberField("bytes", bytes);
      json.writeBooleanField("complete", failure == null);
      if (failure != null) {
        // Up to one socket buffer per connection beyond the counts may have partly arrived.
        json.writeStringField("failure", failure);
      }
      json.writeNumberField("deviceCount", settings.devices());
      json.writeArrayFieldStart("devices");
      for (int device = 0; device < settings.devices(); device++) {
        json.writeStartObject();
        json.writeNumberField("device", device);
        json.writeStringField("host", MessageFormat.hostname(device));
        json.writeNumberField("sent", sentBy(device));
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
    }
  }
}
