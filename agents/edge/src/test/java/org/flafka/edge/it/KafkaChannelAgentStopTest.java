package org.flafka.edge.it;

import static org.flafka.edge.it.EdgeTestSupport.awaitCounter;
import static org.flafka.edge.it.EdgeTestSupport.listenPort;
import static org.flafka.edge.it.EdgeTestSupport.utf8;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edge agent (a process, rendered from the template) with the Kafka record channel ({@code
 * edge_channel_type: kafka}) stops when told to while its broker is gone: the source's put that
 * waits for Kafka fails at the channel's {@code ackTimeoutMillis} (or the source's stop gives up
 * waiting for it after 5 s, saying so), and the channel closes its producer within its bound, so
 * Flume shuts down by itself rather than being killed.
 */
@Tag("e2e")
class KafkaChannelAgentStopTest {
  private static final String AGENT = "edge";
  private static final String TOPIC = "stop-gone";

  /** The bound given to the put in this test; its default is delivery.timeout.ms + 10 s. */
  private static final int ACK_TIMEOUT_MILLIS = 5000;

  @TempDir Path tmp;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void anAgentWhoseBrokerIsGoneStopsByItselfWithinTheChannelsBoundCountingWhatItDrops()
      throws Exception {
    KafkaBroker kafka = KafkaBroker.startRestartable(tmp.resolve("kafka"), Map.of());
    try {
      kafka.createTopic(TOPIC, 1);
      Map<String, Object> vars = new LinkedHashMap<>();
      vars.put("agent_name", AGENT);
      vars.put("kafka_bootstrap_servers", kafka.bootstrapServers());
      vars.put("kafka_topic", TOPIC);
      vars.put("edge_listeners", List.of("tcp"));
      vars.put("edge_bind_address", "127.0.0.1");
      vars.put("edge_tcp_port", 0);
      vars.put("edge_channel_type", "kafka");
      vars.put("edge_kafka_sinks", 1);
      vars.put("edge_data_dir", tmp.resolve("data").toString());
      String properties =
          EdgeTestSupport.render(vars)
              + "\n"
              + AGENT
              + ".channels.ch0.ackTimeoutMillis = "
              + ACK_TIMEOUT_MILLIS
              + "\n";
      AgentRuntime runtime = OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
      AgentProcess agent =
          AgentProcess.builder(AGENT, properties, tmp.resolve("agent")).runtime(runtime).start();
      try {
        int port = listenPort(agent, "syslog_tcp");
        EdgeTestSupport.sendTcpLines(port, messages("delivered-", 100));
        awaitCounter(agent, "CHANNEL.ch0", "EventPutSuccessCount", n -> n >= 100);

        kafka.stop();
        EdgeTestSupport.sendTcpLines(port, messages("held-", 50));
        awaitCounter(agent, "SOURCE.syslog_tcp", "EventReceivedCount", n -> n >= 150);
        // a put of the held events is waiting for Kafka now, or the source retries one
        awaitCounter(agent, "CHANNEL.ch0", "EventPutAttemptCount", n -> n > 100);

        long started = System.nanoTime();
        agent.stop(Duration.ofSeconds(120));
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf(
            Locale.ROOT, "the agent whose broker was gone stopped in %d ms%n", stopMillis);
        String log = Files.readString(agent.log());
        log.lines()
            .filter(
                line ->
                    line.contains(" o.f.e.") || line.contains(" WARN ") || line.contains(" ERROR "))
            .forEach(System.out::println);
        assertTrue(
            log.contains("Kafka record channel ch0: stopped;"),
            "the channel's stop() ran and returned:\n" + tail(log));
        // What the source still held is lost with the process either way; it says so: counted as
        // dropped when its last put failed before its stop's 5 s were over, else by giving up the
        // wait for that put (the channel's stop then fails it)
        assertTrue(
            log.contains("they are dropped (counted in ChannelFullDropCount)")
                || log.contains("syslog source syslog_tcp: stop did not complete in time"),
            "the source says what it could not put:\n" + tail(log));
        assertFalse(agent.isAlive(), "Flume shut down");
        // The source waits 5 s for its connections, then at most one put (ackTimeoutMillis), then
        // the channel closes its producer within 5 s: well under this coarse bound, which an
        // unbounded wait in Kafka's flush() (delivery.timeout.ms: 120 s, or for ever) would break
        assertTrue(
            stopMillis < 60_000,
            "the agent stopped within its bound, not after Kafka's delivery.timeout.ms: "
                + stopMillis
                + " ms");
      } finally {
        agent.close();
      }
    } finally {
      kafka.close();
    }
  }

  private static List<byte[]> messages(String mark, int count) {
    List<byte[]> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(utf8("<14>Nov 28 06:30:00 stophost app: " + mark + i));
    }
    return messages;
  }

  private static String tail(String log) {
    List<String> lines =
        log.lines().filter(line -> !line.contains("MonitoredCounterGroup")).toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
