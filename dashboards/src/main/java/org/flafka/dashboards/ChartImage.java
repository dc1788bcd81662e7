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

  static final int WIDTH = 900;
  static final int HEIGHT = 380;
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

  static BufferedImage draw(String title, String unit, Instant from, Instant to, List<Line> lines) {
    int legendRows = Math.max(1, lines.size());
    int height = HEIGHT + legendRows * LEGEND_LINE;
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 24);
      int plotBottom = HEIGHT - 50;
      int plotRight = WIDTH - RIGHT;
      double max =
          lines.stream()
              .flatMap(line -> line.points().stream())
              .mapToDouble(Point::value)
              .max()
              .orElse(0);
      double top = niceCeiling(max);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      FontMetrics metrics = g.getFontMetrics();
      for (int i = 0; i <= 4; i++) {
        int y = plotBottom - (plotBottom - TOP) * i / 4;
        g.setColor(new Color(0xe0e0e0));
        g.drawLine(LEFT, y, plotRight, y);
        g.setColor(Color.DARK_GRAY);
        String label = format(top * i / 4);
        g.drawString(label, LEFT - 6 - metrics.stringWidth(label), y + 4);
      }
      long span = Math.max(1, to.toEpochMilli() - from.toEpochMilli());
      for (int i = 0; i <= 4; i++) {
        int x = LEFT + (plotRight - LEFT) * i / 4;
        String label = CLOCK.format(Instant.ofEpochMilli(from.toEpochMilli() + span * i / 4));
        g.drawLine(x, plotBottom, x, plotBottom + 4);
        int width = metrics.stringWidth(label);
        g.drawString(label, i == 4 ? x - width : x - width / 2, plotBottom + 17);
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
          int y = plotBottom - (int) ((plotBottom - TOP) * (top == 0 ? 0 : point.value() / top));
          if (previousX >= 0) {
            g.drawLine(previousX, previousY, x, y);
          } else if (line.points().size() == 1) {
            g.fillOval(x - 3, y - 3, 6, 6);
          }
          previousX = x;
          previousY = y;
        }
        int legendY = HEIGHT - 14 + l * LEGEND_LINE;
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
