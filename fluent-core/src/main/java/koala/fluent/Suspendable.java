package koala.fluent;

import java.util.Map;

/**
 * What an RL may suspend when no worker is idle: the running SWCs, each with how often it has
 * been suspended so far and its size in components (all its slots, on every worker: the whole
 * application pauses), and how often one SWC may be suspended at most. {@link #NONE} suspends
 * nothing: an RL without an idle worker is rejected, as before suspension existed.
 *
 * @param maxTimes   a task is suspended at most this often (no starvation); 0: never
 * @param times      running, unsuspended SWCs by id: times suspended so far
 * @param components the same SWCs by id: their components
 */
public record Suspendable(int maxTimes, Map<String, Integer> times, Map<String, Integer> components) {
    public static final Suspendable NONE = new Suspendable(0, Map.of(), Map.of());

    public Suspendable {
        if (maxTimes < 0) {
            throw new IllegalArgumentException("at most " + maxTimes + " suspensions: not a count");
        }
        times = Map.copyOf(times);
        components = Map.copyOf(components);
        if (!times.keySet().equals(components.keySet())) {
            throw new IllegalArgumentException("every suspendable SWC has a count and a size");
        }
    }

    /** Whether {@code appId} may be suspended (once more) now. */
    public boolean may(String appId) {
        Integer t = times.get(appId);
        return t != null && t < maxTimes;
    }

    /** The same without {@code appIds}: suspended by an earlier RL of the same job, they are paused now. */
    Suspendable without(java.util.Collection<String> appIds) {
        Map<String, Integer> t = new java.util.HashMap<>(times);
        Map<String, Integer> c = new java.util.HashMap<>(components);
        t.keySet().removeAll(appIds);
        c.keySet().removeAll(appIds);
        return new Suspendable(maxTimes, t, c);
    }
}
