package org.flafka.cli;

import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.audit.Audit;
import org.flafka.audit.AuditException;
import org.flafka.audit.AuditReport;
import org.flafka.audit.AuditResult;
import org.flafka.audit.DeliverySource;
import org.flafka.audit.HdfsPathSource;
import org.flafka.audit.KafkaTopicSource;
import org.flafka.audit.Manifest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code flafka audit}: what landed in a Kafka topic or under an HDFS path, against what {@code
 * flafka load} sent.
 */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Read what landed (a Kafka topic, or the files under an HDFS path) and report, per device of a "
          + "`flafka load --manifest` run, how many events were delivered, missing, duplicated or "
          + "corrupted, with the missing sequence ranges. See docs/tools/audit.md.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka audit --manifest sent.json --bootstrap-server kafka1:9092 --topic syslog",
      "  flafka audit --manifest sent.json --path hdfs://nn:8020/flume/syslog --include-in-progress",
      "  flafka audit --manifest sent.json --path file:///data/syslog --format json --verbose",
      "  flafka audit --manifest sent.json --path hdfs://nn:8020/data/syslog \\",
      "      --hdfs-principal me@EXAMPLE.COM --hdfs-keytab me.keytab --hdfs-config hdfs-client.properties",
      "",
      "Exit codes: 0 nothing missing or corrupted, 1 something is, 2 invalid input (manifest, flags,",
      "unreachable broker or NameNode, missing topic or path).",
    })
