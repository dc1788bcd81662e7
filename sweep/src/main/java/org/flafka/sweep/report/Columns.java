package org.flafka.sweep.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.flafka.sweep.SweepResult;
import org.flafka.sweep.trial.TrialResult;

/**
 * The settings columns every result file shares: the dimensions first, then the fixed settings, in
 * file order.
 */
final class Columns {
  private Columns() {}

  static List<String> settings(SweepResult result) {
    Set<String> names = new LinkedHashSet<>(result.space().dimensionNames());
    names.addAll(result.space().fixed().keySet());
    for (TrialResult trial : result.trials()) {
      names.addAll(trial.settings().values().keySet());
    }
    return new ArrayList<>(names);
  }

  /**
   * A measurement as text: empty when absent, whole numbers without a point, others as short as
   * they are exact.
   */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  /** A value for a table: {@code 12,345}. */
  static String grouped(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "";
    }
    return String.format(Locale.ROOT, "%,.0f", value);
  }

  static String value(Object value) {
    return value == null
        ? ""
        : value instanceof List<?> list
            ? String.join(" ", list.stream().map(String::valueOf).toList())
            : String.valueOf(value);
  }
}
