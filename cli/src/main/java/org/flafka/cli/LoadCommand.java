package org.flafka.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flafka.load.Clock;
import org.flafka.load.ConnectFailedException;
import org.flafka.load.FormatMix;
import org.flafka.load.Framing;
import org.flafka.load.LoadGenerator;
import org.flafka.load.LoadResult;
import org.flafka.load.LoadSettings;
import org.flafka.load.NullReceiver;
import org.flafka.load.Protocol;
import org.flafka.load.SizeSpec;
import org.flafka.load.TlsSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code flafka load}: the syslog load generator. */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Send syslog load: a mix of formats and sizes from many simulated devices, at a fixed rate or as fast "
          + "as possible, over UDP, TCP or TLS. Every message carries a mark "
          + "(flafka:dev=NNNNNN;seq=NNNNNNNNNNNN;) that `flafka audit` recovers; --manifest records what "
          + "each device sent.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka load --target edge1:514 --rate 50000 --duration 60s --manifest sent.json",
      "  flafka load --target edge1:601 --framing octet-counting --connections 4 --count 10000000",
      "  flafka load --target edge1:6514 --protocol tls --tls-truststore ca.p12 --rate max --duration 30s",
      "  flafka load --protocol udp --target edge1:514 --sizes 200:90,4096:9,60000:1 --count 1000000",
      "  flafka load --measure-null --connections 4 --duration 10s    how fast can this machine generate?",
      "",
      "Exit codes: 0 all sent, 1 a connection failed during the run, 2 invalid flags, 3 target unreachable",
      "or refusing (UDP: ICMP port unreachable).",
    })
public final class LoadCommand implements Callable<Integer> {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");
  private static final long PROGRESS_MILLIS = 1_000;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--target", paramLabel = "HOST:PORT", description = "The syslog receiver.")
  String target;

  @Option(
      names = "--protocol",
      paramLabel = "udp|tcp|tls",
      defaultValue = "tcp",
      description = "Transport (default: ${DEFAULT-VALUE}).")
  String protocol;

  @Option(
      names = "--framing",
      paramLabel = "newline|octet-counting",
      description = "TCP/TLS framing, RFC 6587 (default: newline).")
  String framing;

  @Option(
      names = "--connections",
      paramLabel = "N",
      defaultValue = "1",
      description = "Parallel connections, one thread each (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(
      names = "--devices",
      paramLabel = "N",
      defaultValue = "100",
      description =
          "Simulated devices dev-000000.site, ...; each sends on one connection "
              + "(default: ${DEFAULT-VALUE}).")
  int devices;

  @Option(
      names = "--rate",
      paramLabel = "EVENTS/S|max",
      defaultValue = "max",
      description = "Events per second over all connections, or max (default: ${DEFAULT-VALUE}).")
  String rate;

