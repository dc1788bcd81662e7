package org.flafka.edge.it;

import static org.flafka.edge.it.EdgeTestSupport.awaitCounter;
import static org.flafka.edge.it.EdgeTestSupport.awaitRecords;
import static org.flafka.edge.it.EdgeTestSupport.bodyContains;
import static org.flafka.edge.it.EdgeTestSupport.header;
import static org.flafka.edge.it.EdgeTestSupport.listenPort;
import static org.flafka.edge.it.EdgeTestSupport.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The edge agent rendered from the template and run as its own process on the production agent
 * classpath (agents/runtime plus our plugin jars), with a durable file channel: real syslog clients
 * nobody here wrote (util-linux logger, rsyslog) send to it, and a SIGKILL mid-stream loses nothing
 * the source had accepted.
 */
@Tag("e2e")
class EdgeAgentProcessTest {

  private static final String AGENT = "edge";
  private static final String TOPIC = "edge-proc";
  private static final String SITE = "lyo-01";

  /**
   * C1 only and the serial collector: short-lived test JVMs spend most CPU compiling. Never for
   * measurements.
   */
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  @TempDir static Path dir;
  static KafkaBroker kafka;
  static AgentRuntime runtime;

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    kafka = KafkaBroker.start(dir.resolve("kafka"));
    kafka.createTopic(TOPIC, 2);
    runtime = OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static String edgeProperties(List<String> listeners, Path dataDir, String channelType) {
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("agent_name", AGENT);
    vars.put("site", SITE);
    vars.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    vars.put("kafka_topic", TOPIC);
    vars.put("kafka_record_facts", "all");
    vars.put("edge_listeners", listeners);
    vars.put("edge_bind_address", "127.0.0.1");
    vars.put("edge_udp_port", 0);
    // two sockets share the UDP port here (the in-process test keeps the default one), so the
    // rendered key reaches a real agent and logger's datagrams arrive whichever socket the kernel
    // picks
    vars.put("edge_udp_receive_threads", 2);
    vars.put("edge_tcp_port", 0);
    vars.put("edge_channel_type", channelType);
    vars.put("edge_data_dir", dataDir.toString());
    vars.put("edge_channel_capacity", 20000);
    vars.put("edge_channel_transaction_capacity", 1000);
    vars.put("edge_kafka_flume_batch_size", 1000);
    vars.put("edge_kafka_sinks", 2);
    vars.put("edge_partitioner", "stripe");
    vars.put("edge_kafka_linger_ms", 5);
    return EdgeTestSupport.render(vars);
  }

  private AgentProcess startAgent(String properties, Path agentDir) {
    return AgentProcess.builder(AGENT, properties, agentDir)
        .runtime(runtime)
        .jvmOptions(JVM_OPTIONS)
        .start();
  }

