package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.cm.CmClient;
import org.flafka.load.Protocol;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.Directories;
import org.flafka.sweep.ConsoleProgress;
import org.flafka.sweep.Progress;
import org.flafka.sweep.Sweep;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.audit.Audits;
import org.flafka.sweep.audit.LoadMarkAudit;
import org.flafka.sweep.audit.TrialAudit;
import org.flafka.sweep.cm.CmTarget;
import org.flafka.sweep.local.LocalTarget;
import org.flafka.sweep.replay.RecordedTrials;
import org.flafka.sweep.replay.Replay;
import org.flafka.sweep.replay.ReplayException;
import org.flafka.sweep.report.AuditedAnomalies;
import org.flafka.sweep.report.ReportWriter;
import org.flafka.sweep.report.ResultsJson;
import org.flafka.sweep.report.SummaryTable;
import org.flafka.sweep.search.Point;
import org.flafka.sweep.search.SearchSpace;
import org.flafka.sweep.search.Strategies;
import org.flafka.sweep.search.Strategy;
import org.flafka.sweep.space.Dimension;
import org.flafka.sweep.space.Durations;
import org.flafka.sweep.space.Knob;
import org.flafka.sweep.space.Knobs;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceException;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.space.Timing;
import org.flafka.sweep.target.Target;
import org.flafka.sweep.target.TargetException;
import org.flafka.sweep.trial.Pruner;
import org.flafka.sweep.trial.TrialResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code flafka sweep}: find the fastest configuration by measurement. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run trials of edge and core agent configurations and measure events/s into HDFS, per stage, CPU and"
          + " loss. With no arguments: the built-in default space on a local stack (Kafka, HDFS, edge and"
          + " core Flume agents as processes), about eight minutes on a 2-core machine.",
      "Writes sweep-results/<timestamp>/: results.csv, results.json, report.html and best/ (agent properties"
          + " and Ansible group_vars). A space is a YAML file: see docs/tools/sweep.md and --list-spaces.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka sweep                                  the default space on the local stack",
      "  flafka sweep lanes --strategy descent         a built-in example, searched smartly",
      "  flafka sweep my-space.yml --repeats 3         your own space, three repeats per trial",
      "  flafka sweep my-space.yml --dry-run           list the trials and what the rules prune",
      "  flafka sweep --secure                         the default space on a secure local stack",
      "                                                (Kerberos, TLS): what security costs",
      "  flafka sweep --target cm --cm-url https://cm:7183 --hdfs-root hdfs://ns1/tmp/flafka-sweep",
      "                                                trials on a cluster, through Cloudera Manager",
      "  flafka sweep --target cm ... --kafka-config client.properties \\",
      "      --hdfs-principal me@EXAMPLE.COM --hdfs-keytab me.keytab --hdfs-config hdfs-client.properties \\",
      "      --edge-vars edge-login.yml --core-vars core-login.yml",
      "                                                the same on a secure cluster (Kerberos, SCRAM, TLS):",
      "                                                the sweep's own logins, then each agent's",
      "  flafka sweep --replay sweep-results/T --strategy descent",
      "                                                replay descent on a grid sweep's measurements",
      "",
      "Exit codes: 0 done, 1 no trial could be measured, 2 a bad space or flag, 3 the target could not",
      "start or went away (a port in use, the agent classpath not built; CM or Kafka unreachable, a group",
      "that does not exist), 4 a bug.",
    })
