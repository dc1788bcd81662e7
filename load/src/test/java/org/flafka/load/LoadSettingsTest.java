package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadSettingsTest {
  private static final InetSocketAddress TARGET =
      new InetSocketAddress(InetAddress.getLoopbackAddress(), 514);
  private static final FormatMix MIX = FormatMix.parse("--mix", FormatMix.DEFAULT);

  private static LoadSettings settings(
      Protocol protocol,
      Framing framing,
      int connections,
      int devices,
      double rate,
      long count,
      Duration duration,
      SizeSpec sizes,
      TlsSettings tls) {
    return new LoadSettings(
        TARGET, protocol, framing, connections, devices, rate, count, duration, MIX, sizes, 1, tls);
  }

  private static String error(LoadSettings settings) {
    return assertThrows(IllegalArgumentException.class, settings::validate).getMessage();
  }

  @Test
  void devicesAreDealtToConnectionsByRemainderAndCountsByDevice() {
    // 10 devices on 3 connections: {0,3,6,9}, {1,4,7}, {2,5,8}.
    LoadSettings settings =
        settings(
            Protocol.TCP,
            Framing.NEWLINE,
            3,
            10,
            1,
            1003,
            null,
            SizeSpec.fixed(200),
            TlsSettings.DEFAULT);
    assertEquals(4, settings.devicesOn(0));
    assertEquals(3, settings.devicesOn(1));
    assertEquals(3, settings.devicesOn(2));
    // 1003 events: 100 per device and one more for devices 0, 1, 2 (one on each connection).
    assertEquals(401, settings.countOn(0));
    assertEquals(301, settings.countOn(1));
    assertEquals(301, settings.countOn(2));
    LoadSettings fewer =
        settings(
            Protocol.TCP,
            Framing.NEWLINE,
            3,
            10,
            1,
            5,
            null,
            SizeSpec.fixed(200),
            TlsSettings.DEFAULT);
    assertEquals(2 + 2 + 1, fewer.countOn(0) + fewer.countOn(1) + fewer.countOn(2));
    assertEquals(2, fewer.countOn(0));
  }

  @Test
  void rulesAcrossFlagsNameTheFlags() {
    SizeSpec size = SizeSpec.fixed(200);
    TlsSettings none = TlsSettings.DEFAULT;
    assertEquals(
        "--connections 8 is more than --devices 4: each device sends on one connection, which keeps "
            + "its sequence in order; use at most 4 connections or more devices",
        error(settings(Protocol.TCP, Framing.NEWLINE, 8, 4, 1, 10, null, size, none)));
    assertEquals(
        "--rate must be above 0 events/s (or max) but was 0.0",
        error(settings(Protocol.TCP, Framing.NEWLINE, 1, 4, 0, 10, null, size, none)));
    assertEquals(
        "give --count N or --duration TIME (or both: whichever ends first)",
        error(settings(Protocol.TCP, Framing.NEWLINE, 1, 4, 1, 0, null, size, none)));
    assertEquals(
        "--duration must be longer than 0 but was PT0S",
        error(settings(Protocol.TCP, Framing.NEWLINE, 1, 4, 1, 0, Duration.ZERO, size, none)));
    assertEquals(
        "--devices 1000001 must be between 1 and 1000000 (device numbers have six digits)",
        error(settings(Protocol.TCP, Framing.NEWLINE, 1, 1_000_001, 1, 10, null, size, none)));
    assertEquals(
        "message size 65508 is above 65507 bytes, the most one UDP datagram carries; use smaller "
            + "sizes or --protocol tcp",
        error(
            settings(
                Protocol.UDP,
                Framing.NONE,
                1,
                4,
                1,
                10,
                null,
                SizeSpec.parseWeighted("--sizes", "200:9,65508:1"),
                none)));
    assertEquals(
        "--framing applies to tcp and tls; UDP sends one message per datagram",
        error(settings(Protocol.UDP, Framing.NEWLINE, 1, 4, 1, 10, null, size, none)));
    assertEquals(
        "message size 100 is too small for format rfc5424 in --mix: its header and mark take 128 "
            + "bytes",
        error(
            settings(Protocol.TCP, Framing.NEWLINE, 1, 4, 1, 10, null, SizeSpec.fixed(100), none)));
    assertEquals(
        "--tls-insecure and --tls-truststore contradict each other: give one",
        error(
            settings(
                Protocol.TLS,
                Framing.NEWLINE,
                1,
                4,
                1,
                10,
                null,
                size,
                new TlsSettings(Path.of("ca.p12"), null, true))));
    assertEquals(
        "--tls-truststore and --tls-insecure apply to --protocol tls only",
        error(
            settings(
                Protocol.TCP,
                Framing.NEWLINE,
                1,
                4,
                1,
                10,
                null,
                size,
                new TlsSettings(null, null, true))));
  }

  @Test
  void theLargestUdpDatagramIsAllowed() {
    settings(
            Protocol.UDP,
            Framing.NONE,
            1,
            4,
            1,
            10,
            null,
            SizeSpec.fixed(65_507),
            TlsSettings.DEFAULT)
        .validate();
  }
}
