package org.flafka.bench;

import static org.flafka.bench.ReportFormat.appendThreadTable;
import static org.flafka.bench.ReportFormat.decimal;
import static org.flafka.bench.ReportFormat.median;
import static org.flafka.bench.ReportFormat.number;
import static org.flafka.bench.ReportFormat.seconds;
import static org.flafka.bench.ReportFormat.spread;
import static org.flafka.bench.ReportFormat.threadMedians;
import static org.flafka.bench.ReportFormat.threadSeconds;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.flafka.load.Protocol;

/**
 * The trials of one {@code flafka bench edge} run and their summary per variant: medians over the
 * repeats, with the smallest and largest events/s as the spread. "vs baseline" divides by the
 * baseline variant's medians.
 */
public final class EdgeBenchReport {
  /** At a fixed --rate, a variant that delivers less than this share of it did not keep up. */
  static final double KEPT_UP = 0.97;

  private final EdgeBenchSettings settings;
  private final List<Trial> trials;
  private final long startedMillis;
  private final String machine;

  public EdgeBenchReport(
      EdgeBenchSettings settings, List<Trial> trials, long startedMillis, String machine) {
    this.settings = settings;
    this.trials = List.copyOf(trials);
    this.startedMillis = startedMillis;
    this.machine = machine;
  }

  /** One variant's medians over its repeats. */
  public record Summary(
      EdgeVariant variant,
      int trials,
      double eventsPerSecond,
      double minEventsPerSecond,
      double maxEventsPerSecond,
      double sourceAcceptedPerSecond,
      double sinkDrainedPerSecond,
      double generatorSentPerSecond,
      double agentCpuPerMillion,
      double brokerCpuPerMillion,
      double generatorCpuPerMillion,
      double maxLoadAverage,
      double lostShare,
      long mostLost,
      long mostLostByKernel,
      double udpSocketDropsPerSecond) {}

  public List<Trial> trials() {
    return trials;
  }

  public List<Summary> summaries() {
    List<Summary> summaries = new ArrayList<>();
    for (EdgeVariant variant : settings.variants()) {
      List<Trial> mine = trials.stream().filter(t -> t.variant().equals(variant)).toList();
      if (mine.isEmpty()) {
        continue;
      }
      summaries.add(
          new Summary(
              variant,
              mine.size(),
              median(mine, Trial::eventsPerSecond),
              mine.stream().mapToDouble(Trial::eventsPerSecond).min().orElseThrow(),
              mine.stream().mapToDouble(Trial::eventsPerSecond).max().orElseThrow(),
              median(mine, Trial::sourceAcceptedPerSecond),
              median(mine, Trial::sinkDrainedPerSecond),
              median(mine, Trial::generatorSentPerSecond),
              median(mine, Trial::agentCpuPerMillion),
              median(mine, Trial::brokerCpuPerMillion),
              median(mine, Trial::generatorCpuPerMillion),
              mine.stream().mapToDouble(Trial::loadAverage).max().orElseThrow(),
              median(mine, Trial::lostShare),
              mostOf(mine, Trial::lost),
              mostOf(mine, Trial::trialKernelDrops),
              median(mine, Trial::udpSocketDropsPerSecond)));
    }
    return summaries;
  }

  /** The largest {@code count} of {@code trials}, -1 if one of them was not counted. */
  private static long mostOf(List<Trial> trials, ToLongFunction<Trial> count) {
    long most = 0;
    for (Trial trial : trials) {
      long value = count.applyAsLong(trial);
      if (value < 0) {
        return -1;
      }
      most = Math.max(most, value);
    }
    return most;
  }

  private Summary baseline() {
    return summaries().stream()
        .filter(s -> s.variant().equals(settings.baseline()))
        .findFirst()
        .orElse(null);
  }

