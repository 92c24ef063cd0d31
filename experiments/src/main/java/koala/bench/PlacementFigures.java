package koala.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of the placement benchmark measured.
 *
 * @param settings how long each benchmark was warmed up and measured
 * @param scores   decisions per second for each policy and grid size
 * @param placed   for each policy, the share of the queue it places at {@link #REFERENCE_SITES} sites
 * @param machine  the cores and the load around the run, to judge how far other processes disturbed it
 */
public record PlacementFigures(BenchSettings settings, List<Score> scores, Map<String, Double> placed,
                               Map<String, Double> placedByResources, Machine machine) {
    /** The grid size of the headline figures and of the target. */
    public static final int REFERENCE_SITES = 100;

    public PlacementFigures {
        scores = List.copyOf(scores);
        placed = Map.copyOf(placed);
        placedByResources = Map.copyOf(placedByResources);
    }

    /** Figures of a run by nodes only. */
    public PlacementFigures(BenchSettings settings, List<Score> scores, Map<String, Double> placed, Machine machine) {
        this(settings, scores, placed, Map.of(), machine);
    }

    /**
     * One policy at one grid size.
     *
     * @param perSecond decisions per second, the median of the measurement iterations: on a shared
     *                  machine one iteration slowed by another process moves it far less than the mean
     * @param mean      JMH's score, the mean of the iterations
     * @param error     JMH's 99.9% confidence half-interval of the mean
     * @param byResources whether the grid's hosts carry resources and the jobs ask for them
     *                  ({@link ResourcePlacementBenchmark}) rather than counting nodes
     */
    public record Score(String policy, int sites, double perSecond, double mean, double error, boolean byResources) {
        /** A score of the benchmark by nodes. */
        public Score(String policy, int sites, double perSecond, double mean, double error) {
            this(policy, sites, perSecond, mean, error, false);
        }

        /** Mean time of one decision, in microseconds. */
        public double micros() {
            return 1e6 / perSecond;
        }
    }

    /**
     * The machine the figures come from.
     *
     * @param loadBefore system load average (1 minute) when the run began, negative if unknown
     * @param loadAfter  the same when it ended
     */
    public record Machine(int cores, double loadBefore, double loadAfter) {
        /**
         * Whether other processes likely took cores from the benchmark: more than the cores less
         * one busy before it (the benchmark needs one), or more than the cores after it (its own
         * thread is then part of the load), with half a process of slack.
         */
        public boolean crowded() {
            return loadBefore > cores - 0.5 || loadAfter > cores + 0.5;
        }
    }

    /** The score by nodes of that policy at that grid size. */
    public Optional<Score> score(String policy, int sites) {
        return scores.stream().filter(s -> !s.byResources() && s.policy().equals(policy) && s.sites() == sites).findFirst();
    }

    /** The score by resources of that policy (measured at {@link #REFERENCE_SITES} sites only). */
    public Optional<Score> resourceScore(String policy) {
        return scores.stream().filter(s -> s.byResources() && s.policy().equals(policy)).findFirst();
    }
}