public final class SweepCommand implements Callable<Integer> {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SPACE",
      defaultValue = "default",
      description = "A space file, or a built-in space's name (default: ${DEFAULT-VALUE}).")
  String space;

  @Option(
      names = "--strategy",
      paramLabel = "grid|descent",
      description =
          "How to search: grid (every point) or descent (coordinate descent from what the scaling"
              + " rules suggest; a fraction of the trials). Default: the space's, else grid.")
  String strategy;

  @Option(
      names = "--target",
      paramLabel = "local|cm",
      defaultValue = "local",
      description = "Where trials run (default: ${DEFAULT-VALUE}).")
  String target;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "sweep-results",
      description = "Results go into DIR/<timestamp>/ (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--warmup",
      paramLabel = "TIME",
      description = "Override the space's warm-up, e.g. 5s.")
  String warmup;

  @Option(
      names = "--measure",
      paramLabel = "TIME",
      description = "Override the space's measure window, e.g. 20s.")
  String measure;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      description = "Override the space's repeats per trial.")
  Integer repeats;

  @Option(
      names = "--drain",
      paramLabel = "TIME",
      description =
          "Override how long a trial waits for the pipeline to deliver what it holds (0: no audit).")
  String drain;

  @Option(
      names = "--port",
      paramLabel = "N",
      description =
          "The edge's syslog port (default: local target, any free port; cm target, 5140).")
  Integer port;

  @Option(
      names = "--agent-jvm-option",
      paramLabel = "OPTION",
      description =
          "Local target: a JVM option for the agent processes, repeatable; replaces the default "
              + AgentProcess.DEPLOYED_JVM_OPTIONS_LINE
              + " (a deployed agent's, the Ansible role's flafka_agent_java_opts).")
  List<String> agentJvmOptions;

  @Option(
      names = "--secure",
      description =
          "Local target: run the stack as a secure cluster has it, to see what security costs: Kafka"
              + " over SASL_SSL with Kerberos (GSSAPI), HDFS with Kerberos and data transfer"
              + " protection privacy, a principal and keytab for each agent and for the sweep's own"
              + " clients. (--target cm: give the cluster's security with --kafka-config and"
              + " --hdfs-*.)")
  boolean secure;

  @Option(
      names = "--keep-work",
      description = "Keep the work directory (agent configurations and logs).")
  boolean keepWork;

  @Option(
      names = "--dry-run",
      description =
          "Print the trials the strategy would start from and what the rules"
              + " prune, then stop; nothing is started.")
  boolean dryRun;

  @Option(
      names = "--replay",
      paramLabel = "RESULTS",
      description =
          "Run nothing: replay the strategy on a finished sweep's measurements (its directory or"
              + " results.json; a grid's, so every point is there) and compare what it finds with the recorded"
              + " best. SPACE defaults to the one the results were measured on.")
  Path replay;

  @Option(names = "--list-spaces", description = "List the built-in spaces.")
  boolean listSpaces;

  @Option(
      names = "--show-space",
      paramLabel = "NAME",
      description = "Print a built-in space's file.")
  String showSpace;

  @Option(
      names = "--list-knobs",
      description = "List every knob a space may set or sweep, with defaults.")
  boolean listKnobs;

  @CommandLine.Mixin CmOptions cm;

  @CommandLine.Mixin CmTargetOptions cmTarget;

  @CommandLine.Mixin KafkaConfigOption kafkaConfig = new KafkaConfigOption();

  @CommandLine.Mixin HdfsSecurityOptions hdfsSecurity = new HdfsSecurityOptions();

  /** The cm target's, set by {@link #secureClients}: --kafka-config's properties. */
  private Map<String, String> kafkaClient = Map.of();

  /** The cm target's HDFS client configuration (--hdfs-config), null without --hdfs-*. */
  private Configuration hadoop;

  /** The cm target's Kerberos login for HDFS (--hdfs-principal), null without one. */
  private UserGroupInformation hdfsLogin;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    if (listSpaces) {
      for (String name : SpaceParser.BUILT_IN) {
        Space builtIn = SpaceParser.builtIn(name);
        stdout.printf(
            Locale.ROOT,
            "%-10s %,6d points  %s%n",
            name,
            builtIn.gridSize(),
            builtIn.description());
      }
      stdout.flush();
      return ExitCode.OK;
    }
    if (showSpace != null) {
      stdout.print(spaceCall(() -> SpaceParser.builtInText(showSpace)));
      stdout.flush();
      return ExitCode.OK;
    }
    if (listKnobs) {
      listKnobs(stdout);
      return ExitCode.OK;
    }
    if (replay != null) {
      return replay(stdout, stderr);
    }
    Space chosen = withOverrides(spaceCall(this::readSpace));
    Strategy search = strategy(chosen);
    if (dryRun) {
      dryRun(chosen, search, stdout);
      return ExitCode.OK;
    }
    if (!target.equals("local") && !target.equals("cm")) {
      throw UserException.invalidInput("--target must be local or cm, not '" + target + "'");
    }
    String cmOnly = cm.url != null ? "--cm-url" : cmTarget.firstSet();
    if (cmOnly == null && kafkaConfig.file != null) {
      cmOnly = KafkaConfigOption.NAME;
    }
    if (cmOnly == null && hdfsSecurity.given()) {
      cmOnly =
          HdfsSecurityOptions.CONFIG
              + ", "
              + HdfsSecurityOptions.PRINCIPAL
              + " and "
              + HdfsSecurityOptions.KEYTAB;
    }
    if (target.equals("cm") && secure) {
      throw UserException.invalidInput(
          "--secure applies to --target local only. Fix: leave it out and give the cluster's own"
              + " security with "
              + KafkaConfigOption.NAME
              + ", "
              + HdfsSecurityOptions.PRINCIPAL
              + ", "
              + HdfsSecurityOptions.KEYTAB
              + " and "
              + HdfsSecurityOptions.CONFIG
              + " (the sweep's), "
              + CmTargetOptions.EDGE_VARS
              + " and "
              + CmTargetOptions.CORE_VARS
              + " (the agents')");
    }
    if (target.equals("local") && cmOnly != null) {
      // the local stack's broker and HDFS are its own, plain or (--secure) secured by the target
      throw UserException.invalidInput(cmOnly + " applies to --target cm only");
    }
    if (target.equals("cm")) {
      cmTarget.validate();
      cmTarget.readAgentVariables(chosen);
      secureClients(stderr);
    }
    if (port != null && (port < 1 || port > 65535)) {
      throw UserException.invalidInput("--port must be 1 to 65535, not " + port);
    }
    return sweep(chosen, search, stdout, stderr);
  }

  private int sweep(Space chosen, Strategy search, PrintWriter stdout, PrintWriter stderr)
      throws InterruptedException {
    CmClient client = target.equals("cm") ? cm.connect(System.getenv()) : null;
    Path directory = resultsDirectory();
    Path work = directory.resolve("work");
    ReportWriter writer = new ReportWriter(directory);
    LocalTarget local =
        client != null
            ? null
            : new LocalTarget(
                work,
                port,
                protocols(chosen),
                agentJvmOptions == null ? AgentProcess.DEPLOYED_JVM_OPTIONS : agentJvmOptions,
                secure);
    Target runsOn =
        client != null
            ? new CmTarget(
                client,
                cmTarget.settings(
                    work, port, "flafka-sweep-" + directory.getFileName() + "-", kafkaClient))
            : local;
    Optional<TrialAudit> audit =
        client != null
            ? Audits.discover(new LoadMarkAudit(kafkaClient, hadoop, hdfsLogin))
            : Audits.discover(local.audit());
    Progress progress =
        new ConsoleProgress(
            stderr,
            System.console() != null,
            System::nanoTime,
            // one run: warm-up, measure, and about 30 s of start, drain and audit
            chosen.timing().warmup().plus(chosen.timing().measure()).plus(Duration.ofSeconds(30)));
    Sweep sweep = new Sweep(chosen, search, runsOn, audit, progress, writer::checkpoint);
    Thread hook =
        new Thread(
            () -> {
              sweep.abort();
              runsOn.close();
              stderr.println(
                  "flafka sweep: interrupted; stopped every process it started; partial results in "
                      + directory);
              stderr.flush();
            },
            "flafka-sweep-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    boolean keep = keepWork;
    try {
      progress.status("results in " + directory);
      SweepResult result = sweep.run();
      writer.finish(result);
      SummaryTable.print(result, directory, stdout);
      for (String kept : AuditedAnomalies.keep(result, work, directory)) {
        stderr.println("flafka sweep: " + kept);
      }
      keep |= result.trials().stream().anyMatch(t -> t.status() == TrialResult.Status.FAILED);
      if (result.best().isEmpty()) {
        throw new UserException(
            ExitCode.FAILED,
            "no trial could be measured; the reasons are in "
                + directory.resolve("report.html")
                + " and the agent logs in "
                + work);
      }
      return ExitCode.OK;
    } catch (TargetException e) {
      keep = true;
      writeWhatWeHave(sweep, writer);
      throw UserException.unexpectedState(e.getMessage());
    } catch (RuntimeException | InterruptedException e) {
      keep = true;
      writeWhatWeHave(sweep, writer);
      throw e;
    } finally {
      runsOn.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or has run: it closed the target
      }
      if (keep) {
        stderr.println("flafka sweep: configurations and agent logs kept in " + work);
      } else {
        try {
          Directories.deleteRecursively(work);
        } catch (UncheckedIOException e) {
          stderr.println("flafka sweep: " + e.getMessage() + "; delete it by hand");
        }
      }
      stderr.flush();
    }
  }

  /**
   * The cm target's Kafka client properties, Hadoop configuration and Kerberos login, from {@code
   * --kafka-config} and {@code --hdfs-*} as {@code flafka audit} reads them (the same warning of a
   * password others can read, the same one-line errors), before anything connects.
   */
  private void secureClients(PrintWriter stderr) {
    kafkaClient = kafkaConfig.properties();
    String exposure = kafkaConfig.exposureWarning();
    if (exposure != null) {
      stderr.println("warning: " + exposure);
      stderr.flush();
    }
    hadoop = hdfsSecurity.given() ? hdfsSecurity.configuration() : null;
    hdfsLogin = hadoop == null ? null : hdfsSecurity.login(hadoop);
  }

  private static void writeWhatWeHave(Sweep sweep, ReportWriter writer) {
    try {
      writer.finish(sweep.result(false));
    } catch (RuntimeException ignored) {
      // the original failure is the one to report
    }
  }

  private Space readSpace() {
    Path path = Path.of(space);
    if (Files.exists(path)
        || space.contains("/")
        || space.endsWith(".yml")
        || space.endsWith(".yaml")) {
      return SpaceParser.parse(path);
    }
    return SpaceParser.builtIn(space);
  }

  private static <T> T spaceCall(Supplier<T> call) {
    try {
      return call.get();
    } catch (SpaceException e) {
      throw UserException.invalidInput(e.getMessage());
    }
  }

  private Space withOverrides(Space parsed) {
    Timing timing = parsed.timing();
    try {
      if (warmup != null) {
        timing = timing.withWarmup(Durations.parse(warmup));
      }
      if (measure != null) {
        timing = timing.withMeasure(Durations.parse(measure));
      }
      if (repeats != null) {
        timing = timing.withRepeats(repeats);
      }
      if (drain != null) {
        timing = timing.withDrain(Durations.parse(drain));
      }
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput("timing flags: " + e.getMessage());
    }
    return parsed.withTiming(timing);
  }

  private Strategy strategy(Space chosen) {
    String name =
        strategy != null ? strategy : chosen.strategy() != null ? chosen.strategy() : "grid";
    try {
      return Strategies.byName(name);
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput("--strategy: " + e.getMessage());
    }
  }

  private Path resultsDirectory() {
    String stamp = LocalDateTime.now().format(STAMP);
    Path directory = out.resolve(stamp);
    for (int n = 2; Files.exists(directory); n++) {
      directory = out.resolve(stamp + "-" + n);
    }
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw UserException.invalidInput(
          "cannot create the results directory "
              + directory
              + ": "
              + e.getMessage()
              + "; choose another with --out");
    }
    return directory;
  }

  private static Set<Protocol> protocols(Space chosen) {
    Set<Protocol> protocols = new LinkedHashSet<>();
    protocols.add(Knobs.protocol(chosen.baseline().get("load.protocol")));
    for (Dimension dimension : chosen.dimensions()) {
      if (dimension.name().equals("load.protocol")) {
        dimension.values().forEach(value -> protocols.add(Knobs.protocol(value)));
      }
    }
    return protocols;
  }

  /**
   * Lists the plan without starting anything: the baseline, the seed, and for a grid every point
   * with its fate.
   */
  private void dryRun(Space chosen, Strategy search, PrintWriter stdout) {
    SearchSpace searchSpace = Sweep.searchSpace(chosen);
    LocalTarget rules =
        new LocalTarget(
            out.resolve("dry-run"), port, protocols(chosen), AgentProcess.DEPLOYED_JVM_OPTIONS);
    Pruner pruner = new Pruner(rules);
    stdout.printf(
        Locale.ROOT,
        "space %s (%s): %,d points; strategy %s plans ~%d trials; each trial %s warm-up +"
            + " %s measured, %d repeat%s%n",
        chosen.name(),
        chosen.source(),
        chosen.gridSize(),
        search.name(),
        search.plannedEvaluations(searchSpace),
        Durations.format(chosen.timing().warmup()),
        Durations.format(chosen.timing().measure()),
        chosen.timing().repeats(),
        chosen.timing().repeats() == 1 ? "" : "s");
    line(stdout, "defaults", chosen, chosen.baseline(), pruner);
    Point seed = searchSpace.start();
    line(stdout, "seed", chosen, chosen.settingsAt(seed.coordinates()), pruner);
    if (search.plannedEvaluations(searchSpace) == chosen.gridSize()) {
      int n = 1;
      for (Point point : searchSpace.allPoints()) {
        line(stdout, "point " + n++, chosen, chosen.settingsAt(point.coordinates()), pruner);
      }
    }
    stdout.flush();
  }

  /**
   * Replays the strategy on recorded measurements: the same sweep and strategy code, with no trial
   * run.
   */
  private int replay(PrintWriter stdout, PrintWriter stderr) throws InterruptedException {
    Path file = Files.isDirectory(replay) ? replay.resolve("results.json") : replay;
    ResultsJson.Recorded recorded;
    try {
      recorded = ResultsJson.read(file);
    } catch (IOException e) {
      throw UserException.invalidInput(
          "--replay: cannot read "
              + file
              + " ("
              + e.getMessage()
              + "); give a"
              + " sweep's results directory or its results.json");
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput("--replay: " + e.getMessage());
    }
    boolean spaceGiven = spec.commandLine().getParseResult().hasMatchedPositional(0);
    try {
      Space chosen = spaceCall(() -> spaceGiven ? readSpace() : Replay.recordedSpace(recorded));
      Strategy search = strategy(chosen);
      RecordedTrials trials = new RecordedTrials(chosen, recorded);
      Path directory = resultsDirectory();
      ReportWriter writer = new ReportWriter(directory);
      Progress progress = new ConsoleProgress(stderr, false, System::nanoTime, Duration.ZERO);
      progress.status("results in " + directory);
      SweepResult result = new Sweep(chosen, search, trials, progress, writer::checkpoint).run();
      writer.finish(result);
      SummaryTable.print(result, directory, stdout);
      stdout.println(Replay.of(result, trials).describe());
      stdout.flush();
      return ExitCode.OK;
    } catch (ReplayException e) {
      throw UserException.invalidInput("--replay: " + e.getMessage());
    }
  }

  private static void line(
      PrintWriter stdout, String label, Space chosen, Settings settings, Pruner pruner) {
    StringBuilder text = new StringBuilder(label).append(":");
    for (Dimension dimension : chosen.dimensions()) {
      text.append(' ').append(dimension.name()).append('=').append(settings.get(dimension.name()));
    }
    text.append(pruner.reason(settings).map(reason -> "  PRUNED: " + reason).orElse(""));
    stdout.println(text);
  }

  private static void listKnobs(PrintWriter stdout) {
    for (Knob knob : Knobs.all().values()) {
      stdout.printf(
          Locale.ROOT,
          "%s (%s) = %s%n    %s%n",
          knob.name(),
          knob.kind().name().toLowerCase(Locale.ROOT),
          knob.defaultValue(),
          knob.doc().replace("\n", " "));
    }
    stdout.println(
        "Set by the target, not by spaces: "
            + String.join(", ", Knobs.TARGET_OWNED.stream().sorted().toList()));
    stdout.flush();
  }
}
