package org.flafka.dashboards;

import org.flafka.cm.tsquery.TsQuery;

/**
 * One chart of a kit dashboard: a title and one tsquery (built with {@code org.flafka.cm.tsquery},
 * so metric names cannot be misspelt; several series are several {@code SELECT} terms), drawn as a
 * line chart with every series in it ({@link Plot#SINGLE_PLOT}), and the y range. What each chart
 * shows and why is in docs/tools/dashboards.md.
 */
public record Chart(String title, TsQuery query, Double ymin, Double ymax) {
  public Chart {
    if (query == null) {
      throw new IllegalArgumentException("chart '" + title + "' has no query");
    }
  }

  /** A chart of non-negative values (rates, bytes): y from 0. */
  public static Chart from0(String title, TsQuery query) {
    return new Chart(title, query, 0.0, null);
  }

  /** The plot CM is given. */
  public Plot plot() {
    return new Plot(
        query.toString(),
        title,
        Plot.DEFAULT_CHART_TYPE,
        Plot.SINGLE_PLOT,
        Plot.DEFAULT_WIDTH,
        Plot.DEFAULT_HEIGHT,
        ymin,
        ymax,
        false);
  }
}
