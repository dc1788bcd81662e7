package org.flafka.cm.emulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flafka.cm.TimeSeriesQuery.Rollup;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesAggregateStatistics;
import org.flafka.cm.model.ApiTimeSeriesCrossEntityMetadata;
import org.flafka.cm.model.ApiTimeSeriesData;
import org.flafka.cm.model.ApiTimeSeriesMetadata;
import org.flafka.cm.model.ApiTimeSeriesResponse;

/**
 * Answers the tsquery subset the kit's queries use (docs/reference/cloudera-manager.md): {@code
 * SELECT expr [, expr]... [WHERE attr = value [AND attr = value]...]}, statements joined by {@code
 * ;}, where {@code expr} is {@code [last(][dt0(]name[)][)] [AS alias]} ({@code dt0}: per-second
 * change between points, negative changes dropped) and {@code name} is a metric ({@code
 * event_drain_success_rate}), a cross-entity average ({@code <metric>_across_<entities>}, each
 * point's value the mean with min/max/count in {@code aggregateStatistics}) or sum ({@code
 * total_<metric>_across_<entities>}). Plain metrics are answered for the entities that report them
 * and match the predicate; aggregates for the matching ancestors of such entities (the host of
 * network interfaces, the role, service or cluster of Flume components, the topic, broker or
 * service of broker-topics). Anything else is refused with a message saying what the emulator
 * understands.
 */
final class TsQueryEngine {
  private static final Pattern STATEMENT =
      Pattern.compile("(?is)\\s*select\\s+(.+?)(?:\\s+where\\s+(.+?))?\\s*");
  private static final Pattern EXPRESSION =
      Pattern.compile(
          "(?i)\\s*(?:(last|dt0)\\s*\\(\\s*(?:(dt0)\\s*\\(\\s*)?"
              + "([a-z0-9_]+)\\s*\\)(?:\\s*\\))?|([a-z0-9_]+))(?:\\s+as\\s+([a-z_][a-z0-9_]*))?\\s*");
  private static final Pattern TERM =
      Pattern.compile(
          "(?i)\\s*([a-z][a-zA-Z0-9]*)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([A-Za-z0-9_:.\\-]+))\\s*");
  private static final Pattern AND = Pattern.compile("(?i)\\s+and\\s+");
  private static final Pattern AGGREGATE = Pattern.compile("(total_)?(.+)_across_([a-z_]+)");

  /** A query the emulator cannot answer; the message says why (HTTP 400). */
  static final class UnsupportedQueryException extends RuntimeException {
    UnsupportedQueryException(String message) {
      super(message);
    }
  }

  /** {@code [last(][dt0(]name[)][)] [AS alias]}. */
  private record Expression(String text, boolean last, boolean dt0, String name, String alias) {}

  private record Term(String attribute, String value) {}

  private final MetricStore store;
  private final Duration sampleInterval;

  TsQueryEngine(MetricStore store, Duration sampleInterval) {
    this.store = store;
    this.sampleInterval = sampleInterval;
  }

  List<ApiTimeSeriesResponse> query(String query, Instant from, Instant to, Rollup rollup) {
    List<ApiTimeSeriesResponse> responses = new ArrayList<>();
    for (String statement : query.split(";")) {
      if (!statement.isBlank()) {
        responses.add(statement(statement.strip(), from, to, rollup));
      }
    }
    return responses;
  }

