package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.flafka.chaos.CaseResult;
import org.flafka.chaos.Chaos;
import org.flafka.chaos.ChaosSettings;
import org.flafka.chaos.Fault;
import org.flafka.chaos.ReliabilityTable;
import org.flafka.load.Protocol;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.OurPlugins;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code flafka chaos}: the fault suite on the local stack, against the default configurations. */
@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the faults the field brings against the default edge and core configurations on this"
          + " machine (a KRaft broker and a MiniDFSCluster in this process, the agents as Flume"
          + " processes): agents killed, the broker stopped, restarted or black-holed, the edge's"
          + " disk full, HDFS's NameNode or DataNode away. flafka load marks every event; flafka audit counts what"
          + " reached HDFS. Prints one line per case and a table (fault, transport, sent, delivered,"
          + " missing, duplicated, time to recover); --docs writes it into docs/reliability.md.",
      "Exit code 0 when every case turned out as expected (with --protection-off, the cases"
          + " whose protection has a switch are expected to fail), 1 otherwise."
    })
public final class ChaosCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--fault",
      paramLabel = "F,...",
      split = ",",
      description =
          "Faults to run, in order: edge-kill, edge-kill-in-outage, edge-broker-stopped,"
              + " edge-black-hole, edge-disk-full, core-kill, hdfs-away, broker-restart, datanode-away (default:"
              + " all).")
  List<String> faults = new ArrayList<>();

  @Option(
      names = "--transport",
      paramLabel = "T",
      description = "Only the cases over this transport: tcp or udp (default: each fault's own).")
  String transport;

  @Option(
      names = "--outage",
      paramLabel = "TIME",
      defaultValue = "2m",
      description = "How long each fault lasts (default: ${DEFAULT-VALUE}).")
  String outage;

  @Option(
      names = "--lead",
      paramLabel = "TIME",
      defaultValue = "15s",
      description = "Load before the fault (default: ${DEFAULT-VALUE}).")
  String lead;

  @Option(
      names = "--tail",
      paramLabel = "TIME",
      defaultValue = "15s",
      description = "Load after the fault (default: ${DEFAULT-VALUE}).")
  String tail;

  @Option(
      names = "--rate",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Events per second the load offers (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--settle-timeout",
      paramLabel = "TIME",
      defaultValue = "5m",
      description =
          "Longest wait after the load for the pipeline to catch up (default: ${DEFAULT-VALUE}).")
  String settleTimeout;

  @Option(
      names = "--protection-off",
      description =
          "Switch each case's protection off (e.g. memory channels for the core kill), to show that"
              + " the case then fails.")
  boolean protectionOff;

  @Option(
      names = "--docs",
      paramLabel = "FILE",
      description =
          "Write the table into FILE between its results markers (docs/reliability.md); without it,"
              + " the table goes to stdout only.")
  Path docs;

  @Option(
      names = "--work-dir",
      paramLabel = "DIR",
      description =
          "Keep the broker's, HDFS's and agents' files and logs under DIR (default: a temporary"
              + " directory, deleted after the run).")
  Path workDir;

  @Option(
      names = "--agent-jvm-option",
      paramLabel = "OPTION",
      description = "A JVM option of every agent process, repeatable; replaces -Xms256m -Xmx1g.")
  List<String> agentJvmOptions = new ArrayList<>();

  @Option(names = "--quiet", description = "No progress lines on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    ChaosSettings settings;
    boolean temporary = workDir == null;
    Path work;
    try {
      work =
          temporary
              ? Files.createTempDirectory("flafka-chaos-")
              : BenchCommand.createDirectory("--work-dir", workDir);
      settings = settings(work);
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput(e.getMessage());
    }
    if (docs != null && !Files.isRegularFile(docs)) {
      throw UserException.invalidInput(
          "--docs " + docs + ": no such file. Fix: give docs/reliability.md of the repository");
    }
    AgentRuntime runtime;
    try {
      runtime = OurPlugins.addTo(AgentRuntime.locate());
    } catch (RuntimeException e) {
      throw UserException.unexpectedState(e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    List<CaseResult> results =
        new Chaos(
                settings,
                line -> {
                  if (!quiet) {
                    err.println("flafka chaos: " + line);
                    err.flush();
                  }
                })
            .run(runtime);
    String table =
        ReliabilityTable.markdown(
            results, settings, commandLine(), LocalDate.now(ZoneOffset.UTC).toString(), machine());
    PrintWriter out = spec.commandLine().getOut();
    out.print(table);
    out.flush();
    if (docs != null) {
      try {
        ReliabilityTable.replaceIn(docs, table, protectionOff);
      } catch (IOException e) {
        throw UserException.invalidInput("--docs " + docs + ": " + e.getMessage());
      }
    }
    if (temporary) {
      BenchCommand.deleteTemporary(work);
    }
    return results.stream().allMatch(CaseResult::asExpected) ? ExitCode.OK : ExitCode.FAILED;
  }

  private ChaosSettings settings(Path work) {
    List<Fault> chosen = new ArrayList<>();
    for (String name : faults) {
      chosen.add(Fault.byFlagName(name.strip()));
    }
    List<ChaosSettings.Case> cases =
        ChaosSettings.casesOf(chosen.isEmpty() ? List.of(Fault.values()) : chosen);
    if (transport != null) {
      Protocol only = Protocol.byFlagName(transport.toLowerCase(Locale.ROOT));
      cases = cases.stream().filter(c -> c.transport() == only).toList();
      if (cases.isEmpty()) {
        throw new IllegalArgumentException(
            "--transport " + transport + ": none of the chosen faults runs over it");
      }
    }
    return new ChaosSettings(
            work,
            cases,
            BenchCommand.duration("--outage", outage, false),
            BenchCommand.duration("--lead", lead, false),
            BenchCommand.duration("--tail", tail, true),
            rate,
            BenchCommand.duration("--settle-timeout", settleTimeout, false),
            protectionOff,
            agentJvmOptions)
        .validate();
  }

  /** The command as run, for the table's heading. */
  private String commandLine() {
    StringBuilder line = new StringBuilder("flafka chaos");
    if (!faults.isEmpty()) {
      line.append(" --fault ").append(String.join(",", faults));
    }
    if (transport != null) {
      line.append(" --transport ").append(transport);
    }
    line.append(" --outage ").append(outage);
    if (protectionOff) {
      line.append(" --protection-off");
    }
    return line.toString();
  }

  private static String machine() {
    return String.format(
        Locale.ROOT,
        "%d cores, %s %s, load average %.1f at the end",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