  public String text() {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "flafka bench edge: %s, %d-byte messages over %d %s%s, "
                + "rate %s, %d × (%ss warm-up + %ss measured), topic with %d partition%s, %d sink%s%n",
            Instant.ofEpochMilli(startedMillis),
            settings.size(),
            settings.connections(),
            udp() ? "UDP socket" : "TCP connection",
            settings.connections() == 1 ? "" : "s",
            rateText(),
            settings.repeats(),
            seconds(settings.warmup().toMillis()),
            seconds(settings.duration().toMillis()),
            settings.partitions(),
            settings.partitions() == 1 ? "" : "s",
            settings.sinks(),
            settings.sinks() == 1 ? "" : "s"));
    ReportFormat.appendVariables(text, "ours with: ", settings.oursVariables());
    if (!settings.kafkaLatency().isZero()) {
      text.append("Kafka latency: ")
          .append(settings.kafkaLatency().toMillis())
          .append(
              " ms each way between every client and the broker (its proxy's CPU counts as the"
                  + " broker's)\n");
    }
    ReportFormat.appendAgentJvmOptions(text, settings.agentJvmOptions());
    if (settings.secure()) {
      text.append(SecureStack.EDGE_REPORT_LINE).append('\n');
    }
    text.append("machine: ").append(machine).append('\n');
    String baseName = settings.baseline().flagName();
    String[] header = {
      "variant",
      "events/s median (min-max)",
      "src accepted/s",
      "sink drained/s",
      "agent CPU-s/M",
      "broker CPU-s/M",
      "generator CPU-s/M",
      "vs " + baseName,
      "agent CPU vs " + baseName,
      "max load"
    };
    List<String[]> rows = new ArrayList<>();
    Summary base = baseline();
    for (Summary s : summaries()) {
      rows.add(
          new String[] {
            s.variant().flagName() + keptUpMark(s),
            spread(s.eventsPerSecond(), s.minEventsPerSecond(), s.maxEventsPerSecond()),
            count(s.sourceAcceptedPerSecond()),
            count(s.sinkDrainedPerSecond()),
            decimal(s.agentCpuPerMillion(), ""),
            decimal(s.brokerCpuPerMillion(), ""),
            decimal(s.generatorCpuPerMillion(), ""),
            base == null ? "-" : decimal(s.eventsPerSecond() / base.eventsPerSecond(), "x"),
            base == null ? "-" : decimal(s.agentCpuPerMillion() / base.agentCpuPerMillion(), "x"),
            String.format(Locale.ROOT, "%.1f", s.maxLoadAverage()),
          });
    }
    TextTable.append(text, header, rows);
    if (!settings.unlimitedRate() && summaries().stream().anyMatch(s -> !keptUp(s))) {
      text.append("* delivered less than ")
          .append(Math.round(KEPT_UP * 100))
          .append("% of --rate: its CPU per event is at its own maximum rate, not at --rate\n");
    }
    appendUdpTable(text);
    appendThreadTable(
        text,
        threadGroups(),
        summaries().stream().map(Summary::variant).toList(),
        EdgeVariant::flagName,
        this::threadMedian);
    text.append(
        "events/s: records the topic gained in the measure window (Kafka end offsets); CPU: process "
            + "user+system seconds per million of those records; generator: this JVM (load generator and "
            + "polling).\n");
    return text.toString();
  }

  private boolean udp() {
    return settings.protocol() == Protocol.UDP;
  }

  /**
   * On UDP nothing holds the sender back, so what reached Kafka says little without what was sent:
   * the loss over each whole trial (what the generator sent against what the topic held once the
   * agent had delivered everything), and the kernel's drops at the agent's socket (its receive
   * buffer full) in the window. Loss the kernel did not count happened in the agent (a full
   * channel, an oversize message: its own counters) or in the generator's host stack.
   */
  private void appendUdpTable(StringBuilder text) {
    if (!udp()) {
      return;
    }
    text.append(
        "UDP: sent by the generator and lost (medians; lost over each whole trial, counted once the"
            + " agent had delivered what it held):\n");
    String[] header = {
      "variant",
      "sent/s",
      "into Kafka/s",
      "lost",
      "most lost in a trial",
      "most the kernel dropped in a trial",
      "kernel drops at the agent's socket in the window/s"
    };
    List<String[]> rows = new ArrayList<>();
    for (Summary s : summaries()) {
      rows.add(
          new String[] {
            s.variant().flagName(),
            String.format(Locale.ROOT, "%,.0f", s.generatorSentPerSecond()),
            String.format(Locale.ROOT, "%,.0f", s.eventsPerSecond()),
            Double.isFinite(s.lostShare())
                ? String.format(Locale.ROOT, "%.3f%%", 100 * s.lostShare())
                : "-",
            s.mostLost() < 0 ? "not settled" : String.format(Locale.ROOT, "%,d", s.mostLost()),
            s.mostLostByKernel() < 0
                ? "-"
                : String.format(Locale.ROOT, "%,d", s.mostLostByKernel()),
            count(s.udpSocketDropsPerSecond()),
          });
    }
    TextTable.append(text, header, rows);
  }

  private List<String> threadGroups() {
    return ReportFormat.threadGroups(trials.stream().map(Trial::agentCpuByThreads));
  }

  /** Median agent CPU-s per million events of one group of threads over a variant's trials. */
  private double threadMedian(EdgeVariant variant, String group) {
    List<Trial> mine = trials.stream().filter(t -> t.variant().equals(variant)).toList();
    return median(
        mine, t -> t.agentCpuByThreads().containsKey(group) ? t.agentCpuPerMillion(group) : 0);
  }

  /** A rate of events, or "-" where not counted. */
  private static String count(double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%,.0f", value) : "-";
  }

  private String keptUpMark(Summary summary) {
    return settings.unlimitedRate() || keptUp(summary) ? "" : "*";
  }

  private boolean keptUp(Summary summary) {
    return summary.eventsPerSecond() >= KEPT_UP * settings.rate();
  }

  private String rateText() {
    return settings.unlimitedRate()
        ? "max"
        : String.format(Locale.ROOT, "%,.0f events/s", settings.rate());
  }

  public String json() {
    return ReportFormat.json("edge", startedMillis, machine, this::writeFields);
  }

  private void writeFields(JsonGenerator json) throws IOException {
    json.writeObjectFieldStart("settings");
    json.writeArrayFieldStart("variants");
    for (EdgeVariant variant : settings.variants()) {
      json.writeString(variant.flagName());
    }
    json.writeEndArray();
    json.writeNumberField("warmupSeconds", settings.warmup().toMillis() / 1e3);
    json.writeNumberField("durationSeconds", settings.duration().toMillis() / 1e3);
    json.writeNumberField("repeats", settings.repeats());
    json.writeNumberField("connections", settings.connections());
    json.writeNumberField("size", settings.size());
    json.writeNumberField("sinks", settings.sinks());
    json.writeNumberField("partitions", settings.partitions());
    json.writeNumberField("kafkaLatencyMillis", settings.kafkaLatency().toMillis());
    json.writeStringField("protocol", settings.protocol().flagName());
    json.writeBooleanField("secure", settings.secure());
    json.writeStringField("baseline", settings.baseline().flagName());
    if (settings.unlimitedRate()) {
      json.writeStringField("rate", "max");
    } else {
      json.writeNumberField("rate", settings.rate());
    }
    json.writeEndObject();
    Summary base = baseline();
    json.writeArrayFieldStart("summary");
    for (Summary s : summaries()) {
      json.writeStartObject();
      json.writeStringField("variant", s.variant().flagName());
      json.writeNumberField("trials", s.trials());
      json.writeNumberField("eventsPerSecond", s.eventsPerSecond());
      json.writeNumberField("minEventsPerSecond", s.minEventsPerSecond());
      json.writeNumberField("maxEventsPerSecond", s.maxEventsPerSecond());
      number(json, "sourceAcceptedPerSecond", s.sourceAcceptedPerSecond());
      number(json, "sinkDrainedPerSecond", s.sinkDrainedPerSecond());
      json.writeNumberField("generatorSentPerSecond", s.generatorSentPerSecond());
      number(json, "agentCpuSecondsPerMillion", s.agentCpuPerMillion());
      number(json, "brokerCpuSecondsPerMillion", s.brokerCpuPerMillion());
      number(json, "generatorCpuSecondsPerMillion", s.generatorCpuPerMillion());
      if (base != null) {
        number(json, "eventsPerSecondVsBaseline", s.eventsPerSecond() / base.eventsPerSecond());
        number(json, "agentCpuVsBaseline", s.agentCpuPerMillion() / base.agentCpuPerMillion());
      }
      if (!settings.unlimitedRate()) {
        json.writeBooleanField("keptUp", keptUp(s));
      }
      json.writeNumberField("maxLoadAverage", s.maxLoadAverage());
      if (udp()) {
        number(json, "lostShare", s.lostShare());
        json.writeNumberField("mostLost", s.mostLost());
        json.writeNumberField("mostLostByKernel", s.mostLostByKernel());
        number(json, "udpSocketDropsPerSecond", s.udpSocketDropsPerSecond());
      }
      threadMedians(json, threadGroups(), group -> threadMedian(s.variant(), group));
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("trials");
    for (Trial t : trials) {
      json.writeStartObject();
      json.writeStringField("variant", t.variant().flagName());
      json.writeNumberField("repeat", t.repeat());
      json.writeNumberField("warmupSeconds", t.warmupSeconds());
      json.writeNumberField("seconds", t.seconds());
      json.writeNumberField("kafkaEvents", t.kafkaEvents());
      json.writeNumberField("sourceAccepted", t.sourceAccepted());
      json.writeNumberField("sinkDrained", t.sinkDrained());
      json.writeNumberField("generatorSent", t.generatorSent());
      json.writeNumberField("agentCpuSeconds", t.agentCpuSeconds());
      ReportFormat.number(json, "brokerCpuSeconds", t.brokerCpuSeconds());
      ReportFormat.number(json, "generatorCpuSeconds", t.generatorCpuSeconds());
      json.writeNumberField("loadAverage", t.loadAverage());
      if (udp()) {
        json.writeNumberField("udpSocketDrops", t.udpSocketDrops());
      }
      json.writeNumberField("trialSent", t.trialSent());
      json.writeNumberField("trialInKafka", t.trialInKafka());
      if (udp()) {
        json.writeNumberField("trialKernelDrops", t.trialKernelDrops());
      }
      threadSeconds(json, t.agentCpuByThreads());
      json.writeEndObject();
    }
    json.writeEndArray();
  }
}