  @Option(names = "--count", paramLabel = "N", description = "Events to send in all.")
  Long count;

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      description =
          "How long to send, e.g. 30s, 5m, 500ms. With " + "--count, whichever ends first.")
  String duration;

  @Option(
      names = "--mix",
      paramLabel = "FORMAT=WEIGHT,...",
      defaultValue = FormatMix.DEFAULT,
      description =
          "Formats by weight: rfc5424, rfc3164, asa, pix, ios, junk (default: ${DEFAULT-VALUE}).")
  String mix;

  @CommandLine.ArgGroup(exclusive = true)
  Sizes sizes = new Sizes();

  static final class Sizes {
    @Option(
        names = "--size",
        paramLabel = "BYTES|MIN-MAX",
        description = "Message size in bytes, or a uniform range, e.g. 100-400 (default: 200).")
    String size;

    @Option(
        names = "--sizes",
        paramLabel = "BYTES:WEIGHT,...",
        description = "Weighted sizes, e.g. 200:90,4096:9,1m:1.")
    String weighted;
  }

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "Seed of the format/size schedule and filler text (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--tls-truststore",
      paramLabel = "FILE",
      description =
          "PKCS12 or JKS file with the CA that signed the receiver's certificate; the host name is "
              + "checked against it. Default: the JDK's trusted CAs.")
  Path truststore;

  @Option(
      names = "--tls-truststore-password",
      paramLabel = "PASSWORD",
      description = "Password of --tls-truststore.")
  String truststorePassword;

  @Option(
      names = "--tls-insecure",
      description = "Accept any certificate (tests only: prints a warning).")
  boolean tlsInsecure;

  @Option(
      names = "--manifest",
      paramLabel = "FILE",
      description = "Write what each device sent as JSON, for `flafka audit`.")
  Path manifest;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      defaultValue = "text",
      description = "Summary format (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--quiet", description = "No progress lines on stderr.")
  boolean quiet;

  @Option(
      names = "--measure-null",
      description =
          "Send over TCP to a built-in receiver that discards everything "
              + "(instead of --target): what this machine can generate.")
  boolean measureNull;

  @Override
  public Integer call() throws Exception {
    boolean json =
        switch (format) {
          case "json" -> true;
          case "text" -> false;
          default ->
              throw UserException.invalidInput(
                  "--format must be text or json but was '" + format + "'");
        };
    if (measureNull && target != null) {
      throw UserException.invalidInput("--measure-null sends to its own receiver: drop --target");
    }
    if (!measureNull && target == null) {
      throw UserException.invalidInput("--target HOST:PORT is required (or --measure-null)");
    }
    if (manifest != null
        && manifest.toAbsolutePath().getParent() != null
        && !Files.isDirectory(manifest.toAbsolutePath().getParent())) {
      throw UserException.invalidInput(
          "--manifest "
              + manifest
              + ": directory "
              + manifest.toAbsolutePath().getParent()
              + " does not exist");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (tlsInsecure) {
      err.println(
          "flafka load: WARNING: --tls-insecure accepts any certificate: the traffic is encrypted "
              + "but anyone on the path can impersonate the receiver. Use --tls-truststore outside tests.");
      err.flush();
    }
    NullReceiver receiver = measureNull ? NullReceiver.start(Framing.NONE) : null;
    try {
      LoadSettings settings = settings(receiver == null ? parseTarget(target) : receiver.address());
      if (receiver != null && settings.protocol() != Protocol.TCP) {
        throw UserException.invalidInput("--measure-null measures TCP only; drop --protocol");
      }
      LoadGenerator generator = new LoadGenerator(settings, Clock.SYSTEM);
      // Ctrl-C (or a TERM) stops the load; the JVM waits for this hook, so the summary and the
      // manifest of what was sent still get written.
      CountDownLatch reported = new CountDownLatch(1);
      Thread onInterrupt =
          new Thread(
              () -> {
                generator.stop();
                try {
                  reported.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "flafka-load-interrupt");
      Runtime.getRuntime().addShutdownHook(onInterrupt);
      LoadResult result;
      Long received;
      try {
        result = run(generator, err);
        received = receiver == null ? null : receiver.awaitBytes(result.wireBytes(), 10_000);
        if (manifest != null) {
          writeManifest(result);
        }
        out.print(json ? json(result, received) : text(result, received));
        out.flush();
      } finally {
        reported.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(onInterrupt);
        } catch (IllegalStateException e) {
          // The JVM is shutting down (Ctrl-C): the hook is running and returns now.
        }
      }
      if (result.failure() != null) {
        throw new UserException(
            result.targetRefused() ? ExitCode.UNEXPECTED_STATE : ExitCode.FAILED, result.failure());
      }
      if (received != null && received != result.wireBytes()) {
        throw new UserException(
            ExitCode.FAILED,
            "the null receiver got " + received + " bytes of the " + result.wireBytes() + " sent");
      }
      return ExitCode.OK;
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  private LoadResult run(LoadGenerator generator, PrintWriter err) throws InterruptedException {
    try {
      return generator.run(quiet ? null : new ProgressPrinter(err), PROGRESS_MILLIS);
    } catch (ConnectFailedException e) {
      throw UserException.unexpectedState(e.getMessage());
    }
  }

  /** One stderr line per progress report, with the rates over the last interval. */
  private static final class ProgressPrinter implements Consumer<LoadGenerator.Progress> {
    private final PrintWriter err;
    private long lastEvents;
    private long lastBytes;
    private long lastNanos;

    ProgressPrinter(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void accept(LoadGenerator.Progress progress) {
      double seconds = Math.max(1e-9, (progress.elapsedNanos() - lastNanos) / 1e9);
      err.printf(
          Locale.ROOT,
          "flafka load: %.0f s, %,d events, %,.0f events/s, %.1f MB/s%n",
          progress.elapsedNanos() / 1e9,
          progress.events(),
          (progress.events() - lastEvents) / seconds,
          (progress.bytes() - lastBytes) / 1e6 / seconds);
      err.flush();
      lastEvents = progress.events();
      lastBytes = progress.bytes();
      lastNanos = progress.elapsedNanos();
    }
  }

  LoadSettings settings(InetSocketAddress address) {
    Protocol parsedProtocol = Protocol.byFlagName(protocol);
    if (parsedProtocol == null) {
      throw UserException.invalidInput(
          "--protocol must be udp, tcp or tls but was '" + protocol + "'");
    }
    Framing parsedFraming;
    if (framing == null) {
      parsedFraming = parsedProtocol == Protocol.UDP ? Framing.NONE : Framing.NEWLINE;
    } else {
      parsedFraming = Framing.byFlagName(framing);
      if (parsedFraming == null || parsedFraming == Framing.NONE) {
        throw UserException.invalidInput(
            "--framing must be newline or octet-counting but was '" + framing + "'");
      }
    }
    try {
      SizeSpec sizeSpec =
          sizes.weighted != null
              ? SizeSpec.parseWeighted("--sizes", sizes.weighted)
              : SizeSpec.parseSize("--size", sizes.size == null ? "200" : sizes.size);
      return new LoadSettings(
              address,
              parsedProtocol,
              parsedFraming,
              connections,
              devices,
              parseRate(),
              count == null ? 0 : count,
              duration == null ? null : parseDuration(duration),
              FormatMix.parse("--mix", mix),
              sizeSpec,
              seed,
              new TlsSettings(
                  truststore,
                  truststorePassword == null ? null : truststorePassword.toCharArray(),
                  tlsInsecure))
          .validate();
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput(e.getMessage());
    }
  }

  private double parseRate() {
    if (rate.equals("max")) {
      return Double.POSITIVE_INFINITY;
    }
    double value;
    try {
      value = Double.parseDouble(rate);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--rate must be events per second or max but was '" + rate + "'");
    }
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          "--rate must be above 0 events/s (or max) but was "
              + rate
              + "; to send nothing, don't run load");
    }
    return value;
  }

  static Duration parseDuration(String text) {
    Matcher matcher = DURATION.matcher(text.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "--duration '" + text + "' is not a duration (e.g. 30s, 5m, 500ms)");
    }
    double amount = Double.parseDouble(matcher.group(1));
    String unit = matcher.group(2) == null ? "s" : matcher.group(2);
    double millis =
        amount
            * switch (unit) {
              case "ms" -> 1;
              case "m" -> 60_000;
              case "h" -> 3_600_000;
              default -> 1_000;
            };
    return Duration.ofMillis(Math.round(millis));
  }

  static InetSocketAddress parseTarget(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw UserException.invalidInput(
          "--target '" + text + "' is not HOST:PORT (e.g. 127.0.0.1:514)");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw UserException.invalidInput("--target '" + text + "': the port must be 1 to 65535");
    }
    try {
      return new InetSocketAddress(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw UserException.invalidInput(
          "--target '" + text + "': cannot resolve host '" + host + "'");
    }
  }

  private void writeManifest(LoadResult result) {
    try (OutputStream file = Files.newOutputStream(manifest)) {
      result.writeManifest(file);
    } catch (IOException e) {
      throw UserException.unexpectedState(
          "cannot write --manifest " + manifest + ": " + e.getMessage());
    }
  }

  private static String text(LoadResult result, Long received) {
    LoadSettings settings = result.settings();
    StringBuilder text =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "sent %,d events (%,.1f MB) in %.2f s: %,.0f events/s, %.1f MB/s; %s%s to %s over %d connection%s, "
                    + "%d devices%n",
                result.events(),
                result.bytes() / 1e6,
                result.elapsedSeconds(),
                result.eventsPerSecond(),
                result.megabytesPerSecond(),
                settings.protocol().flagName(),
                settings.framing() == Framing.NONE ? "" : " " + settings.framing().flagName(),
                LoadSettings.describe(settings.target()),
                settings.connections(),
                settings.connections() == 1 ? "" : "s",
                settings.devices()));
    if (received != null) {
      text.append(
          String.format(
              Locale.ROOT, "null receiver got %,d of %,d bytes%n", received, result.wireBytes()));
    }
    return text.toString();
  }

  private static String json(LoadResult result, Long received) throws IOException {
    LoadSettings settings = result.settings();
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(buffer, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeNumberField("events", result.events());
      json.writeNumberField("bytes", result.bytes());
      json.writeNumberField("wireBytes", result.wireBytes());
      json.writeNumberField("elapsedSeconds", result.elapsedSeconds());
      json.writeNumberField("eventsPerSecond", result.eventsPerSecond());
      json.writeNumberField("megabytesPerSecond", result.megabytesPerSecond());
      json.writeStringField("target", LoadSettings.describe(settings.target()));
      json.writeStringField("protocol", settings.protocol().flagName());
      json.writeStringField("framing", settings.framing().flagName());
      json.writeNumberField("connections", settings.connections());
      json.writeNumberField("devices", settings.devices());
      json.writeBooleanField("complete", result.failure() == null);
      if (result.failure() != null) {
        json.writeStringField("failure", result.failure());
      }
      if (received != null) {
        json.writeNumberField("receivedBytes", received);
      }
      json.writeEndObject();
    }
    return buffer.toString(StandardCharsets.UTF_8) + System.lineSeparator();
  }
}
