package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.flafka.render.AgentTemplates;
import org.flafka.render.TemplateVariable;
import org.flafka.render.Tier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code flafka render}: writes a Flume agent's properties from the shared templates. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
      "Render a Flume agent configuration from the agent templates (the same files Ansible renders).",
      "Variables not given keep the defaults in agents/<tier>/templates/<tier>-defaults.yml;"
          + " a name that is not a variable of the tier is an error.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  flafka render edge --set site=paris-1 --set edge_kafka_sinks=4",
      "  flafka render core --vars core.yml --out core.properties",
      "  flafka render edge --list-variables",
    })
final class RenderCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "TIER", description = "edge or core.")
  String tier;

  @Mixin TemplateVariableOptions variables;

  @Option(
      names = {"-o", "--out"},
      paramLabel = "FILE",
      description = "Write to FILE instead of standard output.")
  Path out;

  @Option(
      names = "--list-variables",
      description = "List the tier's variables with defaults and docs instead.")
  boolean listVariables;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Tier chosen = tier(tier);
    PrintWriter stdout = spec.commandLine().getOut();
    if (listVariables) {
      for (TemplateVariable variable : AgentTemplates.variables(chosen)) {
        stdout.println(variable.name() + " = " + variable.defaultValue());
        stdout.println("    " + variable.doc());
      }
      stdout.flush();
      return ExitCode.OK;
    }
    String properties = variables.render(chosen);
    if (out == null) {
      stdout.print(properties);
      stdout.flush();
    } else {
      try {
        Files.writeString(out, properties, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw UserException.invalidInput(
            "Cannot write "
                + out
                + ": "
                + e.getMessage()
                + ". Check that its directory exists and is writable.");
      }
    }
    return ExitCode.OK;
  }

  static Tier tier(String name) {
    try {
      return Tier.fromId(name);
    } catch (IllegalArgumentException e) {
      throw UserException.invalidInput(e.getMessage() + ".");
    }
  }
}
