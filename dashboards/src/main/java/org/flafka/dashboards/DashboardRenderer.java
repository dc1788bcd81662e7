package org.flafka.dashboards;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.flafka.cm.CmClient;
import org.flafka.cm.TimeSeriesQuery;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesMetadata;
import org.flafka.cm.model.ApiTimeSeriesResponse;

/**
 * Draws CM views ({@link View}, the dashboards' {@code json}) from any CM-compatible {@code
 * /timeseries} endpoint (a real CM or the emulator), as CM's UI would: each plot's one tsquery, its
 * series grouped by the plot's facetting (all in one chart, one chart per series, or one per value
 * of an attribute), one PNG per chart, the y unit from the series' units, and an {@code index.html}
 * showing them with their queries. Only line charts are drawn: another chart type is drawn as
 * lines, and the page says so.
 */
public final class DashboardRenderer {
  private final CmClient client;

  public DashboardRenderer(CmClient client) {
    this.client = client;
  }

  /**
   * Renders {@code views} over the last {@code window} into {@code out}; returns the files written,
   * {@code index.html} last.
   */
  public List<Path> render(List<View> views, Duration window, Path out) throws IOException {
    Files.createDirectories(out);
    Instant to = Instant.now();
    Instant from = to.minus(window);
    List<Path> written = new ArrayList<>();
    StringBuilder html =
        new StringBuilder(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Flafka "
                + "dashboards</title><style>body{font-family:sans-serif;max-width:940px;margin:auto}"
                + "code{font-size:11px;color:#555}</style></head><body>\n<h1>Flafka dashboards</h1>"
                + "\n<p>"
                + escape(from + " to " + to + " (UTC), from " + client.config().url())
                + "</p>\n");
    for (View view : views) {
      html.append("<h2>").append(escape(view.displayName())).append("</h2>\n");
      String slug = Dashboard.slug(view.name());
      int index = 1;
      for (Plot plot : view.plots()) {
        List<ApiTimeSeries> series = new ArrayList<>();
        for (ApiTimeSeriesResponse response :
            client.queryTimeSeries(TimeSeriesQuery.raw(plot.tsquery(), from, to))) {
          series.addAll(response.timeSeries());
        }
        html.append("<h3>").append(escape(plot.title())).append("</h3>\n");
        Map<String, List<ApiTimeSeries>> charts = facet(series, plot.facetting());
        if (charts.isEmpty() && !plot.hideIfNoSeries()) {
          charts.put("", List.of());
        }
        int facet = 1;
        for (Map.Entry<String, List<ApiTimeSeries>> chart : charts.entrySet()) {
          String title =
              chart.getKey().isEmpty() ? plot.title() : plot.title() + " - " + chart.getKey();
          Path png =
              out.resolve(slug + "-" + index + (charts.size() > 1 ? "-" + facet++ : "") + ".png");
          ImageIO.write(
              ChartImage.draw(
                  title,
                  unit(chart.getValue()),
                  from,
                  to,
                  chart.getValue().stream().map(DashboardRenderer::line).toList(),
                  plot.width(),
                  plot.height(),
                  plot.ymin(),
                  plot.ymax()),
              "png",
              png.toFile());
          written.add(png);
          html.append("<img src=\"")
              .append(png.getFileName())
              .append("\" alt=\"")
              .append(escape(title))
              .append("\">\n");
        }
        index++;
        html.append("<p><code>").append(escape(plot.tsquery())).append("</code></p>\n");
        html.append("<p>facetting <code>")
            .append(escape(plot.facetting()))
            .append("</code>, chart type <code>")
            .append(escape(plot.chartType()))
            .append("</code>")
            .append(plot.chartType().equals("line") ? "" : " (drawn here as lines)")
            .append("</p>\n");
      }
    }
    html.append("</body></html>\n");
    Path index = out.resolve("index.html");
    Files.writeString(index, html, StandardCharsets.UTF_8);
    written.add(index);
    return written;
  }

  /**
   * CM's facetting: {@link Plot#SINGLE_PLOT} puts every series in one chart (key ""), {@link
   * Plot#NO_FACETTING} gives each series its own, an attribute name one chart per value.
   */
  static Map<String, List<ApiTimeSeries>> facet(List<ApiTimeSeries> series, String facetting) {
    Map<String, List<ApiTimeSeries>> charts = new LinkedHashMap<>();
    for (ApiTimeSeries one : series) {
      String key =
          switch (facetting) {
            case Plot.SINGLE_PLOT -> "";
            case Plot.NO_FACETTING -> label(one.metadata());
            default -> {
              String value = one.metadata().attribute(facetting);
              yield facetting + " " + (value == null ? "n/a" : value);
            }
          };
      charts.computeIfAbsent(key, k -> new ArrayList<>()).add(one);
    }
    return charts;
  }

  /** The unit CM gives the series ({@code unitNumerators} per {@code unitDenominators}). */
  static String unit(List<ApiTimeSeries> series) {
    for (ApiTimeSeries one : series) {
      List<String> numerators = one.metadata().unitNumerators();
      if (numerators != null && !numerators.isEmpty()) {
        List<String> denominators = one.metadata().unitDenominators();
        String unit = String.join(" ", numerators);
        return denominators == null || denominators.isEmpty()
            ? unit
            : unit + " per " + String.join(" ", denominators).replaceAll("s$", "");
      }
    }
    return "";
  }

  /**
   * Legend: the metric, the entity, and the role config group where there is one (the site, by
   * convention).
   */
  private static String label(ApiTimeSeriesMetadata metadata) {
    String group = metadata.attribute("roleConfigGroup");
    return metadata.metricName()
        + " - "
        + metadata.entityName()
        + (group == null ? "" : " (" + group + ")");
  }

  private static ChartImage.Line line(ApiTimeSeries series) {
    List<ChartImage.Point> points = new ArrayList<>();
    for (ApiTimeSeriesData point : series.data()) {
      if (point.value() != null) {
        points.add(new ChartImage.Point(point.instant(), point.value()));
      }
    }
    return new ChartImage.Line(label(series.metadata()), points);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
