package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.NodeView;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * Sites as hosts and accounts make them: fs0 (4 nodes) on the grid's network, fs2 (8 nodes) a remote
 * site whose nodes reach only each other and which runs every user's pilots as its one account.
 */
class SiteNetworksTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    /** A grow pinned to fs2 for an instance on fs0: refused saying fs2's nodes cannot reach it, not "grid full". */
    @Test
    void aGrowPinnedToASiteOnAnotherNetworkSaysSo() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")) {
            long a = grid.allocations().open("runner-a", "alice").id();
            grid.allocations().grow(a, new GrowRequest(1, "master", "/bin/master", List.of(), Map.of(), "fs0"));

            GrowResult r = grid.allocations().grow(a, new GrowRequest(2, "worker", "/bin/worker", List.of(),
                    Map.of(), "fs2"));

            assertThat(r.granted()).isZero();
            assertThat(r.reason()).isEqualTo("fs2's nodes cannot reach this instance's, which are on network grid "
                    + "(the grid's own): a site on another network cannot join it");
        }
    }

    /**
     * Local users fill fs0. Alice's 2-node job goes to fs2; bob's 1-node job could fit in fs2's 6 idle
     * nodes, but fs2 runs every user's pilots as one account: it waits, saying so, until alice's job
     * has ended, and then runs there.
     */
    @Test
    void aSingleTenantSiteHoldsOneOwnersWorkAtATime() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")
                .localUsers("fs0", 4)) {
            long alices = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(alices).nodes()).extracting(NodeView::site).containsOnly("fs2");
            long bobs = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "bob", null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(bobs).state()).isEqualTo("QUEUED");
            assertThat(grid.scheduler.status(bobs).waitingBecause()).endsWith("; fs2 runs every user's pilots as one "
                    + "account and holds another user's work now: no other user's work goes there until it ends");
            long alicesNext = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice",
                    null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(alicesNext).nodes()).extracting(NodeView::site).containsOnly("fs2");

            end(grid, alices);
            end(grid, alicesNext);
            grid.tick(SECOND);

            assertThat(grid.scheduler.status(bobs).nodes()).extracting(NodeView::site).containsOnly("fs2");
        }
    }

    /**
     * fs2's link is down: a grow pinned there (a master to be deployed again where it was) is refused
     * with the reason, not taken as bad input, and goes through once fs2 is heard from again.
     */
    @Test
    void aGrowPinnedToASiteThatCannotBeReachedNowIsRefusedWithTheReason() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")) {
            long a = grid.allocations().open("runner-a", "alice").id();
            grid.unreached.add("fs2");
            GrowRequest master = new GrowRequest(1, "master", "/bin/master", List.of(), Map.of(), "fs2");

            GrowResult r = grid.allocations().grow(a, master);

            assertThat(r.granted()).isZero();
            assertThat(r.reason()).isEqualTo("site fs2 cannot be reached now (no word from its agent): nothing placed "
                    + "there until it can");
            assertThat(grid.events(a)).contains("GROW_REFUSED");
            grid.unreached.clear();
            assertThat(grid.allocations().grow(a, master).granted()).isEqualTo(1);
        }
    }

    /**
     * fs0 has 1 idle node, fs1 2 (the grid's network: 3), remote fs2 8. An MPI job of 2 + 2 nodes goes
     * wholly to fs2; a second of 3 + 3 fits no network now (grid 3, fs2 4 idle) and waits saying so,
     * though 7 nodes are idle over the grid.
     */
    @Test
    void anMpiJobsComponentsStayOnOneNetwork() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 2, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")
                .localUsers("fs0", 3)) {
            String mpi = "+( &(runner = mpi)(count = %d)(executable = /usr/bin/python3) )( &(count = %d)"
                    + "(executable = /usr/bin/python3) )";
            long first = grid.scheduler.submit("a.jdf", String.format(mpi, 2, 2), "alice", null).id();
            grid.tick(SECOND);
            assertThat(grid.scheduler.status(first).nodes()).extracting(NodeView::site).containsOnly("fs2");

            long second = grid.scheduler.submit("b.jdf", String.format(mpi, 3, 3), "alice", null).id();
            grid.tick(SECOND);

            assertThat(grid.scheduler.status(second).state()).isEqualTo("QUEUED");
            assertThat(grid.scheduler.status(second).waitingBecause()).startsWith("the nodes of one MPI world must "
                    + "reach each other, so its components stay on one network; on network fs2 (fs2): ");
        }
    }

    /**
     * An MPI job pinned to fs0 (the grid's network) and fs2 (its own) could never start: refused at
     * submit naming the components, sites and networks (a 400 on field jdf at the API), not queued
     * for its placement tries.
     */
    @Test
    void anMpiJobPinnedToSitesOnTwoNetworksIsRefusedAtSubmit() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")) {
            String apart = "+( &(runner = mpi)(resourceManagerContact = fs0)(executable = /usr/bin/python3) )\n"
                    + " ( &(resourceManagerContact = fs2)(executable = /usr/bin/python3) )";

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> grid.scheduler.submit("apart.jdf", apart, "alice",
                    null)).isInstanceOf(koala.jdf.JdfException.class).hasMessage("apart.jdf:2:31: runner = mpi: "
                    + "component 2 is pinned to fs2 on fs2's private network, component 1 to fs0 on network grid (the "
                    + "grid's own): the nodes of one MPI world must reach each other, so its components stay on one "
                    + "network and this job could never start; pin them to clusters of one network, or leave KOALA "
                    + "to choose");
            assertThat(grid.scheduler.list()).isEmpty();
        }
    }

    /**
     * An instance's runner at http://127.0.0.1:7501 has a master on remote fs2, whose node reaches the
     * runner through a relay on fs2's head node; another instance runs on fs0. When either ends, fs2 is
     * told to close its relay to that runner (nothing will call back through it again): one made by the
     * scheduler before this one, restored from the head node, is not among those this one asked for, and
     * fs2 closes none for a runner it has no relay to. No local site is told.
     */
    @Test
    void anInstancesRelaysOnARemoteHeadNodeEndWithIt() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs2", 8), Duration.ofSeconds(60)).remote("fs2")) {
            long a = grid.allocations().open("runner-a", "alice").id();
            assertThat(grid.allocations().grow(a, new GrowRequest(1, "master", "/bin/master", List.of(),
                    Map.of("KOALA_INSTANCE", Long.toString(a), "KOALA_RUNNER_URL", "http://127.0.0.1:7501"), "fs2"))
                    .granted()).isEqualTo(1);
            long b = grid.allocations().open("runner-b", "alice").id();
            assertThat(grid.allocations().grow(b, new GrowRequest(1, "master", "/bin/master", List.of(),
                    Map.of("KOALA_INSTANCE", Long.toString(b), "KOALA_RUNNER_URL", "http://127.0.0.1:7502"), "fs0"))
                    .granted()).isEqualTo(1);
            assertThat(grid.unrelayed).isEmpty();

            grid.allocations().close(b);
            assertThat(grid.unrelayed).as("relays only on a remote site").containsExactly("fs2 http://127.0.0.1:7502");
            grid.allocations().close(a);
            assertThat(grid.unrelayed).containsExactly("fs2 http://127.0.0.1:7502", "fs2 http://127.0.0.1:7501");
        }
    }

    private static void end(TestGrid grid, long job) {
        grid.arrive(job);
        for (NodeClaim node : grid.store.nodes(job)) {
            grid.nodes().task(node.id(), node.token());
            grid.nodes().exited(node.id(), node.token(), 0);
        }
        assertThat(grid.scheduler.status(job).state()).isEqualTo("FINISHED");
    }
}
