package koala.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.estimate.Arrivals;
import koala.estimate.GridSnapshot;
import koala.estimate.HostState;
import koala.estimate.Hold;
import koala.estimate.LocalLoad;
import koala.estimate.QueuedJob;
import koala.estimate.RunHistory;
import koala.estimate.RunningWork;
import koala.estimate.RuntimeGuess;
import koala.estimate.SiteState;
import koala.placement.ComponentNeed;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.Resources;

/**
 * The start-estimate benchmark's snapshot, the same for the same arguments (one seeded {@link Random}): a
 * busy grid of {@code sites} sites of {@value #HOSTS_PER_SITE} hosts of {@value #CORES_PER_HOST} cores, 95% of
 * every site's cores held by running jobs of 1-64 one-core nodes that started in the last 4 hours (wall times
 * of 1-8 h, some none), local users at a mean of 5% per site, and a placement queue of {@code jobs} jobs:
 * 80% rigid of 1-64 nodes (Worst-Fit; a tenth of them fixed to a site), 20% flexible of 1-128 (Flexible
 * Cluster Minimization), from 50 users with 5 job names each, all of which ran before (the history); and
 * submissions to come at 100 an hour, drawn from 100 recent jobs of the same kinds.
 */
public record StartEstimateWorkload(GridSnapshot snapshot, RunHistory history) {
    public static final int HOSTS_PER_SITE = 16;
    public static final int CORES_PER_HOST = 16;
    static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");

    public static StartEstimateWorkload generate(int sites, int jobs, long seed) {
        Random random = new Random(seed);
        List<SiteState> states = new ArrayList<>();
        List<RunningWork> running = new ArrayList<>();
        Map<String, LocalLoad> local = new HashMap<>();
        for (int s = 0; s < sites; s++) {
            states.add(site(String.format("site%03d", s), running, random));
            local.put(states.get(s).name(), new LocalLoad(0, 0.05 * states.get(s).cores(), 0.10 * states.get(s).cores(),
                    Duration.ofMinutes(30)));
        }
        RunHistory history = RunHistory.empty();
        for (int u = 0; u < 50; u++) {
            for (int n = 0; n < 5; n++) {
                Duration d = Duration.ofMinutes(10 + random.nextInt(240));
                history = history.with("u" + u, "app" + n, d, new RuntimeGuess.Prediction(d, RuntimeGuess.Basis.HISTORY));
            }
        }
        List<QueuedJob> queue = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            queue.add(queued("q" + j, states, random));
        }
        // submissions to come: lately 100 an hour, drawn from 100 recent jobs like the queued ones
        List<QueuedJob> recent = new ArrayList<>();
        for (int j = 0; j < 100; j++) {
            recent.add(queued("recent" + j, states, random));
        }
        return new StartEstimateWorkload(new GridSnapshot(NOW, states, running, List.of(), List.of(), local, queue,
                new Arrivals(100, recent)), history);
    }

    private static SiteState site(String name, List<RunningWork> running, Random random) {
        int[] free = new int[HOSTS_PER_SITE];
        java.util.Arrays.fill(free, CORES_PER_HOST);
        int busy = HOSTS_PER_SITE * CORES_PER_HOST * 95 / 100;
        while (busy > 0) {
            int nodes = Math.min(busy, 1 + random.nextInt(64));
            List<Hold> holds = new ArrayList<>();
            for (int h = 0, left = nodes; left > 0; h++) {
                int take = Math.min(left, free[h]);
                if (take > 0) {
                    holds.add(new Hold(name, name + "-n" + h, new Resources(take, 0, 0)));
                    free[h] -= take;
                    left -= take;
                }
            }
            busy -= nodes;
            Instant started = NOW.minusSeconds(random.nextInt(4 * 3600));
            Duration wall = random.nextInt(5) == 0 ? null : Duration.ofHours(4 + random.nextInt(5));
            String owner = "u" + random.nextInt(50);
            running.add(new RunningWork("r" + running.size(), owner, "app" + random.nextInt(5), started, wall, holds));
        }
        List<HostState> hosts = new ArrayList<>();
        Resources total = new Resources(CORES_PER_HOST, 0, 0);
        for (int h = 0; h < HOSTS_PER_SITE; h++) {
            hosts.add(new HostState(name + "-n" + h, total, new Resources(free[h], 0, 0)));
        }
        return new SiteState(name, hosts);
    }

    private static QueuedJob queued(String id, List<SiteState> sites, Random random) {
        boolean flexible = random.nextInt(5) == 0;
        String fixed = !flexible && random.nextInt(10) == 0 ? sites.get(random.nextInt(sites.size())).name() : null;
        int nodes = 1 + random.nextInt(flexible ? 128 : 64);
        JobNeed need = new JobNeed(id, List.of(new ComponentNeed(0, nodes, fixed, List.of())), flexible);
        String policy = flexible ? PlacementPolicies.DEFAULT_FLEXIBLE : PlacementPolicies.DEFAULT;
        return new QueuedJob(id, "u" + random.nextInt(50), "app" + random.nextInt(5), need, PlacementPolicies.byName(policy),
                Duration.ofHours(1 + random.nextInt(8)));
    }
}
