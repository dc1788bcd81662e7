package org.flafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmException;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.dashboards.Dashboard;
import org.flafka.dashboards.DashboardRenderer;
import org.flafka.dashboards.Dashboards;
import org.flafka.dashboards.View;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flafka dashboards install|render}: the kit's CM dashboards. */
@Command(
    name = "dashboards",
    mixinStandardHelpOptions = true,
    description =
        "Install the kit's Cloudera Manager dashboards, or draw them as PNG + HTML from /timeseries.",
    subcommands = {
      DashboardsCommand.Install.class,
      DashboardsCommand.Render.class,
      DashboardsCommand.Export.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  FLAFKA_CM_PASSWORD=... flafka dashboards install --cm-url https://cm:7183 --cm-user admin",
      "  flafka dashboards render --cm-url http://127.0.0.1:7180 --out dash/ --window 15m",
      "  flafka dashboards render --cm-url http://127.0.0.1:7180 --out dash/ --installed",
    })
final class DashboardsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The service, topic and group names the queries use. */
  static final class Names {
    @Option(
        names = "--edge-service",
        defaultValue = "flume",
        description = "FLUME service of the edge agents (default: ${DEFAULT-VALUE}).")
    String edge;

    @Option(
        names = "--core-service",
        defaultValue = "flume",
        description = "FLUME service of the core agents (default: ${DEFAULT-VALUE}).")
    String core;

    @Option(
        names = "--kafka-service",
        defaultValue = "kafka",
        description = "KAFKA service (default: ${DEFAULT-VALUE}).")
    String kafka;

    @Option(
        names = "--topic",
        defaultValue = "syslog",
        description = "Topic between the tiers (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(
        names = "--core-group",
        defaultValue = "flafka-core",
        description = "Consumer group of the core agents (default: ${DEFAULT-VALUE}).")
    String coreGroup;

    Dashboards dashboards() {
      return new Dashboards(edge, core, kafka, topic, coreGroup);
    }
  }

  @Command(
      name = "install",
      mixinStandardHelpOptions = true,
      description =
          "Create the dashboards in CM, replacing any of the same name (CM has no update: delete + create).")
  static final class Install implements Callable<Integer> {
    @Mixin CmOptions cm;

    @ArgGroup(exclusive = false)
    Names names = new Names();

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      CmClient client = cm.connect(System.getenv());
      try {
        for (Dashboard dashboard : names.dashboards().all()) {
          client.replaceDashboard(dashboard.toApi());
          out.println(
              "installed '" + dashboard.name() + "' (" + dashboard.charts().size() + " charts)");
          if (!dashboard.unverifiedTerms().isEmpty()) {
            out.println(
                "  note: it uses names unverified on a real CM: "
                    + String.join(", ", dashboard.unverifiedTerms()));
          }
        }
      } catch (CmException e) {
        throw CmOptions.asUserError(e);
      }
      out.flush();
      return ExitCode.OK;
    }
  }

  @Command(
      name = "render",
      mixinStandardHelpOptions = true,
      description =
          "Query /timeseries and draw every chart of the kit's dashboards (or, with --installed, of"
              + " the dashboards installed in CM) as a PNG, with an index.html showing them.")
  static final class Render implements Callable<Integer> {
    @Option(
        names = "--installed",
        description =
            "Draw the dashboards installed in CM (GET /timeseries/dashboards), not the kit's own;"
                + " dashboards whose json is not a view with plots are skipped with a note.")
    boolean installed;

    @Mixin CmOptions cm;

    @ArgGroup(exclusive = false)
    Names names = new Names();

    @Option(
        names = "--out",
        required = true,
        paramLabel = "DIR",
        description = "Directory for the PNGs and index.html.")
    Path out;

    @Option(
        names = "--window",
        defaultValue = "15m",
        paramLabel = "TIME",
        description = "How far back to draw, e.g. 90s, 15m, 2h (default: ${DEFAULT-VALUE}).")
    String window;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Duration span = duration(window);
      CmClient client = cm.connect(System.getenv());
      PrintWriter printer = spec.commandLine().getOut();
      List<Path> files;
      try {
        List<View> views = new java.util.ArrayList<>();
        if (installed) {
          for (ApiDashboard dashboard : client.dashboards()) {
            try {
              views.add(View.parse(dashboard.json()));
            } catch (IllegalArgumentException notAView) {
              printer.println(
                  "skipped '"
                      + dashboard.name()
                      + "': its json is not a CM view with plots ("
                      + notAView.getMessage()
                      + ")");
            }
          }
        } else {
          // the same blobs install sends, read back as CM reads them
          names.dashboards().all().forEach(d -> views.add(View.parse(d.json())));
        }
        files = new DashboardRenderer(client).render(views, span, out);
      } catch (CmException e) {
        throw CmOptions.asUserError(e);
      }
      spec.commandLine()
          .getOut()
          .println("wrote " + (files.size() - 1) + " charts and " + files.get(files.size() - 1));
      spec.commandLine().getOut().flush();
      return ExitCode.OK;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Write each dashboard as the JSON body POST /timeseries/dashboards takes (dashboards/*.json).")
  static final class Export implements Callable<Integer> {
    @ArgGroup(exclusive = false)
    Names names = new Names();

    @Option(
        names = "--out",
        required = true,
        paramLabel = "DIR",
        description = "Directory for the JSON files.")
    Path out;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      java.nio.file.Files.createDirectories(out);
      for (Dashboard dashboard : names.dashboards().all()) {
        Path file = out.resolve(dashboard.slug() + ".json");
        java.nio.file.Files.writeString(
            file, dashboard.importFile(), java.nio.charset.StandardCharsets.UTF_8);
        spec.commandLine().getOut().println("wrote " + file);
      }
      spec.commandLine().getOut().flush();
      return ExitCode.OK;
    }
  }

  /** {@code 90s}, {@code 15m}, {@code 2h}. */
  static Duration duration(String text) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h)").matcher(text.strip());
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw UserException.invalidInput(
          "time '" + text + "' must be a positive number with ms, s, m or h, " + "e.g. 90s or 15m");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
