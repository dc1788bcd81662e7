package org.flafka.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The root of the {@code flafka} command line. Each subcommand is a class of its own; this class
 * only wires them together and turns failures into one line and an {@link ExitCode}.
 */
@Command(
    name = "flafka",
    mixinStandardHelpOptions = true,
    versionProvider = Flafka.Version.class,
    subcommands = {
      CommandLine.HelpCommand.class,
      RenderCommand.class,
      LintCommand.class,
      LoadCommand.class,
      SweepCommand.class,
      ParseCommand.class,
      AuditCommand.class,
      CmEmulatorCommand.class,
      DashboardsCommand.class,
      BenchCommand.class,
      ChaosCommand.class,
      HdfsCommand.class,
    },
    description =
        "Syslog ingest with Flume, Kafka and HDFS: find the fastest configuration by measurement.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka sweep                       run the default sweep on a local stack",
      "  flafka parse < device.log          show how each line of a device's log is understood",
      "  flafka render edge --set site=p1   write an edge agent's Flume configuration",
      "  flafka lint edge.properties        check a configuration against the scaling rules",
      "  flafka load --target edge1:514 --rate 50000 --duration 60s   send syslog load",
      "  flafka audit --manifest sent.json --bootstrap-server k1:9092 --topic syslog   what arrived?",
      "  flafka bench edge                  compare our edge agent with stock Flume",
      "  flafka hdfs recover hdfs://nn:8020/data/syslog/dt=2026-11-27   publish files a crash left open",
      "",
      "Exit codes: 0 ok, 1 failed, 2 invalid input, 3 unexpected state, 4 internal error.",
    })
public final class Flafka implements Runnable {

  @Option(
      names = "--debug",
      scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces for errors (for bug reports).")
  boolean debug;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Standard input as the commands see it: System.in, or what a test passes to {@link #execute}.
   */
  private final InputStream stdin;

  Flafka(InputStream stdin) {
    this.stdin = stdin;
  }

  /** The input commands read when the user names no file. */
  InputStream stdin() {
    return stdin;
  }

  @Override
  public void run() {
    // `flafka` alone prints help rather than doing something surprising.
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    int exitCode;
    try {
      exitCode =
          execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    } catch (LinkageError e) {
      // picocli hands only Exceptions to the handlers above; a missing class means a broken build,
      // not a user error.
      System.err.println(
          "flafka: internal error: "
              + e
              + "; rebuild with ./mvnw -DskipTests package"
              + " and rerun; if it persists, report it");
      exitCode = ExitCode.INTERNAL;
    }
    System.exit(exitCode);
  }

  /**
   * Runs one command line with the given writers and returns its exit code; tests call this, not
   * main.
   */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    return execute(System.in, out, err, args);
  }

  /**
   * As {@link #execute(PrintWriter, PrintWriter, String...)}, with {@code in} as standard input.
   */
  public static int execute(InputStream in, PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = new CommandLine(new Flafka(in));
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExitCodeExceptionMapper(Flafka::exitCodeOf);
    commandLine.setExecutionExceptionHandler(
        (ex, cmd, parseResult) -> {
          cmd.getErr().println("flafka: " + oneLine(ex));
          if (debugRequested(parseResult)) {
            ex.printStackTrace(cmd.getErr());
          } else if (!(ex instanceof UserException)) {
            cmd.getErr()
                .println("flafka: this is a bug; rerun with --debug and report the stack trace");
          }
          cmd.getErr().flush();
          return exitCodeOf(ex);
        });
    commandLine.setParameterExceptionHandler(
        (ex, args1) -> {
          CommandLine cmd = ex.getCommandLine();
          cmd.getErr().println("flafka: " + ex.getMessage());
          cmd.getErr()
              .println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage.");
          cmd.getErr().flush();
          return ExitCode.INVALID_INPUT;
        });
    return commandLine.execute(args);
  }

  /**
   * True when --debug appears anywhere on the command line (it is inherited by every subcommand).
   */
  private static boolean debugRequested(CommandLine.ParseResult parseResult) {
    for (CommandLine.ParseResult level = parseResult; level != null; level = level.subcommand()) {
      if (level.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  static int exitCodeOf(Throwable ex) {
    if (ex instanceof UserException user) {
      return user.exitCode();
    }
    if (ex instanceof CommandLine.ParameterException) {
      return ExitCode.INVALID_INPUT;
    }
    return ExitCode.INTERNAL;
  }

  private static String oneLine(Throwable ex) {
    String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    return message.replace('\n', ' ');
  }

  /** Reports the version Maven stamped into the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Flafka.class.getPackage().getImplementationVersion();
      return new String[] {"flafka " + (version == null ? "(development build)" : version)};
    }
  }
}
