package org.flafka.load;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What one load run sends, where and how fast; {@link #validate()} checks the combination and names
 * the command-line flag of whatever is wrong, so the CLI and the sweep report the same thing.
 *
 * @param rate events per second over all connections; {@link Double#POSITIVE_INFINITY} for as fast
 *     as possible
 * @param count events to send in all; 0 for no limit (then {@code duration} must be set)
 * @param duration how long to send; null for no limit (then {@code count} must be set); whichever
 *     ends first wins
 */
public record LoadSettings(
    InetSocketAddress target,
    Protocol protocol,
    Framing framing,
    int connections,
    int devices,
    double rate,
    long count,
    Duration duration,
    FormatMix mix,
    SizeSpec sizes,
    long seed,
    TlsSettings tls) {

  /** Checks every rule that involves more than one flag; throws with a message naming the flags. */
  public LoadSettings validate() {
    if (connections < 1) {
      throw new IllegalArgumentException("--connections " + connections + " must be at least 1");
    }
    if (devices < 1 || devices > Mark.MAX_DEVICE + 1) {
      throw new IllegalArgumentException(
          "--devices "
              + devices
              + " must be between 1 and "
              + (Mark.MAX_DEVICE + 1)
              + " (device numbers have six digits)");
    }
    if (connections > devices) {
      throw new IllegalArgumentException(
          "--connections "
              + connections
              + " is more than --devices "
              + devices
              + ": each device sends on one connection, which keeps its sequence in order; use at most "
              + devices
              + " connections or more devices");
    }
    if (!(rate > 0)) {
      throw new IllegalArgumentException(
          "--rate must be above 0 events/s (or max) but was " + rate);
    }
    if (count < 0) {
      throw new IllegalArgumentException("--count " + count + " must be at least 1");
    }
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException("--duration must be longer than 0 but was " + duration);
    }
    if (count == 0 && duration == null) {
      throw new IllegalArgumentException(
          "give --count N or --duration TIME (or both: whichever ends first)");
    }
    if (count / devices >= Mark.MAX_SEQUENCE) {
      throw new IllegalArgumentException(
          "--count "
              + count
              + " would run the per-device sequence past "
              + Mark.MAX_SEQUENCE
              + "; use more --devices");
    }
    if (protocol == Protocol.UDP && sizes.max() > Protocol.MAX_UDP_PAYLOAD) {
      throw new IllegalArgumentException(
          "message size "
              + sizes.max()
              + " is above "
              + Protocol.MAX_UDP_PAYLOAD
              + " bytes, the most one UDP datagram carries; use smaller sizes or "
              + "--protocol tcp");
    }
    if ((protocol == Protocol.UDP) != (framing == Framing.NONE)) {
      throw new IllegalArgumentException(
          protocol == Protocol.UDP
              ? "--framing applies to tcp and tls; UDP sends one message per datagram"
              : "--protocol " + protocol.flagName() + " needs --framing newline or octet-counting");
    }
    if (tls.insecure() && tls.truststore() != null) {
      throw new IllegalArgumentException(
          "--tls-insecure and --tls-truststore contradict each other: " + "give one");
    }
    if (protocol != Protocol.TLS && (tls.insecure() || tls.truststore() != null)) {
      throw new IllegalArgumentException(
          "--tls-truststore and --tls-insecure apply to --protocol tls only");
    }
    for (MessageFormat format : mix.formats()) {
      int need = Payloads.minSize(format, 0);
      if (need > sizes.min()) {
        throw new IllegalArgumentException(
            "message size "
                + sizes.min()
                + " is too small for format "
                + format.flagName()
                + " in --mix: its header and mark take "
                + need
                + " bytes");
      }
    }
    return this;
  }

  /** True when the generator sends as fast as it can. */
  public boolean unlimitedRate() {
    return Double.isInfinite(rate);
  }

  /**
   * The devices connection {@code connection} sends for: device numbers d with d mod connections ==
   * connection.
   */
  public int devicesOn(int connection) {
    return (devices - connection + connections - 1) / connections;
  }

  /**
   * How many events connection {@code connection} sends under {@link #count}: each device gets
   * count/devices events and the lowest count mod devices device numbers one more.
   */
  public long countOn(int connection) {
    long perDevice = count / devices;
    long extra = count % devices;
    long devicesWithExtra =
        extra > connection ? (extra - connection + connections - 1) / connections : 0;
    return devicesOn(connection) * perDevice + devicesWithExtra;
  }

  /** {@code host:port} as the user wrote it (no reverse lookup). */
  public static String describe(InetSocketAddress address) {
    return address.getHostString() + ":" + address.getPort();
  }
}
