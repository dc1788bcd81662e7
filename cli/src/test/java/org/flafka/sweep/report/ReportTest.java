package org.flafka.sweep.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flafka.cli.Flafka;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.audit.AuditCounts;
import org.flafka.sweep.space.Space;
import org.flafka.sweep.space.SpaceParser;
import org.flafka.sweep.trial.Bottleneck;
import org.flafka.sweep.trial.Measurement;
import org.flafka.sweep.trial.Stage;
import org.flafka.sweep.trial.TrialResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** The result files, written from a made-up sweep and read back. */
class ReportTest {
  @TempDir Path dir;

  private Space space;
  private SweepResult result;

  @BeforeEach
  void sweep() {
    space =
        SpaceParser.parse(
            "space.yml",
            "made-up",
            """
                description: "made up, with a comma"
                timing: {warmup: 1s, measure: 2s, repeats: 3}
                set: {edge_channel_capacity: 200000}
                dimensions:
                  core_hdfs_sinks: [1, 2, 4]
                  core_hdfs_batch_size: [1000, 10000]
                  edge_kafka_compression_type: [snappy, lz4]
                """);
    List<TrialResult> trials = new ArrayList<>();
    // the defaults: 4 sinks, batch 10000, snappy
    trials.add(ok(1, space.baseline(), true, 20_000, 21_000, 22_000));
    trials.add(ok(2, space.settingsAt(List.of(1, 1, 0)), false, 9_000, 10_000, 11_000));
    trials.add(ok(3, space.settingsAt(List.of(2, 1, 1)), false, 40_000, 41_000, 42_500));
    trials.add(ok(4, space.settingsAt(List.of(2, 0, 1)), false, 39_000, 40_000, 40_500));
    trials.add(
        new TrialResult(
            5,
            space.settingsAt(List.of(0, 0, 0)),
            false,
            TrialResult.Status.PRUNED,
            "core lint ERROR [x] y: \"quoted\", and a comma",
            List.of()));
    trials.add(
        new TrialResult(
            6,
            space.settingsAt(List.of(0, 1, 0)),
            false,
            TrialResult.Status.FAILED,
            "repeat 1: the agent died",
            List.of()));
    result =
        new SweepResult(
            space,
            "grid",
            "simulated",
            "flafka audit",
            Instant.parse("2026-11-21T08:00:00Z"),
            Instant.parse("2026-11-21T08:10:00Z"),
            trials,
            true);
  }

  /** The made-up sweep with other trials. */
  private SweepResult sweepOf(List<TrialResult> trials) {
    return new SweepResult(
        space,
        "grid",
        "simulated",
        "flafka audit",
        result.started(),
        result.finished(),
        trials,
        true);
  }

  private static TrialResult ok(
      int number, org.flafka.sweep.space.Settings settings, boolean baseline, double... endToEnd) {
    List<Measurement> runs = new ArrayList<>();
    for (int repeat = 1; repeat <= endToEnd.length; repeat++) {
      Map<Stage, Double> rates = new EnumMap<>(Stage.class);
      for (Stage stage : Stage.values()) {
        rates.put(stage, stage.tier() == Tier.EDGE ? 50_000.0 : endToEnd[repeat - 1]);
      }
      rates.put(Stage.EDGE_CHANNEL, 50_000.0 + repeat);
      runs.add(
          new Measurement(
              repeat,
              2.0,
              50_100,
              rates,
              0.01,
              0.9,
              Bottleneck.CORE_SINKS,
              12.5,
              30.25,
              1_000_000,
              1_000_000,
              1_000_000,
              true,
              1.5,
              12.0,
              new AuditCounts(1_000_000, 1_000_000, 0, 2, 0),
              "flafka audit"));
    }
    return new TrialResult(number, settings, baseline, TrialResult.Status.OK, "", runs);
  }