public final class AuditCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--manifest",
      paramLabel = "FILE",
      required = true,
      description = "What was sent: the file `flafka load --manifest` wrote.")
  Path manifest;

  @Option(
      names = "--bootstrap-server",
      paramLabel = "HOST:PORT[,...]",
      description = "Kafka to read --topic from.")
  String bootstrapServer;

  @CommandLine.Mixin KafkaConfigOption kafkaConfig = new KafkaConfigOption();

  @Option(
      names = "--topic",
      paramLabel = "NAME",
      description = "The topic the edge agents produce to.")
  String topic;

  @Option(
      names = "--from",
      paramLabel = "INSTANT",
      description = "Kafka: only records from this time (ISO-8601, e.g. 2026-11-21T06:00:00Z).")
  String from;

  @Option(
      names = "--to",
      paramLabel = "INSTANT",
      description = "Kafka: only records before this time.")
  String to;

  @Option(
      names = "--path",
      paramLabel = "URI",
      description =
          "Read the files under this path recursively (hdfs://namenode:8020/root, file:///dir).")
  String path;

  @CommandLine.Mixin HdfsSecurityOptions hdfsSecurity = new HdfsSecurityOptions();

  @Option(
      names = "--include-in-progress",
      description =
          "Also read files still being written (.tmp), e.g. left behind by a killed agent.")
  boolean includeInProgress;

  @Option(
      names = "--timeout",
      paramLabel = "TIME",
      defaultValue = "10s",
      description =
          "How long to wait for Kafka or the NameNode to answer (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(
      names = "--max-ranges",
      paramLabel = "N",
      defaultValue = "10",
      description = "Missing sequence ranges to list per device (default: ${DEFAULT-VALUE}).")
  int maxRanges;

  @Option(names = "--verbose", description = "List every device, not only those with problems.")
  boolean verbose;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      defaultValue = "text",
      description = "Report format (default: ${DEFAULT-VALUE}).")
  String format;

  /** The Kerberos login for --path, null without one. */
  private UserGroupInformation hdfsLogin;

  @Override
  public Integer call() {
    boolean json =
        switch (format) {
          case "json" -> true;
          case "text" -> false;
          default ->
              throw UserException.invalidInput(
                  "--format must be text or json but was '" + format + "'");
        };
    if (maxRanges < 0) {
      throw UserException.invalidInput("--max-ranges must be 0 or more but was " + maxRanges);
    }
    DeliverySource source = source(parseTimeout());
    Manifest sent;
    try {
      sent = Manifest.read(manifest);
    } catch (AuditException e) {
      throw new UserException(ExitCode.INVALID_INPUT, e.getMessage(), e);
    }
    AuditResult result;
    try {
      if (hdfsLogin == null) {
        result = Audit.run(sent, source, maxRanges);
      } else {
        try {
          result =
              hdfsLogin.doAs(
                  (PrivilegedExceptionAction<AuditResult>)
                      () -> Audit.run(sent, source, maxRanges));
        } catch (UndeclaredThrowableException e) {
          // doAs passes on only IOException, InterruptedException and unchecked ones
          if (e.getCause() instanceof AuditException audit) {
            throw audit;
          }
          throw e;
        }
      }
    } catch (AuditException e) {
      String hint = hdfsSecurity.kerberosHint(e.getMessage());
      throw new UserException(
          ExitCode.INVALID_INPUT, hint == null ? e.getMessage() : e.getMessage() + "; " + hint, e);
    } catch (IOException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new UserException(ExitCode.INVALID_INPUT, e.getMessage(), e);
    }
    spec.commandLine()
        .getOut()
        .print(json ? AuditReport.json(result, verbose) : AuditReport.text(result, verbose));
    spec.commandLine().getOut().flush();
    return result.passed() ? ExitCode.OK : ExitCode.FAILED;
  }

  private DeliverySource source(Duration timeoutDuration) {
    boolean kafka = bootstrapServer != null || topic != null;
    if (kafka == (path != null)) {
      throw UserException.invalidInput(
          "give either --bootstrap-server and --topic (Kafka) or --path (HDFS)");
    }
    if (kafka) {
      if (bootstrapServer == null || topic == null) {
        throw UserException.invalidInput(
            "Kafka needs both --bootstrap-server HOST:PORT and --topic NAME");
      }
      if (includeInProgress) {
        throw UserException.invalidInput("--include-in-progress applies to --path only");
      }
      if (hdfsSecurity.given()) {
        throw UserException.invalidInput(
            HdfsSecurityOptions.CONFIG
                + ", "
                + HdfsSecurityOptions.PRINCIPAL
                + " and "
                + HdfsSecurityOptions.KEYTAB
                + " apply to --path only");
      }
      String exposure = kafkaConfig.exposureWarning();
      if (exposure != null) {
        spec.commandLine().getErr().println("warning: " + exposure);
        spec.commandLine().getErr().flush();
      }
      return new KafkaTopicSource(bootstrapServer, topic)
          .withConsumerProperties(kafkaConfig.properties())
          .withTimeout(timeoutDuration)
          .withWindow(instant("--from", from), instant("--to", to));
    }
    if (kafkaConfig.file != null) {
      throw UserException.invalidInput(KafkaConfigOption.NAME + " applies to Kafka only");
    }
    Configuration hadoop = hdfsSecurity.configuration();
    hdfsLogin = hdfsSecurity.login(hadoop);
    if (from != null || to != null) {
      throw UserException.invalidInput(
          "--from and --to apply to Kafka only; select HDFS files by --path "
              + "(e.g. .../dt=2026-11-21)");
    }
    URI uri;
    try {
      uri = new URI(path);
    } catch (URISyntaxException e) {
      throw UserException.invalidInput(
          "--path '"
              + path
              + "' is not a URI (e.g. hdfs://namenode:8020/flume/"
              + "syslog or file:///data/syslog): "
              + e.getReason());
    }
    if (uri.getScheme() == null) {
      uri = Path.of(path).toAbsolutePath().toUri();
    }
    return new HdfsPathSource(null, uri.toString())
        .withConfiguration(hadoop)
        .includingInProgress(includeInProgress)
        .withTimeout(timeoutDuration);
  }

  private Duration parseTimeout() {
    try {
      Duration duration = LoadCommand.parseDuration(timeout);
      if (duration.isZero()) {
        throw new IllegalArgumentException("--timeout must be longer than 0");
      }
      return duration;
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput(e.getMessage().replace("--duration", "--timeout"));
    }
  }

  private static Instant instant(String flag, String text) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw UserException.invalidInput(
          flag + " '" + text + "' is not an ISO-8601 instant (e.g. " + "2026-11-21T06:00:00Z)");
    }
  }
}
