package org.flafka.sweep.report;

import java.util.List;
import java.util.Locale;

/**
 * The report's charts as inline SVG, drawn here so the report is one self-contained file with no
 * scripts and no dependencies: bars with whiskers, grouped bars, and a heat map.
 */
final class Svg {
  static final String[] PALETTE = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"
  };
  private static final int HEIGHT = 220;
  private static final int TOP = 16;
  private static final int LEFT = 72;
  private static final int BOTTOM = 64;

  private Svg() {}

  /** One bar: its label under the axis, median, whisker from min to max, and fill colour. */
  record Bar(String label, double median, double min, double max, String color, String tooltip) {}

  static String bars(List<Bar> bars, String unit) {
    int slot = 34;
    int width = Math.max(LEFT + Math.max(1, bars.size()) * slot + 20, 360);
    double top =
        niceMax(
            bars.stream()
                .mapToDouble(b -> Double.isNaN(b.max()) ? b.median() : b.max())
                .max()
                .orElse(1));
    StringBuilder svg = open(width, unit, top);
    for (int n = 0; n < bars.size(); n++) {
      Bar bar = bars.get(n);
      double x = LEFT + n * slot + 5;
      double barHeight = scale(bar.median(), top);
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>",
              x,
              TOP + HEIGHT - barHeight,
              barHeight,
              bar.color(),
              escape(bar.tooltip())));
      if (!Double.isNaN(bar.min()) && bar.max() > bar.min()) {
        double y1 = TOP + HEIGHT - scale(bar.max(), top);
        double y2 = TOP + HEIGHT - scale(bar.min(), top);
        svg.append(
            String.format(
                Locale.ROOT,
                "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\""
                    + " stroke=\"#222\" fill=\"none\"/>",
                x + 12,
                y1,
                y2,
                x + 8,
                y1,
                x + 8,
                y2));
      }
      label(svg, x + 12, bar.label());
    }
    return svg.append("</svg>").toString();
  }

  /**
   * Groups of bars side by side, one colour per series, with a legend and a note under each group.
   */
  static String groupedBars(
      List<String> groups,
      List<String> notes,
      List<String> series,
      double[][] values,
      String unit) {
    int barWidth = 9;
    int slot = Math.max(series.size() * barWidth + 16, 96);
    int width = Math.max(LEFT + groups.size() * slot + 20, 640);
    int legendColumns = Math.max(1, (width - LEFT) / 210);
    double max = 1;
    for (double[] group : values) {
      for (double value : group) {
        if (!Double.isNaN(value)) {
          max = Math.max(max, value);
        }
      }
    }
    double top = niceMax(max);
    StringBuilder svg =
        open(width, unit, top, 16 * ((series.size() + legendColumns - 1) / legendColumns));
    for (int g = 0; g < groups.size(); g++) {
      double x0 = LEFT + g * slot + (slot - series.size() * barWidth) / 2.0;
      for (int s = 0; s < series.size(); s++) {
        double value = values[g][s];
        if (Double.isNaN(value)) {
          continue;
        }
        double barHeight = scale(value, top);
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\""
                    + " fill=\"%s\"><title>%s</title></rect>",
                x0 + s * barWidth,
                TOP + HEIGHT - barHeight,
                barWidth - 1,
                barHeight,
                PALETTE[s % PALETTE.length],
                escape(
                    groups.get(g)
                        + ": "
                        + series.get(s)
                        + " "
                        + Columns.grouped(value)
                        + " "
                        + unit)));
      }
      double middle = x0 + series.size() * barWidth / 2.0;
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s" + "</text>",
              middle,
              TOP + HEIGHT + 14,
              escape(groups.get(g))));
      if (notes != null && !notes.get(g).isEmpty()) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\""
                    + " fill=\"#a00\">%s</text>",
                middle,
                TOP + HEIGHT + 28,
                escape(notes.get(g))));
      }
    }
    int legendY = TOP + HEIGHT + 44;
    for (int s = 0; s < series.size(); s++) {
      double x = LEFT + (s % legendColumns) * 210;
      double y = legendY + (s / legendColumns) * 16;
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>",
              x,
              y,
              PALETTE[s % PALETTE.length],
              x + 14,
              y + 9,
              escape(series.get(s))));
    }
    return svg.append("</svg>").toString();
  }

  /**
   * A grid of cells coloured by value, rows and columns labelled with a dimension's values; NaN
   * cells stay grey.
   */
  static String heatmap(
      String rowName,
      List<String> rows,
      String columnName,
      List<String> columns,
      double[][] cells,
      String unit) {
    int cellWidth = 86;
    int cellHeight = 30;
    int left = 150;
    int top = 40;
    int width = left + columns.size() * cellWidth + 20;
    int height = top + rows.size() * cellHeight + 20;
    double max = 0;
    for (double[] row : cells) {
      for (double value : row) {
        if (!Double.isNaN(value)) {
          max = Math.max(max, value);
        }
      }
    }
    StringBuilder svg =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\""
                    + " width=\"%d\" height=\"%d\" font-family=\"sans-serif\">",
                width,
                height));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"14\" font-size=\"12\">%s &#8594;</text>",
            left,
            escape(columnName)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"4\" y=\"%d\" font-size=\"12\">%s &#8595;</text>",
            top - 6,
            escape(rowName)));
    for (int c = 0; c < columns.size(); c++) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s" + "</text>",
              left + c * cellWidth + cellWidth / 2,
              top - 6,
              escape(columns.get(c))));
    }
    for (int r = 0; r < rows.size(); r++) {
      int y = top + r * cellHeight;
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s" + "</text>",
              left - 6,
              y + cellHeight / 2 + 4,
              escape(rows.get(r))));
      for (int c = 0; c < columns.size(); c++) {
        double value = cells[r][c];
        String fill = Double.isNaN(value) || max == 0 ? "#e8e8e8" : shade(value / max);
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\""
                    + " stroke=\"#fff\"><title>%s</title></rect>",
                left + c * cellWidth,
                y,
                cellWidth,
                cellHeight,
                fill,
                escape(
                    rows.get(r)
                        + " / "
                        + columns.get(c)
                        + ": "
                        + (Double.isNaN(value)
                            ? "no trial"
                            : Columns.grouped(value) + " " + unit))));
        svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\""
                    + " fill=\"%s\">%s</text>",
                left + c * cellWidth + cellWidth / 2,
                y + cellHeight / 2 + 4,
                !Double.isNaN(value) && value / max > 0.6 ? "#fff" : "#222",
                Double.isNaN(value) ? "-" : Columns.grouped(value)));
      }
    }
    return svg.append("</svg>").toString();
  }

  private static StringBuilder open(int width, String unit, double top) {
    return open(width, unit, top, 0);
  }

  private static StringBuilder open(int width, String unit, double top, int extraBottom) {
    StringBuilder svg =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\""
                    + " width=\"%d\" height=\"%d\" font-family=\"sans-serif\">",
                width,
                TOP + HEIGHT + BOTTOM + extraBottom));
    for (int tick = 0; tick <= 4; tick++) {
      double value = top * tick / 4;
      double y = TOP + HEIGHT - scale(value, top);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
              LEFT,
              width - 10,
              y,
              y,
              LEFT - 4,
              y + 3,
              Columns.grouped(value)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"10\" y=\"%d\" font-size=\"10\" transform=\"rotate(-90 10 %d)\""
                + " text-anchor=\"middle\">%s</text>",
            TOP + HEIGHT / 2,
            TOP + HEIGHT / 2,
            escape(unit)));
    return svg;
  }

  private static void label(StringBuilder svg, double x, String text) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"end\""
                + " transform=\"rotate(-45 %.1f %d)\">%s</text>",
            x,
            TOP + HEIGHT + 14,
            x,
            TOP + HEIGHT + 14,
            escape(text)));
  }

  private static double scale(double value, double top) {
    return Double.isNaN(value) || top <= 0 ? 0 : HEIGHT * Math.min(value, top) / top;
  }

  /** 1, 2 or 5 times a power of ten, at or above {@code value}. */
  static double niceMax(double value) {
    if (!(value > 0)) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * power >= value) {
        return step * power;
      }
    }
    return 10 * power;
  }

  /** From pale to the palette's blue. */
  private static String shade(double fraction) {
    double f = Math.max(0, Math.min(1, fraction));
    int r = (int) Math.round(235 - f * (235 - 33));
    int g = (int) Math.round(242 - f * (242 - 84));
    int b = (int) Math.round(250 - f * (250 - 145));
    return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
