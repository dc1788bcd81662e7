package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class InProcessAgentTest {
  @TempDir static Path shared;
  static KafkaBroker broker;

  @TempDir Path tmp;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start(shared.resolve("broker"));
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @Test
  void seqSourceThroughMemoryChannelToKafkaSink() {
    broker.createTopic("inproc", 3);
    try (InProcessAgent agent =
        InProcessAgent.start(
            "a1", AgentConfigs.seqToKafka("a1", 200, broker.bootstrapServers(), "inproc"), tmp)) {
      Set<String> bodies = new TreeSet<>();
      for (ConsumerRecord<byte[], byte[]> record :
          KafkaBrokerTest.KafkaClients.consume(broker, "inproc", 200)) {
        bodies.add(new String(record.value(), StandardCharsets.UTF_8));
      }
      assertEquals(200, bodies.size(), "every event once");
      assertTrue(
          bodies.contains("0") && bodies.contains("199"), "the seq source's bodies: " + bodies);

      awaitCounter(agent, "SINK.k1", "EventDrainSuccessCount", 200);
      assertEquals(200, agent.metrics().source("r1", "EventAcceptedCount"));
      assertEquals(200, agent.metrics().channel("c1", "EventTakeSuccessCount"));
    }
  }

  @Test
  void aComponentFlumeDropsFailsTheStartNamingIt() {
    StackException e =
        assertThrows(
            StackException.class,
            () -> InProcessAgent.start("bad", AgentConfigs.invalidSelector("bad"), tmp));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Flume agent bad (in-process, "
                    + tmp.resolve("bad.properties")
                    + ") dropped source broken at start-up: "),
        e.getMessage());
  }

  @Test
  void aComponentWhoseConfigureFailsFailsTheStartNamingIt() {
    String noBootstrapServers =
        AgentConfigs.seqToKafka("nobs", 10, broker.bootstrapServers(), "t")
            .replaceAll("(?m)^nobs.sinks.k1.kafka.bootstrap.servers = .*$", "");
    StackException e =
        assertThrows(
            StackException.class, () -> InProcessAgent.start("nobs", noBootstrapServers, tmp));
    assertTrue(e.getMessage().contains(" dropped sink k1 at start-up"), e.getMessage());
  }

  static void awaitCounter(FlumeAgent agent, String component, String counter, long expected) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long value = -1;
    while (System.nanoTime() < deadline) {
      AgentMetrics metrics = agent.metrics();
      value = metrics.components().contains(component) ? metrics.counter(component, counter) : -1;
      if (value == expected) {
        return;
      }
      ChildProcess.sleep(Duration.ofMillis(100));
    }
    assertEquals(expected, value, component + " " + counter);
  }
}
