package org.flafka.dashboards;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Draws one chart as a line plot with Java2D (headless): title, y axis with its unit, UTC time
 * axis, legend.
 */
final class ChartImage {
  /** One line: its legend label and its points. */
  record Line(String label, List<Point> points) {}

  record Point(Instant at, double value) {}

  private static final Color[] PALETTE = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x17becf)
  };
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int LEGEND_LINE = 16;

  private ChartImage() {}

  /**
   * A chart {@code width} wide whose plot area and axes take {@code plotHeight} pixels, with one
   * legend row per line below; the y axis runs from {@code ymin} (0 if null) to {@code ymax} (if
   * null, a round value at least the highest point).
   */
  static BufferedImage draw(
      String title,
      String unit,
      Instant from,
      Instant to,
      List<Line> lines,
      int width,
      int plotHeight,
      Double ymin,
      Double ymax) {
    int legendRows = Math.max(1, lines.size());
    int height = plotHeight + legendRows * LEGEND_LINE;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 24);
      int plotBottom = plotHeight - 50;
      int plotRight = width - RIGHT;
      double bottom =
          ymin != null
              ? ymin
              : Math.min(
                  0,
                  lines.stream()
                      .flatMap(line -> line.points().stream())
                      .mapToDouble(Point::value)
                      .min()
                      .orElse(0));
      double max =
          lines.stream()
              .flatMap(line -> line.points().stream())
              .mapToDouble(Point::value)
              .max()
              .orElse(0);
      double top = ymax != null ? ymax : niceCeiling(max);
      if (bottom < 0 && ymin == null) {
        bottom = -niceCeiling(-bottom);
      }
      double range = top - bottom;
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      FontMetrics metrics = g.getFontMetrics();
      for (int i = 0; i <= 4; i++) {
        int y = plotBottom - (plotBottom - TOP) * i / 4;
        g.setColor(new Color(0xe0e0e0));
        g.drawLine(LEFT, y, plotRight, y);
        g.setColor(Color.DARK_GRAY);
        String label = format(bottom + range * i / 4);
        g.drawString(label, LEFT - 6 - metrics.stringWidth(label), y + 4);
      }
      long span = Math.max(1, to.toEpochMilli() - from.toEpochMilli());
      for (int i = 0; i <= 4; i++) {
        int x = LEFT + (plotRight - LEFT) * i / 4;
        String label = CLOCK.format(Instant.ofEpochMilli(from.toEpochMilli() + span * i / 4));
        g.drawLine(x, plotBottom, x, plotBottom + 4);
        int labelWidth = metrics.stringWidth(label);
        g.drawString(label, i == 4 ? x - labelWidth : x - labelWidth / 2, plotBottom + 17);
      }
      g.drawString("UTC", plotRight - metrics.stringWidth("UTC"), plotBottom + 31);
      g.setColor(Color.BLACK);
      g.drawLine(LEFT, TOP, LEFT, plotBottom);
      g.drawLine(LEFT, plotBottom, plotRight, plotBottom);
      Graphics2D rotated = (Graphics2D) g.create();
      rotated.rotate(-Math.PI / 2);
      rotated.drawString(unit, -(TOP + plotBottom) / 2 - metrics.stringWidth(unit) / 2, 14);
      rotated.dispose();
      if (lines.stream().allMatch(line -> line.points().isEmpty())) {
        g.setColor(Color.GRAY);
        g.setFont(new Font(Font.SANS_SERIF, Font.ITALIC, 14));
        g.drawString("no data in this window", (LEFT + plotRight) / 2 - 70, (TOP + plotBottom) / 2);
      }
      for (int l = 0; l < lines.size(); l++) {
        Line line = lines.get(l);
        // earlier lines are drawn wider, so a line that equals a later one still shows beside it
        g.setStroke(new BasicStroke(2f + 2.5f * (lines.size() - 1 - l)));
        g.setColor(PALETTE[l % PALETTE.length]);
        int previousX = -1;
        int previousY = -1;
        for (Point point : line.points()) {
          int x =
              LEFT
                  + (int)
                      ((plotRight - LEFT)
                          * (point.at().toEpochMilli() - from.toEpochMilli())
                          / (double) span);
          double clamped = Math.max(bottom, Math.min(top, point.value()));
          int y =
              plotBottom
                  - (int) ((plotBottom - TOP) * (range <= 0 ? 0 : (clamped - bottom) / range));
          if (previousX >= 0) {
            g.drawLine(previousX, previousY, x, y);
          } else if (line.points().size() == 1) {
            g.fillOval(x - 3, y - 3, 6, 6);
          }
          previousX = x;
          previousY = y;
        }
        int legendY = plotHeight - 14 + l * LEGEND_LINE;
        g.setStroke(new BasicStroke(2f));
        g.fillRect(LEFT, legendY - 9, 18, 4);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(line.label(), LEFT + 26, legendY - 3);
      }
    } finally {
      g.dispose();
    }
    return image;
  }

  /** 1, 2 or 5 times a power of ten, at least {@code value} (1 for an empty or all-zero chart). */
  static double niceCeiling(double value) {
    if (value <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 5, 10}) {
      if (step * magnitude >= value) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String format(double value) {
    if (value < 0) {
      return "-" + format(-value);
    }
    if (value >= 1e9) {
      return trim(value / 1e9) + "G";
    }
    if (value >= 1e6) {
      return trim(value / 1e6) + "M";
    }
    if (value >= 1e3) {
      return trim(value / 1e3) + "k";
    }
    return trim(value);
  }

  private static String trim(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(java.util.Locale.ROOT, "%.2f", value);
  }
}
