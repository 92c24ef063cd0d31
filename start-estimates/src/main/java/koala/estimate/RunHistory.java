package koala.estimate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What jobs really ran, as the scheduler's accounting saw them end: per owner and job name the last
 * {@value #RUNS_KEPT} runtimes (what {@link RuntimeGuess} predicts from), and per basis of prediction the last
 * {@value #RATIOS_KEPT} ratios of actual to predicted runtime (how wrong such predictions were: the range).
 * A value: {@link #with} returns a new history.
 */
public record RunHistory(Map<String, List<Duration>> runs, Map<RuntimeGuess.Basis, List<Double>> ratios) {
    /** Tsafrir, Etsion and Feitelson (2007) predict from the last two runs of the same user and job. */
    public static final int RUNS_KEPT = 2;
    public static final int RATIOS_KEPT = 500;

    public RunHistory {
        runs = Map.copyOf(runs);
        ratios = Map.copyOf(ratios);
    }

    public static RunHistory empty() {
        return new RunHistory(Map.of(), Map.of());
    }

    /** The last runtimes of {@code owner}'s job {@code name}, oldest first; empty when it never ran. */
    public List<Duration> lastRuns(String owner, String name) {
        return runs.getOrDefault(key(owner, name), List.of());
    }

    /** Ratios of actual to predicted runtime seen for predictions on that basis, oldest first. */
    public List<Double> ratios(RuntimeGuess.Basis basis) {
        return ratios.getOrDefault(basis, List.of());
    }

    /** This history and one more job that ran {@code actual}, for which {@code predicted} was said at its submission. */
    public RunHistory with(String owner, String name, Duration actual, RuntimeGuess.Prediction predicted) {
        Map<String, List<Duration>> r = new HashMap<>(runs);
        r.put(key(owner, name), last(lastRuns(owner, name), actual, RUNS_KEPT));
        Map<RuntimeGuess.Basis, List<Double>> q = new EnumMap<>(RuntimeGuess.Basis.class);
        q.putAll(ratios);
        double ratio = (double) actual.toMillis() / Math.max(1, predicted.runtime().toMillis());
        q.put(predicted.basis(), last(ratios(predicted.basis()), ratio, RATIOS_KEPT));
        return new RunHistory(r, q);
    }

    private static <T> List<T> last(List<T> before, T added, int kept) {
        List<T> all = new ArrayList<>(before);
        all.add(added);
        return List.copyOf(all.subList(Math.max(0, all.size() - kept), all.size()));
    }

    private static String key(String owner, String name) {
        return owner + '\u0000' + name;
    }
}
