package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.common.api.NodeTask;
import koala.common.failure.Conflict;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * An MPI job of 2 nodes pinned to fs0 and 2 to fs1, run as one world: the first node runs mpirun over
 * the job's 4 hosts, and each other node runs the daemon mpirun asks for on its host.
 */
class MpiJobsTest {
    private static final String JOB = "+( &(runner = mpi)(resourceManagerContact = fs0)(count = 2)"
            + "(executable = /usr/bin/python3)(arguments = allreduce.py) )"
            + "( &(resourceManagerContact = fs1)(count = 2)(executable = /usr/bin/python3)(arguments = allreduce.py) )";

    @Test
    void theFirstNodeRunsMpirunAndTheOthersTheDaemonsItAsksFor() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            List<NodeClaim> nodes = grid.store.nodes(job);
            NodeClaim head = node(nodes, "1.0.0");

            NodeTask first = grid.scheduler.nodes().task(head.id(), head.token());
            assertThat(first.action()).isEqualTo("RUN");
            assertThat(first.executable()).isEqualTo("/usr/bin/python3");
            assertThat(first.mpiHosts()).containsExactly("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n2");
            NodeClaim far = node(nodes, "1.1.1");
            assertThat(grid.scheduler.nodes().task(far.id(), far.token()).action()).isEqualTo("WAIT");

