package org.flafka.bench;

import java.util.Arrays;
import java.util.List;

/** The benches' text tables (first column left-aligned, the others right-aligned) and medians. */
final class TextTable {
  private TextTable() {}

  /** The median of {@code values}, which must not be empty. */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static void append(StringBuilder text, String[] header, List<String[]> rows) {
    int[] widths = new int[header.length];
    for (int c = 0; c < header.length; c++) {
      widths[c] = header[c].length();
      for (String[] row : rows) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    row(text, header, widths);
    String[] rule = new String[header.length];
    for (int c = 0; c < header.length; c++) {
      rule[c] = "-".repeat(widths[c]);
    }
    row(text, rule, widths);
    for (String[] row : rows) {
      row(text, row, widths);
    }
  }

  private static void row(StringBuilder text, String[] cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        line.append(" | ");
      }
      String cell = cells[c];
      String pad = " ".repeat(widths[c] - cell.length());
      line.append(c == 0 ? cell + pad : pad + cell);
    }
    text.append(line.toString().stripTrailing()).append('\n');
  }
}
