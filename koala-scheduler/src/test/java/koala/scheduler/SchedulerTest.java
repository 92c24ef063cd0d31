package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeTask;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.TransitionView;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's rounds as worked examples on a clock the test moves: sites of one-slot nodes,
 * pilots accepted at once, nodes that arrive when the test says. Claim time-out 60 s, three claim
 * failures send a job back to the queue, placement every second.
 */
class SchedulerTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final String TWO_NODES = "&(count = 2)(executable = \"/bin/true\")";

    /**
     * fs0 has 4 idle nodes, fs1 3: Worst-Fit sends the two nodes to fs0 at 10:00:01. Their pilots never
     * start; at 10:00:31 the job waits, at 10:01:01 (60 s after the submit) the part is late: released
     * and placed again, away from fs0, on fs1, where both nodes arrive and the job runs.
     */
    @Test
    void aClaimThatTimesOutIsPlacedAgainElsewhere() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("two.jdf", TWO_NODES, "alice", null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(job).nodes()).extracting(NodeView::site).containsExactly("fs0", "fs0");
            grid.tick(Duration.ofSeconds(30));
            assertThat(grid.scheduler.status(job).waitingBecause()).isEqualTo("claiming nodes: 0 of 2 arrived");

            grid.tick(Duration.ofSeconds(30));
            JobView replaced = grid.scheduler.status(job);
            assertThat(replaced.history().get(2).reason()).isEqualTo("component 0 on fs0: not all pilots started "
                    + "within 60 s; placing again: component 0: 2 on fs1");
            assertThat(replaced.nodes()).extracting(NodeView::site, NodeView::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("fs1", "SUBMITTED"),
                            org.assertj.core.groups.Tuple.tuple("fs1", "SUBMITTED"));
            assertThat(replaced.claimFailures()).isEqualTo(1);

            assertThat(grid.woken).isZero();
            grid.arrive(job);
            assertThat(grid.events(job)).containsExactly("SUBMITTED", "PLACED", "REPLACED", "ALL_CLAIMED");
            assertThat(grid.woken).as("the launchers woken to start the components").isEqualTo(1);
            assertThat(grid.submitted).containsExactly("1.0.0", "1.0.1", "1.0.0", "1.0.1");
        }
    }

    /**
     * A job pinned to fs0 can only try fs0 again: claims fail at 10:01:01 (1) and 10:02:01 (2), each
     * placing it on fs0 again; the third, at 10:03:01, sends it back to the queue, from which the same
     * round places it again. Eight pilots were asked for, four claims of two nodes.
     */
    @Test
    void theThirdFailedClaimSendsTheJobBackToTheQueue() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("pinned.jdf", "&(resourceManagerContact = fs0)(count = 2)"
                    + "(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            for (int i = 0; i < 3; i++) {
                grid.tick(Duration.ofSeconds(60));
            }
            JobView view = grid.scheduler.status(job);
            assertThat(grid.events(job)).containsExactly("SUBMITTED", "PLACED", "REPLACED", "REPLACED",
                    "CLAIMS_FAILED", "PLACED");
            assertThat(view.history().get(4).reason()).isEqualTo("component 0 on fs0: not all pilots started within "
                    + "60 s; claims failed 3 times, back to the queue");
            assertThat(view.history().get(4).to()).isEqualTo("QUEUED");
            assertThat(view.state()).isEqualTo("CLAIMING");
            assertThat(view.claimFailures()).as("counted again from the new placement").isZero();
            assertThat(grid.submitted).hasSize(8);
        }
    }

    /**
     * An instance's view names its owner and where its runner keeps its state: the submitter's KOALA
     * home, which {@code koala framework ID} must read, whoever runs it (root's home is not alice's).
     */
    @Test
    void anInstanceSaysWhoseItIsAndWhereItsRunnerKeepsItsState() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 2), Duration.ofSeconds(60))) {
            long allocation = grid.allocations().open("runner-a", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(allocation, "demo", "demo.jdf", "&(...)",
                    "static", Map.of(), "http://127.0.0.1:7601", "/home/alice/.koala/runners/runner-1.json"));

            FrameworkView view = grid.frameworks().get(allocation);

            assertThat(view.owner()).isEqualTo("alice");
            assertThat(view.runnerState()).isEqualTo("/home/alice/.koala/runners/runner-1.json");
        }
    }

    /**
     * An instance's view shows its settings in force and where each came from, resolved as its runner
     * resolves them. Its JDF asks for OnDemand with F_max 8 and names 2 workers; its master is on fs0,
     * whose defaults say F_max 6 (a ceiling: it wins over the JDF's 8) and t_idle 120 s; the rest are the
     * built-in ones. Before its master is known it has no home site: the JDF's values over the built-in ones.
     */
    @Test
    void anInstancesViewShowsItsSettingsAndWhereEachCameFrom() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.scheduler.share(koala.arbitration.ArbitrationSettings.DEFAULTS,
                    site -> site.equals("fs0") ? Map.of("fMax", "6", "tIdle", "120") : Map.of());
            long id = grid.allocations().open("runner-a", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(id, "demo", "demo.jdf",
                    "+( &(jobType = framework)(role = master)(count = 1)(executable = /bin/sleep)(provisioning = ondemand)"
                            + "(fMax = 8) ) ( &(role = orchestrator)(count = 1)(executable = /bin/sleep) )"
                            + " ( &(role = worker)(count = 2)(executable = /bin/sleep) )", "ondemand",
                    Map.of("provisioning", "ondemand", "fMax", "8"), "http://127.0.0.1:7601"));
            assertThat(grid.frameworks().get(id).settings()).extracting(FrameworkView.Setting::key,
                    FrameworkView.Setting::value, FrameworkView.Setting::origin).startsWith(
                    org.assertj.core.groups.Tuple.tuple("provisioning", "ondemand", "jdf"),
                    org.assertj.core.groups.Tuple.tuple("fMax", "8", "jdf"),
                    org.assertj.core.groups.Tuple.tuple("tIdle", "6 × O_grow", "default (n = 6 for ondemand)"));

            String master = grid.allocations().grow(id, new GrowRequest(1, "master", "/bin/sleep", List.of(),
                    Map.of(), "fs0")).nodes().get(0);
            grid.arrive(id);
            grid.frameworks().master(id, new koala.api.scheduler.MasterAddress(master, "fs0-n1:7700"));

            assertThat(grid.frameworks().get(id).settings()).extracting(FrameworkView.Setting::key,
                    FrameworkView.Setting::value, FrameworkView.Setting::origin).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("provisioning", "ondemand", "jdf"),
                    org.assertj.core.groups.Tuple.tuple("fMax", "6", "site fs0 cap (jdf asked 8)"),
                    org.assertj.core.groups.Tuple.tuple("tIdle", "120 s", "site fs0"),
                    org.assertj.core.groups.Tuple.tuple("uMin", "40%", "default"),
                    org.assertj.core.groups.Tuple.tuple("uMax", "50%", "default"),
                    org.assertj.core.groups.Tuple.tuple("samplePeriod", "40 s", "default"),
                    org.assertj.core.groups.Tuple.tuple("orchestratorThreshold", "45", "default"),
                    org.assertj.core.groups.Tuple.tuple("initialWorkers", "2", "jdf"),
                    org.assertj.core.groups.Tuple.tuple("reserve", "50%", "default"),
                    org.assertj.core.groups.Tuple.tuple("pool", "8 idle workers", "default"),
                    org.assertj.core.groups.Tuple.tuple("weight", "1", "default"),
                    org.assertj.core.groups.Tuple.tuple("minShare", "0 nodes", "default"));
        }
    }

    /**
     * A framework component's stdout and stderr come with the runner's grow and reach the node's task,
     * where the launcher appends the entity's output to them; a relative path is refused, naming it.
     */
    @Test
    void aGrowsOutputFilesAreWhereItsNodesCommandWrites() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 2), Duration.ofSeconds(60))) {
            long allocation = grid.allocations().open("runner-a", "alice").id();
            GrowRequest worker = new GrowRequest(1, "worker", "/bin/sleep", List.of("60"), Map.of(), null)
                    .withOutput("/home/alice/demo/worker.out", "/home/alice/demo/worker.err");
            assertThat(grid.allocations().grow(allocation, worker).granted()).isEqualTo(1);
            grid.arrive(allocation);
            NodeClaim node = grid.store.nodes(allocation).get(0);

            NodeTask task = grid.nodes().task(node.id(), node.token());

            assertThat(task.action()).isEqualTo("RUN");
            assertThat(new String[] {task.stdout(), task.stderr()})
                    .containsExactly("/home/alice/demo/worker.out", "/home/alice/demo/worker.err");
            assertThatThrownBy(() -> grid.allocations().grow(allocation,
                    worker.withOutput("worker.out", null))).isInstanceOf(InvalidField.class)
                    .hasMessageContaining("stdout").hasMessageContaining("'worker.out' must be an absolute path");
        }
    }

    /** Local users hold both of fs0's nodes and fs1's one: a grow of two workers gets none, and says why. */
    @Test
    void aGrowOnAFullGridIsRefusedWithItsReason() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 2, "fs1", 1), Duration.ofSeconds(60))
                .localUsers("fs0", 2).localUsers("fs1", 1)) {
            long allocation = grid.allocations().open("runner-a", "alice").id();
            GrowResult grown = grid.allocations().grow(allocation, new GrowRequest(2, "worker", "/bin/sleep",
                    List.of("60"), Map.of(), null));
            assertThat(grown.granted()).isZero();
            assertThat(grown.reason()).isEqualTo("grid full: no idle node");
            assertThat(grid.scheduler.status(allocation).history().get(1).reason())
                    .isEqualTo("2 worker nodes: grid full: no idle node");
            assertThat(grid.submitted).isEmpty();
        }
    }

    /**
     * fs0 has 3 idle nodes and fs1 none: a grow of 5 gets 3. Asked again with the same request id (its
     * answer lost, say), it is answered the same and no pilot more is asked for; a new id gets nothing.
     */
    @Test
    void aRetriedGrowIsAnsweredAsBeforeAndClaimsNothingMore() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 3, "fs1", 2), Duration.ofSeconds(60)).localUsers("fs1", 2)) {
            long allocation = grid.allocations().open("runner-a", "alice").id();
            GrowRequest five = new GrowRequest(5, "worker", "/bin/sleep", List.of("60"), Map.of(), null, null, "g-1");
            GrowResult first = grid.allocations().grow(allocation, five);
            assertThat(first.granted()).isEqualTo(3);
            assertThat(first.nodes()).containsExactly("1.0.0", "1.0.1", "1.0.2");
            assertThat(first.reason()).isEqualTo("partial: 3 of 5 nodes, the grid has no more idle");

            assertThat(grid.allocations().grow(allocation, five)).isEqualTo(first);
            assertThat(grid.submitted).hasSize(3);
            assertThat(grid.allocations().grow(allocation, new GrowRequest(5, "worker", "/bin/sleep",
                    List.of("60"), Map.of(), null, null, "g-2")).granted())
                    .isZero();
        }
    }

    /**
     * A request id stands for one request, as an idempotency key does: g-1 reused for a grow of 4 is
     * refused naming the grow it was used for and what differs, and nothing is claimed; a retry of the
     * first grow with other words for the history and the instance's master moved (what a runner
     * started again sends) is still answered as before.
     */
    @Test
    void aGrowIdReusedForAnotherGrowIsAConflictNamingTheFirst() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 3, "fs1", 2), Duration.ofSeconds(60)).localUsers("fs1", 2)) {
            long allocation = grid.allocations().open("runner-a", "alice").id();
            GrowRequest five = new GrowRequest(5, "worker", "/bin/sleep", List.of("60"), Map.of("KOALA_MASTER", "a:1"),
                    null, "grow request", "g-1");
            GrowResult first = grid.allocations().grow(allocation, five);

            assertThatThrownBy(() -> grid.allocations().grow(allocation, five.withNodes(4)))
                    .isInstanceOfSatisfying(Conflict.class, e -> {
                        assertThat(e.getMessage()).isEqualTo("request id 'g-1' was used for allocation " + allocation
                                + "'s grow of 5 worker nodes (granted 3), with nodes 5 then and 4 now: a request id "
                                + "names one request, and a retry repeats it unchanged; send a different request "
                                + "under a new id");
                        assertThat(e.field()).isEqualTo("requestId");
                    });
            assertThatThrownBy(() -> grid.allocations().grow(allocation, new GrowRequest(5, "worker",
                    "/bin/sleep", List.of("60"), Map.of(), "fs0", null, "g-1")))
                    .hasMessageContaining("with site none then and 'fs0' now:");
            assertThatThrownBy(() -> grid.allocations().grow(allocation, five.withResources(4, null, null)))
                    .hasMessageContaining("cores");
            assertThat(grid.submitted).hasSize(3);
            GrowResult again = grid.allocations().grow(allocation, new GrowRequest(5, "worker", "/bin/sleep",
                    List.of("60"), Map.of("KOALA_MASTER", "b:2"), null, "in flight when the runner died", "g-1"));
            assertThat(again).isEqualTo(first);
            assertThat(grid.submitted).hasSize(3);
        }
    }

    /**
     * r-1 names alice's submit of two.jdf: sent again with another JDF, or as an allocation's opening,
     * it is refused naming the job it made; sent again unchanged it finds that job.
     */
    @Test
    void aSubmitIdReusedForAnotherJobIsAConflictNamingTheJob() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60))) {
            JobView first = grid.scheduler.submit("two.jdf", TWO_NODES, "alice", "r-1");

            assertThatThrownBy(() -> grid.scheduler.submit("two.jdf", "&(count = 3)(executable = \"/bin/true\")",
                    "alice", "r-1")).isInstanceOf(Conflict.class).hasMessage("request id 'r-1' was used for the "
                    + "submit of job " + first.id() + ", with jdf '" + TWO_NODES + "' then and '&(count = 3)"
                    + "(executable = \"/bin/true\")' now: a request id names one request, and a retry repeats it "
                    + "unchanged; send a different request under a new id");
            assertThatThrownBy(() -> grid.scheduler.submit("three.jdf", TWO_NODES, "alice", "r-1"))
                    .hasMessageContaining("with file 'two.jdf' then and 'three.jdf' now:");
            assertThatThrownBy(() -> grid.allocations().open("runner-a", "alice", "r-1"))
                    .isInstanceOf(Conflict.class).hasMessageStartingWith("request id 'r-1' was used for the submit of "
                            + "job " + first.id() + ", not the opening of an allocation:");
            assertThat(grid.scheduler.submit("two.jdf", TWO_NODES, "alice", "r-1").id()).isEqualTo(first.id());
            assertThat(grid.scheduler.list()).hasSize(1);
        }
    }

    @Test
    void aRetriedSubmitFindsTheJobTheFirstOneMade() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60))) {
            JobView first = grid.scheduler.submit("two.jdf", TWO_NODES, "alice", "r-1");
            JobView again = grid.scheduler.submit("two.jdf", TWO_NODES, "alice", "r-1");
            JobView bobs = grid.scheduler.submit("two.jdf", TWO_NODES, "bob", "r-1");
            assertThat(again.id()).isEqualTo(first.id());
            assertThat(bobs.id()).as("another user's request of the same name").isNotEqualTo(first.id());
            assertThat(grid.scheduler.list()).hasSize(2);
        }
    }

    /**
     * fs0 refuses pilots: the node of a one-node job placed there is lost at once, and the next round
     * places that part again, away from fs0.
     */
    @Test
    void aRefusedPilotLosesItsNodeAndThePartIsPlacedAgain() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60))) {
            grid.refuse("fs0");
            long job = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(job).nodes()).extracting(NodeView::state).containsExactly("LOST");
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(job).nodes()).extracting(NodeView::site, NodeView::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("fs1", "SUBMITTED"));
            assertThat(grid.submitted).containsExactly("1.0.0");
            assertThat(grid.scheduler.status(job).history()).extracting(TransitionView::event, TransitionView::reason)
                    .contains(org.assertj.core.groups.Tuple.tuple("PILOT_REFUSED",
                                    "pilot of node 1.0.0 refused by fs0: cell fs0 refuses pilots"),
                            org.assertj.core.groups.Tuple.tuple("REPLACED",
                                    "pilot of node 1.0.0 on fs0 was refused by the site; placing again: component 0: 1 on fs1"));
        }
    }

    /**
     * A pilot whose submit took seconds (its owner's agent started first) is not missed from the
     * snapshots taken before SGE had it: only two taken after its job id was known here lose it.
     */
    @Test
    void aPilotIsMissedOnlyFromSnapshotsTakenAfterItsJobIdWasKnown() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 2), Duration.ofSeconds(60))) {
            grid.hold = true;
            long job = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND); // 10:00:01: placed, its submit on its way
            grid.tick(Duration.ofSeconds(3));
            grid.release(); // 10:00:04: the pilot is in SGE, its id known
            grid.snapshotAt = grid.clock.instant().minusSeconds(1); // taken while the agent was starting
            grid.tick(SECOND);
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(job).nodes()).extracting(NodeView::state).containsExactly("SUBMITTED");

            assertThat(grid.events(job)).doesNotContain("CLAIMS_FAILED");

            grid.snapshotAt = grid.clock.instant().plusSeconds(2); // and now two that cannot have missed it
            grid.tick(SECOND);
            grid.tick(SECOND);
            assertThat(grid.events(job)).as("lost, and its part placed again").contains("CLAIMS_FAILED");
        }
    }

    /** A job that ended leaves memory 10 min later (keepEnded) and is still read back from the store. */
    @Test
    void anEndedJobLeavesMemoryAndIsReadBackWhenAskedFor() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 2), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            grid.arrive(job);
            NodeClaim node = grid.store.nodes(job).get(0);
            grid.nodes().task(node.id(), node.token());
            grid.nodes().exited(node.id(), node.token(), 0);
            assertThat(grid.scheduler.status(job).state()).isEqualTo("FINISHED");
            grid.tick(Duration.ofMinutes(9));
            assertThat(grid.scheduler.list()).hasSize(1);
            grid.tick(Duration.ofMinutes(2));
            assertThat(grid.scheduler.list()).isEmpty();
            assertThat(grid.scheduler.status(job).state()).isEqualTo("FINISHED");
            assertThat(grid.events(job)).containsExactly("SUBMITTED", "PLACED", "ALL_CLAIMED", "COMPLETED");
        }
    }
}
