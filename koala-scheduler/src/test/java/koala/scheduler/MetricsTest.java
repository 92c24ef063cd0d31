package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.api.site.CellJob;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import org.junit.jupiter.api.Test;

/**
 * What {@code GET /metrics} shows, as worked examples on the scheduler's own code (sites of one-slot
 * nodes, pilots accepted at once, nodes that arrive when the test says, a clock the test moves).
 * The gauges are as the last round left the grid; the counts are of what happened since the start.
 */
class MetricsTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final String JOB = "&(count = %d)(executable = \"/bin/true\")";

    /**
     * fs0 has 4 nodes, fs1 3 of which carol, a local user, takes 1. Four jobs: A (2 nodes), B (1 node,
     * high priority), C (4 nodes), D (1 node). The round at 10:00:01 tries B first (high), then A, C,
     * D: Worst-Fit sends B to fs0 (4 idle against 2), A to fs0 (3 against 2), finds no site with 4
     * idle for C, and sends D to fs1 (1 idle against 2). A's and B's nodes arrive; D's does not.
     * After the round at 10:00:02: 2 jobs run, 1 claims, 1 waits in the queue's low priority; fs0
     * has 1 node idle (KOALA holds 3; this test's cell shows none of its pilots yet, so none counts
     * as KOALA's in the cell), fs1 1 idle, 1 local user's, 1 being claimed; 3 claims on fs0, 1 on fs1.
     */
    @Test
    void jobsTheQueueAndTheSitesAsTheRoundLeftThem() {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        sizes.put("fs0", 4);
        sizes.put("fs1", 3);
        try (TestGrid grid = new TestGrid(sizes, Duration.ofSeconds(60))) {
            grid.localUsers("fs1", 1);
            grid.cellJobs.put("fs1", List.of(new CellJob("900", "local", "carol", "r", 1, "all.q@fs1-n1", null, false)));
            long a = grid.scheduler.submit("a.jdf", String.format(JOB, 2), "alice", null).id();
            long b = grid.scheduler.submit("b.jdf", String.format(JOB, 1) + "(priority = high)", "bob", null).id();
            grid.scheduler.submit("c.jdf", String.format(JOB, 4), "carol", null);
            grid.scheduler.submit("d.jdf", String.format(JOB, 1), "dave", null);
            assertThat(grid.scrape()).as("nothing is read before the first round").doesNotContain("koala_jobs{");

            grid.tick(SECOND);
            grid.arrive(a);
            grid.arrive(b);
            grid.tick(SECOND);

            assertThat(grid.scrape()).contains(
                    "koala_jobs{state=\"RUNNING\"} 2.0\n",
                    "koala_jobs{state=\"CLAIMING\"} 1.0\n",
                    "koala_jobs{state=\"QUEUED\"} 1.0\n",
                    "koala_placement_queue_jobs{priority=\"high\"} 0.0\n",
                    "koala_placement_queue_jobs{priority=\"low\"} 1.0\n",
                    "koala_jobs_submitted_total 4.0\n",
                    "koala_site_capacity_nodes{site=\"fs0\"} 4.0\n",
                    "koala_site_capacity_nodes{site=\"fs1\"} 3.0\n",
                    "koala_site_nodes{site=\"fs0\",state=\"idle\"} 1.0\n",
                    "koala_site_nodes{site=\"fs0\",state=\"claiming\"} 0.0\n",
                    "koala_site_nodes{site=\"fs1\",state=\"idle\"} 1.0\n",
                    "koala_site_nodes{site=\"fs1\",state=\"local\"} 1.0\n",
                    "koala_site_nodes{site=\"fs1\",state=\"claiming\"} 1.0\n",
                    "koala_site_agent_up{site=\"fs0\"} 1.0\n",
                    "koala_site_agent_up{site=\"fs1\"} 1.0\n",
                    "koala_claims_total{site=\"fs0\"} 3.0\n",
                    "koala_claims_total{site=\"fs1\"} 1.0\n",
                    // 2026-11-25T10:00:02Z
                    "koala_scheduler_last_round_timestamp_seconds 1.795600802E9\n",
                    "koala_scheduler_round_duration_seconds_count 2\n",
                    "koala_framework_instances 0.0\n",
                    "koala_arbitration_info{policy=\"fcfs\"} 1\n");
        }
    }

    /**
     * A site the information service no longer hears from shows its agent down and no nodes; when it
     * was last heard from stays (this test's cells were all seen at the epoch). One never heard from
     * shows no such time.
     */
    @Test
    void aSiteUnheardOfShowsItsAgentDown() {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        sizes.put("fs0", 4);
        sizes.put("fs1", 3);
        try (TestGrid grid = new TestGrid(sizes, Duration.ofSeconds(60))) {
            grid.unreached.add("fs1");
            grid.tick(SECOND);
            grid.unreached.add("fs0");
            grid.tick(SECOND);
            assertThat(grid.scrape()).contains("koala_site_agent_up{site=\"fs0\"} 0.0\n",
                    "koala_site_capacity_nodes{site=\"fs0\"} 0.0\n", "koala_site_last_seen_timestamp_seconds{site=\"fs0\"} 0.0\n",
                    "koala_site_agent_up{site=\"fs1\"} 0.0\n")
                    .doesNotContain("koala_site_last_seen_timestamp_seconds{site=\"fs1\"}");
        }
    }

    /**
     * Two instances share fs0's 4 nodes fairly (weights 1, everything taken back in one round). At
     * 10:00:00 A (F_max 6) grows by 3 workers and B by 1, both from the free nodes; the 4 nodes arrive
     * 12 s later: 4 grant latencies of 12 s. A's runner reports 2 workers busy (90% and 70% CPU) and
     * one idle since 10:00:12 (20%); B's 1 busy (50%) and its framework's figure 1.25. Rounds at
     * 10:00:13 (the first: nothing counted idle before it) and 10:00:23: A's idle worker counts from
     * 10:00:13 to 10:00:23, 10 node-seconds. At 10:00:23 B asks for 2 more: fair shares are 2 and 2,
     * so A's idle worker is taken back (ended) and granted to B, and B's second node is refused at its
     * share: a partial grant. After the round at 10:00:24 A holds 2 workers, both busy (mean CPU 0.8),
     * and B 2, one of which is still being claimed.
     */
    @Test
    void instancesUnderFairSharingAndTheirGrowsAndShrinks() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.scheduler.share(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(1.0), site -> Map.of());
            long a = instance(grid, "runner-a", "alice", Map.of("fMax", "6"));
            long b = instance(grid, "runner-b", "bob", Map.of());
            List<String> aWorkers = grid.allocations().grow(a, worker(a, 3)).nodes();
            List<String> bWorkers = grid.allocations().grow(b, worker(b, 1)).nodes();
            grid.clock.advance(Duration.ofSeconds(12));
            grid.arrive(a);
            grid.arrive(b);
            Instant idleSince = grid.clock.instant();
            grid.scheduler.shareReport(a, new ShareReport(List.of(busy(aWorkers.get(0), 90), busy(aWorkers.get(1), 70),
                    new WorkerActivity(aWorkers.get(2), false, idleSince, 20)), null));
            grid.scheduler.shareReport(b, new ShareReport(List.of(busy(bWorkers.get(0), 50)), 1.25));
            grid.tick(SECOND);
            grid.tick(Duration.ofSeconds(10));

            GrowResult more = grid.allocations().grow(b, worker(b, 2));
            assertThat(more.granted()).isEqualTo(1);
            grid.tick(SECOND);

            assertThat(grid.scrape()).contains(
                    "koala_framework_instances 2.0\n",
                    "koala_instance_info{framework_instance=\"" + a + "\",name=\"runner-a\",owner=\"alice\",policy=\"ondemand\"} 1\n",
                    "koala_instance_workers{framework_instance=\"" + a + "\"} 2.0\n",
                    "koala_instance_busy_workers{framework_instance=\"" + a + "\"} 2.0\n",
                    "koala_instance_max_workers{framework_instance=\"" + a + "\"} 6.0\n",
                    "koala_instance_cpu_utilization_ratio{framework_instance=\"" + a + "\"} 0.8\n",
                    "koala_instance_idle_node_seconds_total{framework_instance=\"" + a + "\"} 10.0\n",
                    "koala_instance_share_nodes{framework_instance=\"" + a + "\"} 2.0\n",
                    "koala_instance_fair_share_nodes{framework_instance=\"" + a + "\"} 2.0\n",
                    "koala_instance_workers{framework_instance=\"" + b + "\"} 2.0\n",
                    "koala_instance_busy_workers{framework_instance=\"" + b + "\"} 1.0\n",
                    "koala_instance_max_workers{framework_instance=\"" + b + "\"} 20.0\n",
                    "koala_instance_cpu_utilization_ratio{framework_instance=\"" + b + "\"} 0.5\n",
                    "koala_instance_figure{framework_instance=\"" + b + "\"} 1.25\n",
                    "koala_grows_total{outcome=\"granted\",reason=\"free_nodes\"} 2.0\n",
                    "koala_grows_total{outcome=\"partial\",reason=\"at_share\"} 1.0\n",
                    "koala_granted_nodes_total{reason=\"free_nodes\"} 4.0\n",
                    "koala_granted_nodes_total{reason=\"taken_back\"} 1.0\n",
                    "koala_shrinks_total{outcome=\"ended\",reason=\"idle_above_share\"} 1.0\n",
                    "koala_shrunk_nodes_total{outcome=\"ended\",reason=\"idle_above_share\"} 1.0\n",
                    "koala_claims_total{site=\"fs0\"} 5.0\n",
                    "koala_site_nodes{site=\"fs0\",state=\"claiming\"} 1.0\n",
                    "koala_grant_latency_seconds_bucket{site=\"fs0\",le=\"10.0\"} 0\n",
                    "koala_grant_latency_seconds_bucket{site=\"fs0\",le=\"15.0\"} 4\n",
                    "koala_grant_latency_seconds_count{site=\"fs0\"} 4\n",
                    "koala_grant_latency_seconds_sum{site=\"fs0\"} 48.0\n",
                    "koala_arbitration_info{policy=\"fair\"} 1\n")
                    .as("an instance whose framework reports no figure shows none")
                    .doesNotContain("koala_instance_figure{framework_instance=\"" + a + "\"}");
        }
    }

    /**
     * Under fcfs a grow is placed as it comes: 3 asked on a grid of 4 idle nodes are granted; 3 more
     * get the 1 node left (partial, the grid full); 1 more gets none. The instance gives 2 back itself.
     */
    @Test
    void growsPlacedAsTheyComeAndNodesGivenBack() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            long a = instance(grid, "runner-a", "alice", Map.of());
            List<String> first = grid.allocations().grow(a, worker(a, 3)).nodes();
            assertThat(grid.allocations().grow(a, worker(a, 3)).granted()).isEqualTo(1);
            assertThat(grid.allocations().grow(a, worker(a, 1)).granted()).isZero();
            grid.allocations().release(a, first.subList(0, 2), "idle");
            grid.tick(SECOND);

            assertThat(grid.scrape()).contains(
                    "koala_grows_total{outcome=\"granted\",reason=\"free_nodes\"} 1.0\n",
                    "koala_grows_total{outcome=\"partial\",reason=\"grid_full\"} 1.0\n",
                    "koala_grows_total{outcome=\"refused\",reason=\"grid_full\"} 1.0\n",
                    "koala_granted_nodes_total{reason=\"free_nodes\"} 4.0\n",
                    "koala_shrinks_total{outcome=\"released\",reason=\"owner\"} 1.0\n",
                    "koala_shrunk_nodes_total{outcome=\"released\",reason=\"owner\"} 2.0\n",
                    "koala_instance_workers{framework_instance=\"" + a + "\"} 2.0\n",
                    "koala_arbitration_info{policy=\"fcfs\"} 1\n")
                    .as("fcfs holds an instance to no share").doesNotContain("koala_instance_share_nodes{");
        }
    }

    /**
     * fs0 has 4 idle nodes, fs1 3: a two-node job goes to fs0, whose pilots do not start within the
     * 60 s claim time-out: 2 claims fail on fs0 (timed out) and the part is placed again on fs1 (2
     * claims there). Then fs0 refuses pilots: a one-node job sent there fails its claim (refused).
     */
    @Test
    void failedClaimsBySiteAndReason() {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        sizes.put("fs0", 4);
        sizes.put("fs1", 3);
        try (TestGrid grid = new TestGrid(sizes, Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("two.jdf", String.format(JOB, 2), "alice", null).id();
            grid.tick(SECOND);
            grid.tick(Duration.ofSeconds(30));
            grid.tick(Duration.ofSeconds(30));
            grid.arrive(job);
            grid.refuse("fs0");
            grid.scheduler.submit("one.jdf", String.format(JOB, 1), "bob", null);
            grid.tick(SECOND);

            assertThat(grid.scrape()).contains(
                    "koala_claims_total{site=\"fs0\"} 3.0\n",
                    "koala_claims_total{site=\"fs1\"} 2.0\n",
                    "koala_claim_failures_total{reason=\"timed_out\",site=\"fs0\"} 2.0\n",
                    "koala_claim_failures_total{reason=\"refused\",site=\"fs0\"} 1.0\n")
                    .contains("koala_claim_failures_total{reason=\"timed_out\",site=\"fs1\"} 0.0\n");
        }
    }

    /** Ended jobs are counted by how they ended; an instance's runner restarts and its give-up too. */
    @Test
    void endedJobsAndRunnerRestarts() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("one.jdf", String.format(JOB, 1), "alice", null).id();
            grid.scheduler.cancel(job);
            long a = instance(grid, "runner-a", "alice", Map.of());
            grid.scheduler.runnerRestarted(a, "pid 4242 (its runner died)");
            grid.scheduler.runnerRestarted(a, "pid 4243 (its runner died)");
            grid.scheduler.runnerGaveUp(a, "its runner would not start: 3 tries");
            grid.tick(SECOND);

            assertThat(grid.scrape()).contains(
                    "koala_jobs_ended_total{state=\"CANCELLED\"} 1.0\n",
                    "koala_jobs_ended_total{state=\"FAILED\"} 0.0\n",
                    "koala_runner_restarts_total 2.0\n",
                    "koala_runner_failures_total 1.0\n",
                    "koala_framework_instances 0.0\n");
            assertThat(grid.events(a)).contains("RUNNER_RESTARTED");
        }
    }

    @Test
    void theLeaderSaysItLeadsAtWhichEpochAndSinceWhen() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.metrics.leads(7, java.time.Instant.parse("2026-12-06T09:00:00.500Z"));

            assertThat(grid.scrape()).contains("koala_scheduler_leading 1.0\n", "koala_scheduler_epoch 7.0\n",
                    "koala_scheduler_leading_since_timestamp_seconds 1.7965476005E9\n");
        }
    }

    private static WorkerActivity busy(String node, double cpuPercent) {
        return new WorkerActivity(node, true, null, cpuPercent);
    }

    private static long instance(TestGrid grid, String holder, String owner, Map<String, String> parameters) {
        long id = grid.allocations().open(holder, owner).id();
        grid.frameworks().register(new FrameworkRegistration(id, holder, "x.jdf",
                "&(count = 1)(executable = /bin/true)", "ondemand", parameters, "http://127.0.0.1:1"));
        return id;
    }

    /** A worker grow as runner {@code id} asks it. */
    private static GrowRequest worker(long id, int nodes) {
        return new GrowRequest(nodes, "worker", "/bin/worker", List.of("worker-of-" + id),
                Map.of("KOALA_INSTANCE", Long.toString(id)), null);
    }
}