  @Test
  void loggerAndRsyslogReachKafkaThroughAnAgentProcessWithTheirHeaders() throws Exception {
    Path logger = EdgeTestSupport.requireCommand("logger", "bsdutils (util-linux)");
    Path rsyslogd = EdgeTestSupport.requireCommand("rsyslogd", "rsyslog");
    try (AgentProcess agent =
        startAgent(
            edgeProperties(List.of("udp", "tcp"), tmp.resolve("data"), "file"),
            tmp.resolve("agent"))) {
      int udp = listenPort(agent, "syslog_udp");
      int tcp = listenPort(agent, "syslog_tcp");
      Map<String, List<String>> loggerRuns = new LinkedHashMap<>();
      loggerRuns.put("logger-udp-5424", List.of("--udp", "--rfc5424", "-P", Integer.toString(udp)));
      loggerRuns.put("logger-udp-3164", List.of("--udp", "--rfc3164", "-P", Integer.toString(udp)));
      loggerRuns.put(
          "logger-tcp-octet-5424",
          List.of("--tcp", "--octet-count", "--rfc5424", "-P", Integer.toString(tcp)));
      loggerRuns.put(
          "logger-tcp-line-3164", List.of("--tcp", "--rfc3164", "-P", Integer.toString(tcp)));
      for (Map.Entry<String, List<String>> run : loggerRuns.entrySet()) {
        List<String> command =
            new ArrayList<>(
                List.of(
                    logger.toString(), "-n", "127.0.0.1", "-t", "fltest", "-p", "local3.warning"));
        command.addAll(run.getValue());
        command.add(run.getKey() + "-mark");
        runCommand(command);
      }

      String relayed =
          "<165>1 "
              + Instant.now().truncatedTo(ChronoUnit.MILLIS)
              + " relay-host relayapp 12 MID - rsyslog-relay-mark";
      relayThroughRsyslog(rsyslogd, tcp, relayed);

      List<ConsumerRecord<byte[], byte[]>> got =
          awaitRecords(
              kafka,
              TOPIC,
              r -> bodyContains(r, "logger-") || bodyContains(r, "rsyslog-relay-mark"),
              5);
      assertEquals(5, got.size(), "four logger messages and one relayed by rsyslog, each once");
      for (String mark : loggerRuns.keySet()) {
        ConsumerRecord<byte[], byte[]> record = only(got, mark + "-mark");
        String body = new String(record.value(), StandardCharsets.UTF_8);
        assertTrue(body.startsWith("<156>") && body.endsWith(mark + "-mark"), mark + ": " + body);
        boolean rfc5424 = mark.endsWith("5424");
        // logger writes this machine's name into the message; the host header is that name,
        // lower-cased.
        String sentHost = body.split(" ")[rfc5424 ? 2 : 3];
        assertEquals(sentHost.toLowerCase(), header(record, "host"), mark + ": " + body);
        assertEquals(rfc5424 ? "rfc5424" : "rfc3164", header(record, "format"), mark);
        assertEquals("19", header(record, "facility"), mark);
        assertEquals("4", header(record, "severity"), mark);
        assertEquals("fltest", header(record, "app"), mark);
        assertEquals("message", header(record, "timestamp_source"), mark);
        assertEquals("127.0.0.1", header(record, "peer"), mark);
        assertEquals(SITE, header(record, "site"), mark);
        assertEquals(26, header(record, "id").length(), mark);
      }
      ConsumerRecord<byte[], byte[]> relayRecord = only(got, "rsyslog-relay-mark");
      // RSYSLOG_SyslogProtocol23Format ends with a LF, which octet counting carries inside the
      // frame: the body is exactly the frame rsyslog sent (checked with a capture of its output).
      assertArrayEquals(
          utf8(relayed + "\n"), relayRecord.value(), "rsyslog's frame, byte for byte");
      assertEquals("relay-host", header(relayRecord, "host"));
      assertEquals("relayapp", header(relayRecord, "app"));
      assertEquals("MID", header(relayRecord, "msgid"));
      assertEquals("ok", header(relayRecord, "parse"));
    }
  }

  private static ConsumerRecord<byte[], byte[]> only(
      List<ConsumerRecord<byte[], byte[]>> records, String mark) {
    List<ConsumerRecord<byte[], byte[]>> matching =
        records.stream().filter(r -> bodyContains(r, mark)).toList();
    assertEquals(1, matching.size(), mark);
    return matching.get(0);
  }

