package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkView;
import org.junit.jupiter.api.Test;

/** {@code koala framework ID} reads the runner's file where the instance's submitter keeps it. */
class FrameworkCommandsTest {
    private static FrameworkView instance(long id, String owner, String runnerState) {
        return new FrameworkView(id, "demo", "static", Map.of(), "http://127.0.0.1:7601", "RUNNING", List.of("fs0"),
                null, Map.of("master", 1), Instant.parse("2026-11-26T10:00:00Z"), List.of(), null, owner, runnerState);
    }

    @Test
    void alicesInstanceIsReadFromAlicesFileWhoeverAsks() {
        // root runs this command: its own runners' directory is /var/lib/koala/runners, alice's is not
        FrameworkView alices = instance(7, "alice", "/home/alice/.koala/runners/runner-7.json");

        assertThat(FrameworkCommands.One.runnerFile(alices)).isEqualTo(Path.of("/home/alice/.koala/runners/runner-7.json"));
    }

    @Test
    void anInstanceRootStartedForAliceIsReadFromRootsFile() {
        FrameworkView forAlice = instance(8, "alice", "/var/lib/koala/runners/runner-8.json");

        assertThat(FrameworkCommands.One.runnerFile(forAlice)).isEqualTo(Path.of("/var/lib/koala/runners/runner-8.json"));
    }

    @Test
    void withoutAFileOnRecordTheCallersOwnDirectoryIsTheGuess() {
        assertThat(FrameworkCommands.One.runnerFile(instance(9, "alice", null)))
                .isEqualTo(RunnerLaunch.dir().resolve("runner-9.json"));
    }

    /**
     * The constraints as {@code koala framework ID} prints them, from the view of
     * FrameworkConstraintsTest#aSoftConstraintBrokenIsWrittenInTheHistoryAndShownInTheView, a worker's
     * cardinality over hosts added.
     */
    @Test
    void theInstancesConstraintsAndWhatBreaksThemNowArePrinted() {
        FrameworkView f = new FrameworkView(1, "apart", "ondemand", Map.of(), null, "RUNNING", List.of("fs0"), null,
                Map.of("master", 1, "orchestrator", 1), Instant.parse("2026-11-26T10:00:00Z"), List.of(), null,
                "alice", null, List.of(), List.of(new FrameworkView.ConstraintLine("master",
                "anti-affinity role=orchestrator site soft", false, "soft anti-affinity of {...}"),
                new FrameworkView.ConstraintLine("worker", "cardinality 0..2 role=worker host", true, "hard ...")),
                List.of("soft anti-affinity of {component=0, instance=1, job=1, owner=alice, role=master} to {job=1, "
                        + "role=orchestrator} over site: site fs0 holds 1 container tagged {job=1, role=orchestrator} "
                        + "beside 1.0.0"));

        assertThat(FrameworkCommands.One.constraints(f)).containsExactly(
                "constraints",
                "  master        anti-affinity role=orchestrator site soft    soft",
                "  worker        cardinality 0..2 role=worker host            hard, nodes pinned to hosts",
                "  broken now:",
                "    soft anti-affinity of {component=0, instance=1, job=1, owner=alice, role=master} to {job=1, "
                        + "role=orchestrator} over site: site fs0 holds 1 container tagged {job=1, role=orchestrator} "
                        + "beside 1.0.0");
        assertThat(FrameworkCommands.One.constraints(instance(9, "alice", null))).containsExactly("constraints none");
    }

    /**
     * Each role's size per node, for the roles that ask for any: cores always, memory where the role gives
     * it, GPUs where it asks one; no line for an instance whose roles ask for nothing.
     */
    @Test
    void eachRolesSizePerNodeIsPrintedWhereItAsksForAny() {
        FrameworkView f = new FrameworkView(1, "sized", "ondemand", Map.of(), null, "RUNNING", List.of("fs0"), null,
                Map.of("master", 1, "worker", 2), Instant.parse("2026-11-26T10:00:00Z"), List.of(), null, "alice", null,
                List.of(), List.of(), List.of(), List.of(new FrameworkView.RoleSize("master", 1, 1536, 0),
                new FrameworkView.RoleSize("worker", 4, 8192, 2), new FrameworkView.RoleSize("worker", 8, 0, 1)));

        assertThat(FrameworkCommands.One.sizes(f)).hasValue(
                "master 1 core, 1536M memory; worker 4 cores, 8G memory, 2 GPUs; worker 8 cores, 1 GPU");
        assertThat(FrameworkCommands.One.sizes(instance(9, "alice", null))).isEmpty();
    }

    /** A worker's suspended tasks, as the reference framework's master tells them. */
    @Test
    void aWorkersSuspendedTasksArePrinted() {
        koala.fluent.wire.FluentMessages.MasterStatus m = new koala.fluent.wire.FluentMessages.MasterStatus(7,
                "ondemand", 60_000, 8, List.of(new koala.fluent.wire.FluentMessages.WorkerView("7.2.0", "http://w1", 8,
                8, List.of("rl-2"), null, List.of("swc-a", "swc-b")), new koala.fluent.wire.FluentMessages.WorkerView(
                "7.2.1", "http://w2", 8, 2, List.of("swc-c"), null, List.of())), List.of(), List.of(),
                Map.of("suspendedNow", 2), List.of());

        assertThat(FrameworkCommands.One.suspended(m)).containsExactly(
                "suspended tasks (the master's view): 2 now",
                "  7.2.0      swc-a, swc-b");
    }
}
