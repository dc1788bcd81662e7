package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged CLI on the classpath {@code bin/flafka} gives it (the jar and {@code
 * runtime-classpath.txt}), in a process of its own. The other CLI tests run on the test classpath,
 * which also holds Flume's configuration classes and every test dependency: a command that loads a
 * class only the test classpath has passes there and fails for the user. The lint rules are the
 * ones at risk (they know our plugins' and Flume's defaults), so every rule that reads a default
 * runs here.
 */
class CliRuntimeClasspathIT {

  @TempDir Path dir;

  private record Run(int exitCode, String out, String err) {}

  private static Run flafka(String... args) throws Exception {
    String jar = System.getProperty("flafka.cli.jar");
    String classpath =
        Files.readString(Path.of(System.getProperty("flafka.cli.classpath"))).strip();
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                jar + File.pathSeparator + classpath,
                "org.flafka.cli.Flafka"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    String out = read(process.getInputStream());
    assertTrue(
        process.waitFor(60, TimeUnit.SECONDS),
        "flafka " + String.join(" ", args) + " did not exit");
    return new Run(process.exitValue(), out, err.get());
  }

  private static String read(java.io.InputStream stream) {
    try {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void lintJudgesEveryDefaultItKnows() throws Exception {
    // no batch sizes, message sizes or buffer percentages set: every finding below comes from a
    // default
    Path config = dir.resolve("agent.properties");
    Files.writeString(
        config,
        """
                a.sources = s1 s2 s3
                a.channels = c1 c2 c3
                a.sinks = k1 k2 k3
                a.sources.s1.type = org.flafka.edge.source.SyslogSource
                a.sources.s1.protocol = tcp
                a.sources.s1.port = 5514
                a.sources.s1.channels = c1
                a.sources.s2.type = multiport_syslogtcp
                a.sources.s2.ports = 5515
                a.sources.s2.channels = c2
                a.sources.s3.type = org.apache.flume.source.kafka.KafkaSource
                a.sources.s3.kafka.bootstrap.servers = 127.0.0.1:9092
                a.sources.s3.kafka.topics = syslog
                a.sources.s3.channels = c3
                a.channels.c1.type = memory
                a.channels.c1.byteCapacity = 60000
                a.channels.c2.type = file
                a.channels.c2.capacity = 5000
                a.channels.c3.type = org.flafka.edge.channel.BatchMemoryChannel
                a.sinks.k1.type = org.apache.flume.sink.kafka.KafkaSink
                a.sinks.k1.channel = c1
                a.sinks.k1.kafka.flumeBatchSize = 500
                a.sinks.k1.allowTopicOverride = false
                a.sinks.k1.header.id = id
                a.sinks.k2.type = org.flafka.edge.sink.KafkaRecordSink
                a.sinks.k2.channel = c2
                a.sinks.k2.kafka.producer.max.request.size = 1000
                a.sinks.k3.type = org.flafka.core.HdfsBucketSink
                a.sinks.k3.channel = c3
                """);
    Run run = flafka("lint", config.toString());
    assertEquals("", run.err);
    assertEquals(ExitCode.FAILED, run.exitCode, run.out);
    for (String finding :
        List.of(
            // SyslogSourceConfig's batchSize against MemoryChannel's transactionCapacity
            "ERROR [transaction-capacity] a.channels.c1.transactionCapacity: transactionCapacity 100 is below the"
                + " batch size 1000 of source s1 (batchSize)",
            // KafkaSourceConstants' batchSize against BatchMemoryChannelConfig's (Flume's)
            // transactionCapacity
            "ERROR [transaction-capacity] a.channels.c3.transactionCapacity: transactionCapacity 100 is below the"
                + " batch size 1000 of source s3 (batchSize)",
            // and HdfsBucketSinkConfig's hdfs.batchSize
            "batch size 1000 of sink k3 (hdfs.batchSize)",
            // FileChannelConfiguration's transactionCapacity
            "a.channels.c2.transactionCapacity: transactionCapacity 10000 exceeds capacity 5000",
            // SyslogUtils' eventSize
            "below source s2's largest message (eventSize 2500) plus 16384 bytes for headers",
            // SyslogSourceConfig's maxMessageBytes and MemoryChannel's buffer percentage and slots
            "ERROR [byte-capacity] a.channels.c1.byteCapacity: byteCapacity leaves 48000 bytes for bodies, less"
                + " than one message of source s1 (maxMessageBytes 65536)",
            // KafkaSinkConstants' batch size
            "so the batch stays at 100.")) {
      assertTrue(run.out.contains(finding), finding + " not in:\n" + run.out);
    }
  }

  @Test
  void renderPrintsBothTemplates() throws Exception {
    Run edge = flafka("render", "edge");
    assertEquals(ExitCode.OK, edge.exitCode, edge.err);
    assertTrue(
        edge.out.contains("edge.sources.syslog_udp.type = org.flafka.edge.source.SyslogSource\n"),
        edge.out);
    Run core = flafka("render", "core");
    assertEquals(ExitCode.OK, core.exitCode, core.err);
    assertTrue(
        core.out.contains("core.sinks.hdfs0.type = org.flafka.core.HdfsBucketSink\n"), core.out);
  }
}
