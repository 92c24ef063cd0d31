package koala.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.placement.ComponentNeed;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.Resources;

/** Small grids and jobs for the worked examples: sites of one-core hosts, times on 1 June 2026 (UTC). */
final class Grids {
    static final Instant TEN = at("10:00");

    private Grids() {
    }

    static Instant at(String hhmm) {
        return Instant.parse("2026-06-01T" + hhmm + ":00Z");
    }

    /** A site of {@code n} one-core hosts {@code site-0..}, the first {@code busy} of them busy. */
    static SiteState site(String name, int n, int busy) {
        List<HostState> hosts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hosts.add(new HostState(name + "-" + i, Resources.NODE, i < busy ? Resources.NONE : Resources.NODE));
        }
        return new SiteState(name, hosts);
    }

    /** Hosts {@code from..from+n-1} of the site, one core each. */
    static List<Hold> holds(String site, int from, int n) {
        List<Hold> holds = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            holds.add(new Hold(site, site + "-" + i, Resources.NODE));
        }
        return holds;
    }

    static RunningWork running(String id, String started, List<Hold> holds) {
        return new RunningWork(id, "ann", id, at(started), null, holds);
    }

    static QueuedJob queued(String id, int nodes) {
        return queued(id, nodes, null);
    }

    static QueuedJob queued(String id, int nodes, Duration wallTime) {
        JobNeed need = new JobNeed(id, List.of(new ComponentNeed(0, nodes, null, List.of())), false);
        return new QueuedJob(id, "ann", id, need, PlacementPolicies.byName("worst-fit"), wallTime);
    }

    /** A history in which each of ann's named jobs ran once, that many minutes. */
    static RunHistory ran(Map<String, Integer> minutes) {
        RunHistory h = RunHistory.empty();
        for (Map.Entry<String, Integer> e : minutes.entrySet()) {
            Duration d = Duration.ofMinutes(e.getValue());
            h = h.with("ann", e.getKey(), d, new RuntimeGuess.Prediction(d, RuntimeGuess.Basis.HISTORY));
        }
        return h;
    }

    static GridSnapshot snapshot(List<SiteState> sites, List<RunningWork> running, List<QueuedJob> queue) {
        return new GridSnapshot(TEN, sites, running, List.of(), List.of(), Map.of(), queue);
    }
}