  private ApiTimeSeriesResponse statement(
      String statement, Instant from, Instant to, Rollup rollup) {
    Matcher matcher = STATEMENT.matcher(statement);
    if (!matcher.matches()) {
      throw new UnsupportedQueryException(
          "tsquery '" + statement + "' is not SELECT <metrics> [WHERE <predicate>]");
    }
    List<Expression> expressions = new ArrayList<>();
    for (String part : matcher.group(1).split(",")) {
      Matcher expression = EXPRESSION.matcher(part);
      if (!expression.matches()) {
        throw new UnsupportedQueryException(
            "tsquery expression '"
                + part.strip()
                + "' is not supported by the "
                + "CM emulator: it understands <metric>, last(<metric>), dt0(<metric>), last(dt0(<metric>)) and "
                + "'... AS <alias>'");
      }
      String outer =
          expression.group(1) == null ? null : expression.group(1).toLowerCase(Locale.ROOT);
      boolean nested = expression.group(2) != null;
      boolean balanced =
          part.replaceAll("[^(]", "").length() == part.replaceAll("[^)]", "").length();
      if (!balanced || nested && !"last".equals(outer)) {
        throw new UnsupportedQueryException(
            "tsquery expression '"
                + part.strip()
                + "' is not supported by "
                + "the CM emulator: it understands <metric>, last(<metric>), dt0(<metric>), last(dt0(<metric>))"
                + " and '... AS <alias>'");
      }
      boolean last = "last".equals(outer);
      boolean dt0 = "dt0".equals(outer) || nested;
      String name =
          (expression.group(3) != null ? expression.group(3) : expression.group(4))
              .toLowerCase(Locale.ROOT);
      String inner = dt0 ? "dt0(" + name + ")" : name;
      expressions.add(
          new Expression(
              last ? "last(" + inner + ")" : inner, last, dt0, name, expression.group(5)));
    }
    List<Term> terms = matcher.group(2) == null ? List.of() : terms(matcher.group(2));
    List<String> warnings = new ArrayList<>();
    List<ApiTimeSeries> series = new ArrayList<>();
    for (Expression expression : expressions) {
      List<ApiTimeSeries> found = evaluate(expression, terms, from, to, rollup);
      if (found.isEmpty()) {
        warnings.add(
            "No time series matched "
                + expression.name()
                + (terms.isEmpty() ? "" : " where " + matcher.group(2))
                + " (nothing reported it in the window)");
      }
      series.addAll(found);
    }
    return new ApiTimeSeriesResponse(series, warnings, statement);
  }

  private static List<Term> terms(String predicate) {
    List<Term> terms = new ArrayList<>();
    for (String part : AND.split(predicate.strip())) {
      Matcher term = TERM.matcher(part);
      if (!term.matches()) {
        throw new UnsupportedQueryException(
            "tsquery predicate '"
                + part.strip()
                + "' is not supported by the "
                + "CM emulator: it understands attribute = value terms joined by AND");
      }
      String value =
          term.group(2) != null ? term.group(2).replaceAll("\\\\(.)", "$1") : term.group(3);
      terms.add(new Term(term.group(1), value));
    }
    return terms;
  }

  private List<ApiTimeSeries> evaluate(
      Expression expression, List<Term> terms, Instant from, Instant to, Rollup rollup) {
    Matcher aggregate = AGGREGATE.matcher(expression.name());
    if (aggregate.matches() && store.isCrossEntityName(aggregate.group(3))) {
      return aggregate(
          expression,
          aggregate.group(1) != null,
          aggregate.group(2),
          aggregate.group(3),
          terms,
          from,
          to,
          rollup);
    }
    List<ApiTimeSeries> result = new ArrayList<>();
    for (TsEntity entity : sorted(store.all())) {
      if (entity.has(expression.name()) && matches(entity, terms)) {
        NavigableMap<Instant, Double> points = entity.points(expression.name(), from, to);
        List<ApiTimeSeriesData> data = new ArrayList<>();
        points.forEach(
            (at, value) -> data.add(new ApiTimeSeriesData(at.toString(), value, "SAMPLE", null)));
        result.add(
            series(
                expression,
                entity,
                expression.name(),
                from,
                to,
                rollup,
                rolledUp(expression.dt0() ? dt0(data) : data, rollup, expression.last())));
      }
    }
    return result;
  }

