package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core agent as a separate process on the production agent classpath, with file channels:
 * killed with SIGKILL in the middle of a stream and started again, it loses nothing, and the
 * duplicates that at-least-once delivery makes are counted and reported.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class CoreAgentCrashTest {

  @TempDir static Path dir;
  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  // Two agent JVM start-ups, two consumer group joins and lease recovery: up to 112 s seen on the
  // shared 2-core
  // machine under a load average of 25, so more than the default 120 s of headroom
  @Test
  @Timeout(180)
  void killedAgentLosesNothingAndCountsItsDuplicates() throws Exception {
    String topic = "crash";
    stack.kafka().createTopic(topic, 4);
    String root = stack.hdfsRoot("crash");
    int sources = 2;
    // Static membership: the restarted agent takes its partitions back at once instead of waiting
    // for the
    // killed consumers' session timeout (45 s by default)
    Map<String, Object> variables =
        stack.variables(
            topic,
            root,
            dir.resolve("data"),
            Map.of(
                "core_channel_type",
                "file",
                "core_kafka_sources",
                sources,
                "core_group_instance_prefix",
                "core-test"));
    String properties = CoreStack.render(variables);
    // The production runtime plus this module's plugins and the ones they use, as plugins.d would
    AgentRuntime runtime = OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
    Path agentDir = dir.resolve("agent");

    AgentProcess agent =
        AgentProcess.builder("core", properties, agentDir).runtime(runtime).start();
    SteadyProducer producer =
        SteadyProducer.start(
            stack.kafka().bootstrapServers(), topic, "c", 20, Duration.ofMillis(100));
    List<String> ids;
    long drainedAtKill;
    try {
      drainedAtKill = awaitDrained(agent, 200);
      agent.kill();
      int sentAtKill = producer.acknowledgedCount();
      // Events keep arriving while the agent is down; then it comes back on the same file channels
      CoreStack.sleep(Duration.ofSeconds(1));
      agent = AgentProcess.builder("core", properties, agentDir).runtime(runtime).start();
      while (producer.acknowledgedCount() < sentAtKill + 200) {
        CoreStack.sleep(Duration.ofMillis(100));
      }
    } finally {
      ids = producer.stop();
    }
    try {
      stack.awaitLanded(root, ids, Duration.ofSeconds(60));
    } finally {
      agent.stop();
      // Both runs' logs, kept beside the surefire reports for whoever reads a failure
      Files.copy(
          agent.log(),
          Path.of("target", "CoreAgentCrashTest-agent.log"),
          StandardCopyOption.REPLACE_EXISTING);
    }

    // The killed run's open files stay in use (named _<name>.tmp, lease held by a dead client).
    // Read as they
    // are, they hold every event whose batch the sink committed; the audit counts them before
    // recovery...
    Landing beforeRecovery = stack.landing(root);
    List<Landing.LandedFile> orphans =
        beforeRecovery.files().stream().filter(Landing.LandedFile::inUse).toList();
    assertFalse(orphans.isEmpty(), "the kill left files open: " + beforeRecovery.files());
    Report report = Report.of(ids, beforeRecovery);
    System.out.println(
        "core crash audit (before lease recovery): "
            + report
            + "; drained before kill: "
            + drainedAtKill
            + "; files left in use by the kill: "
            + orphans.size());
    assertEquals(0, report.missing(), report.toString());

    // ...and after HDFS lease recovery (what an operator runs on such files) each one is closed
    // with at least
    // the events it showed before
    recoverLeases(
        (DistributedFileSystem) stack.fs(),
        orphans.stream().map(orphan -> new org.apache.hadoop.fs.Path(orphan.path())).toList());
    Landing afterRecovery = stack.landing(root);
    Report recovered = Report.of(ids, afterRecovery);
    System.out.println("core crash audit (after lease recovery): " + recovered);
    assertEquals(0, recovered.missing(), recovered.toString());
    assertTrue(recovered.landed() >= report.landed(), recovered + " vs " + report);
    assertEquals(
        recovered.landed(),
        recovered.unique() + recovered.duplicates(),
        "every landed event is either the first copy of its id or a counted duplicate");
  }

  /**
   * Waits until the agent's HDFS sink has committed at least {@code events}; returns how many it
   * had.
   */
  private static long awaitDrained(AgentProcess agent, long events) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      long drained = agent.metrics().sink("hdfs0", "EventDrainSuccessCount");
      if (drained >= events) {
        return drained;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the agent drained only " + drained + " events in 60 s; see " + agent.log());
      }
      CoreStack.sleep(Duration.ofMillis(50));
    }
  }

  /**
   * Recovers the leases of files a dead writer left open ({@code hdfs debug recoverLease}) and
   * waits until the NameNode has closed them all: recovery of a last block runs through the
   * datanode, so all are started first.
   */
  static void recoverLeases(DistributedFileSystem dfs, List<org.apache.hadoop.fs.Path> files)
      throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    List<org.apache.hadoop.fs.Path> open = new ArrayList<>();
    for (org.apache.hadoop.fs.Path file : files) {
      if (!dfs.recoverLease(file)) {
        open.add(file);
      }
    }
    while (!open.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("lease recovery did not close " + open + " within 30 s");
      }
      CoreStack.sleep(Duration.ofMillis(250));
      for (Iterator<org.apache.hadoop.fs.Path> it = open.iterator(); it.hasNext(); ) {
        if (dfs.isFileClosed(it.next())) {
          it.remove();
        }
      }
    }
  }

  /**
   * What an audit reports: events sent, ids missing, events landed, distinct ids and duplicate
   * copies.
   */
  record Report(int sent, long missing, long landed, long unique, long duplicates) {

    static Report of(List<String> sent, Landing landing) {
      Map<String, Integer> counts = landing.idCounts();
      long missing = sent.stream().filter(id -> !counts.containsKey(id)).count();
      long landed = counts.values().stream().mapToLong(Integer::longValue).sum();
      long duplicates = counts.values().stream().mapToLong(count -> count - 1L).sum();
      return new Report(sent.size(), missing, landed, counts.size(), duplicates);
    }

    @Override
    public String toString() {
      return "sent "
          + sent
          + ", missing "
          + missing
          + ", landed "
          + landed
          + " ("
          + unique
          + " distinct ids, "
          + duplicates
          + " duplicates)";
    }
  }
}
