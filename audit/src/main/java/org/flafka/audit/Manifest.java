package org.flafka.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.flafka.load.FormatMix;
import org.flafka.load.LoadResult;
import org.flafka.load.LoadSettings;
import org.flafka.load.Mark;
import org.flafka.load.MessageFormat;
import org.flafka.load.SentMessages;
import org.flafka.load.SizeSpec;

/**
 * What a load run sent: per device, its host name and how many events it sent (sequences 1 to that
 * number), and, when the run's settings are known, the exact messages ({@link SentMessages}) to
 * compare delivered bodies with. Read from the JSON {@code flafka load --manifest} writes ({@link
 * #read}), or taken straight from a {@link LoadResult} ({@link #of}).
 *
 * @param source where the manifest came from, for reports
 * @param complete the run ended as planned; when false, up to one socket buffer per connection
 *     beyond the counts may have arrived (counted as "beyond sent", not as a fault)
 * @param sentMessages the exact messages, or null when the manifest does not say enough to rebuild
 *     them
 */
public record Manifest(
    String source, List<Device> devices, boolean complete, SentMessages sentMessages) {

  /** One simulated device and how many events it sent. */
  public record Device(int device, String host, long sent) {}

  public Manifest {
    devices = List.copyOf(devices);
  }

  /** Events sent by all devices. */
  public long sent() {
    return devices.stream().mapToLong(Device::sent).sum();
  }

  /** The manifest of a run that just ended, without a file in between (the sweep's path). */
  public static Manifest of(LoadResult result) {
    LoadSettings settings = result.settings();
    List<Device> devices = new ArrayList<>();
    for (int device = 0; device < settings.devices(); device++) {
      devices.add(new Device(device, MessageFormat.hostname(device), result.sentBy(device)));
    }
    return new Manifest(
        "load run started " + Instant.ofEpochMilli(result.startedMillis()),
        devices,
        result.failure() == null,
        SentMessages.of(
            settings.mix(),
            settings.sizes(),
            settings.seed(),
            result.startedMillis(),
            settings.connections(),
            settings.devices()));
  }

  /** Reads a manifest written by {@code flafka load --manifest}. */
  public static Manifest read(Path file) throws AuditException {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw new AuditException(
          "manifest "
              + file
              + " does not exist: give the file `flafka load --manifest` "
              + "wrote");
    } catch (JsonProcessingException e) {
      throw new AuditException(
          "manifest "
              + file
              + " is not JSON ("
              + e.getOriginalMessage()
              + "): give the file `flafka load --manifest` wrote");
    } catch (IOException e) {
      throw new AuditException("cannot read manifest " + file + ": " + e.getMessage());
    }
    return parse(file.toString(), root);
  }

  static Manifest parse(String source, JsonNode root) throws AuditException {
    String what = "manifest " + source;
    if (root == null || !root.isObject() || !root.has("manifestVersion")) {
      throw new AuditException(
          what + " has no manifestVersion: give the file `flafka load --manifest` wrote");
    }
    int version = root.path("manifestVersion").asInt(-1);
    if (version != LoadResult.MANIFEST_VERSION) {
      throw new AuditException(
          what
              + " has manifestVersion "
              + root.get("manifestVersion")
              + ", this flafka reads version "
              + LoadResult.MANIFEST_VERSION
              + ": audit with the flafka that wrote it");
    }
    if (!Mark.PREFIX.equals(root.path("mark").path("prefix").asText())) {
      throw new AuditException(
          what
              + " describes marks starting '"
              + root.path("mark").path("prefix").asText()
              + "', not '"
              + Mark.PREFIX
              + "': audit with the flafka that wrote it");
    }
    JsonNode deviceNodes = root.path("devices");
    if (!deviceNodes.isArray() || deviceNodes.isEmpty()) {
      throw new AuditException(
          what + " lists no devices: give the file `flafka load --manifest` wrote");
    }
    List<Device> devices = new ArrayList<>();
    for (JsonNode node : deviceNodes) {
      int device = node.path("device").asInt(-1);
      long sent = node.path("sent").asLong(-1);
      if (device < 0 || device > Mark.MAX_DEVICE || sent < 0 || sent > Mark.MAX_SEQUENCE) {
        throw new AuditException(
            what
                + ": device entry "
                + node
                + " needs device in [0, "
                + Mark.MAX_DEVICE
                + "] and sent in [0, "
                + Mark.MAX_SEQUENCE
                + "]");
      }
      devices.add(
          new Device(device, node.path("host").asText(MessageFormat.hostname(device)), sent));
    }
    return new Manifest(
        source,
        Collections.unmodifiableList(devices),
        root.path("complete").asBoolean(true),
        sentMessages(what, root, devices.size()));
  }

  /**
   * The run's messages, or null (no body checks) when the settings recorded do not describe a valid
   * run.
   */
  private static SentMessages sentMessages(String what, JsonNode root, int deviceCount)
      throws AuditException {
    if (!root.hasNonNull("started")
        || !root.hasNonNull("mix")
        || !root.hasNonNull("sizes")
        || !root.hasNonNull("seed")
        || !root.hasNonNull("connections")) {
      return null;
    }
    try {
      String sizes = root.get("sizes").asText();
      return SentMessages.of(
          FormatMix.parse("mix", root.get("mix").asText()),
          sizes.contains(":")
              ? SizeSpec.parseWeighted("sizes", sizes)
              : SizeSpec.parseSize("sizes", sizes),
          root.get("seed").asLong(),
          Instant.parse(root.get("started").asText()).toEpochMilli(),
          root.get("connections").asInt(),
          root.path("deviceCount").asInt(deviceCount));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new AuditException(
          what
              + " has run settings this flafka cannot rebuild the messages from ("
              + e.getMessage()
              + "): audit with the flafka that wrote it");
    }
  }
}