  @Test
  void runsWhoseAuditFoundSomethingKeepTheirFilesInTheResultsAndCleanRunsDoNot() throws Exception {
    // trial 1's runs audited clean; every other run of the made-up sweep audited 2 duplicated
    List<TrialResult> trials = new ArrayList<>(result.trials());
    TrialResult defaults = trials.get(0);
    trials.set(
        0,
        new TrialResult(
            defaults.number(),
            defaults.settings(),
            true,
            TrialResult.Status.OK,
            "",
            defaults.runs().stream()
                .map(
                    run ->
                        run.withAudit(
                            new AuditCounts(1_000_000, 1_000_000, 0, 0, 0), "flafka audit"))
                .toList()));
    SweepResult audited = sweepOf(trials);
    Path work = dir.resolve("work");
    for (String run : List.of("t001-r1", "t002-r1", "t002-r2")) {
      Files.createDirectories(work.resolve("trials").resolve(run).resolve("core"));
      Files.writeString(work.resolve("trials").resolve(run).resolve("core/agent.log"), run);
    }
    Path results = dir.resolve("results");

    List<String> lines = AuditedAnomalies.keep(audited, work, results);

    Path kept = results.resolve(AuditedAnomalies.DIRECTORY);
    assertEquals("t002-r1", Files.readString(kept.resolve("t002-r1/core/agent.log")));
    assertEquals("t002-r2", Files.readString(kept.resolve("t002-r2/core/agent.log")));
    assertFalse(Files.exists(kept.resolve("t001-r1")), "a clean run's files are not kept");
    assertTrue(Files.exists(work.resolve("trials/t001-r1")), "and stay where the work goes");
    assertTrue(
        lines.contains(
            "run t002-r1 audited 0 missing, 2 duplicated, 0 corrupted; its agent configurations"
                + " and logs are kept in "
                + kept.resolve("t002-r1")),
        String.join("\n", lines));
    assertTrue(
        lines.contains(
            "run t003-r1 audited 0 missing, 2 duplicated, 0 corrupted; the target left no files of"
                + " it"),
        String.join("\n", lines));
    assertEquals(9, lines.size(), "trials 2, 3 and 4 have 3 runs each, each with a finding");
  }

  @Test
  void csvHasOneRowPerRunWithEverySettingAndMeasurement() throws Exception {
    new ReportWriter(dir).finish(result);
    List<List<String>> rows = parseCsv(Files.readString(dir.resolve("results.csv")));
    List<String> header = rows.get(0);
    assertEquals(
        List.of(
            "trial",
            "repeat",
            "status",
            "baseline",
            "reason",
            "core_hdfs_sinks",
            "core_hdfs_batch_size",
            "edge_kafka_compression_type",
            "edge_channel_capacity"),
        header.subList(0, 9));
    assertEquals(ResultsCsv.MEASUREMENTS, header.subList(9, header.size()));
    assertEquals(
        1 + 4 * 3 + 2,
        rows.size(),
        "3 runs for each of 4 measured trials, a row for each of the others");
    Map<String, String> first = row(header, rows.get(1));
    assertEquals("t001", first.get("trial"));
    assertEquals("1", first.get("repeat"));
    assertEquals("ok", first.get("status"));
    assertEquals("true", first.get("baseline"));
    assertEquals("4", first.get("core_hdfs_sinks"));
    assertEquals("snappy", first.get("edge_kafka_compression_type"));
    assertEquals("200000", first.get("edge_channel_capacity"));
    assertEquals("20000", first.get("end_to_end_eps"));
    assertEquals("50001", first.get("edge_channel_take_eps".replace("_take", "")));
    assertEquals("core_sinks", first.get("bottleneck"));
    assertEquals("30.25", first.get("core_cpu_s_per_mevent"));
    assertEquals("1.5", first.get("first_delivery_s"));
    assertEquals("12", first.get("warmup_s"));
    assertEquals("0", first.get("counted_loss"));
    assertEquals("2", first.get("audit_duplicated"));
    Map<String, String> pruned = row(header, rows.get(13));
    assertEquals("pruned", pruned.get("status"));
    assertEquals("core lint ERROR [x] y: \"quoted\", and a comma", pruned.get("reason"));
    assertEquals("", pruned.get("end_to_end_eps"));
    assertEquals("1", pruned.get("core_hdfs_sinks"));
  }

