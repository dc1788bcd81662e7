package org.flafka.sweep.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Coordinate descent from the space's seed, within a budget of trials. It opens by screening: one
 * step from the seed along every dimension, then the combination of the steps that gained (see
 * {@link Search#screenAndCombine}). From the best point so far it descends: for each dimension in
 * turn, search its line with the others held and move to the best point if it beats the current one
 * (by any amount; only a gain beyond {@code minGain} earns another pass); repeat passes until one
 * gains nothing or {@code maxPasses} is reached; then, while the budget lasts, probe diagonals: the
 * points that combine two dimensions' runner-up values. It visits about one pass's worth of points
 * (the sum of the dimension sizes) instead of their product.
 *
 * <p>Pipelines are limited by their slowest stage, so most knobs matter only once the current
 * bottleneck is lifted; a second pass revisits the earlier dimensions after later ones moved the
 * bottleneck. The seed matters: the sweep starts from what the scaling rules suggest (partitions
 * high, sources no more than partitions, batch sizes at their defaults), where each stage can show
 * what its own knobs are worth.
 *
 * <p>Three refinements keep it inside a third of the grid on small real spaces. Along an ordered
 * dimension (batch sizes, sink counts: numbers in order) throughput rises to a peak and falls
 * beyond it, so a line search walks from the current value towards the better neighbour and stops
 * at the first value that is worse, instead of trying every value. Knobs of different stages often
 * gain independently, and a one-at-a-time walk that moved along the first of them judges the next
 * from a point where its gain no longer shows: measured on this project's core space, the walk
 * along HDFS sinks first reached 86% of the grid's best, where one step along each knob from the
 * seed and then all the steps that gained, taken together, reached it in five trials. And knobs
 * that interact (the batch sizes at two hand-overs of one pipeline) can hide their best combination
 * from one-at-a-time moves: each dimension's runner-up looked worse alone, both together are
 * better. The diagonal probes try those pairs, the most promising first.
 */
public final class CoordinateDescent implements Strategy {
  public static final String NAME = "descent";

  /** Passes seldom go beyond three: by then the bottleneck has settled. */
  public static final int DEFAULT_MAX_PASSES = 4;

  /** Gains under 2% are within the noise of a shared machine's measurements. */
  public static final double DEFAULT_MIN_GAIN = 0.02;

  private final int maxPasses;
  private final double minGain;

  public CoordinateDescent() {
    this(DEFAULT_MAX_PASSES, DEFAULT_MIN_GAIN);
  }

  public CoordinateDescent(int maxPasses, double minGain) {
    if (maxPasses < 1 || minGain < 0) {
      throw new IllegalArgumentException("maxPasses must be at least 1 and minGain at least 0");
    }
    this.maxPasses = maxPasses;
    this.minGain = minGain;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The most trials a descent runs: a third of the grid, rounded down (what it promises to need:
   * rounding up would let 6 of 16 trials, more than a third), or one full pass over every line from
   * the seed if that is more (a descent that cannot finish one pass has not looked at every knob).
   */
  public static long budget(SearchSpace space) {
    return Math.max(space.gridSize() / 3, 1 + lines(space));
  }

  @Override
  public SearchResult search(SearchSpace space, Objective objective) {
    Search search = new Search(space, new Evaluator(objective), budget(space));
    search.run();
    return search.evaluator.result();
  }

  @Override
  public long plannedEvaluations(SearchSpace space) {
    // the seed, a first pass, and a second that usually finds a few of its points already known
    return Math.min(Math.min(space.gridSize(), budget(space)), 1 + 2 * lines(space));
  }

  /** Points on the lines through one point, that point excluded. */
  private static long lines(SearchSpace space) {
    long line = 0;
    for (int size : space.sizes()) {
      line += size - 1;
    }
    return line;
  }

  /** One search: where it stands and what it has spent. */
  private final class Search {
    private final SearchSpace space;
    private final Evaluator evaluator;
    private final long budget;
    private Point current;
    private double currentScore;

    Search(SearchSpace space, Evaluator evaluator, long budget) {
      this.space = space;
      this.evaluator = evaluator;
      this.budget = budget;
    }

    void run() {
      current = space.start();
      currentScore = evaluator.score(current);
      screenAndCombine();
      descend();
      probeDiagonals();
    }

    /**
     * Screens every dimension from the start: an ordered one one step up and, unless that gained,
     * one step down; an unordered one at every other value. Moves to the best point screened. Then,
     * reading the gains as if they added up, tries the start with every dimension that gained set
     * to its best step; if that is no better than the best single step, the same without the
     * smallest gain, and so on down to the two largest. A combination that beats the best single
     * step ends the screening; the descent goes on from it.
     */
    private void screenAndCombine() {
      Point origin = current;
      double originScore = currentScore;
      List<Step> gains = new ArrayList<>();
      for (int dimension = 0; dimension < space.dimensions() && !spent(); dimension++) {
        Step best = null;
        for (int index : screened(origin, dimension)) {
          Point point = origin.with(dimension, index);
          if (!affordable(point)) {
            break;
          }
          double score = evaluator.score(point);
          if (score > (best == null ? originScore : best.score())) {
            best = new Step(dimension, index, score);
          }
          if (best != null && space.ordered(dimension)) {
            break;
          }
        }
        if (best != null) {
          gains.add(best);
          tryMove(origin.with(best.dimension(), best.index()));
        }
      }
      gains.sort(Comparator.comparingDouble(Step::score).reversed());
      double bestSingleStep = currentScore;
      for (int count = gains.size();
          count >= 2 && currentScore <= bestSingleStep && !spent();
          count--) {
        Point combination = origin;
        for (Step step : gains.subList(0, count)) {
          combination = combination.with(step.dimension(), step.index());
        }
        tryMove(combination);
      }
    }

    /**
     * The values screened along {@code dimension} from {@code origin}, in the order they are tried.
     */
    private List<Integer> screened(Point origin, int dimension) {
      int at = origin.get(dimension);
      List<Integer> indexes = new ArrayList<>();
      if (space.ordered(dimension)) {
        for (int index : new int[] {at + 1, at - 1}) {
          if (index >= 0 && index < space.size(dimension)) {
            indexes.add(index);
          }
        }
      } else {
        for (int index = 0; index < space.size(dimension); index++) {
          if (index != at) {
            indexes.add(index);
          }
        }
      }
      return indexes;
    }

    /**
     * Passes over every dimension until one gains nothing beyond the noise, or the budget is spent.
     */
    private void descend() {
      for (int pass = 0; pass < maxPasses && !spent(); pass++) {
        boolean moved = false;
        for (int dimension = 0; dimension < space.dimensions(); dimension++) {
          double before = currentScore;
          if (searchLine(dimension)) {
            // Follow any gain (a plateau's better side is where the next bottleneck lifts), but
            // only a gain beyond the noise earns another pass.
            moved |= beats(currentScore, before);
          }
        }
        if (!moved) {
          return;
        }
      }
    }

    /** Moves along {@code dimension} to its best point; returns whether it moved. */
    private boolean searchLine(int dimension) {
      Point origin = current;
      if (!space.ordered(dimension)) {
        for (int index = 0; index < space.size(dimension); index++) {
          tryMove(origin.with(dimension, index));
        }
        return !current.equals(origin);
      }
      // Rising to a peak and falling beyond it: only the side of the better neighbour can hold a
      // better point.
      if (!walk(origin, dimension, +1)) {
        walk(origin, dimension, -1);
      }
      return !current.equals(origin);
    }

    /**
     * Steps from {@code origin} along {@code dimension} while each step is better; returns whether
     * one was.
     */
    private boolean walk(Point origin, int dimension, int step) {
      boolean better = false;
      for (int index = origin.get(dimension) + step;
          index >= 0 && index < space.size(dimension);
          index += step) {
        if (!tryMove(origin.with(dimension, index))) {
          break;
        }
        better = true;
      }
      return better;
    }

    /**
     * While the budget lasts, evaluates the unvisited point that sets two dimensions to their
     * runner-up values (the best other value on each line through the current point), the pair
     * whose runner-ups scored highest first; a better point becomes the current one, and a gain
     * beyond the noise earns another descent from it.
     */
    private void probeDiagonals() {
      while (!spent()) {
        Point probe = mostPromisingDiagonal();
        if (probe == null) {
          return;
        }
        double before = currentScore;
        if (tryMove(probe) && beats(currentScore, before)) {
          descend();
        }
      }
    }

    private Point mostPromisingDiagonal() {
      int dimensions = space.dimensions();
      int[] runnerUp = new int[dimensions];
      double[] runnerUpScore = new double[dimensions];
      for (int dimension = 0; dimension < dimensions; dimension++) {
        runnerUp[dimension] = -1;
        runnerUpScore[dimension] = Double.NEGATIVE_INFINITY;
        for (int index = 0; index < space.size(dimension); index++) {
          Double known =
              index == current.get(dimension)
                  ? null
                  : evaluator.knownScore(current.with(dimension, index));
          if (known != null && known > runnerUpScore[dimension]) {
            runnerUp[dimension] = index;
            runnerUpScore[dimension] = known;
          }
        }
      }
      Point best = null;
      double bestPromise = Double.NEGATIVE_INFINITY;
      for (int a = 0; a < dimensions; a++) {
        for (int b = a + 1; b < dimensions; b++) {
          if (runnerUp[a] < 0 || runnerUp[b] < 0) {
            continue;
          }
          Point probe = current.with(a, runnerUp[a]).with(b, runnerUp[b]);
          double promise = runnerUpScore[a] + runnerUpScore[b];
          if (!evaluator.known(probe) && promise > bestPromise) {
            best = probe;
            bestPromise = promise;
          }
        }
      }
      return best;
    }

    /**
     * Evaluates {@code point} (free if known, nothing once the budget is spent); moves there if it
     * is better.
     */
    private boolean tryMove(Point point) {
      if (!affordable(point)) {
        return false;
      }
      double score = evaluator.score(point);
      if (score > currentScore) {
        current = point;
        currentScore = score;
        return true;
      }
      return false;
    }

    /**
     * Whether evaluating {@code point} is free (known already) or the budget still has a trial for
     * it.
     */
    private boolean affordable(Point point) {
      return evaluator.known(point) || !spent();
    }

    private boolean spent() {
      return evaluator.trialsRun() >= budget;
    }

    private boolean beats(double candidate, double incumbent) {
      return incumbent == Double.NEGATIVE_INFINITY || candidate > incumbent * (1 + minGain);
    }
  }

  /**
   * One screened step that gained: the start with {@code dimension} set to {@code index} scored
   * {@code score}.
   */
  private record Step(int dimension, int index, double score) {}
}