  private List<ApiTimeSeries> aggregate(
      Expression expression,
      boolean total,
      String metric,
      String across,
      List<Term> terms,
      Instant from,
      Instant to,
      Rollup rollup) {
    List<ApiTimeSeries> result = new ArrayList<>();
    List<TsEntity> parents = new ArrayList<>();
    for (String id : store.parentsOf(across, metric)) {
      TsEntity parent = store.get(id);
      if (parent != null && matches(parent, terms)) {
        parents.add(parent);
      }
    }
    for (TsEntity parent : sorted(parents)) {
      Map<Instant, List<Map.Entry<TsEntity, Double>>> byTime = new TreeMap<>();
      for (TsEntity child : store.children(parent, across, metric)) {
        child
            .points(metric, from, to)
            .forEach(
                (at, value) ->
                    byTime
                        .computeIfAbsent(at, t -> new ArrayList<>())
                        .add(Map.entry(child, value)));
      }
      List<ApiTimeSeriesData> data = new ArrayList<>();
      byTime.forEach((at, values) -> data.add(crossEntityPoint(at, values, total)));
      result.add(
          series(
              expression,
              parent,
              metric,
              from,
              to,
              rollup,
              rolledUp(expression.dt0() ? dt0(data) : data, rollup, expression.last())));
    }
    return result;
  }

  private static ApiTimeSeriesData crossEntityPoint(
      Instant at, List<Map.Entry<TsEntity, Double>> values, boolean total) {
    Map.Entry<TsEntity, Double> min =
        values.stream().min(Map.Entry.comparingByValue()).orElseThrow();
    Map.Entry<TsEntity, Double> max =
        values.stream().max(Map.Entry.comparingByValue()).orElseThrow();
    double sum = values.stream().mapToDouble(Map.Entry::getValue).sum();
    double mean = sum / values.size();
    double variance =
        values.stream().mapToDouble(e -> (e.getValue() - mean) * (e.getValue() - mean)).sum()
            / values.size();
    double value = total ? sum : mean;
    String time = at.toString();
    ApiTimeSeriesCrossEntityMetadata entities =
        new ApiTimeSeriesCrossEntityMetadata(
            max.getKey().displayName(),
            max.getKey().id(),
            min.getKey().displayName(),
            min.getKey().id(),
            (double) values.size());
    return new ApiTimeSeriesData(
        time,
        value,
        "SAMPLE",
        new ApiTimeSeriesAggregateStatistics(
            time,
            value,
            (double) values.size(),
            min.getValue(),
            time,
            max.getValue(),
            time,
            mean,
            Math.sqrt(variance),
            entities));
  }

  /**
   * tsquery's {@code dt0}: per point, the change since the previous point per second; negative
   * changes (a reset) and the window's first point (no previous) give no point.
   */
  private static List<ApiTimeSeriesData> dt0(List<ApiTimeSeriesData> points) {
    List<ApiTimeSeriesData> rates = new ArrayList<>();
    for (int i = 1; i < points.size(); i++) {
      ApiTimeSeriesData before = points.get(i - 1);
      ApiTimeSeriesData now = points.get(i);
      double seconds = (now.instant().toEpochMilli() - before.instant().toEpochMilli()) / 1000.0;
      double change = now.value() - before.value();
      if (seconds > 0 && change >= 0) {
        rates.add(new ApiTimeSeriesData(now.timestamp(), change / seconds, "CALCULATED", null));
      }
    }
    return rates;
  }

