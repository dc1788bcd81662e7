package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flafka.stack.ContractEvent;
import org.flafka.stack.InProcessAgent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * HDFS away for a while: the NameNode stops mid-stream and comes back, or is down when the agent
 * starts. The core agent (the template's default: Kafka channels) recovers on its own (no restart,
 * no operator) and every event lands; an outage at start-up writes nothing twice.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class CoreAgentHdfsOutageTest {

  @TempDir static Path dir;
  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  @Test
  void agentRidesOutANameNodeOutageLosingNothingAndWritingNothingTwice() throws Exception {
    String topic = "outage";
    stack.kafka().createTopic(topic, 2);
    String root = stack.hdfsRoot("outage");
    // Files roll every 5 s, so the outage hits closes and creates, which need the NameNode
    // (appending to an open file only needs the DataNodes). A close that failed during the outage
    // is retried after hdfs.retryInterval (Flume's default 180 s), and a clean stop waits for that
    // retry: 10 s keeps the stop short.
    Map<String, Object> variables =
        stack.variables(
            topic,
            root,
            dir.resolve("data"),
            Map.of("core_hdfs_roll_interval", 5, "core_hdfs_retry_interval", 10));
    InProcessAgent agent =
        InProcessAgent.start("core", CoreStack.render(variables), dir.resolve("agent"));
    List<String> ids;
    long failedWrites;
    try {
      SteadyProducer producer =
          SteadyProducer.start(
              stack.kafka().bootstrapServers(), topic, "o", 20, Duration.ofMillis(100));
      try {
        stack.awaitLanded(root, List.of("o0"), Duration.ofSeconds(60));
        stack.hdfs().stopNameNode();
        CoreStack.sleep(Duration.ofSeconds(10));
        long failedBefore =
            agent.metrics().sink("hdfs0", "EventWriteFail")
                + agent.metrics().sink("hdfs0", "ChannelReadFail");
        stack.hdfs().restartNameNode();
        failedWrites = failedBefore;
        CoreStack.sleep(Duration.ofSeconds(2));
      } finally {
        ids = producer.stop();
      }
      stack.awaitLanded(root, ids, Duration.ofSeconds(90));
    } finally {
      agent.stop();
    }
    // Read after the stop, which closes (or truncates and publishes) every file the outage touched
    Landing landing = stack.landing(root);
    CoreAgentCrashTest.Report report = CoreAgentCrashTest.Report.of(ids, landing);
    System.out.println(
        "core NameNode outage audit: "
            + report
            + "; sink write failures while it was down: "
            + failedWrites);
    assertTrue(
        failedWrites > 0, "the sink noticed the outage (EventWriteFail), so the test tested one");
    assertEquals(0, report.missing(), report.toString());
    // Batches that failed midway (a file to roll or create while the NameNode was away) were
    // retried; what they had written before the failure must not stay beside the retry
    assertEquals(0, report.duplicates(), report.toString());
  }

  @Test
  void anOutageAtStartUpDelaysTheCoreButLosesAndDuplicatesNothing() throws Exception {
    String topic = "outage-at-start";
    stack.kafka().createTopic(topic, 2);
    String root = stack.hdfsRoot(topic);
    List<ContractEvent> backlog = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < 2_000; i++) {
      backlog.add(ContractEvent.of("s" + i, "edge-router-" + (i % 8), now));
    }
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, backlog);
    List<String> ids = backlog.stream().map(ContractEvent::id).toList();
    Map<String, Object> variables =
        stack.variables(
            topic, root, dir.resolve("start-data"), Map.of("core_hdfs_retry_interval", 10));
    stack.hdfs().stopNameNode();
    InProcessAgent agent;
    long failedWrites;
    try {
      agent = InProcessAgent.start("core", CoreStack.render(variables), dir.resolve("start-agent"));
      CoreStack.sleep(Duration.ofSeconds(15));
      failedWrites =
          agent.metrics().sink("hdfs0", "EventWriteFail")
              + agent.metrics().sink("hdfs0", "ConnectionFailedCount");
    } finally {
      stack.hdfs().restartNameNode();
    }
    try {
      Landing landing = stack.awaitLanded(root, ids, Duration.ofSeconds(90));
      CoreAgentCrashTest.Report report = CoreAgentCrashTest.Report.of(ids, landing);
      System.out.println(
          "core NameNode outage at start-up audit: "
              + report
              + "; sink failures while it was down: "
              + failedWrites);
      assertTrue(failedWrites > 0, "the sink met the outage, so the test tested one");
      assertEquals(0, report.missing(), report.toString());
      assertEquals(0, report.duplicates(), report.toString());
    } finally {
      agent.stop();
    }
  }

  @Test
  void aBatchThatFailsMidwayLeavesNothingOfItselfInHdfs() throws Exception {
    String topic = "midway";
    // One partition, so the sink takes the events in the order they were written
    stack.kafka().createTopic(topic, 1);
    String root = stack.hdfsRoot(topic);
    Map<String, Object> variables =
        stack.variables(
            topic, root, dir.resolve("midway-data"), Map.of("core_hdfs_retry_interval", 5));
    InProcessAgent agent =
        InProcessAgent.start("core", CoreStack.render(variables), dir.resolve("midway-agent"));
    List<String> ids = new ArrayList<>();
    long failedWrites;
    try {
      long now = System.currentTimeMillis();
      List<ContractEvent> first = new ArrayList<>();
      for (int i = 0; i < 80; i++) {
        first.add(ContractEvent.of("m" + i, "edge-router-" + (i % 8), now));
      }
      ContractEvent.produce(stack.kafka().bootstrapServers(), topic, first);
      first.forEach(event -> ids.add(event.id()));
      stack.awaitLanded(root, ids, Duration.ofSeconds(60));
      // With the NameNode away, appending to the eight open files works (the DataNode takes it);
      // the new device's file cannot be created, so the batch fails after half of it was written
      stack.hdfs().stopNameNode();
      List<ContractEvent> second = new ArrayList<>();
      for (int i = 80; i < 120; i++) {
        second.add(
            ContractEvent.of("m" + i, i == 100 ? "new-device" : "edge-router-" + (i % 8), now));
      }
      try {
        ContractEvent.produce(stack.kafka().bootstrapServers(), topic, second);
        second.forEach(event -> ids.add(event.id()));
        CoreStack.sleep(Duration.ofSeconds(8));
        failedWrites = agent.metrics().sink("hdfs0", "EventWriteFail");
      } finally {
        stack.hdfs().restartNameNode();
      }
      stack.awaitLanded(root, ids, Duration.ofSeconds(90));
    } finally {
      agent.stop();
    }
    CoreAgentCrashTest.Report report = CoreAgentCrashTest.Report.of(ids, stack.landing(root));
    System.out.println(
        "core batch failing midway audit: " + report + "; write failures: " + failedWrites);
    assertTrue(failedWrites > 0, "a batch failed, so the test tested one");
    assertEquals(0, report.missing(), report.toString());
    assertEquals(0, report.duplicates(), report.toString());
  }
}