  private static void runCommand(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + output);
  }

  /**
   * A private rsyslogd in the foreground: its own config (no default config, no imuxsock, so never
   * /dev/log), its own work directory and pid file, a TCP input on a free port chosen by rsyslog,
   * and omfwd to the agent over TCP with octet-counted framing. The test writes {@code line} to the
   * input and stops rsyslogd.
   */
  private void relayThroughRsyslog(Path rsyslogd, int agentPort, String line) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("rsyslog"));
    Path portFile = work.resolve("imtcp.port");
    Path conf = work.resolve("rsyslog.conf");
    Files.writeString(
        conf,
        String.join(
            "\n",
            "global(workDirectory=\"" + work + "\")",
            "module(load=\"imtcp\")",
            "input(type=\"imtcp\" address=\"127.0.0.1\" port=\"0\" listenPortFileName=\""
                + portFile
                + "\")",
            "action(type=\"omfwd\" target=\"127.0.0.1\" port=\""
                + agentPort
                + "\" protocol=\"tcp\""
                + " TCP_Framing=\"octet-counted\" template=\"RSYSLOG_SyslogProtocol23Format\")",
            ""));
    Process process =
        new ProcessBuilder(
                rsyslogd.toString(),
                "-n",
                "-C",
                "-f",
                conf.toString(),
                "-i",
                work.resolve("rsyslogd.pid").toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("rsyslogd.out").toFile())
            .start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!(Files.exists(portFile) && !Files.readString(portFile).isBlank())) {
        assertTrue(
            process.isAlive(), () -> "rsyslogd exited: " + read(work.resolve("rsyslogd.out")));
        assertTrue(System.nanoTime() < deadline, "rsyslogd wrote no port file");
        EdgeTestSupport.sleep(100);
      }
      int port = Integer.parseInt(Files.readString(portFile).trim());
      EdgeTestSupport.sendTcpLines(port, List.of(utf8(line)));
      awaitRecords(kafka, TOPIC, r -> bodyContains(r, "rsyslog-relay-mark"), 1);
    } finally {
      process.destroy();
      process.waitFor();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

  /**
   * SIGKILL mid-stream with each durable channel: every event the source had accepted (committed to
   * the channel) before the kill reaches Kafka: with the file channel after a restart on the same
   * data directory, with the Kafka record channel at once (its commit waited for Kafka). Not
   * covered, by TCP's nature: what the sender wrote that the agent had not yet read (kernel socket
   * buffers) or framed but not committed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"file", "kafka"})
  void killingTheAgentProcessMidStreamLosesNoAcceptedEvent(String channelType) throws Exception {
    Path data = tmp.resolve("data");
    String properties = edgeProperties(List.of("tcp"), data, channelType);
    String mark = channelType + "-kill-mark-";
    AtomicBoolean sending = new AtomicBoolean(true);
    AtomicInteger written = new AtomicInteger();
    long acceptedBeforeKill;
    long drainedBeforeKill;
    try (AgentProcess agent = startAgent(properties, tmp.resolve("agent-1"))) {
      int port = listenPort(agent, "syslog_tcp");
      Thread sender =
          new Thread(
              () -> {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                  OutputStream out = socket.getOutputStream();
                  for (int i = 0; sending.get() && i < 200_000; i++) {
                    EdgeTestSupport.writeOctetCounted(
                        out,
                        List.of(utf8("<14>Nov 21 06:30:00 killhost app: " + mark + i + " end")));
                    written.set(i + 1);
                    if (i % 200 == 199) {
                      EdgeTestSupport.sleep(5);
                    }
                  }
                } catch (IOException expectedOnKill) {
                  // the agent died under the sender
                }
              },
              "kill-test-sender");
      sender.start();
      awaitCounter(agent, "SOURCE.syslog_tcp", "EventAcceptedCount", accepted -> accepted >= 3000);
      var metrics = agent.metrics();
      agent.kill();
      acceptedBeforeKill = metrics.source("syslog_tcp", "EventAcceptedCount");
      drainedBeforeKill =
          channelType.equals("kafka")
              ? metrics.channel("ch0", "EventPutSuccessCount")
                  + metrics.channel("ch1", "EventPutSuccessCount")
              : metrics.sink("kafka0", "EventDrainSuccessCount")
                  + metrics.sink("kafka1", "EventDrainSuccessCount");
      assertFalse(agent.isAlive());
      sending.set(false);
      sender.join();
    }
    System.out.printf(
        "%s channel: kill -9 after %d events accepted, %d of them in Kafka, %d written by the"
            + " sender%n",
        channelType, acceptedBeforeKill, drainedBeforeKill, written.get());

    try (AgentProcess restarted = startAgent(properties, tmp.resolve("agent-2"))) {
      List<ConsumerRecord<byte[], byte[]>> got =
          awaitRecords(kafka, TOPIC, r -> bodyContains(r, mark), (int) acceptedBeforeKill);
      Set<Integer> marks = new TreeSet<>();
      for (ConsumerRecord<byte[], byte[]> record : got) {
        String body = new String(record.value(), StandardCharsets.UTF_8);
        marks.add(
            Integer.parseInt(
                body.substring(body.indexOf(mark) + mark.length(), body.lastIndexOf(" end"))));
      }
      assertTrue(
          marks.size() >= acceptedBeforeKill,
          marks.size()
              + " unique marks in Kafka, "
              + acceptedBeforeKill
              + " accepted before the kill");
      // One connection, one ordered stream: what was accepted is a prefix of what was sent.
      for (int i = 0; i < acceptedBeforeKill; i++) {
        assertTrue(marks.contains(i), "mark " + i + " accepted before the kill is missing");
      }
      System.out.printf(
          "after restart: %d unique marks in Kafka, %d records (%d duplicates)%n",
          marks.size(), got.size(), got.size() - marks.size());
      assertTrue(restarted.isAlive());
    }
  }
}
