package org.flafka.dashboards;

import java.util.Locale;
import java.util.Set;

/**
 * One plot of a CM view, as CM's web UI reads it (docs/reference/cloudera-manager.md, "Dashboards:
 * CM's view JSON"): one tsquery string (several series are several {@code SELECT} terms), its
 * title, chart type, facetting, size in pixels and y range.
 *
 * @param tsquery the query; CM's UI requires a non-null one
 * @param title shown above the chart (or above each facet's chart)
 * @param chartType {@code line}, {@code stackarea}, {@code bar} or {@code scatter} (the values of
 *     CM's {@code Plot.ChartType}; the heatmap, histogram and table of CM's chart builder are not
 *     among them, and how a view names them was not found)
 * @param facetting {@link #SINGLE_PLOT} (every series in one chart), {@link #NO_FACETTING} (one
 *     chart per series, CM's default) or an attribute name such as {@code roleName} (one chart per
 *     value)
 * @param width chart width in pixels (CM's chart builder steps by 50)
 * @param height chart height in pixels
 * @param ymin y axis minimum, or null for CM's default
 * @param ymax y axis maximum, or null for CM's default
 * @param hideIfNoSeries whether CM hides the chart when the query returns no series
 */
public record Plot(
    String tsquery,
    String title,
    String chartType,
    String facetting,
    int width,
    int height,
    Double ymin,
    Double ymax,
    boolean hideIfNoSeries) {
  /** All series of the plot in one chart (CM's "All Combined"). */
  public static final String SINGLE_PLOT = "__single_plot__";

  /** One chart per series (CM's "All Separate", its default). */
  public static final String NO_FACETTING = "__no_facetting__";

  /** The chart types of CM's {@code Plot.ChartType}. */
  public static final Set<String> CHART_TYPES = Set.of("line", "stackarea", "bar", "scatter");

  /** CM's defaults for what a plot leaves out (its web UI's {@code Plot.js}). */
  public static final String DEFAULT_CHART_TYPE = "line";

  public static final int DEFAULT_WIDTH = 900;
  public static final int DEFAULT_HEIGHT = 350;

  public Plot {
    if (tsquery == null || tsquery.isBlank()) {
      throw new IllegalArgumentException("plot '" + title + "' has no tsquery");
    }
    chartType = chartType == null ? DEFAULT_CHART_TYPE : chartType.toLowerCase(Locale.ROOT);
    if (!CHART_TYPES.contains(chartType)) {
      throw new IllegalArgumentException(
          "plot '" + title + "': chartType '" + chartType + "' is not one of " + CHART_TYPES);
    }
    facetting = facetting == null || facetting.isBlank() ? NO_FACETTING : facetting;
    if (width <= 0 || height <= 0) {
      throw new IllegalArgumentException(
          "plot '" + title + "': width and height must be positive, not " + width + "x" + height);
    }
  }
}
