package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeTask;
import koala.common.failure.Conflict;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An MPI job of 2 nodes pinned to fs0 and 2 to fs1, run as one world: the first node runs mpirun over
 * the job's 4 hosts, and each other node runs the daemon mpirun asks for on its host.
 *
 * <p>Each test runs {@link #JOB} (or a variant) on a grid of fs0 and fs1, 4 nodes each: a round one
 * second after the submit claims its nodes and every node arrives, node {@code J.C.R} (job J,
 * component C, rank R) on host {@code fsC-n(R+1)}: 1.0.0 on fs0-n1, 1.0.1 on fs0-n2, 1.1.0 on fs1-n1,
 * 1.1.1 on fs1-n2. The nodes then speak to the scheduler as their launchers do, with their tokens.
 */
class MpiJobsTest {
    private static final String JOB = "+( &(runner = mpi)(resourceManagerContact = fs0)(count = 2)"
            + "(executable = /usr/bin/python3)(arguments = allreduce.py) )"
            + "( &(resourceManagerContact = fs1)(count = 2)(executable = /usr/bin/python3)(arguments = allreduce.py) )";

    private final TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 4), Duration.ofSeconds(60));

    @AfterEach
    void close() {
        grid.close();
    }

    @Test
    void theFirstNodeRunsMpirunAndTheOthersTheDaemonsItAsksFor() {
        long job = run("mpi.jdf", JOB);
        NodeClaim head = node(job, "1.0.0");

        NodeTask first = task(head);
        assertThat(first.action()).isEqualTo("RUN");
        assertThat(first.executable()).isEqualTo("/usr/bin/python3");
        assertThat(first.mpiHosts()).containsExactly("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n2");
        NodeClaim far = node(job, "1.1.1");
        assertThat(task(far).action()).isEqualTo("WAIT");

        String there = mpiStart(head, "fs1-n2", List.of("orted", "-mca", "ess", "\"env\""));

        assertThat(there).isEqualTo("1.1.1");
        NodeTask daemon = task(far);
        assertThat(daemon.action()).isEqualTo("RUN");
        assertThat(daemon.executable()).isEqualTo("/bin/sh");
        assertThat(daemon.arguments()).containsExactly("-c", "orted -mca ess \"env\"");
        assertThat(daemon.environment()).containsEntry("KOALA_NODE_ID", "1.1.1");
        assertThat(daemon.mpiHosts()).isNull();
        assertThatThrownBy(() -> mpiStart(head, "fs1-n2", List.of("orted")))
                .isInstanceOf(Conflict.class).hasMessage("host: no node of job 1 on fs1-n2 waits for a daemon");

        // mpirun ends; the nodes it never used are done and give themselves back
        exited(head, 0);
        exited(far, 0);
        for (String idle : List.of("1.0.1", "1.1.0")) {
            assertThat(task(node(job, idle)).action()).isEqualTo("EXIT");
        }
        assertThat(grid.scheduler.status(job).state()).isEqualTo("FINISHED");
    }

    /**
     * mpirun's agent was told node 1.1.1 runs the daemon on fs1-n2; the scheduler restarts (a new one on
     * the same store) before that node asks for its task. The new scheduler hands the daemon on: it was
     * kept with the node before the agent's answer, and mpirun, which waits for it, is not left waiting.
     */
    @Test
    void aDaemonAskedForBeforeARestartIsHandedOnAfterIt() {
        long job = run("mpi.jdf", JOB);
        NodeClaim head = node(job, "1.0.0");
        task(head);
        assertThat(mpiStart(head, "fs1-n2", List.of("orted", "-mca", "ess", "env"))).isEqualTo("1.1.1");

        grid.scheduler = grid.start();

        NodeClaim far = node(job, "1.1.1");
        assertThat(far.daemon()).containsExactly("orted", "-mca", "ess", "env");
        NodeTask daemon = task(far);
        assertThat(daemon.action()).isEqualTo("RUN");
        assertThat(daemon.arguments()).containsExactly("-c", "orted -mca ess env");
        assertThatThrownBy(() -> mpiStart(head, "fs1-n2", List.of("orted")))
                .isInstanceOf(Conflict.class).hasMessage("host: no node of job 1 on fs1-n2 waits for a daemon");
        NodeClaim near = node(job, "1.1.0");
        assertThat(mpiStart(head, "fs1-n1", List.of("orted"))).isEqualTo(near.id());
    }

    /**
     * fs1's node is a whole host of 4 slots ({@code site.fs1.node.slots = 4}), fs0's one slot: the world has
     * 2 + 2 × 4 = 10 ranks, fs1's hosts each 4 times in the host file (4 ranks there, one daemon); and with
     * two programs (MPMD), 2 ranks of the first and 8 of the second.
     */
    @Test
    void ranksPerNodeFollowTheSitesSlots() {
        grid.slots("fs1", 4);
        long job = run("mpi.jdf", JOB);

        NodeTask first = task(node(job, "1.0.0"));

        assertThat(first.mpiHosts()).containsExactly("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n1", "fs1-n1", "fs1-n1",
                "fs1-n2", "fs1-n2", "fs1-n2", "fs1-n2");
        assertThat(first.mpiApps()).isNull();

        long mpmd = run("mpmd.jdf", JOB.replaceFirst("allreduce\\.py\\) \\)$", "consumer.py) )"));
        assertThat(task(node(mpmd, mpmd + ".0.0")).mpiApps())
                .extracting(NodeTask.MpiApp::ranks, NodeTask.MpiApp::arguments)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2, List.of("allreduce.py")),
                        org.assertj.core.groups.Tuple.tuple(8, List.of("consumer.py")));
    }

    @Test
    void onlyTheFirstNodeStartsDaemons() {
        long job = run("mpi.jdf", JOB);
        NodeClaim other = node(job, "1.0.1");

        assertThatThrownBy(() -> mpiStart(other, "fs1-n1", List.of("orted"))).isInstanceOf(Conflict.class)
                .hasMessage("node 1.0.1 is not the first node of a running MPI job");
    }

    /** A daemon that fails (here: segfaults, 139) while mpirun runs ends the job: mpirun would wait for it. */
    @Test
    void aDaemonThatFailsEndsTheWorld() {
        long job = run("mpi.jdf", JOB);
        NodeClaim head = node(job, "1.0.0");
        task(head);
        mpiStart(head, "fs1-n1", List.of("orted"));
        NodeClaim far = node(job, "1.1.0");
        task(far);

        exited(far, 139);

        assertThat(grid.scheduler.status(job).state()).isEqualTo("FAILED");
        assertThat(grid.scheduler.status(job).history()).last().satisfies(t -> assertThat(t.reason())
                .isEqualTo("node 1.1.0 exited with 139 on fs1-n1: the MPI world cannot go on without it"));
    }

    /**
     * Rank 1 (on fs1-n1) exits with 3: mpirun ends the world and says which rank; its node's report
     * carries that, and the job's history keeps it beside the end.
     */
    @Test
    void theRankThatEndedTheWorldIsInTheHistory() {
        long job = run("mpi.jdf", JOB);
        NodeClaim head = node(job, "1.0.0");
        task(head);

        exited(head, 3, "mpirun: rank 1 on fs1-n1 exited with status 3, which ended the MPI world");

        assertThat(grid.scheduler.status(job).state()).isEqualTo("FAILED");
        assertThat(grid.scheduler.status(job).history()).anySatisfy(t -> {
            assertThat(t.event()).isEqualTo("ENDED_SAYING");
            assertThat(t.reason()).isEqualTo("node 1.0.0 on fs0-n1: mpirun: rank 1 on fs1-n1 exited with status 3, "
                    + "which ended the MPI world");
        });
    }

    /** MPMD: fs0's component runs producer.py, fs1's consumer.py; the first node's task names both, in rank order. */
    @Test
    void componentsWithTheirOwnProgramsGoToMpirunAsAppContexts() {
        String mpmd = JOB.replaceFirst("\\(arguments = allreduce.py\\) \\)\\(", "(arguments = producer.py) )(")
                .replace("(arguments = allreduce.py) )", "(arguments = consumer.py \"--fast\") )");
        long job = run("mpmd.jdf", mpmd);

        NodeTask first = task(node(job, "1.0.0"));

        assertThat(first.mpiApps()).containsExactly(
                new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("producer.py")),
                new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("consumer.py", "--fast")));
    }

    @Test
    void oneProgramForEveryRankNeedsNoAppContexts() {
        long job = run("mpi.jdf", JOB);

        assertThat(task(node(job, "1.0.0")).mpiApps()).isNull();
    }

    /** Submits {@code jdf} as alice; a second later a round claims its nodes, and each arrives on its host. */
    private long run(String file, String jdf) {
        long job = grid.scheduler.submit(file, jdf, "alice", null).id();
        grid.tick(Duration.ofSeconds(1));
        grid.arrive(job);
        return job;
    }

    /** Node {@code id} of {@code job} as the store has it now. */
    private NodeClaim node(long job, String id) {
        return grid.store.nodes(job).stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
    }

    /** What {@code node}'s launcher is told to do when it asks. */
    private NodeTask task(NodeClaim node) {
        return grid.nodes().task(node.id(), node.token());
    }

    /** mpirun on {@code head} asks for {@code command} on {@code host}; the node that will run it. */
    private String mpiStart(NodeClaim head, String host, List<String> command) {
        return grid.nodes().mpiStart(head.id(), head.token(), host, command);
    }

    private void exited(NodeClaim node, int status) {
        grid.nodes().exited(node.id(), node.token(), status);
    }

    private void exited(NodeClaim node, int status, String said) {
        grid.nodes().exited(node.id(), node.token(), status, said);
    }
}
