package org.flafka.sweep.space;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.flafka.load.FormatMix;
import org.flafka.load.Framing;
import org.flafka.load.LoadSettings;
import org.flafka.load.Protocol;
import org.flafka.load.TlsSettings;

/** The load of one trial, from the {@code load.*} knobs of its {@link Settings}. */
public record LoadPlan(
    Protocol protocol,
    Framing framing,
    double rate,
    int connections,
    int devices,
    String sizes,
    String mix,
    long seed) {

  public static LoadPlan of(Settings settings) {
    Protocol protocol = Knobs.protocol(settings.get("load.protocol"));
    Framing framing =
        protocol == Protocol.UDP
            ? Framing.NONE
            : Framing.byFlagName(String.valueOf(settings.get("load.framing")));
    Object rate = settings.get("load.rate");
    return new LoadPlan(
        protocol,
        framing,
        "max".equals(rate) ? Double.POSITIVE_INFINITY : ((Number) rate).doubleValue(),
        ((Number) settings.get("load.connections")).intValue(),
        ((Number) settings.get("load.devices")).intValue(),
        String.valueOf(settings.get("load.sizes")),
        String.valueOf(settings.get("load.mix")),
        ((Number) settings.get("load.seed")).longValue());
  }

  /**
   * The load generator's settings for sending to {@code target} for at most {@code duration} (the
   * trial stops it sooner). Throws {@link IllegalArgumentException} naming the {@code load.*} knobs
   * that do not fit together.
   */
  public LoadSettings settings(InetSocketAddress target, Duration duration) {
    try {
      return new LoadSettings(
              target,
              protocol,
              framing,
              connections,
              devices,
              rate,
              0,
              duration,
              FormatMix.parse("load.mix", mix),
              Knobs.sizeSpec(sizes),
              seed,
              TlsSettings.DEFAULT)
          .validate();
    } catch (IllegalArgumentException e) {
      // LoadSettings names the flags of `flafka load`; the space names the same settings
      // load.<flag>.
      throw new IllegalArgumentException(e.getMessage().replace("--", Knobs.LOAD_PREFIX), e);
    }
  }
}