  @Test
  void jsonHasTheSpaceTheVerdictAndEveryRun() throws Exception {
    new ReportWriter(dir).finish(result);
    JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
    assertEquals(ResultsJson.VERSION, json.get("version").asInt());
    assertEquals("made-up", json.at("/space/name").asText());
    assertEquals(12, json.at("/space/gridSize").asInt());
    assertEquals("core_hdfs_sinks", json.at("/space/dimensions/0/name").asText());
    assertEquals(4, json.at("/space/dimensions/0/default").asInt());
    assertEquals(200000, json.at("/space/fixed/edge_channel_capacity").asInt());
    assertEquals(5, json.get("trialsRun").asInt(), "measured and failed trials cost time");
    assertEquals(1, json.get("trialsPruned").asInt());
    // t003 (41,000) beats t004 (40,000), but their repeats overlap: a tie, not a winner
    assertEquals("t003", json.at("/verdict/best").asText());
    assertTrue(json.at("/verdict/tie").asBoolean());
    assertEquals("t004", json.at("/verdict/tiedWithBest/0").asText());
    assertEquals("t001", json.at("/verdict/baseline").asText());
    JsonNode best = json.at("/trials/2");
    assertEquals("t003", best.get("id").asText());
    assertEquals(41000, best.at("/summary/endToEndEps/median").asDouble());
    assertEquals(40000, best.at("/summary/endToEndEps/min").asDouble());
    assertEquals(42500, best.at("/summary/endToEndEps/max").asDouble());
    assertEquals(3, best.at("/summary/endToEndEps/count").asInt());
    assertEquals("core_sinks", best.at("/summary/bottleneck").asText());
    assertEquals(3, best.get("runs").size());
    assertEquals(50002, best.at("/runs/1/stagesEps/edge_channel").asDouble());
    assertEquals(2, best.at("/runs/0/audit/duplicated").asInt());
    assertEquals("lz4", best.at("/settings/edge_kafka_compression_type").asText());
    assertTrue(json.at("/trials/4/summary/endToEndEps/median").isNull());
    assertEquals("failed", json.at("/trials/5/status").asText());
  }

  @Test
  void htmlHasTheTableAndTheFourCharts() throws Exception {
    new ReportWriter(dir).finish(result);
    String html = Files.readString(dir.resolve("report.html"));
    for (String section :
        List.of(
            "id=\"per-trial\"",
            "id=\"two-dimensions\"",
            "id=\"stages\"",
            "id=\"default-vs-best\"",
            "id=\"trials\"")) {
      assertTrue(html.contains(section), section);
    }
    // per trial, two dimensions, per stage, defaults vs best
    assertEquals(4, count(html, "<svg "));
    assertTrue(html.contains("<b>A tie</b> with t004"), "the verdict calls the tie");
    assertTrue(
        html.contains(
            "The defaults (t001) gave 21,000 events/s (20,000 to 22,000 over 3 repeats, spread"
                + " 9.5%): the best is 1.95x that. The defaults ran first and last: their last run"
                + " was +10.0% against their first"),
        html);
    // the two dimensions that moved the result most: sinks (10,000 to 41,000) and compression
    assertTrue(
        html.contains("Events/s across core_hdfs_sinks and edge_kafka_compression_type"), html);
    assertTrue(
        html.contains("core lint ERROR [x] y: &quot;quoted&quot;, and a comma"), "escaped reason");
    assertFalse(html.contains("<script"), "no scripts");
    assertTrue(
        html.contains(
            "<title>t003 core_hdfs_sinks=4 core_hdfs_batch_size=10000"
                + " edge_kafka_compression_type=lz4: 41,000 events/s (40,000 to 42,500 over 3 repeats, spread 6.1%)"
                + "</title>"),
        "bar tooltips");
  }