  /** RAW as sampled; coarser rollups as one point per period: the mean, with min, max and count. */
  private static List<ApiTimeSeriesData> rolledUp(
      List<ApiTimeSeriesData> raw, Rollup rollup, boolean last) {
    List<ApiTimeSeriesData> points = raw;
    if (rollup != Rollup.RAW && !raw.isEmpty()) {
      long period = period(rollup).toMillis();
      Map<Long, List<ApiTimeSeriesData>> buckets = new TreeMap<>();
      for (ApiTimeSeriesData point : raw) {
        buckets
            .computeIfAbsent(point.instant().toEpochMilli() / period, b -> new ArrayList<>())
            .add(point);
      }
      points = new ArrayList<>();
      for (Map.Entry<Long, List<ApiTimeSeriesData>> bucket : buckets.entrySet()) {
        List<ApiTimeSeriesData> in = bucket.getValue();
        ApiTimeSeriesData newest = in.get(in.size() - 1);
        ApiTimeSeriesData min =
            in.stream().min(Comparator.comparing(ApiTimeSeriesData::value)).orElseThrow();
        ApiTimeSeriesData max =
            in.stream().max(Comparator.comparing(ApiTimeSeriesData::value)).orElseThrow();
        double mean = in.stream().mapToDouble(ApiTimeSeriesData::value).average().orElse(0);
        double variance =
            in.stream().mapToDouble(p -> (p.value() - mean) * (p.value() - mean)).sum() / in.size();
        String time = Instant.ofEpochMilli((bucket.getKey() + 1) * period).toString();
        points.add(
            new ApiTimeSeriesData(
                time,
                mean,
                "CALCULATED",
                new ApiTimeSeriesAggregateStatistics(
                    newest.timestamp(),
                    newest.value(),
                    (double) in.size(),
                    min.value(),
                    min.timestamp(),
                    max.value(),
                    max.timestamp(),
                    mean,
                    Math.sqrt(variance),
                    null)));
      }
    }
    if (last && !points.isEmpty()) {
      return List.of(points.get(points.size() - 1));
    }
    return points;
  }

  private static Duration period(Rollup rollup) {
    return switch (rollup) {
      case RAW -> Duration.ZERO;
      case TEN_MINUTELY -> Duration.ofMinutes(10);
      case HOURLY -> Duration.ofHours(1);
      case SIX_HOURLY -> Duration.ofHours(6);
      case DAILY -> Duration.ofDays(1);
      case WEEKLY -> Duration.ofDays(7);
    };
  }

  private ApiTimeSeries series(
      Expression expression,
      TsEntity entity,
      String baseMetric,
      Instant from,
      Instant to,
      Rollup rollup,
      List<ApiTimeSeriesData> data) {
    MetricNames.Mapping units = MetricNames.BY_CM_NAME.get(baseMetric);
    List<String> numerators =
        units == null || units.numerator() == null ? List.of() : List.of(units.numerator());
    List<String> denominators =
        expression.dt0()
            ? List.of("seconds")
            : units == null || units.denominator() == null
                ? List.of()
                : List.of(units.denominator());
    String expressionText =
        "SELECT "
            + expression.text()
            + " WHERE entityName = \""
            + entity.id()
            + "\" AND category = "
            + entity.category();
    ApiTimeSeriesMetadata metadata =
        new ApiTimeSeriesMetadata(
            expression.text(),
            entity.displayName(),
            from.toString(),
            to.toString(),
            new LinkedHashMap<>(entity.attributes()),
            numerators,
            denominators,
            expressionText,
            expression.alias(),
            sampleInterval.toMillis(),
            rollup.name());
    return new ApiTimeSeries(metadata, data);
  }

  private static boolean matches(TsEntity entity, List<Term> terms) {
    for (Term term : terms) {
      String actual = entity.attributes().get(term.attribute());
      if (actual == null) {
        return false;
      }
      boolean typeToken = term.attribute().equals("category") || term.attribute().endsWith("Type");
      if (typeToken ? !actual.equalsIgnoreCase(term.value()) : !actual.equals(term.value())) {
        return false;
      }
    }
    return true;
  }

  private static List<TsEntity> sorted(java.util.Collection<TsEntity> entities) {
    List<TsEntity> sorted = new ArrayList<>(entities);
    sorted.sort(Comparator.comparing(TsEntity::id));
    return sorted;
  }
}
