package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.flafka.lint.Finding;
import org.flafka.lint.Linter;
import org.flafka.lint.TemplateVariables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code flafka lint}: checks a Flume agent configuration against the scaling rules. */
@Command(
    name = "lint",
    mixinStandardHelpOptions = true,
    description = {
      "Check a Flume agent configuration against the scaling rules: transactionCapacity covers every batch,"
          + " one channel per sink, Kafka sources <= partitions, max.request.size above the largest"
          + " message, no silently ignored or dropped settings.",
      "Prints one line per finding with its fix; exits 1 if any finding is an ERROR.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka lint /etc/flume/edge.properties",
      "  flafka lint --tier core --set core_kafka_sources=8 --partitions 6",
    })
final class LintCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FILE",
      description = "Flume properties file to check.")
  Path file;

  @Option(
      names = "--tier",
      paramLabel = "TIER",
      description = "Check a rendering of the edge or core template instead of a file.")
  String tier;

  @Mixin TemplateVariableOptions variables;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description =
          "Partitions of the topic the Kafka sources read (checks sources <= partitions).")
  Integer partitions;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if ((file == null) == (tier == null)) {
      throw UserException.invalidInput(
          "Give either a properties FILE or --tier edge|core, not "
              + (file == null ? "neither" : "both")
              + ".");
    }
    if (file != null && (variables.varsFile != null || !variables.settings.isEmpty())) {
      throw UserException.invalidInput(
          "--set and --vars apply only with --tier: a FILE is checked as it is.");
    }
    if (partitions != null && partitions < 1) {
      throw UserException.invalidInput("--partitions must be at least 1, not " + partitions + ".");
    }
    String text = file != null ? read(file) : variables.render(RenderCommand.tier(tier));
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw UserException.invalidInput(
          "Cannot read "
              + (file != null ? file : "the rendering")
              + " as a properties file: "
              + e.getMessage()
              + ".");
    }

    List<Finding> findings =
        new ArrayList<>(
            Linter.lint(
                properties, partitions == null ? OptionalInt.empty() : OptionalInt.of(partitions)));
    if (tier != null) {
      findings.addAll(TemplateVariables.unused(properties, variables.variables().keySet()));
    }

    PrintWriter stdout = spec.commandLine().getOut();
    findings.forEach(stdout::println);
    long errors = findings.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
    long warnings = findings.size() - errors;
    stdout.println(
        findings.isEmpty()
            ? "lint: no findings"
            : "lint: " + plural(errors, "error") + ", " + plural(warnings, "warning"));
    stdout.flush();
    return errors > 0 ? ExitCode.FAILED : ExitCode.OK;
  }

  private static String read(Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw UserException.invalidInput("File " + path + " does not exist: check the path.");
    } catch (IOException e) {
      throw UserException.invalidInput("Cannot read " + path + ": " + e.getMessage() + ".");
    }
  }

  private static String plural(long count, String word) {
    return count + " " + word + (count == 1 ? "" : "s");
  }
}