  @Test
  void theSpaceChoosesTheChartedDimensions() {
    Space chosen =
        SpaceParser.parse(
            "space.yml",
            "x",
            """
                dimensions:
                  core_hdfs_sinks: [1, 2, 4]
                  core_hdfs_batch_size: [1000, 10000]
                  edge_kafka_compression_type: [snappy, lz4]
                report: {chart_dimensions: [core_hdfs_batch_size, core_hdfs_sinks]}
                """);
    SweepResult withChoice =
        new SweepResult(
            chosen, "grid", "t", null, Instant.EPOCH, Instant.EPOCH, result.trials(), true);
    assertEquals(
        List.of("core_hdfs_batch_size", "core_hdfs_sinks"), HtmlReport.chartDimensions(withChoice));
  }

  @Test
  void bestConfigurationRendersAndItsVarsRenderTheSameThroughTheCli() throws Exception {
    new ReportWriter(dir).finish(result);
    Path best = dir.resolve("best");
    Map<String, Object> expectedCore = new LinkedHashMap<>();
    expectedCore.put("core_hdfs_sinks", 4);
    expectedCore.put("core_hdfs_batch_size", 10000);
    Object coreVars = new Yaml().load(Files.readString(best.resolve("group_vars/core.yml")));
    assertEquals(expectedCore, coreVars);
    Map<String, Object> expectedEdge = new LinkedHashMap<>();
    expectedEdge.put("edge_channel_capacity", 200000);
    expectedEdge.put("edge_kafka_compression_type", "lz4");
    assertEquals(
        expectedEdge, new Yaml().load(Files.readString(best.resolve("group_vars/edge.yml"))));
    assertTrue(
        Files.readString(best.resolve("group_vars/core.yml"))
            .contains("# The topic had 4 partitions"));

    for (Tier tier : Tier.values()) {
      String properties = Files.readString(best.resolve(tier.id() + ".properties"));
      String withoutHeader =
          properties.substring(properties.indexOf('\n', properties.indexOf('\n') + 1) + 1);
      Map<String, Object> variables = tier == Tier.EDGE ? expectedEdge : expectedCore;
      assertEquals(AgentTemplates.render(tier, variables), withoutHeader);
      StringWriter out = new StringWriter();
      int code =
          Flafka.execute(
              new PrintWriter(out),
              new PrintWriter(new StringWriter()),
              "render",
              tier.id(),
              "--vars",
              best.resolve("group_vars/" + tier.id() + ".yml").toString());
      assertEquals(0, code);
      assertEquals(
          withoutHeader, out.toString(), "flafka render --vars renders the very same file");
    }
    assertTrue(
        Files.readString(best.resolve("edge.properties"))
            .startsWith(
                "# flafka sweep, space made-up, 2026-11-21T08:00:00Z: trial t003, 41,000 events/s"));
  }

  @Test
  void summaryTableRanksAndCallsTheTie() {
    StringWriter text = new StringWriter();
    SummaryTable.print(result, Path.of("sweep-results/x"), new PrintWriter(text));
    String summary = text.toString();
    List<String> lines = summary.lines().toList();
    assertEquals(
        "flafka sweep: space made-up, strategy grid: 5 trials run, 1 pruned, of 12 points",
        lines.get(0));
    assertTrue(
        lines.get(2).startsWith("rank  trial  core_hdfs_sinks  core_hdfs_batch_size"),
        lines.get(2));
    assertTrue(
        lines.get(3).startsWith("1     t003   4                10000                 lz4"),
        lines.get(3));
    assertTrue(
        lines
            .get(3)
            .contains(
                "41,000    6.1%    core HDFS sinks  12.5            30.3            0/6 (audit)"),
        lines.get(3));
    assertTrue(
        summary.contains(
            "best: t003, 41,000 events/s into HDFS - a TIE with t004 (their repeats overlap);"
                + " 1.95x the defaults (t001, 21,000 events/s; best 40,000-42,500 over 3 runs,"
                + " defaults 20,000-22,000 over 3 runs)"),
        summary);
    assertTrue(
        summary.contains("drift: the defaults' last run was +10.0% against their first"), summary);
    assertTrue(summary.contains("1 trial failed (reasons in the report)"));
    assertTrue(summary.contains("report: sweep-results/x/report.html"));
    assertFalse(summary.contains("one repeat each"), "three repeats have a spread to judge by");
  }

