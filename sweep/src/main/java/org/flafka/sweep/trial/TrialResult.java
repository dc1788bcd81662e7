package org.flafka.sweep.trial;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.flafka.sweep.space.Settings;
import org.flafka.sweep.stats.Summary;

/**
 * One trial: its number (in the order trials were decided), its settings, and its runs (one per
 * repeat). A pruned trial never ran and says why; a failed one ran and says what broke.
 *
 * @param baseline whether these are the defaults the best is compared with
 */
public record TrialResult(
    int number,
    Settings settings,
    boolean baseline,
    Status status,
    String reason,
    List<Measurement> runs) {

  public enum Status {
    /** Every repeat ran and was measured. */
    OK,
    /** Never ran: a scaling rule, the template or the target ruled it out (see the reason). */
    PRUNED,
    /** Started but could not be measured (see the reason). */
    FAILED
  }

  public TrialResult {
    runs = List.copyOf(runs);
    reason = reason == null ? "" : reason;
  }

  /** {@code t007}: how files and tables name the trial. */
  public String id() {
    return String.format(java.util.Locale.ROOT, "t%03d", number);
  }

  /** {@code t007-r2}: how the target's work directory and topic name one run of the trial. */
  public String runName(int repeat) {
    return id() + "-r" + repeat;
  }

  /** Events/s into HDFS over the repeats. */
  public Summary endToEnd() {
    return summary(Measurement::endToEnd);
  }

  public Summary stage(Stage stage) {
    return summary(m -> m.rate(stage));
  }

  public Summary summary(ToDoubleFunction<Measurement> metric) {
    if (status != Status.OK) {
      return Summary.of(List.of());
    }
    return Summary.of(runs.stream().map(m -> metric.applyAsDouble(m)).toList());
  }

  /** The medians of every stage. */
  public Map<Stage, Double> stageMedians() {
    Map<Stage, Double> medians = new EnumMap<>(Stage.class);
    for (Stage stage : Stage.values()) {
      medians.put(stage, stage(stage).median());
    }
    return medians;
  }

  /** The bottleneck most repeats agree on (the first repeat's on a tie), or null without runs. */
  public Bottleneck bottleneck() {
    Map<Bottleneck, Integer> votes = new EnumMap<>(Bottleneck.class);
    for (Measurement run : runs) {
      votes.merge(run.bottleneck(), 1, Integer::sum);
    }
    Bottleneck chosen = runs.isEmpty() ? null : runs.get(0).bottleneck();
    for (Map.Entry<Bottleneck, Integer> vote : votes.entrySet()) {
      if (vote.getValue() > votes.getOrDefault(chosen, 0)) {
        chosen = vote.getKey();
      }
    }
    return chosen;
  }
}
