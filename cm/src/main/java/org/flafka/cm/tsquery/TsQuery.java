package org.flafka.cm.tsquery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A tsquery statement, {@code SELECT <expressions> WHERE <predicate>}, built from typed parts. Its
 * {@link #verification()} is that of its weakest part; {@link #unverifiedTerms()} lists what to
 * check on a real CM.
 */
public final class TsQuery {
  private final List<TsExpression> select;
  private final TsPredicate where;

  private TsQuery(List<TsExpression> select, TsPredicate where) {
    this.select = List.copyOf(select);
    this.where = where;
  }

  /** {@code SELECT expressions WHERE where}. */
  public static TsQuery select(TsPredicate where, TsExpression... expressions) {
    if (expressions.length == 0) {
      throw new IllegalArgumentException("a tsquery needs at least one metric expression");
    }
    return new TsQuery(Arrays.asList(expressions), where);
  }

  public List<TsExpression> expressions() {
    return select;
  }

  public Verification verification() {
    Verification weakest = where.verification();
    for (TsExpression expression : select) {
      weakest = weakest.weakest(expression.verification());
    }
    return weakest;
  }

  /**
   * The metric names and the predicate, if UNVERIFIED, for a warning such as "check these on a real
   * CM".
   */
  public List<String> unverifiedTerms() {
    List<String> terms = new ArrayList<>();
    for (TsExpression expression : select) {
      if (expression.verification() == Verification.UNVERIFIED) {
        terms.add(expression.metricName());
      }
    }
    if (where.verification() == Verification.UNVERIFIED) {
      terms.add(where.toString());
    }
    return terms;
  }

  @Override
  public String toString() {
    return "SELECT "
        + select.stream().map(TsExpression::toString).collect(Collectors.joining(", "))
        + " WHERE "
        + where;
  }
}
