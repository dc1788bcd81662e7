package org.flafka.sweep.trial;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;
import org.flafka.load.Clock;
import org.flafka.load.LoadGenerator;
import org.flafka.load.LoadResult;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.audit.Landing;
import org.flafka.sweep.audit.TrialAudit;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.space.LoadPlan;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Timing;
import org.flafka.sweep.target.AgentSample;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.target.TrialEnvironment;

/**
 * Runs trials on a {@link Target}: prune, then for each repeat prepare a fresh topic, render and
 * start both agents, prime the pipeline with a trickle of load until events flow into HDFS, send
 * the load as fast as the pipeline takes it (or at the space's rate), read the counters after the
 * warm-up and at the end of the measure window, stop the load, let the pipeline drain, stop the
 * agents and audit what landed.
 */
public final class TrialRunner implements Trials {
  /**
   * Counters that do not move for this long while draining mean the pipeline is stuck, not slow.
   */
  static final Duration STUCK = Duration.ofSeconds(20);

  /** The counts the drain watches, from the edge's sources to the core's HDFS sinks. */
  static final List<Stage> DRAIN_STAGES =
      List.of(Stage.EDGE_SOURCE, Stage.EDGE_SINK, Stage.CORE_SOURCE, Stage.CORE_SINK);

  /** How long the drain runs before it judges whether the backlog can drain in time. */
  static final Duration DRAIN_JUDGEMENT = Duration.ofSeconds(4);

  /** The longest a pipeline may take from the load's start until events flow into HDFS. */
  static final Duration FIRST_DELIVERY = Duration.ofMinutes(3);

  /**
   * Flume's sink counter for files (connections) opened: an HDFS sink counts each file it creates.
   */
  static final String FILES_OPENED = "ConnectionCreatedCount";

  private static final Duration POLL = Duration.ofMillis(250);

  /**
   * The load's rate (events/s) until events flow into HDFS. Agents that just started spend seconds
   * joining the consumer group and opening their first HDFS files; at the trial's rate that time
   * would pile up a backlog in Kafka that the drain then waits for, and the edge and the load would
   * take CPU the starting core needs.
   */
  static final double PRIMING_RATE = 1000;

  /**
   * The longest the trickle lasts. A target whose samples lack the HDFS sinks' files-opened counter
   * (see {@link #flowing}) only shows the first batch landing, which a trickle can take minutes to
   * fill: after this the load goes to the trial's rate while the runner keeps waiting.
   */
  static final Duration PRIMING_LIMIT = Duration.ofSeconds(10);

  /** The load generator needs a time limit; the runner stops it long before this. */
  private static final Duration LOAD_LIMIT = Duration.ofHours(1);

  private final Target target;
  private final Timing timing;
  private final Optional<TrialAudit> audit;
  private final Pruner pruner;
  private final Consumer<String> phase;
  private volatile LoadGenerator runningLoad;

  /**
   * {@code phase} hears what the current run is doing ("warm-up", "measuring", ...), for the
   * progress bar.
   */
  public TrialRunner(
      Target target, Timing timing, Optional<TrialAudit> audit, Consumer<String> phase) {
    this.target = target;
    this.timing = timing;
    this.audit = audit;
    this.pruner = new Pruner(target);
    this.phase = phase;
  }

  @Override
  public String description() {
    return target.description();
  }

  @Override
  public Optional<String> auditName() {
    return audit.map(TrialAudit::name);
  }

  @Override
  public void start(Consumer<String> status) {
    target.start(status);
  }

  @Override
  public Optional<String> pruneReason(Settings settings) {
    return pruner.reason(settings);
  }

