package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.flafka.core.InProgressFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code flafka hdfs}: operations on what the core agents wrote to HDFS. */
@Command(
    name = "hdfs",
    mixinStandardHelpOptions = true,
    description = "Operations on the files the core agents write to HDFS.",
    subcommands = {HdfsCommand.Recover.class},
    footerHeading = "%nExamples:%n",
    footer = {"  flafka hdfs recover hdfs://namenode:8020/data/syslog/dt=2026-11-27"})
final class HdfsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing subcommand: use flafka hdfs recover PATH.");
  }

  /**
   * {@code flafka hdfs recover}: closes and publishes the in-progress files ({@code _*.tmp}) under
   * a path, what a core agent does for its own files when it starts.
   */
  @Command(
      name = "recover",
      mixinStandardHelpOptions = true,
      description = {
        "Close and publish in-progress files a writer left behind: every _<name>.tmp at or under "
            + "PATH (recursively) has its HDFS lease recovered (the NameNode closes it with "
            + "everything the writer flushed) and is renamed to <name>, so Hive, Impala and Spark see "
            + "it. A core agent does this for its own files when it starts; use this for files of a "
            + "core that does not come back. Never run it on the files of a running agent: it would "
            + "take them from their writer.",
        "Prints one line per file and a summary; exits 1 when a file could not be recovered.",
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  flafka hdfs recover hdfs://namenode:8020/data/syslog/dt=2026-11-27",
        "  flafka hdfs recover --timeout 2m /data/syslog/dt=2026-11-27/host=router-7",
      })
  static final class Recover implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "PATH",
        description =
            "A file or directory: hdfs://namenode:8020/dir, or a path on the default file system "
                + "of the Hadoop configuration (HADOOP_CONF_DIR).")
    String path;

    @Option(
        names = "--timeout",
        paramLabel = "TIME",
        defaultValue = "60s",
        description =
            "Longest wait for HDFS to close the files by lease recovery (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
      Duration wait = parseTimeout(timeout);
      Path target = toPath(path);
      PrintWriter out = spec.commandLine().getOut();
      try (FileSystem fs = FileSystem.newInstance(target.toUri(), new Configuration())) {
        List<Path> files;
        try {
          files = InProgressFiles.findUnder(fs, target);
        } catch (java.io.FileNotFoundException e) {
          throw UserException.invalidInput(
              "hdfs recover: "
                  + target
                  + " does not exist. Fix: give an existing file or directory.");
        }
        List<Path> waiting = new ArrayList<>(files);
        int published = 0;
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
          for (java.util.Iterator<Path> it = waiting.iterator(); it.hasNext(); ) {
            Path file = it.next();
            if (InProgressFiles.recoverLease(fs, file)) {
              Path done = InProgressFiles.publish(fs, file);
              it.remove();
              if (done != null) {
                published++;
                out.println("recovered " + file + " -> " + done.getName());
              }
            }
          }
          if (waiting.isEmpty() || System.nanoTime() > deadline) {
            break;
          }
          Thread.sleep(250);
        }
        for (Path file : waiting) {
          out.println("NOT recovered within " + timeout + ": " + file);
        }
        out.println(
            "hdfs recover: "
                + files.size()
                + " in-progress file(s) found, "
                + published
                + " published, "
                + waiting.size()
                + " not recovered");
        out.flush();
        return waiting.isEmpty() ? ExitCode.OK : ExitCode.FAILED;
      } catch (IOException e) {
        throw UserException.unexpectedState(
            "hdfs recover: cannot reach "
                + target
                + ": "
                + e.getMessage()
                + ". Fix: check the path and the Hadoop configuration (HADOOP_CONF_DIR).");
      }
    }

    private static Duration parseTimeout(String text) {
      try {
        Duration duration = LoadCommand.parseDuration(text);
        if (duration.isZero()) {
          throw new IllegalArgumentException("--timeout must be longer than 0");
        }
        return duration;
      } catch (IllegalArgumentException e) {
        throw UserException.invalidInput(e.getMessage().replace("--duration", "--timeout"));
      }
    }

    private static Path toPath(String text) {
      try {
        URI uri = new URI(text);
        return new Path(uri);
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw UserException.invalidInput(
            "hdfs recover: '"
                + text
                + "' is not a path or URI. Fix: give e.g. hdfs://namenode:8020/data/syslog/dt=2026-11-27.");
      }
    }
  }
}
