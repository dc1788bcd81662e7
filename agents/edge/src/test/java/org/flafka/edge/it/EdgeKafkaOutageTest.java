package org.flafka.edge.it;

import static org.flafka.edge.it.EdgeTestSupport.awaitRecords;
import static org.flafka.edge.it.EdgeTestSupport.listenPort;
import static org.flafka.edge.it.EdgeTestSupport.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.LatencyProxy;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge agent with the template's defaults (the memory channel with its disk buffer) as its own
 * process, riding out a Kafka that goes away: the broker is black-holed (a WAN link that is down:
 * nothing refused, everything lost on the way) through the proxy its clients reach it by, while
 * steady TCP and UDP senders go on.
 */
@Tag("e2e")
class EdgeKafkaOutageTest {

  private static final String AGENT = "edge";
  private static final String TOPIC = "edge-outage";
  private static final int TCP_PER_SECOND = 2000;
  private static final int UDP_PER_SECOND = 1000;
  private static final Duration OUTAGE = Duration.ofSeconds(30);

  /** The template's edge_kafka_sinks and edge_kafka_flume_batch_size. */
  private static final int SINKS = 2;

  private static final int SINK_BATCH = 5000;

  /** As EdgeAgentProcessTest's: never for measurements. */
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  @TempDir static Path dir;
  static KafkaBroker kafka;
  static LatencyProxy link;
  static AgentRuntime runtime;

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    kafka = KafkaBroker.start(dir.resolve("kafka"), Map.of(), Duration.ofMillis(1));
    link = kafka.clientProxy();
    kafka.createTopic(TOPIC, 2);
    runtime = OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** The defaults, but for where to listen, which Kafka, and the data directory. */
  private static String edgeProperties(Path dataDir) {
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("agent_name", AGENT);
    vars.put("kafka_bootstrap_servers", kafka.bootstrapServers());
    vars.put("kafka_topic", TOPIC);
    vars.put("edge_bind_address", "127.0.0.1");
    vars.put("edge_udp_port", 0);
    vars.put("edge_tcp_port", 0);
    vars.put("edge_data_dir", dataDir.toString());
    return EdgeTestSupport.render(vars);
  }

  private AgentProcess startAgent(Path data, String name) {
    return AgentProcess.builder(AGENT, edgeProperties(data), tmp.resolve(name))
        .runtime(runtime)
        .jvmOptions(JVM_OPTIONS)
        .start();
  }

  /** Sends marked messages at a steady rate until stopped; counts what it sent. */
  private static final class Sender extends Thread {
    final String mark;
    final int perSecond;
    final int port;
    final boolean udp;
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicInteger sent = new AtomicInteger();

    Sender(String mark, int perSecond, int port, boolean udp) {
      super("outage-sender-" + mark);
      this.mark = mark;
      this.perSecond = perSecond;
      this.port = port;
      this.udp = udp;
    }

    byte[] message(int seq) {
      return utf8("<14>Nov 21 06:30:00 outagehost app: " + mark + seq + " end");
    }

    @Override
    public void run() {
      long started = System.nanoTime();
      try (DatagramSocket datagrams = new DatagramSocket();
          Socket socket = udp ? null : new Socket(InetAddress.getLoopbackAddress(), port)) {
        OutputStream out = socket == null ? null : socket.getOutputStream();
        while (running.get()) {
          long due = (System.nanoTime() - started) * perSecond / 1_000_000_000L;
          int seq = sent.get();
          if (seq >= due) {
            EdgeTestSupport.sleep(5);
            continue;
          }
          byte[] message = message(seq);
          if (udp) {
            datagrams.send(
                new DatagramPacket(
                    message, message.length, InetAddress.getLoopbackAddress(), port));
          } else {
            EdgeTestSupport.writeOctetCounted(out, List.of(message));
          }
          sent.incrementAndGet();
        }
      } catch (IOException e) {
        // the agent died under the sender
      }
    }

    void finish() throws InterruptedException {
      running.set(false);
      join();
    }
  }

  private static long sum(AgentMetrics metrics, String kind, String counter) {
    long total = 0;
    for (int i = 0; i < 2; i++) {
      total +=
          kind.equals("channel")
              ? metrics.channel("ch" + i, counter)
              : metrics.sink("kafka" + i, counter);
    }
    return total;
  }