  /**
   * Runs trial {@code number} once, as its first repeat; {@link #repeat} runs the others, so a
   * sweep can take its repeats in rounds over all trials. Failures of the trial (an agent that does
   * not start, a load connection that breaks) make a FAILED result; a {@link TargetException} (the
   * stack itself is gone) is thrown, ending the sweep.
   */
  @Override
  public TrialResult run(int number, Settings settings, boolean baseline)
      throws InterruptedException {
    Optional<String> pruned = pruneReason(settings);
    if (pruned.isPresent()) {
      return new TrialResult(
          number, settings, baseline, TrialResult.Status.PRUNED, pruned.get(), List.of());
    }
    return runRepeat(
        new TrialResult(number, settings, baseline, TrialResult.Status.OK, "", List.of()), 1);
  }

  /**
   * {@code trial} with repeat {@code repeat} run and added to its runs; a trial that did not
   * measure (pruned, failed) comes back as it was.
   */
  @Override
  public TrialResult repeat(TrialResult trial, int repeat) throws InterruptedException {
    return trial.status() == TrialResult.Status.OK ? runRepeat(trial, repeat) : trial;
  }

  @Override
  public boolean repeatsInRounds() {
    return true;
  }

  private TrialResult runRepeat(TrialResult trial, int repeat) throws InterruptedException {
    List<Measurement> runs = new ArrayList<>(trial.runs());
    try {
      runs.add(runOnce(trial.runName(repeat), repeat, trial.settings()));
    } catch (TargetException | InterruptedException e) {
      throw e;
    } catch (RuntimeException | IOException | ExecutionException e) {
      target.checkHealthy();
      return new TrialResult(
          trial.number(),
          trial.settings(),
          trial.baseline(),
          TrialResult.Status.FAILED,
          "repeat " + repeat + ": " + oneLine(e),
          runs);
    }
    return new TrialResult(
        trial.number(), trial.settings(), trial.baseline(), TrialResult.Status.OK, "", runs);
  }

  /** Stops a running load at once (Ctrl-C). */
  @Override
  public void abort() {
    LoadGenerator load = runningLoad;
    if (load != null) {
      load.stop();
    }
  }

  /**
   * Runs {@code settings} once, unrecorded, before the first trial when the target starts cold (the
   * local stack): its broker, HDFS and this JVM's load generator have not run yet, and a first
   * trial measured on them came out at half the rate the same configuration measured later
   * (docs/benchmarks.md). Primes, sends at the trial's rate for a trial's warm-up and window, then
   * kills the agents. A failure here is left to the first trial to meet and report.
   */
  @Override
  public void warmUpStack(Settings settings, Consumer<String> status) throws InterruptedException {
    if (!target.startsCold() || pruneReason(settings).isPresent()) {
      return;
    }
    LoadPlan plan = LoadPlan.of(settings);
    status.accept("warming up the stack: one unrecorded run of the defaults");
    try {
      TrialEnvironment environment =
          target.prepare("warm-up", settings.topicPartitions(), plan.protocol());
      target.startAgents(
          environment,
          Pruner.render(Tier.EDGE, settings, environment.edgeVariables()),
          Pruner.render(Tier.CORE, settings, environment.coreVariables()));
      try {
        Sending sending = startLoad(plan, environment);
        try {
          prime(sending, plan);
          waitWhileSending(sending.result(), timing.warmup().plus(timing.measure()));
        } finally {
          sending.load().stop();
          runningLoad = null;
        }
      } finally {
        target.killAgents();
      }
    } catch (TargetException e) {
      throw e;
    } catch (RuntimeException | ExecutionException e) {
      // the first trial meets the same problem and reports it
    }
  }

