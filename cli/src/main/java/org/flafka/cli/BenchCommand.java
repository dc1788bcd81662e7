package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.flafka.bench.BenchException;
import org.flafka.bench.CoreBench;
import org.flafka.bench.CoreBenchReport;
import org.flafka.bench.CoreBenchSettings;
import org.flafka.bench.CoreVariant;
import org.flafka.bench.EdgeBench;
import org.flafka.bench.EdgeBenchReport;
import org.flafka.bench.EdgeBenchSettings;
import org.flafka.bench.EdgeVariant;
import org.flafka.bench.JfrHotspots;
import org.flafka.bench.Variant;
import org.flafka.lint.Finding;
import org.flafka.load.Protocol;
import org.flafka.render.TemplateVariableException;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.Directories;
import org.flafka.stack.StackException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code flafka bench}: end-to-end benchmarks on local processes. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    subcommands = {BenchCommand.Edge.class, BenchCommand.Core.class},
    description = "End-to-end benchmarks on this machine, with real broker and agent processes.")
public final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a benchmark: edge or core");
  }

  static Duration duration(String flag, String text, boolean zeroAllowed) {
    Duration parsed;
    try {
      parsed = LoadCommand.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          flag + " '" + text + "' is not a duration (e.g. 15s, 2m, 500ms)");
    }
    if (!zeroAllowed && parsed.isZero()) {
      throw new IllegalArgumentException(flag + " must be longer than 0");
    }
    return parsed;
  }

  static Path createDirectory(String flag, Path dir) {
    try {
      return Files.createDirectories(dir).toAbsolutePath();
    } catch (IOException e) {
      throw UserException.invalidInput(
          flag + " " + dir + ": cannot create the directory (" + e.getMessage() + ")");
    }
  }

  static void deleteTemporary(Path work) {
    try {
      Directories.deleteRecursively(work);
    } catch (UncheckedIOException e) {
      // A temporary directory left behind is harmless; the run's result stands.
    }
  }

  /**
   * Runs a bench: on Ctrl-C or TERM {@code abort} kills its processes at once (the stack's own hook
   * would too), and the run then fails; the JVM waits for this hook. A failure of the bench is a
   * one-line error that names the kept work directory; a temporary one is deleted after a
   * successful run.
   */
  static <R> R runInterruptibly(Path work, boolean temporary, Runnable abort, Supplier<R> bench) {
    CountDownLatch finished = new CountDownLatch(1);
    Thread onInterrupt =
        new Thread(
            () -> {
              abort.run();
              try {
                finished.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              if (temporary) {
                deleteTemporary(work);
              }
            },
            "flafka-bench-interrupt");
    Runtime.getRuntime().addShutdownHook(onInterrupt);
    R report;
    try {
      report = bench.get();
    } catch (BenchException | StackException e) {
      throw new UserException(
          ExitCode.FAILED,
          e.getMessage()
              + (temporary ? " (the work directory " + work + " is kept for its logs)" : ""),
          e);
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
      } catch (IllegalStateException e) {
        // The JVM is shutting down (Ctrl-C): the hook is running.
      }
    }
    if (temporary) {
      deleteTemporary(work);
    }
    return report;
  }

  /** {@code --variants}: the variants named, comma-separated, in their order. */
  static <V> List<V> variants(String names, Function<String, V> byFlagName, String flagNames) {
    List<V> parsed = new ArrayList<>();
    for (String name : names.split(",", -1)) {
      V variant = byFlagName.apply(name.strip());
      if (variant == null) {
        throw new IllegalArgumentException(
            "--variants: unknown variant '"
                + name.strip()
                + "'; use some of "
                + flagNames
                + ", comma-separated");
      }
      parsed.add(variant);
    }
    return parsed;
  }

  /** {@code --baseline}: the variant named. */
  static <V> V baseline(String name, Function<String, V> byFlagName, String flagNames) {
    V base = byFlagName.apply(name);
    if (base == null) {
      throw new IllegalArgumentException(
          "--baseline: unknown variant '" + name + "'; use one of " + flagNames);
    }
    return base;
  }

  /**
   * A {@code --set} (or a variant's own variables, {@code flag}) that makes {@code variant} an
   * agent {@code flafka lint} finds errors in.
   */
  static IllegalArgumentException lintRejects(String flag, String variant, List<Finding> errors) {
    return new IllegalArgumentException(
        flag
            + ": "
            + variant
            + " would measure an agent that"
            + " flafka lint rejects: "
            + errors.get(0)
            + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""));
  }

  /** A user error in the flags, found while parsing a bench's settings: exit code 2. */
  static <S> S parsed(Supplier<S> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput(e.getMessage());
    }
  }

  /** One run's work directory: a broker must never find an earlier run's data. */
  record WorkDir(Path path, boolean temporary) {
    /**
     * A new directory {@code prefix}* under {@code workDir} (--work-dir), kept; or, when that is
     * null, a temporary one, deleted after a successful run.
     */
    static WorkDir create(Path workDir, String prefix) throws IOException {
      return workDir == null
          ? new WorkDir(Files.createTempDirectory("flafka-bench-"), true)
          : new WorkDir(
              Files.createTempDirectory(createDirectory("--work-dir", workDir), prefix), false);
    }

    /** Runs a bench in this directory, as {@link BenchCommand#runInterruptibly} says. */
    <R> R run(Runnable abort, Supplier<R> bench) {
      return runInterruptibly(path, temporary, abort, bench);
    }
  }

  /** The report's options, the same in every bench: {@code --format} and {@code --out}. */
  static final class ReportOptions {
    @Option(
        names = "--format",
        paramLabel = "text|json",
        defaultValue = "text",
        description = "Report format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Write the report to FILE instead of stdout.")
    Path out;

    /**
     * Checks both before anything starts: {@code --format} must be text or json (true for json),
     * {@code --out} a file in an existing directory (null is stdout).
     */
    boolean checkJson() {
      boolean json =
          switch (format) {
            case "json" -> true;
            case "text" -> false;
            default ->
                throw UserException.invalidInput(
                    "--format must be text or json but was '" + format + "'");
          };
      if (out != null
          && (Files.isDirectory(out)
              || out.toAbsolutePath().getParent() == null
              || !Files.isDirectory(out.toAbsolutePath().getParent()))) {
        throw UserException.invalidInput("--out " + out + ": not a file in an existing directory");
      }
      return json;
    }

    /** Writes {@code text} to {@code --out}, or to stdout when it is not given. */
    void write(CommandLine.Model.CommandSpec spec, String text) throws IOException {
      if (out == null) {
        spec.commandLine().getOut().print(text);
        spec.commandLine().getOut().flush();
      } else {
        Files.writeString(out, text, StandardCharsets.UTF_8);
      }
    }
  }

  /** The stack's option, the same in every bench: {@code --secure}. */
  static final class StackOptions {
    @Option(
        names = "--secure",
        description =
            "Run on a secure stack, as Cloudera clusters are secured: a KDC and a certificate "
                + "authority made for the run; Kafka over SASL_SSL with Kerberos (GSSAPI) for the "
                + "agents and the bench's own clients; HDFS with Kerberos and data transfer "
                + "protection privacy. Broker and HDFS then run in the bench's JVM (one KDC per "
                + "JVM), so their CPU is not reported apart; the agents' CPU is measured per agent "
                + "process as without it. Ours and the ours-* variants only, except those with "
                + "Flume's HDFS sink (docs/benchmarks.md#security).")
    boolean secure;
  }

  /** The agents' options, the same in every bench: their JVM, and the progress lines. */
  static final class AgentOptions {
    @Option(
        names = "--agent-jvm-option",
        paramLabel = "OPTION",
        description =
            "A JVM option of every variant's agent process, repeatable; replaces the default "
                + AgentProcess.DEPLOYED_JVM_OPTIONS_LINE
                + " (a deployed agent's, the Ansible role's flafka_agent_java_opts).")
    List<String> agentJvmOptions = new ArrayList<>();

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    /** The bench's progress lines: on {@code err}, unless --quiet. */
    Consumer<String> progress(PrintWriter err) {
      return line -> {
        if (!quiet) {
          err.println("flafka bench: " + line);
          err.flush();
        }
      };
    }
  }

  /** {@code flafka bench edge}. */
  @Command(
      name = "edge",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Compare edge agents: the load generator sends syslog over TCP (or UDP, --protocol) loopback to an "
            + "agent process, which "
            + "writes to a local Kafka broker process. Each variant runs in turn (alternating, --repeats "
            + "times) against the same broker: warm-up, then a measure window. Reported: events/s into "
            + "Kafka (topic end offsets) and by the agent's own counters, and CPU seconds per million "
            + "events of the agent, the broker and the generator.",
        "Variants: ours = the edge template (flafka source, interceptors, flafka Kafka sink, snappy, "
            + "acks=all, memory channel with its disk buffer); ours-memory = the same without the disk buffer (the plain "
            + "memory channel); ours-stock-sink = the same with Flume's Kafka sink; ours-stock-channel = the same "
            + "with Flume's memory channel; ours-all-facts = the same with every fact as a record header "
            + "(kafka_record_facts: all) instead of those the body cannot give back; ours-host-affinity = the "
            + "same with the host-affinity partitioner, each host in 2 of the topic's partitions "
            + "(edge_host_partitions; --set changes it); ours-kafka-channel = the same with the Kafka record channel and no "
            + "sinks (durable, record headers); ours-flume-kafka-channel = the same with Flume's Kafka "
            + "channel (headers inside Flume's Avro envelope, not record headers); stock = "
            + "multiport_syslogtcp -> memory channel -> Kafka sink with Flume's defaults (it stalls: see "
            + "docs/benchmarks.md); stock-capacity = stock with only the channel capacity raised to "
            + "10000; stock-tuned = the same with larger batches, a larger channel, snappy, linger.ms 10; "
            + "rsyslog = rsyslogd with omkafka (Debian's rsyslog-kafka), no record headers: the C daemon "
            + "a user could pick instead; rsyslog-fields = the same carrying 11 of the contract's 14 facts as "
            + "rsyslog parses them, with the raw message, in a JSON body (omkafka sets no record headers "
            + "per message).",
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  flafka bench edge --variants ours,stock,stock-tuned   maximum throughput",
        "  flafka bench edge --rate 100000                       CPU per event at an equal rate",
        "  flafka bench edge --variants ours,rsyslog             against the C daemon",
        "  flafka bench edge --variants ours --jfr prof          where does the agent's CPU go?",
        "  flafka bench edge --protocol udp --rate 200000        what UDP loses, and where",
        "  flafka bench edge --variants ours,stock-tuned --set edge_kafka_compression_type=lz4",
        "  flafka bench edge --variants ours,ours+edge_kafka_compression_type=lz4 --baseline ours",
        "  flafka bench edge --variants ours --secure            what SASL_SSL with Kerberos costs",
        "",
        "Exit codes: 0 done, 1 a trial failed (the message names the log), 2 invalid flags.",
      })
  static final class Edge implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--variants",
        paramLabel = "V,...",
        defaultValue = "ours,stock",
        completionCandidates = Variant.FlagNames.class,
        description =
            "Which agents, in the order run: ${COMPLETION-CANDIDATES} (default: "
                + "${DEFAULT-VALUE}). Ours and the ours-* variants take edge template variables of "
                + "their own, on top of --set: ours+NAME=VALUE+NAME=VALUE, so two settings run "
                + "side by side (a list value is not possible here).")
    String variants;

    @Option(
        names = "--duration",
        paramLabel = "TIME",
        defaultValue = "30s",
        description = "Measure window per trial, e.g. 15s (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(
        names = "--kafka-latency",
        paramLabel = "TIME",
        defaultValue = "0ms",
        description =
            "Delay added to each direction between every Kafka client and the broker, as a remote"
                + " cluster would add, e.g. 5ms (a round trip then takes 10 ms more) (default: "
                + "${DEFAULT-VALUE}).")
    String kafkaLatency;

    @Option(
        names = "--warmup",
        paramLabel = "TIME",
        defaultValue = "10s",
        description =
            "Load before the measure window, not counted; lasts up to twice as long while the "
                + "agent's JIT compilers still use over 5%% of its CPU (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
        names = "--repeats",
        paramLabel = "N",
        defaultValue = "3",
        description = "Trials per variant; the report shows medians (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(
        names = "--connections",
        paramLabel = "N",
        defaultValue = "4",
        description =
            "TCP connections (UDP sockets with --protocol udp) of the generator (default: "
                + "${DEFAULT-VALUE}).")
    int connections;

    @Option(
        names = "--protocol",
        paramLabel = "tcp|udp",
        defaultValue = "tcp",
        description =
            "How the generator sends: tcp, newline-framed, or udp, one message per datagram; the "
                + "stock variants then listen with syslogudp. With udp the report adds what was sent and "
                + "lost, and the kernel's drops at the agent's socket; give a --rate (default: "
                + "${DEFAULT-VALUE}).")
    String protocol;

    @Option(
        names = "--size",
        paramLabel = "BYTES",
        defaultValue = "200",
        description = "Message size in bytes (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(
        names = "--rate",
        paramLabel = "EVENTS/S|max",
        defaultValue = "max",
        description =
            "Offered load over all connections; a fixed rate compares CPU per event at equal "
                + "throughput (default: ${DEFAULT-VALUE}).")
    String rate;

    @Option(
        names = "--sinks",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "Kafka sinks of ours and of stock-tuned (stock keeps one) (default: ${DEFAULT-VALUE}).")
    int sinks;

    @Option(
        names = "--partitions",
        paramLabel = "N",
        defaultValue = "4",
        description = "Partitions of each trial's topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
        names = "--baseline",
        paramLabel = "VARIANT",
        defaultValue = "stock",
        description = "The variant the others are compared with (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Mixin ReportOptions report;

    @Option(
        names = "--work-dir",
        paramLabel = "DIR",
        description =
            "Keep the broker's and agents' directories and logs in a new edge-* directory under "
                + "DIR (default: a temporary directory, deleted after a successful run).")
    Path workDir;

    @Option(
        names = "--jfr",
        paramLabel = "DIR",
        description =
            "Profile each agent with JFR over its measure window; recordings go to DIR and the "
                + "hot spots per variant are printed on stderr. Adds a little CPU: do not mix with "
                + "unprofiled numbers.")
    Path jfrDir;

    @Option(
        names = "--set",
        paramLabel = "NAME=VALUE",
        description =
            "An edge template variable for ours and the ours-* variants (docs/reference/template-variables.md), "
                + "repeatable; the stock variants are fixed. Lists: a,b,c.")
    Map<String, String> oursVariables = new LinkedHashMap<>();

    @Mixin AgentOptions agent;

    @Mixin StackOptions stack;

    @Override
    public Integer call() throws Exception {
      boolean json = report.checkJson();
      EdgeBenchSettings parsed = parsed(this::settings);
      WorkDir work = WorkDir.create(workDir, "edge-");
      if (jfrDir != null) {
        createDirectory("--jfr", jfrDir);
      }
      EdgeBenchSettings settings = parsed.withWorkDir(work.path());
      PrintWriter err = spec.commandLine().getErr();
      EdgeBench bench = new EdgeBench(settings, agent.progress(err));
      EdgeBenchReport result = work.run(bench::abort, bench::run);
      report.write(spec, json ? result.json() : result.text());
      if (jfrDir != null) {
        printHotspots(settings, err);
      }
      return ExitCode.OK;
    }

    private EdgeBenchSettings settings() {
      List<EdgeVariant> parsed = variants(variants, EdgeVariant::parse, Variant.flagNames());
      int bytes;
      try {
        bytes = Integer.parseInt(size);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--size must be a number of bytes but was '" + size + "'");
      }
      if (bytes < 120 || bytes > 65536) {
        throw new IllegalArgumentException(
            "--size must be between 120 and 65536 bytes but was "
                + bytes
                + " (the generator's formats need about 120 bytes for header and mark)");
      }
      Protocol transport = Protocol.byFlagName(protocol);
      if (transport != Protocol.TCP && transport != Protocol.UDP) {
        throw new IllegalArgumentException(
            "--protocol must be tcp or udp but was '" + protocol + "'");
      }
      EdgeVariant base = baseline(baseline, EdgeVariant::parse, Variant.flagNames());
      EdgeBenchSettings settings =
          new EdgeBenchSettings(
                  parsed,
                  duration("--warmup", warmup, true),
                  duration("--duration", duration, false),
                  repeats,
                  connections,
                  bytes,
                  sinks,
                  parseRate(),
                  partitions,
                  base,
                  null,
                  jfrDir == null ? null : jfrDir.toAbsolutePath(),
                  new LinkedHashMap<>(oursVariables),
                  agent.agentJvmOptions,
                  duration("--kafka-latency", kafkaLatency, true),
                  transport,
                  stack.secure)
              .validate();
      if (!oursVariables.isEmpty()
          || parsed.stream().anyMatch(variant -> !variant.variables().isEmpty())) {
        checkOursVariables(parsed, settings);
      }
      return settings;
    }

    /**
     * A wrong --set fails here, before the broker starts, as {@code flafka render} would report it;
     * called after {@link EdgeBenchSettings#validate()}, which already refused the variables the
     * bench sets itself.
     */
    private void checkOursVariables(List<EdgeVariant> parsed, EdgeBenchSettings settings) {
      if (!oursVariables.isEmpty()) {
        if (parsed.stream().noneMatch(EdgeVariant::usesPlugins)) {
          throw new IllegalArgumentException(
              "--set changes only ours and the ours-* variants, none of which --variants runs");
        }
        try {
          Variant.OURS.properties(
              new Variant.Target("127.0.0.1:9092", "check", 0, settings.protocol()),
              sinks,
              new LinkedHashMap<>(oursVariables));
        } catch (TemplateVariableException e) {
          throw new IllegalArgumentException("--set: " + e.getMessage());
        }
      }
      for (EdgeVariant variant : parsed) {
        if (!variant.usesPlugins()) {
          continue;
        }
        List<Finding> errors;
        try {
          errors =
              variant.lintErrors(
                  settings.protocol(), sinks, new LinkedHashMap<>(oursVariables), partitions);
        } catch (TemplateVariableException e) {
          throw new IllegalArgumentException(
              "--variants " + variant.flagName() + ": " + e.getMessage());
        }
        if (!errors.isEmpty()) {
          throw lintRejects(
              variant.variables().isEmpty() ? "--set" : "--variants", variant.flagName(), errors);
        }
      }
    }

    private double parseRate() {
      if (rate.equals("max")) {
        return Double.POSITIVE_INFINITY;
      }
      try {
        double value = Double.parseDouble(rate);
        if (value > 0 && Double.isFinite(value)) {
          return value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          "--rate must be events per second above 0, or max, but was '" + rate + "'");
    }

    private static void printHotspots(EdgeBenchSettings settings, PrintWriter err)
        throws IOException {
      for (EdgeVariant variant : settings.variants()) {
        List<Path> recordings;
        try (Stream<Path> files = Files.list(settings.jfrDir())) {
          recordings =
              files
                  .filter(
                      f -> f.getFileName().toString().endsWith("-" + variant.fileName() + ".jfr"))
                  .sorted()
                  .toList();
        }
        if (recordings.isEmpty()) {
          continue;
        }
        err.println(
            "flafka bench: hot spots of "
                + variant.flagName()
                + " ("
                + recordings.size()
                + " recording"
                + (recordings.size() == 1 ? "" : "s")
                + " in "
                + settings.jfrDir()
                + ")");
        err.print(JfrHotspots.read(recordings).format(25));
        err.flush();
      }
    }
  }

  /** {@code flafka bench core}. */
  @Command(
      name = "core",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Compare core agents: a local Kafka broker process is prefilled with --warmup-events + --events records as the edge "
            + "writes them (syslog bodies, the header contract as record headers), then each variant's "
            + "core agent runs as its own process and drains the whole topic (a fresh consumer group "
            + "from the earliest offset) into a local HDFS process, in turn and --repeats times. Reported: "
            + "events/s into HDFS (the HDFS sinks' committed events, from the end of the warm-up until "
            + "the topic is drained or --duration), CPU seconds per million events of the agent (by "
            + "thread group), the broker and HDFS, and the files written; medians over the repeats.",
        "Variants: ours = the core template's defaults (no sources: 4 of our Kafka channels, each "
            + "drained by our HDFS sink); ours-memory-channel = core_channel_type=memory, the default "
            + "before (our Kafka source -> memory channels -> our HDFS sink, 2 sources, 4 sinks, lanes "
            + "by host; loses the channels' events when the agent dies); ours-file-channel = "
            + "core_channel_type=file (durable, a second copy on local disk); ours-stock-source = "
            + "ours-memory-channel with Flume's Kafka source; ours-stock-sink = ours with Flume's HDFS "
            + "sink; stock-tuned = the memory-channel template with both Flume's Kafka source and "
            + "Flume's HDFS sink; stock = "
            + "Flume's defaults for the same layout (one Kafka source, a memory channel of 100, one "
            + "HDFS sink rolling every 10 events: tens of events/s); stock-rolls = stock with the "
            + "template's rolls.",
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  flafka bench core                        ours, ours-memory-channel, ours-file-channel, stock-tuned",
        "  flafka bench core --variants ours,ours-stock-sink --events 1000000",
        "  flafka bench core --set core_hdfs_sinks=2 --set core_fanout=batch",
        "  flafka bench core --format json --out core.json",
        "  flafka bench core --variants ours --secure           Kerberos and SASL_SSL on the same drain",
        "",
        "Exit codes: 0 done, 1 a trial failed (the message names the log), 2 invalid flags.",
      })
  static final class Core implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--variants",
        paramLabel = "V,...",
        defaultValue = "ours,ours-memory-channel,ours-file-channel,stock-tuned",
        completionCandidates = CoreVariant.FlagNames.class,
        description =
            "Which agents, in the order run: ${COMPLETION-CANDIDATES} (default: "
                + "${DEFAULT-VALUE}). Ours and the ours-* variants take edge template variables of "
                + "their own, on top of --set: ours+NAME=VALUE+NAME=VALUE, so two settings run "
                + "side by side (a list value is not possible here).")
    String variants;

    @Option(
        names = "--events",
        paramLabel = "N",
        defaultValue = "500000",
        description =
            "Records each trial is measured on, drained after the warm-up (default: "
                + "${DEFAULT-VALUE}).")
    long events;

    @Option(
        names = "--warmup-events",
        paramLabel = "N",
        defaultValue = "500000",
        description =
            "Records each trial drains before its window starts, so JIT compilation and the first "
                + "files stay outside it; 0 measures from the first drained batch (default: "
                + "${DEFAULT-VALUE}).")
    long warmupEvents;

    @Option(
        names = "--duration",
        paramLabel = "TIME",
        defaultValue = "60s",
        description =
            "Longest measure window per trial: a variant that has not drained the topic by then "
                + "is measured on what it drained (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(
        names = "--repeats",
        paramLabel = "N",
        defaultValue = "3",
        description = "Trials per variant; the report shows medians (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(
        names = "--hosts",
        paramLabel = "N",
        defaultValue = "200",
        description =
            "Devices the records come from, each a host= bucket (default: ${DEFAULT-VALUE}).")
    int hosts;

    @Option(
        names = "--partitions",
        paramLabel = "N",
        defaultValue = "8",
        description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
        names = "--host-partitions",
        paramLabel = "K",
        defaultValue = "0",
        description =
            "Each host's records in K consecutive partitions, as the edge's host-affinity"
                + " partitioner places them (edge_partitioner host-affinity, edge_host_partitions"
                + " K); 0: as the edge's default partitioner does (Kafka's own: every host in every"
                + " partition) (default: ${DEFAULT-VALUE}).")
    int hostPartitions;

    @Option(
        names = "--size",
        paramLabel = "BYTES",
        defaultValue = "200",
        description = "Body size of each record in bytes (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(
        names = "--baseline",
        paramLabel = "VARIANT",
        defaultValue = "ours",
        description = "The variant the others are compared with (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Mixin ReportOptions report;

    @Option(
        names = "--work-dir",
        paramLabel = "DIR",
        description =
            "Keep the broker's, HDFS's and agents' directories and logs in a new core-* "
                + "directory under DIR (default: a temporary directory, deleted after a successful run).")
    Path workDir;

    @Option(
        names = "--set",
        paramLabel = "NAME=VALUE",
        description =
            "A core template variable for the template variants (ours, ours-*, stock-tuned; "
                + "docs/reference/template-variables.md), repeatable; a variant's own choice wins "
                + "(ours-file-channel keeps core_channel_type=file); stock and stock-rolls are fixed. "
                + "Lists: a,b,c.")
    Map<String, String> oursVariables = new LinkedHashMap<>();

    @Mixin AgentOptions agent;

    @Mixin StackOptions stack;

    @Override
    public Integer call() throws Exception {
      boolean json = report.checkJson();
      CoreBenchSettings parsed = parsed(this::settings);
      WorkDir work = WorkDir.create(workDir, "core-");
      CoreBench bench =
          new CoreBench(
              parsed.withWorkDir(work.path()), agent.progress(spec.commandLine().getErr()));
      CoreBenchReport result = work.run(bench::abort, bench::run);
      report.write(spec, json ? result.json() : result.text());
      return ExitCode.OK;
    }

    private CoreBenchSettings settings() {
      List<CoreVariant> parsed =
          variants(variants, CoreVariant::byFlagName, CoreVariant.flagNames());
      CoreVariant base = baseline(baseline, CoreVariant::byFlagName, CoreVariant.flagNames());
      CoreBenchSettings settings =
          new CoreBenchSettings(
                  parsed,
                  events,
                  warmupEvents,
                  duration("--duration", duration, false),
                  repeats,
                  hosts,
                  partitions,
                  hostPartitions,
                  size,
                  base,
                  null,
                  new LinkedHashMap<>(oursVariables),
                  agent.agentJvmOptions,
                  stack.secure)
              .validate();
      if (!oursVariables.isEmpty()) {
        checkOursVariables(parsed);
      }
      return settings;
    }

    /**
     * A wrong --set fails here, before the broker starts, as {@code flafka render} or lint would
     * report it.
     */
    private void checkOursVariables(List<CoreVariant> parsed) {
      if (parsed.stream().noneMatch(CoreVariant::usesTemplate)) {
        throw new IllegalArgumentException(
            "--set changes only the template variants (ours, ours-*, "
                + "stock-tuned), none of which --variants runs");
      }
      for (CoreVariant variant : parsed) {
        if (!variant.usesTemplate()) {
          continue;
        }
        List<Finding> errors;
        try {
          errors = variant.lintErrors(new LinkedHashMap<>(oursVariables), partitions);
        } catch (TemplateVariableException e) {
          throw new IllegalArgumentException("--set: " + e.getMessage());
        }
        if (!errors.isEmpty()) {
          throw lintRejects("--set", variant.flagName(), errors);
        }
      }
    }
  }
}
