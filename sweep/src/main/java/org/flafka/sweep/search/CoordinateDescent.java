package org.flafka.sweep.search;

/**
 * Coordinate descent from the space's seed: for each dimension in turn, try every value with the others held, and
 * move to the best if it beats the current point by more than {@code minGain} (relative); repeat whole passes until a
 * pass moves nowhere or {@code maxPasses} is reached. It visits about passes x (sum of dimension sizes) points
 * instead of their product.
 *
 * <p>Pipelines are limited by their slowest stage, so most knobs matter only once the current bottleneck is lifted;
 * a second pass revisits the earlier dimensions after later ones moved the bottleneck. The seed matters: the sweep
 * starts from what the scaling rules suggest (partitions high, sources no more than partitions, batch sizes at
 * their defaults), where each stage can show what its own knobs are worth. The minimum gain keeps noise from
 * moving the search around a plateau.
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

    @Override
    public SearchResult search(SearchSpace space, Objective objective) {
        Evaluator evaluator = new Evaluator(objective);
        Point current = space.start();
        double currentScore = evaluator.score(current);
        for (int pass = 0; pass < maxPasses; pass++) {
            boolean moved = false;
            for (int dimension = 0; dimension < space.dimensions(); dimension++) {
                Point bestOnLine = current;
                double bestOnLineScore = currentScore;
                for (int index = 0; index < space.size(dimension); index++) {
                    Point candidate = current.with(dimension, index);
                    double score = evaluator.score(candidate);
                    if (score > bestOnLineScore) {
                        bestOnLine = candidate;
                        bestOnLineScore = score;
                    }
                }
                if (!bestOnLine.equals(current)) {
                    // Follow any gain (a plateau's better side is where the next bottleneck lifts), but only a
                    // gain beyond the noise earns another pass.
                    moved |= beats(bestOnLineScore, currentScore);
                    current = bestOnLine;
                    currentScore = bestOnLineScore;
                }
            }
            if (!moved) {
                break;
            }
        }
        return evaluator.result();
    }

    private boolean beats(double candidate, double incumbent) {
        return incumbent == Double.NEGATIVE_INFINITY || candidate > incumbent * (1 + minGain);
    }

    @Override
    public long plannedEvaluations(SearchSpace space) {
        long line = 0;
        for (int size : space.sizes()) {
            line += size - 1;
        }
        // the seed, a first pass, and a second that usually finds a few of its points already known
        return Math.min(space.gridSize(), 1 + 2 * line);
    }
}
