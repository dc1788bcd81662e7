package org.flafka.cli;

import static org.flafka.cli.FlafkaRun.flafka;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmValidatingProxy;
import org.flafka.cm.emulator.CmEmulator;
import org.flafka.cm.emulator.CmEmulatorConfig;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.dashboards.Dashboard;
import org.flafka.dashboards.Dashboards;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flafka dashboards}: the shipped JSON files, install and render against the CM emulator
 * (spec-validated).
 */
class DashboardsCommandTest {
  @TempDir Path tmp;

  @Test
  void theShippedDashboardFilesAreWhatTheGeneratorWrites() throws Exception {
    Path shipped = Path.of("..", "dashboards");
    for (Dashboard dashboard : Dashboards.DEFAULTS.all()) {
      Path file = shipped.resolve(dashboard.slug() + ".json");
      assertTrue(
          Files.exists(file), file + " is missing: run flafka dashboards export --out dashboards");
      assertEquals(
          dashboard.importFile(),
          Files.readString(file, StandardCharsets.UTF_8),
          file + " is out of date: run flafka dashboards export --out dashboards");
    }
    // dashboards/ is also the module that holds the code (pom.xml, src/): only its JSON files are
    // dashboards
    try (var files = Files.list(shipped)) {
      assertEquals(
          Dashboards.DEFAULTS.all().size(),
          files.filter(file -> file.getFileName().toString().endsWith(".json")).count(),
          "a stale dashboard file in dashboards/");
    }
  }

  @Tag("e2e")
  @Test
  void installReplacesTheDashboardsAndRenderDrawsThemFromTheEmulator() throws Exception {
    Path password = Files.writeString(tmp.resolve("password"), "pw\n");
    try (CmEmulator emulator =
            CmEmulator.start(
                CmEmulatorConfig.builder(tmp.resolve("cm"))
                    .credentials("admin", "pw")
                    .sampleInterval(Duration.ofMillis(200))
                    .build());
        CmValidatingProxy proxy = new CmValidatingProxy(emulator.url(), Strictness.DECLARED_ONLY)) {
      String[] cm = {"--cm-url", proxy.url(), "--cm-password-file", password.toString()};
      for (int run = 0; run < 2; run++) {
        FlafkaRun install = flafka("dashboards", "install", cm[0], cm[1], cm[2], cm[3]);
        assertEquals(0, install.exitCode(), install.err());
        assertTrue(
            install.out().contains("installed 'Flafka edge tier' (6 charts)"), install.out());
        assertTrue(
            !install.out().contains("note:"),
            "every name the dashboards use is documented: " + install.out());
      }
      CmClient client =
          CmClient.connect(
              CmClientConfig.from(
                  Map.of(CmClientConfig.URL, proxy.url()),
                  Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "pw")));
      List<ApiDashboard> installed = client.dashboards();
      assertEquals(Dashboards.DEFAULTS.all().stream().map(Dashboard::toApi).toList(), installed);

      Thread.sleep(700);
      Path out = tmp.resolve("render");
      FlafkaRun render =
          flafka(
              "dashboards",
              "render",
              cm[0],
              cm[1],
              cm[2],
              cm[3],
              "--out",
              out.toString(),
              "--window",
              "1m");
      assertEquals(0, render.exitCode(), render.err());
      assertTrue(render.out().contains("wrote 14 charts"), render.out());
      BufferedImage hosts = ImageIO.read(out.resolve("flafka-hosts-1.png").toFile());
      assertEquals(900, hosts.getWidth());
      String html = Files.readString(out.resolve("index.html"));
      assertTrue(html.contains("<img src=\"flafka-edge-tier-1.png\""), html);
      assertTrue(
          html.contains(
              "total_bytes_transmit_rate_across_network_interfaces WHERE category = HOST"),
          html);
      assertTrue(html.contains("facetting <code>__single_plot__</code>"), html);

      // what CM holds, read back as CM views: the same charts, and a blob that is no view is
      // skipped
      client.createDashboards(
          List.of(new ApiDashboard("Not a view", "{\"name\": \"Not a view\", \"charts\": []}")));
      Path installedOut = tmp.resolve("installed");
      FlafkaRun installedRender =
          flafka(
              "dashboards",
              "render",
              cm[0],
              cm[1],
              cm[2],
              cm[3],
              "--out",
              installedOut.toString(),
              "--window",
              "1m",
              "--installed");
      assertEquals(0, installedRender.exitCode(), installedRender.err());
      assertTrue(installedRender.out().contains("wrote 14 charts"), installedRender.out());
      assertTrue(
          installedRender
              .out()
              .contains(
                  "skipped 'Not a view': its json is not a CM view with plots (view 'Not a view' has no"
                      + " \"plots\" array)"),
          installedRender.out());
      assertTrue(Files.exists(installedOut.resolve("flafka-kafka-5.png")));
      proxy.assertConforms();

      FlafkaRun wrong =
          flafka(
              "dashboards",
              "install",
              "--cm-url",
              proxy.url(),
              "--cm-password-file",
              Files.writeString(tmp.resolve("wrong"), "nope\n").toString());
      assertEquals(ExitCode.UNEXPECTED_STATE, wrong.exitCode());
      assertTrue(
          wrong
              .err()
              .startsWith("flafka: Cloudera Manager at " + proxy.url() + " rejected user 'admin'"),
          wrong.err());
      assertEquals(1, wrong.err().strip().lines().count(), wrong.err());
    }
  }
}