  @Test
  void aRunnerUpWithinTheNoiseOfOneRepeatIsNamed() throws Exception {
    // one repeat each, as the built-in core space: t003 leads t002 by 3.3%, and the defaults (t001)
    // by 31%
    SweepResult oneRepeat = oneRepeatSweep(73_275);
    StringWriter text = new StringWriter();
    SummaryTable.print(oneRepeat, Path.of("sweep-results/x"), new PrintWriter(text));
    assertTrue(
        text.toString()
            .contains(
                "best: t003, 75,760 events/s into HDFS - t002 only 3.3% behind, one repeat"
                    + " each: noise can order them; sweep both again with --repeats 3; 1.45x the defaults"),
        text.toString());
    new ReportWriter(dir).finish(oneRepeat);
    assertTrue(
        Files.readString(dir.resolve("report.html"))
            .contains("The next, <b>t002</b>, is only 3.3% behind," + " one repeat each"));

    assertTrue(
        oneRepeatSweep(60_000).unrepeatedRunnerUp().isEmpty(),
        "21% apart is more than this machine's noise");
  }

  /** The defaults at 52,078 events/s, t003 at 75,760, t002 at {@code runnerUp}; one repeat each. */
  private SweepResult oneRepeatSweep(double runnerUp) {
    return new SweepResult(
        space,
        "descent",
        "simulated",
        "flafka audit",
        result.started(),
        result.finished(),
        List.of(
            ok(1, space.baseline(), true, 52_078),
            ok(2, space.settingsAt(List.of(1, 1, 0)), false, runnerUp),
            ok(3, space.settingsAt(List.of(2, 1, 1)), false, 75_760)),
        true);
  }

  @Test
  void summarySaysWhichTrialsDidNotDrainAndHowToAuditThemAll() {
    List<TrialResult> trials = new ArrayList<>(result.trials());
    Measurement drained = trials.get(1).runs().get(0);
    Measurement notDrained =
        new Measurement(
            1,
            2.0,
            40_000,
            drained.rates(),
            0.01,
            0.9,
            Bottleneck.CORE_SINKS,
            12.5,
            30.25,
            900_000,
            900_000,
            654_321,
            false,
            1.5,
            12.0,
            null,
            "not run: 245679 events were still on"
                + " their way to HDFS when the drain time ran out");
    trials.set(
        1,
        new TrialResult(
            2, trials.get(1).settings(), false, TrialResult.Status.OK, "", List.of(notDrained)));
    StringWriter text = new StringWriter();
    SummaryTable.print(sweepOf(trials), Path.of("sweep-results/x"), new PrintWriter(text));
    String summary = text.toString();
    assertTrue(summary.contains("? (not drained)"), summary);
    assertTrue(
        summary.contains(
            "? not drained, so not audited: events still in Kafka or the core's channels when"
                + " the drain gave up (t002 245,679): these cores drain more slowly than the load sent, and the backlog"
                + " would outlast the drain time (1m). To audit every trial, set load.rate below the slowest trial's"
                + " events/s, or raise timing.drain."),
        summary);
  }

  private static int count(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private static Map<String, String> row(List<String> header, List<String> cells) {
    assertEquals(header.size(), cells.size());
    Map<String, String> row = new LinkedHashMap<>();
    for (int n = 0; n < header.size(); n++) {
      row.put(header.get(n), cells.get(n));
    }
    return row;
  }

  /** RFC 4180, as a spreadsheet reads it. */
  static List<List<String>> parseCsv(String text) {
    List<List<String>> rows = new ArrayList<>();
    Matcher cell =
        Pattern.compile("\\G(?:\"((?:[^\"]|\"\")*)\"|([^,\"\\r\\n]*))(,|\\r\\n|$)").matcher(text);
    List<String> row = new ArrayList<>();
    while (cell.find() && cell.end() > cell.start()) {
      row.add(cell.group(1) != null ? cell.group(1).replace("\"\"", "\"") : cell.group(2));
      if (!cell.group(3).equals(",")) {
        rows.add(row);
        row = new ArrayList<>();
      }
    }
    return rows;
  }
}
