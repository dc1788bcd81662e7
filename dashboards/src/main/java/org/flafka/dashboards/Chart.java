package org.flafka.dashboards;

import java.util.ArrayList;
import java.util.List;
import org.flafka.cm.tsquery.TsQuery;

/**
 * One chart of a dashboard: a title, what it shows and why (the description is shown under the
 * chart), the tsqueries it plots (built with {@code org.flafka.cm.tsquery}, so metric names cannot
 * be misspelt) and the y unit.
 */
public record Chart(String title, String description, String unit, List<TsQuery> queries) {
  public Chart {
    queries = List.copyOf(queries);
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("chart '" + title + "' has no query");
    }
  }

  /**
   * The metric names and predicates that are UNVERIFIED on a real CM
   * (docs/reference/cloudera-manager.md), for a warning.
   */
  public List<String> unverifiedTerms() {
    List<String> terms = new ArrayList<>();
    for (TsQuery query : queries) {
      for (String term : query.unverifiedTerms()) {
        if (!terms.contains(term)) {
          terms.add(term);
        }
      }
    }
    return terms;
  }
}