            String there = grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n2",
                    List.of("orted", "-mca", "ess", "\"env\""));

            assertThat(there).isEqualTo("1.1.1");
            NodeTask daemon = grid.scheduler.nodes().task(far.id(), far.token());
            assertThat(daemon.action()).isEqualTo("RUN");
            assertThat(daemon.executable()).isEqualTo("/bin/sh");
            assertThat(daemon.arguments()).containsExactly("-c", "orted -mca ess \"env\"");
            assertThat(daemon.environment()).containsEntry("KOALA_NODE_ID", "1.1.1");
            assertThat(daemon.mpiHosts()).isNull();
            assertThatThrownBy(() -> grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n2", List.of("orted")))
                    .isInstanceOf(Conflict.class).hasMessage("host: no node of job 1 on fs1-n2 waits for a daemon");

            // mpirun ends; the nodes it never used are done and give themselves back
            grid.scheduler.nodes().exited(head.id(), head.token(), 0);
            grid.scheduler.nodes().exited(far.id(), far.token(), 0);
            for (String idle : List.of("1.0.1", "1.1.0")) {
                NodeClaim n = node(grid.store.nodes(job), idle);
                assertThat(grid.scheduler.nodes().task(n.id(), n.token()).action()).isEqualTo("EXIT");
            }
            assertThat(grid.scheduler.status(job).state()).isEqualTo("FINISHED");
        }
    }

    /**
     * mpirun's agent was told node 1.1.1 runs the daemon on fs1-n2; the scheduler restarts (a new one on
     * the same store) before that node asks for its task. The new scheduler hands the daemon on: it was
     * kept with the node before the agent's answer, and mpirun, which waits for it, is not left waiting.
     */
    @Test
    void aDaemonAskedForBeforeARestartIsHandedOnAfterIt() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");
            grid.scheduler.nodes().task(head.id(), head.token());
            assertThat(grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n2", List.of("orted", "-mca",
                    "ess", "env"))).isEqualTo("1.1.1");

            grid.scheduler = grid.start();

            NodeClaim far = node(grid.store.nodes(job), "1.1.1");
            assertThat(far.daemon()).containsExactly("orted", "-mca", "ess", "env");
            NodeTask daemon = grid.scheduler.nodes().task(far.id(), far.token());
            assertThat(daemon.action()).isEqualTo("RUN");
            assertThat(daemon.arguments()).containsExactly("-c", "orted -mca ess env");
            assertThatThrownBy(() -> grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n2", List.of("orted")))
                    .isInstanceOf(Conflict.class).hasMessage("host: no node of job 1 on fs1-n2 waits for a daemon");
            NodeClaim near = node(grid.store.nodes(job), "1.1.0");
            assertThat(grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n1", List.of("orted")))
                    .isEqualTo(near.id());
        }
    }

    /**
     * fs1's node is a whole host of 4 slots ({@code site.fs1.node.slots = 4}), fs0's one slot: the world has
     * 2 + 2 × 4 = 10 ranks, fs1's hosts each 4 times in the host file (4 ranks there, one daemon); and with
     * two programs (MPMD), 2 ranks of the first and 8 of the second.
     */
    @Test
    void ranksPerNodeFollowTheSitesSlots() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60)).slots("fs1", 4)) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");

            NodeTask first = grid.scheduler.nodes().task(head.id(), head.token());

            assertThat(first.mpiHosts()).containsExactly("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n1", "fs1-n1", "fs1-n1",
                    "fs1-n2", "fs1-n2", "fs1-n2", "fs1-n2");
            assertThat(first.mpiApps()).isNull();

            long mpmd = grid.scheduler.submit("mpmd.jdf", JOB.replaceFirst("allreduce\\.py\\) \\)$", "consumer.py) )"),
                    "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(mpmd);
            NodeClaim mpmdHead = node(grid.store.nodes(mpmd), mpmd + ".0.0");
            assertThat(grid.scheduler.nodes().task(mpmdHead.id(), mpmdHead.token()).mpiApps())
                    .extracting(NodeTask.MpiApp::ranks, NodeTask.MpiApp::arguments)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(2, List.of("allreduce.py")),
                            org.assertj.core.groups.Tuple.tuple(8, List.of("consumer.py")));
        }
    }

    @Test
    void onlyTheFirstNodeStartsDaemons() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim other = node(grid.store.nodes(job), "1.0.1");

            assertThatThrownBy(() -> grid.scheduler.nodes().mpiStart(other.id(), other.token(), "fs1-n1",
                    List.of("orted"))).isInstanceOf(Conflict.class)
                    .hasMessage("node 1.0.1 is not the first node of a running MPI job");
        }
    }

    /** A daemon that fails (here: segfaults, 139) while mpirun runs ends the job: mpirun would wait for it. */
    @Test
    void aDaemonThatFailsEndsTheWorld() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");
            grid.scheduler.nodes().task(head.id(), head.token());
            grid.scheduler.nodes().mpiStart(head.id(), head.token(), "fs1-n1", List.of("orted"));
            NodeClaim far = node(grid.store.nodes(job), "1.1.0");
            grid.scheduler.nodes().task(far.id(), far.token());

            grid.scheduler.nodes().exited(far.id(), far.token(), 139);

            assertThat(grid.scheduler.status(job).state()).isEqualTo("FAILED");
            assertThat(grid.scheduler.status(job).history()).last().satisfies(t -> assertThat(t.reason())
                    .isEqualTo("node 1.1.0 exited with 139 on fs1-n1: the MPI world cannot go on without it"));
        }
    }

    /**
     * Rank 1 (on fs1-n1) exits with 3: mpirun ends the world and says which rank; its node's report
     * carries that, and the job's history keeps it beside the end.
     */
    @Test
    void theRankThatEndedTheWorldIsInTheHistory() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");
            grid.scheduler.nodes().task(head.id(), head.token());

            grid.scheduler.nodes().exited(head.id(), head.token(), 3,
                    "mpirun: rank 1 on fs1-n1 exited with status 3, which ended the MPI world");

            assertThat(grid.scheduler.status(job).state()).isEqualTo("FAILED");
            assertThat(grid.scheduler.status(job).history()).anySatisfy(t -> {
                assertThat(t.event()).isEqualTo("ENDED_SAYING");
                assertThat(t.reason()).isEqualTo("node 1.0.0 on fs0-n1: mpirun: rank 1 on fs1-n1 exited with status 3, "
                        + "which ended the MPI world");
            });
        }
    }

    /** MPMD: fs0's component runs producer.py, fs1's consumer.py; the first node's task names both, in rank order. */
    @Test
    void componentsWithTheirOwnProgramsGoToMpirunAsAppContexts() {
        String mpmd = JOB.replaceFirst("\\(arguments = allreduce.py\\) \\)\\(", "(arguments = producer.py) )(")
                .replace("(arguments = allreduce.py) )", "(arguments = consumer.py \"--fast\") )");
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpmd.jdf", mpmd, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");

            NodeTask first = grid.scheduler.nodes().task(head.id(), head.token());

            assertThat(first.mpiApps()).containsExactly(
                    new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("producer.py")),
                    new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("consumer.py", "--fast")));
        }
    }

    @Test
    void oneProgramForEveryRankNeedsNoAppContexts() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("mpi.jdf", JOB, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            grid.arrive(job);
            NodeClaim head = node(grid.store.nodes(job), "1.0.0");

            assertThat(grid.scheduler.nodes().task(head.id(), head.token()).mpiApps()).isNull();
        }
    }

    private static NodeClaim node(List<NodeClaim> nodes, String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
    }
}
