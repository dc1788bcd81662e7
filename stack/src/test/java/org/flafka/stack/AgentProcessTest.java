package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents as separate processes on the production agent classpath (agents/runtime), against a real
 * broker and HDFS.
 */
@Tag("e2e")
class AgentProcessTest {
  @TempDir static Path shared;
  static KafkaBroker broker;
  static Hdfs hdfs;

  @TempDir Path tmp;

  @BeforeAll
  static void startStack() {
    broker = KafkaBroker.start(shared.resolve("broker"));
    hdfs = Hdfs.start(shared.resolve("hdfs"));
  }

  @AfterAll
  static void stopStack() {
    if (hdfs != null) {
      hdfs.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void kafkaSinkAgentProcessDeliversToTheBrokerReportsMetricsAndCpuAndDiesOnKill()
      throws IOException {
    broker.createTopic("edge", 3);
    try (AgentProcess agent =
        start(
            "edge", AgentConfigs.seqToKafka("edge", 500, broker.bootstrapServers(), "edge"), tmp)) {
      Set<String> bodies = new TreeSet<>();
      for (ConsumerRecord<byte[], byte[]> record :
          KafkaBrokerTest.KafkaClients.consume(broker, "edge", 500)) {
        bodies.add(new String(record.value(), StandardCharsets.UTF_8));
      }
      assertEquals(500, bodies.size(), "every event once");

      InProcessAgentTest.awaitCounter(agent, "SINK.k1", "EventDrainSuccessCount", 500);
      AgentMetrics metrics = agent.metrics();
      assertEquals(500, metrics.source("r1", "EventAcceptedCount"));
      assertEquals(500, metrics.channel("c1", "EventPutSuccessCount"));
      assertEquals(0.0, metrics.gauge("CHANNEL.c1", "ChannelFillPercentage"));
      assertTrue(
          agent.cpuTime().compareTo(Duration.ofMillis(100)) > 0,
          "agent CPU time: " + agent.cpuTime());

      agent.kill();
      assertFalse(agent.isAlive());
      assertFalse(
          ProcessHandle.of(agent.pid()).map(ProcessHandle::isAlive).orElse(false),
          "SIGKILL ends it at once");
      assertFalse(
          Files.readString(agent.log()).contains("Stopping Source"),
          "no clean shutdown after SIGKILL");
      StackException e = assertThrows(StackException.class, agent::metrics);
      assertTrue(e.getMessage().contains("the process has exited"), e.getMessage());
    }
  }

  @Test
  void kafkaSourceFileChannelHdfsSinkAgentProcessWritesSnappyFiles() throws IOException {
    broker.createTopic("core", 2);
    KafkaBrokerTest.KafkaClients.produce(broker, "core", 300);
    String properties =
        AgentConfigs.kafkaToHdfs(
            "core", broker.bootstrapServers(), "core", hdfs.uri(), tmp.resolve("channel"), 100);
    long pid;
    try (AgentProcess agent = start("core", properties, tmp.resolve("agent"))) {
      pid = agent.pid();
      InProcessAgentTest.awaitCounter(agent, "SINK.k1", "EventDrainSuccessCount", 300);
      List<String> lines = awaitClosedFiles(3);
      assertEquals(300, lines.size());
      assertEquals(300, new TreeSet<>(lines).size(), "every event once");
      assertTrue(lines.contains("event-0") && lines.contains("event-299"), "bodies as produced");
      assertTrue(
          agent.output().contains("Creating " + hdfs.uri() + "/flume/core/events."),
          "the sink logs where it writes");
    }
    assertFalse(
        ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        "stop ends the agent process");
  }

  /**
   * Waits for {@code files} closed (renamed from .tmp) snappy files and returns their decompressed
   * lines.
   */
  private static List<String> awaitClosedFiles(int files) throws IOException {
    org.apache.hadoop.conf.Configuration conf = hdfs.clientConfiguration();
    CompressionCodec snappy = ReflectionUtils.newInstance(SnappyCodec.class, conf);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    try (FileSystem fs = hdfs.newFileSystem()) {
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/flume/core");
      while (true) {
        List<FileStatus> closed = new ArrayList<>();
        if (fs.exists(dir)) {
          for (FileStatus status : fs.listStatus(dir)) {
            if (!status.getPath().getName().endsWith(".tmp")) {
              closed.add(status);
            }
          }
        }
        if (closed.size() >= files) {
          List<String> lines = new ArrayList<>();
          for (FileStatus status : closed) {
            assertTrue(status.getPath().getName().endsWith(".snappy"), status.getPath().toString());
            try (InputStream in = snappy.createInputStream(fs.open(status.getPath()))) {
              new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(lines::add);
            }
          }
          return lines;
        }
        assertTrue(System.nanoTime() < deadline, "closed files in " + dir + ": " + closed);
        ChildProcess.sleep(Duration.ofMillis(200));
      }
    }
  }

  @Test
  void aComponentFlumeDropsFailsTheStartNamingItAndTheLog() {
    Path dir = tmp.resolve("bad");
    StackException e =
        assertThrows(
            StackException.class, () -> start("bad", AgentConfigs.invalidSelector("bad"), dir));
    assertEquals(
        "Flume agent bad dropped a component at start-up: Could not configure source  broken due to:"
            + " Failed to configure component! / org.apache.flume.conf.ConfigurationException: Failed to configure"
            + " component! / java.lang.IllegalArgumentException: No enum constant org.apache.flume.conf.channel"
            + ".ChannelSelectorConfiguration.ChannelSelectorConfigurationType.LOAD_BALANCING; fix "
            + dir.resolve("bad.properties")
            + " (log: "
            + dir.resolve("agent.log")
            + ")",
        e.getMessage());
    assertTrue(
        ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
        "the failed agent is killed");
  }

  @Test
  void aPluginMissingFromTheRuntimeIsNamedAndWithPluginsOfAddsIt() {
    broker.createTopic("plugin", 1);
    String properties =
        AgentConfigs.seqToKafka("plugin", 5, broker.bootstrapServers(), "plugin")
            + "plugin.sources.r1.interceptors = suffix\n"
            + "plugin.sources.r1.interceptors.suffix.type = "
            + SuffixInterceptor.Builder.class.getName()
            + "\n";

    StackException missing =
        assertThrows(
            StackException.class, () -> start("plugin", properties, tmp.resolve("without")));
    assertTrue(
        missing
            .getMessage()
            .startsWith(
                "Flume agent plugin dropped a component at start-up: Source r1 has"
                    + " been removed due to an error during configuration / "),
        missing.getMessage());
    assertTrue(
        missing
            .getMessage()
            .endsWith(
                "Interceptor.Builder not found. / java.lang.ClassNotFoundException: "
                    + SuffixInterceptor.Builder.class.getName()
                    + "; fix "
                    + tmp.resolve("without/plugin.properties")
                    + " (log: "
                    + tmp.resolve("without/agent.log")
                    + ")"),
        missing.getMessage());

    try (AgentProcess agent =
        AgentProcess.builder("plugin", properties, tmp.resolve("with"))
            .runtime(AgentRuntime.locate().withPluginsOf(SuffixInterceptor.class))
            .jvmOptions(AgentConfigs.TEST_JVM_OPTIONS)
            .start()) {
      for (ConsumerRecord<byte[], byte[]> record :
          KafkaBrokerTest.KafkaClients.consume(broker, "plugin", 5)) {
        assertTrue(
            new String(record.value(), StandardCharsets.UTF_8).endsWith(SuffixInterceptor.SUFFIX));
      }
    }
  }

  private static AgentProcess start(String agent, String properties, Path dir) {
    return AgentProcess.builder(agent, properties, dir)
        .jvmOptions(AgentConfigs.TEST_JVM_OPTIONS)
        .start();
  }
}