  private Measurement runOnce(String runName, int repeat, Settings settings)
      throws IOException, InterruptedException, ExecutionException {
    LoadPlan plan = LoadPlan.of(settings);
    phase.accept("preparing topic");
    TrialEnvironment environment =
        target.prepare(runName, settings.topicPartitions(), plan.protocol());
    String edge = Pruner.render(Tier.EDGE, settings, environment.edgeVariables());
    String core = Pruner.render(Tier.CORE, settings, environment.coreVariables());
    phase.accept("starting agents");
    target.startAgents(environment, edge, core);
    Measurement measurement;
    boolean stopCleanly = true;
    try {
      Sending sending = startLoad(plan, environment);
      LoadGenerator load = sending.load();
      try {
        phase.accept("priming until events flow into HDFS");
        double firstDelivery = prime(sending, plan);
        phase.accept("warm-up");
        double warmup = warmUp(sending.result());
        AgentSample edgeStart = target.sample(Tier.EDGE);
        AgentSample coreStart = target.sample(Tier.CORE);
        LoadGenerator.Progress loadStart = load.progress();
        phase.accept("measuring");
        waitWhileSending(sending.result(), timing.measure());
        AgentSample edgeEnd = target.sample(Tier.EDGE);
        AgentSample coreEnd = target.sample(Tier.CORE);
        LoadGenerator.Progress loadEnd = load.progress();
        measurement =
            Measurement.ofWindow(
                    repeat,
                    plan.rate(),
                    edgeStart,
                    edgeEnd,
                    coreStart,
                    coreEnd,
                    loadStart.events(),
                    loadEnd.events(),
                    loadEnd.elapsedNanos() - loadStart.elapsedNanos())
                .withStartUp(firstDelivery, warmup);
      } finally {
        load.stop();
      }
      LoadResult loadResult = sending.result().get();
      runningLoad = null;
      if (loadResult.failure() != null) {
        throw new IllegalStateException(
            "the load could not send to " + environment.syslog() + ": " + loadResult.failure());
      }
      writeManifest(loadResult, environment.directory().resolve("manifest.json"));
      measurement = drain(measurement, loadResult.events());
      stopCleanly = measurement.drained(); // else not audited: nothing to flush or close
    } finally {
      runningLoad = null;
      phase.accept("stopping agents");
      if (stopCleanly) {
        target.stopAgents();
      } else {
        target.killAgents();
      }
    }
    return audit(measurement, settings, environment);
  }

  /** A load being sent, and what it will have sent once stopped. */
  private record Sending(LoadGenerator load, FutureTask<LoadResult> result) {}

  /** Starts the load as a trickle ({@link #prime} raises it to the plan's rate). */
  private Sending startLoad(LoadPlan plan, TrialEnvironment environment) {
    LoadGenerator load =
        new LoadGenerator(plan.settings(environment.syslog(), LOAD_LIMIT), Clock.SYSTEM);
    load.changeRate(Math.min(PRIMING_RATE, plan.rate()));
    runningLoad = load;
    FutureTask<LoadResult> result = new FutureTask<>(() -> load.run(null, 0));
    Thread sender = new Thread(result, "flafka-sweep-load");
    sender.setDaemon(true);
    sender.start();
    return new Sending(load, result);
  }

  /**
   * Waits while the trickle primes the pipeline, then sends at the plan's rate; returns the seconds
   * it took.
   */
  private double prime(Sending sending, LoadPlan plan)
      throws InterruptedException, ExecutionException {
    long started = System.nanoTime();
    awaitFlowing(sending.result(), sending.load(), plan.rate());
    sending.load().changeRate(plan.rate());
    return (System.nanoTime() - started) / 1e9;
  }

  /**
   * The warm-up: at least the timing's {@code warmup}, then until the rate into HDFS stops changing
   * over a measure window ({@link SteadyRate}), at most {@code warmupMax}. Returns how long it
   * lasted, in seconds.
   */
  private double warmUp(FutureTask<LoadResult> sending)
      throws InterruptedException, ExecutionException {
    long start = System.nanoTime();
    if (timing.warmupMax().equals(timing.warmup())) {
      waitWhileSending(sending, timing.warmup());
      return (System.nanoTime() - start) / 1e9;
    }
    Duration interval = timing.measure().dividedBy(SteadyRate.READINGS_PER_WINDOW);
    SteadyRate rate = new SteadyRate();
    rate.add(System.nanoTime(), total(target.sample(Tier.CORE), Stage.CORE_SINK));
    while (true) {
      waitWhileSending(sending, interval);
      long now = System.nanoTime();
      rate.add(now, total(target.sample(Tier.CORE), Stage.CORE_SINK));
      long elapsed = now - start;
      if (elapsed >= timing.warmupMax().toNanos()
          || (elapsed >= timing.warmup().toNanos() && rate.steady())) {
        return elapsed / 1e9;
      }
    }
  }