  private static long accepted(AgentMetrics metrics) {
    return metrics.source("syslog_tcp", "EventAcceptedCount")
        + metrics.source("syslog_udp", "EventAcceptedCount");
  }

  /** The marks {@code mark}0, 1, ... found in the records' bodies. */
  private static BitSet marks(List<ConsumerRecord<byte[], byte[]>> records, String mark) {
    BitSet seen = new BitSet();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      String body = new String(record.value(), StandardCharsets.UTF_8);
      int at = body.indexOf(mark);
      if (at >= 0) {
        seen.set(Integer.parseInt(body.substring(at + mark.length(), body.lastIndexOf(" end"))));
      }
    }
    return seen;
  }

  @Test
  void anEdgeKeepsAcceptingThroughAKafkaOutageOnDiskAndDrainsTheBacklogAtTwiceTheOfferedRate()
      throws Exception {
    Path data = tmp.resolve("data");
    int offered = TCP_PER_SECOND + UDP_PER_SECOND;
    try (AgentProcess agent = startAgent(data, "agent")) {
      Sender tcp =
          new Sender("outage-tcp-", TCP_PER_SECOND, listenPort(agent, "syslog_tcp"), false);
      Sender udp = new Sender("outage-udp-", UDP_PER_SECOND, listenPort(agent, "syslog_udp"), true);
      tcp.start();
      udp.start();
      EdgeTestSupport.sleep(5000);

      link.blackHole();
      long outageStarted = System.nanoTime();
      AgentMetrics before = agent.metrics();
      EdgeTestSupport.sleep(OUTAGE.toMillis());
      AgentMetrics during = agent.metrics();
      double outageSeconds = (System.nanoTime() - outageStarted) / 1e9;
      long acceptedDuring = accepted(during) - accepted(before);
      long buffered = sum(during, "channel", "BufferedEventCount");
      long oldestAge =
          Math.max(
              during.channel("ch0", "BufferOldestAgeMillis"),
              during.channel("ch1", "BufferOldestAgeMillis"));
      long unacknowledged =
          Math.max(
              during.sink("kafka0", "KafkaUnacknowledgedMillis"),
              during.sink("kafka1", "KafkaUnacknowledgedMillis"));
      System.out.printf(
          "outage of %.1f s: %d events accepted (%.0f/s offered %d/s), %d on disk (%d bytes), oldest %d ms,"
              + " sinks waiting %d ms for Kafka, %d connection closes%n",
          outageSeconds,
          acceptedDuring,
          acceptedDuring / outageSeconds,
          offered,
          buffered,
          sum(during, "channel", "BufferedBytes"),
          oldestAge,
          unacknowledged,
          sum(during, "sink", "KafkaConnectionCloseCount"));
      assertTrue(
          acceptedDuring >= 0.9 * offered * outageSeconds,
          "the sources accept at the offered rate while Kafka is away: " + acceptedDuring);
      assertTrue(buffered > 0, "the backlog is on disk: " + during);
      assertTrue(oldestAge >= 5000, "the backlog's age shows: " + oldestAge);
      assertTrue(
          unacknowledged >= OUTAGE.toMillis() / 2, "the sinks show Kafka not answering: " + during);

      link.restore();
      long restored = System.nanoTime();
      AgentMetrics atRestore = agent.metrics();
      long backlog = accepted(atRestore) - sum(atRestore, "sink", "EventDrainSuccessCount");
      AgentMetrics caughtUp = atRestore;
      long deadline = restored + Duration.ofSeconds(90).toNanos();
      while (System.nanoTime() < deadline) {
        caughtUp = agent.metrics();
        if (sum(caughtUp, "channel", "BufferedEventCount") == 0
            && sum(caughtUp, "sink", "EventDrainSuccessCount") >= accepted(atRestore)) {
          break;
        }
        EdgeTestSupport.sleep(200);
      }
      double drainSeconds = (System.nanoTime() - restored) / 1e9;
      long delivered =
          sum(caughtUp, "sink", "EventDrainSuccessCount")
              - sum(atRestore, "sink", "EventDrainSuccessCount");
      double drainRate = delivered / drainSeconds;
      System.out.printf(
          "backlog of %d events caught up in %.1f s: %.0f events/s delivered while %d/s arrived%n",
          backlog, drainSeconds, drainRate, offered);
      assertTrue(
          sum(caughtUp, "sink", "EventDrainSuccessCount") >= accepted(atRestore),
          "the backlog was sent: " + caughtUp);
      assertTrue(
          drainRate >= 2.0 * offered,
          "the backlog drains at twice the offered rate or more: " + drainRate);

      EdgeTestSupport.sleep(2000);
      tcp.finish();
      udp.finish();
      int sent = tcp.sent.get() + udp.sent.get();
      List<ConsumerRecord<byte[], byte[]>> got =
          awaitRecords(kafka, TOPIC, r -> EdgeTestSupport.bodyContains(r, "outage-"), sent);
      BitSet tcpMarks = marks(got, tcp.mark);
      BitSet udpMarks = marks(got, udp.mark);
      System.out.printf(
          "sent %d over TCP and %d over UDP; in Kafka %d and %d unique, %d records%n",
          tcp.sent.get(),
          udp.sent.get(),
          tcpMarks.cardinality(),
          udpMarks.cardinality(),
          got.size());
      assertEquals(tcp.sent.get(), tcpMarks.nextClearBit(0), "TCP: 0 missing");
      assertEquals(udp.sent.get(), udpMarks.nextClearBit(0), "UDP: 0 missing");
    } finally {
      link.restore();
    }
  }

  /**
   * kill -9 during an outage with a backlog on disk, then a restart on the same data directory with
   * Kafka back: every event on disk at the kill reaches Kafka. What is lost is what the sinks held
   * unacknowledged (at most the template's 2 sinks x 5000 events; the channels' memory went to disk
   * with their first spill): the documented promise.
   */
  @Test
  void aBacklogOnDiskSurvivesKillingTheAgent() throws Exception {
    Path data = tmp.resolve("data");
    String mark = "kill-tcp-";
    AgentMetrics atKill;
    int sentAtKill;
    try {
      try (AgentProcess agent = startAgent(data, "agent-1")) {
        Sender tcp = new Sender(mark, 4 * TCP_PER_SECOND, listenPort(agent, "syslog_tcp"), false);
        tcp.start();
        EdgeTestSupport.sleep(2000);
        link.blackHole();
        EdgeTestSupport.awaitCounter(
            agent, "CHANNEL.ch0", "BufferSpillCount", spilled -> spilled >= 5000);
        EdgeTestSupport.awaitCounter(
            agent, "CHANNEL.ch1", "BufferSpillCount", spilled -> spilled >= 5000);
        atKill = agent.metrics();
        agent.kill();
        sentAtKill = tcp.sent.get();
        tcp.finish();
      }
      link.restore();
      long drained = sum(atKill, "sink", "EventDrainSuccessCount");
      long spilled = sum(atKill, "channel", "BufferSpillCount");
      long accepted = atKill.source("syslog_tcp", "EventAcceptedCount");
      try (AgentProcess restarted = startAgent(data, "agent-2")) {
        List<ConsumerRecord<byte[], byte[]>> got =
            awaitRecords(
                kafka,
                TOPIC,
                r -> EdgeTestSupport.bodyContains(r, mark),
                (int) (drained + spilled));
        BitSet marks = marks(got, mark);
        System.out.printf(
            "kill -9 with %d accepted, %d sent to Kafka and %d on disk (%d sent by the sender): %d unique"
                + " in Kafka after the restart (%d lost from memory)%n",
            accepted,
            drained,
            spilled,
            sentAtKill,
            marks.cardinality(),
            accepted - marks.cardinality());
        assertTrue(
            marks.cardinality() >= drained + spilled,
            "everything on disk at the kill reached Kafka: "
                + marks.cardinality()
                + " < "
                + drained
                + " + "
                + spilled);
        assertTrue(
            accepted - marks.cardinality() <= SINKS * SINK_BATCH,
            "only what the sinks held is lost: " + (accepted - marks.cardinality()));
        assertTrue(restarted.isAlive());
      }
    } finally {
      link.restore();
    }
  }
}
