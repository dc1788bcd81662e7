package org.flafka.dashboards;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.flafka.cm.CmClient;
import org.flafka.cm.TimeSeriesQuery;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.flafka.cm.tsquery.TsQuery;

/**
 * Draws dashboards from any CM-compatible {@code /timeseries} endpoint (a real CM or the emulator):
 * one PNG per chart and an {@code index.html} showing them with their descriptions, queries and
 * unverified terms.
 */
public final class DashboardRenderer {
  private final CmClient client;

  public DashboardRenderer(CmClient client) {
    this.client = client;
  }

  /**
   * Renders {@code dashboards} over the last {@code window} into {@code out}; returns the files
   * written.
   */
  public List<Path> render(List<Dashboard> dashboards, Duration window, Path out)
      throws IOException {
    Files.createDirectories(out);
    Instant to = Instant.now();
    Instant from = to.minus(window);
    List<Path> written = new ArrayList<>();
    StringBuilder html =
        new StringBuilder(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Flafka "
                + "dashboards</title><style>body{font-family:sans-serif;max-width:940px;margin:auto}"
                + "code{font-size:11px;color:#555}.unverified{color:#b00}</style></head><body>\n<h1>Flafka dashboards</h1>"
                + "\n<p>"
                + escape(from + " to " + to + " (UTC), from " + client.config().url())
                + "</p>\n");
    for (Dashboard dashboard : dashboards) {
      html.append("<h2>")
          .append(escape(dashboard.name()))
          .append("</h2>\n<p>")
          .append(escape(dashboard.description()))
          .append("</p>\n");
      int index = 1;
      for (Chart chart : dashboard.charts()) {
        List<ChartImage.Line> lines = new ArrayList<>();
        for (TsQuery query : chart.queries()) {
          for (ApiTimeSeriesResponse response :
              client.queryTimeSeries(TimeSeriesQuery.raw(query.toString(), from, to))) {
            for (ApiTimeSeries series : response.timeSeries()) {
              lines.add(line(series));
            }
          }
        }
        Path png = out.resolve(dashboard.slug() + "-" + index++ + ".png");
        ImageIO.write(
            ChartImage.draw(chart.title(), chart.unit(), from, to, lines), "png", png.toFile());
        written.add(png);
        html.append("<h3>")
            .append(escape(chart.title()))
            .append("</h3>\n<img src=\"")
            .append(png.getFileName())
            .append("\" alt=\"")
            .append(escape(chart.title()))
            .append("\">\n<p>")
            .append(escape(chart.description()))
            .append("</p>\n");
        for (TsQuery query : chart.queries()) {
          html.append("<p><code>").append(escape(query.toString())).append("</code></p>\n");
        }
        if (!chart.unverifiedTerms().isEmpty()) {
          html.append("<p class=\"unverified\">Unverified on a real CM: ")
              .append(escape(String.join(", ", chart.unverifiedTerms())))
              .append("</p>\n");
        }
      }
    }
    html.append("</body></html>\n");
    Path index = out.resolve("index.html");
    Files.writeString(index, html, StandardCharsets.UTF_8);
    written.add(index);
    return written;
  }

  /**
   * Legend: the metric, the entity, and the role config group where there is one (the site, by
   * convention).
   */
  private static ChartImage.Line line(ApiTimeSeries series) {
    String group = series.metadata().attribute("roleConfigGroup");
    String label =
        series.metadata().metricName()
            + " - "
            + series.metadata().entityName()
            + (group == null ? "" : " (" + group + ")");
    List<ChartImage.Point> points = new ArrayList<>();
    for (ApiTimeSeriesData point : series.data()) {
      if (point.value() != null) {
        points.add(new ChartImage.Point(point.instant(), point.value()));
      }
    }
    return new ChartImage.Line(label, points);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
