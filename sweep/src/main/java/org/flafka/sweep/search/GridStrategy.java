package org.flafka.sweep.search;

/**
 * Every point of the space, in file order: what the seed project did through the Cloudera Manager
 * API.
 */
public final class GridStrategy implements Strategy {
  public static final String NAME = "grid";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SearchResult search(SearchSpace space, Objective objective) {
    Evaluator evaluator = new Evaluator(objective);
    for (Point point : space.allPoints()) {
      evaluator.evaluate(point);
    }
    return evaluator.result();
  }

  @Override
  public long plannedEvaluations(SearchSpace space) {
    return space.gridSize();
  }
}
