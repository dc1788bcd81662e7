package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
class KafkaBrokerProcessTest {
  @TempDir Path tmp;

  @Test
  void brokerInItsOwnProcessServesClientsAndStopsWithoutLeftovers() throws Exception {
    long pid;
    try (KafkaBrokerProcess broker =
        KafkaBrokerProcess.start(tmp.resolve("broker"), Map.of(), AgentConfigs.TEST_JVM_OPTIONS)) {
      pid = broker.pid();
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      assertTrue(
          ProcessHandle.current().children().anyMatch(child -> child.pid() == broker.pid()),
          "the broker is a child of this JVM");

      broker.createTopic("remote", 2);
      KafkaBrokerTest.KafkaClients.produce(broker, "remote", 10);
      assertEquals(10, KafkaBrokerTest.KafkaClients.consume(broker, "remote", 10).size());
      assertTrue(broker.cpuTime().toMillis() > 0, "CPU time is read from the broker process");
    }
    Optional<ProcessHandle> left = ProcessHandle.of(pid);
    assertFalse(left.isPresent() && left.get().isAlive(), "the broker process is gone after close");
    assertFalse(
        ProcessHandle.current().children().anyMatch(child -> child.pid() == pid),
        "no child left behind");
    assertFalse(Files.exists(tmp.resolve("broker/data")), "a clean stop deletes the broker's data");
    assertTrue(
        Files.readString(tmp.resolve("broker/broker.log")).contains("Kafka broker ready at"),
        "the broker process logs to broker.log");
  }

  @Test
  void aRestartableBrokerProcessComesBackOnItsPortWithItsRecords() throws Exception {
    Path dir = tmp.resolve("restartable");
    try (KafkaBrokerProcess broker =
        KafkaBrokerProcess.startRestartable(dir, Map.of(), AgentConfigs.TEST_JVM_OPTIONS)) {
      broker.createTopic("kept", 2);
      KafkaBrokerTest.KafkaClients.produce(broker, "kept", 10);
      long firstPid = broker.pid();

      broker.stop();
      assertFalse(broker.isAlive(), "stopped");
      assertTrue(Files.isDirectory(dir.resolve("data/kraft")), "stopping keeps the data");

      broker.restart();
      assertTrue(broker.pid() != firstPid, "a new process");
      KafkaBrokerTest.KafkaClients.produce(broker, "kept", 10);
      assertEquals(
          20,
          KafkaBrokerTest.KafkaClients.consume(broker, "kept", 20).size(),
          "the records from before the restart and after it, at the same address");
    }
  }
}
