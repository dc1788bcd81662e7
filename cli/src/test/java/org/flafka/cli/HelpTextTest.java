package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders cleanly. picocli formats descriptions with {@code
 * String.format}, so a lone {@code %} (such as "5% of its CPU") makes it print a warning on stderr
 * and show the raw text.
 */
class HelpTextTest {

  @Test
  void everyCommandsHelpFormatsWithoutWarnings() {
    List<List<String>> commands = new ArrayList<>();
    collect(
        new CommandLine(new Flafka(new ByteArrayInputStream(new byte[0]))),
        new ArrayList<>(),
        commands);
    assertTrue(commands.size() > 8, "subcommands found: " + commands);
    PrintStream originalErr = System.err;
    for (List<String> command : commands) {
      ByteArrayOutputStream tracer = new ByteArrayOutputStream();
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      List<String> args = new ArrayList<>(command);
      args.add("--help");
      int code;
      System.setErr(new PrintStream(tracer, true, StandardCharsets.UTF_8));
      try {
        code =
            Flafka.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
      } finally {
        System.setErr(originalErr);
      }
      String where = "flafka " + String.join(" ", args);
      assertEquals(ExitCode.OK, code, where + ": " + err);
      assertEquals("", tracer.toString(StandardCharsets.UTF_8), where + " warned");
      assertFalse(
          out.toString().contains("%n"), where + " shows an unformatted description:\n" + out);
      assertTrue(out.toString().contains("Usage: flafka"), where + ":\n" + out);
    }
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> into) {
    into.add(List.copyOf(path));
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandName().equals(name)) { // once per command, not per alias
                List<String> deeper = new ArrayList<>(path);
                deeper.add(name);
                collect(sub, deeper, into);
              }
            });
  }
}
