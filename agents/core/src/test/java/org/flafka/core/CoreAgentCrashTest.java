package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.ContractEvent;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core agent as a separate process on the production agent classpath, killed with SIGKILL while
 * it drains a backlog and events keep arriving, then started again. With the DEFAULT configuration
 * (Kafka channels, offsets committed after the HDFS flush) it loses nothing, and the duplicates
 * that at-least-once delivery makes are counted; with memory channels (Kafka sources, which commit
 * offsets once the channels hold the events) the same crash loses what the channels held, which is
 * why memory is not the default.
 */
@ExtendWith(CoreStackExtension.class)
@Tag("e2e")
class CoreAgentCrashTest {

  /** Records waiting in the topic before the agent starts: enough to fill a memory channel. */
  private static final int BACKLOG = 30_000;

  @TempDir static Path dir;
  private static CoreStack stack;

  @BeforeAll
  static void shareStack(CoreStack shared) {
    stack = shared;
  }

  // Two agent JVM start-ups, group joins and lease recovery on the shared 2-core machine
  @Test
  @Timeout(240)
  void killedAgentWithTheDefaultConfigurationLosesNothingAndPublishesWhatItLeftOpen()
      throws Exception {
    Crash crash = crash("crash-default", Map.of());

    assertEquals(0, crash.report().missing(), crash.report().toString());
    assertEquals(
        crash.report().landed(),
        crash.report().unique() + crash.report().duplicates(),
        "every landed event is either the first copy of its id or a counted duplicate");
    assertTrue(crash.recoveredByAgent() > 0, "the kill left files in progress: " + crash);
    assertEquals(0, crash.leftInProgress(), "no file stays invisible: " + crash);
  }

  @Test
  @Timeout(240)
  void killedAgentWithMemoryChannelsLosesWhatTheChannelsHeld() throws Exception {
    // Static membership for the sources too, so the restart does not wait for the session timeout
    Crash crash =
        crash(
            "crash-memory",
            Map.of("core_channel_type", "memory", "core_group_instance_prefix", "core-test"));

    assertTrue(
        crash.report().missing() > 0,
        "the Kafka source had committed what the memory channel held: " + crash);
  }

  /**
   * What the audit found after a crash and a restart, how many files the kill left in progress that
   * the restarted agent published, and how many stayed in progress.
   */
  record Crash(Report report, long recoveredByAgent, int leftInProgress) {}

  /**
   * Fills {@code topic} with a backlog, starts the agent, kills it with SIGKILL once its sink has
   * drained a few batches while a producer keeps writing, starts it again, waits until what lands
   * stops changing, stops it and audits HDFS.
   */
  private static Crash crash(String topic, Map<String, Object> overrides) throws Exception {
    stack.kafka().createTopic(topic, 4);
    String root = stack.hdfsRoot(topic);
    Map<String, Object> variables =
        stack.variables(topic, root, dir.resolve(topic + "-data"), overrides);
    String properties = CoreStack.render(variables);
    // The production runtime plus this module's plugins and the ones they use, as plugins.d would
    AgentRuntime runtime = OurPlugins.addThoseOnTheClasspathTo(AgentRuntime.locate());
    Path agentDir = dir.resolve(topic + "-agent");

    List<String> ids = new ArrayList<>();
    List<ContractEvent> backlog = new ArrayList<>(BACKLOG);
    long now = System.currentTimeMillis();
    for (int i = 0; i < BACKLOG; i++) {
      backlog.add(ContractEvent.of(topic + "-b" + i, "edge-router-" + (i % 20), now));
    }
    ContractEvent.produce(stack.kafka().bootstrapServers(), topic, backlog);
    backlog.forEach(event -> ids.add(event.id()));

    AgentProcess agent =
        AgentProcess.builder("core", properties, agentDir).runtime(runtime).start();
    SteadyProducer producer =
        SteadyProducer.start(
            stack.kafka().bootstrapServers(), topic, topic + "-s", 20, Duration.ofMillis(100));
    long drainedAtKill;
    Duration restartToFirstDrain;
    try {
      drainedAtKill = awaitDrained(agent, 2_000);
      agent.kill();
      int sentAtKill = producer.acknowledgedCount();
      // Events keep arriving while the agent is down; then it comes back
      CoreStack.sleep(Duration.ofSeconds(1));
      long restarted = System.nanoTime();
      agent = AgentProcess.builder("core", properties, agentDir).runtime(runtime).start();
      awaitDrained(agent, 1);
      restartToFirstDrain = Duration.ofNanos(System.nanoTime() - restarted);
      while (producer.acknowledgedCount() < sentAtKill + 200) {
        CoreStack.sleep(Duration.ofMillis(100));
      }
    } finally {
      ids.addAll(producer.stop());
    }
    long recoveredByAgent;
    try {
      awaitSettled(root, ids, Duration.ofSeconds(90));
      recoveredByAgent = awaitRecovered(agent, root);
    } finally {
      agent.stop();
      // Both runs' logs, kept beside the surefire reports for whoever reads a failure
      Files.copy(
          agent.log(),
          Path.of("target", "CoreAgentCrashTest-" + topic + "-agent.log"),
          StandardCopyOption.REPLACE_EXISTING);
    }

    // The restarted agent closed and published the files the kill left in progress, and stopping
    // closed its own: nothing is left named _<name>.tmp, invisible to readers
    Landing landing = stack.landing(root);
    List<Landing.LandedFile> inProgress =
        landing.files().stream().filter(Landing.LandedFile::inUse).toList();
    Report report = Report.of(ids, landing);
    System.out.println(
        topic
            + " audit: "
            + report
            + "; drained before kill: "
            + drainedAtKill
            + "; restart to first drained batch: "
            + restartToFirstDrain.toMillis()
            + " ms (agent JVM start included); files the kill left in progress, recovered by the "
            + "restarted agent: "
            + recoveredByAgent
            + "; files still in progress: "
            + inProgress.size());
    return new Crash(report, recoveredByAgent, inProgress.size());
  }

  /**
   * Waits until no file of the killed run is in progress any more; returns how many the agent
   * recovered. The restarted agent's own open files are in progress too: they are told apart by
   * being newer than the kill, so this waits for the count the agent reports to match the files
   * that disappeared.
   */
  private static long awaitRecovered(AgentProcess agent, String root) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      long recovered = agent.metrics().sink("hdfs0", "RecoveredFileCount");
      if (recovered > 0 || System.nanoTime() > deadline) {
        return recovered;
      }
      CoreStack.sleep(Duration.ofMillis(250));
    }
  }

  /**
   * Polls {@code hdfsRoot} until every one of {@code ids} has landed, or what landed has not
   * changed for 10 s (events lost for good), or {@code timeout} passes.
   */
  private static void awaitSettled(String hdfsRoot, List<String> ids, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long lastChange = System.nanoTime();
    int lastLanded = -1;
    while (System.nanoTime() < deadline) {
      Map<String, Integer> counts = stack.landing(hdfsRoot).idCounts();
      if (counts.keySet().containsAll(ids)) {
        return;
      }
      int landed = counts.values().stream().mapToInt(Integer::intValue).sum();
      if (landed != lastLanded) {
        lastLanded = landed;
        lastChange = System.nanoTime();
      } else if (System.nanoTime() - lastChange > Duration.ofSeconds(10).toNanos()) {
        return;
      }
      CoreStack.sleep(Duration.ofMillis(500));
    }
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