  /** Sleeps {@code duration}; fails early if the load ended on its own (a broken connection). */
  private static void waitWhileSending(FutureTask<LoadResult> sending, Duration duration)
      throws InterruptedException, ExecutionException {
    long deadline = System.nanoTime() + duration.toNanos();
    while (System.nanoTime() < deadline) {
      if (sending.isDone()) {
        LoadResult result = sending.get();
        throw new IllegalStateException(
            "the load stopped early" + (result.failure() == null ? "" : ": " + result.failure()));
      }
      Thread.sleep(
          Math.max(1, Math.min(POLL.toMillis(), (deadline - System.nanoTime()) / 1_000_000)));
    }
  }

  /**
   * Waits until events flow into HDFS: producers fetch metadata, consumers join their group and
   * sinks open their first files before anything flows end to end, which takes seconds on a busy
   * machine. The warm-up starts only then, so it warms a pipeline that runs.
   */
  private void awaitFlowing(FutureTask<LoadResult> sending, LoadGenerator load, double rate)
      throws InterruptedException, ExecutionException {
    long start = System.nanoTime();
    long deadline = start + FIRST_DELIVERY.toNanos();
    while (!flowing(target.sample(Tier.CORE))) {
      if (System.nanoTime() - start > PRIMING_LIMIT.toNanos()) {
        load.changeRate(rate);
      }
      if (sending.isDone()) {
        LoadResult result = sending.get();
        throw new IllegalStateException(
            "the load stopped before any event reached HDFS"
                + (result.failure() == null ? "" : ": " + result.failure()));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no event reached HDFS within "
                + FIRST_DELIVERY.toSeconds()
                + " s of starting the load; see the agent logs");
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Whether events flow into HDFS: a batch landed, or the core's Kafka sources took events and its
   * sinks opened files. Not only the first batch: a sink's memory channel waits up to its
   * keep-alive (3 s) for more events before it lets a batch end short, so a trickle fills a whole
   * batch first (10,000 events at a few hundred per second per sink: tens of seconds), while the
   * files open as soon as the first events arrive.
   */
  static boolean flowing(AgentSample core) {
    Long filesOpened = core.sum(Stage.CORE_SINK.componentPrefix(), FILES_OPENED);
    return total(core, Stage.CORE_SINK) > 0
        || (total(core, Stage.CORE_SOURCE) > 0 && filesOpened != null && filesOpened > 0);
  }

  /**
   * Waits until the core has drained what the edge accepted, no counter on the way moves for {@link
   * #STUCK}, or the drain time is up.
   */
  private Measurement drain(Measurement measurement, long sent) throws InterruptedException {
    phase.accept("draining");
    long start = System.nanoTime();
    long deadline = start + timing.drain().toNanos();
    long lastChange = start;
    List<Long> last = List.of();
    long firstDelivered = -1;
    while (true) {
      AgentSample edge = target.sample(Tier.EDGE);
      AgentSample core = target.sample(Tier.CORE);
      List<Long> counts =
          DRAIN_STAGES.stream()
              .map(stage -> total(stage.tier() == Tier.EDGE ? edge : core, stage))
              .toList();
      long accepted = counts.get(0);
      long delivered = counts.get(counts.size() - 1);
      if (delivered >= accepted) {
        return measurement.withTotals(sent, accepted, delivered, true);
      }
      long now = System.nanoTime();
      if (!counts.equals(last)) {
        lastChange = now;
        last = counts;
      }
      if (firstDelivered < 0) {
        firstDelivered = delivered;
      }
      String stopped = null;
      if (now >= deadline) {
        stopped = "the drain time, " + Durations.format(timing.drain()) + ", ran out";
      } else if (now - lastChange >= STUCK.toNanos()) {
        stopped = "no count moved for " + STUCK.toSeconds() + " s";
      } else if (hopeless(
          accepted - delivered, delivered - firstDelivered, now - start, deadline - now)) {
        stopped = "at the rate the core drained, the rest would outlast the drain time";
      }
      if (stopped != null) {
        return measurement
            .withTotals(sent, accepted, delivered, false)
            .withAudit(null, notDrainedNote(counts, stopped));
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Whether a backlog cannot drain in the time left, judged after a few seconds of draining at the
   * rate seen so far: a core far slower than the edge (the usual case with the load at max) leaves
   * minutes of events in Kafka, and waiting out the drain time for them only makes the sweep
   * slower.
   */
  static boolean hopeless(long backlog, long drainedSoFar, long nanosSoFar, long nanosLeft) {
    if (nanosSoFar < DRAIN_JUDGEMENT.toNanos()) {
      return false;
    }
    double rate = drainedSoFar / (nanosSoFar / 1e9);
    return rate <= 0 ? false : backlog / rate > 1.5 * nanosLeft / 1e9;
  }

  /**
   * Why a trial was not audited: the backlog, why the drain stopped, and every stage's count, so a
   * shortfall shows where the events were (or which count is off).
   *
   * @param counts the totals of {@link #DRAIN_STAGES}, in order
   */
  static String notDrainedNote(List<Long> counts, String stopped) {
    StringBuilder note =
        new StringBuilder("not run: ")
            .append(counts.get(0) - counts.get(counts.size() - 1))
            .append(" events were still on their way to HDFS when the drain stopped (")
            .append(stopped)
            .append("); counts:");
    for (int i = 0; i < DRAIN_STAGES.size(); i++) {
      note.append(i == 0 ? " " : ", ")
          .append(DRAIN_STAGES.get(i).label())
          .append(' ')
          .append(counts.get(i));
    }
    return note.toString();
  }

  private Measurement audit(
      Measurement measurement, Settings settings, TrialEnvironment environment) {
    if (!measurement.drained()) {
      return measurement; // drain() noted why
    }
    if (audit.isEmpty()) {
      return measurement.withAudit(null, "not run: no audit given");
    }
    if (timing.drain().isZero()) {
      return measurement.withAudit(null, "not run: drain is 0, so events were still in flight");
    }
    phase.accept("auditing");
    try {
      AuditCounts result =
          audit
              .get()
              .audit(
                  environment.directory().resolve("manifest.json"), landing(settings, environment));
      return measurement.withAudit(result, audit.get().name());
    } catch (Exception e) {
      return measurement.withAudit(null, audit.get().name() + " failed: " + oneLine(e));
    }
  }

  /** Where the core wrote: its HDFS root, file format and codec, as the rendering resolved them. */
  static Landing landing(Settings settings, TrialEnvironment environment) {
    Map<String, Object> variables = new LinkedHashMap<>(settings.templateVariables(Tier.CORE));
    variables.putAll(environment.coreVariables());
    Map<String, Object> resolved = AgentTemplates.resolve(Tier.CORE, variables);
    return new Landing.Hdfs(
        URI.create(String.valueOf(resolved.get("core_hdfs_root"))),
        String.valueOf(resolved.get("core_hdfs_format")),
        String.valueOf(resolved.get("core_hdfs_codec")));
  }

  private static long total(AgentSample sample, Stage stage) {
    Long total = sample.sum(stage.componentPrefix(), stage.counter());
    return total == null ? 0 : total;
  }

  private static void writeManifest(LoadResult result, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      result.writeManifest(out);
    }
  }

  static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
