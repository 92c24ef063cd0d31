package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.RolePlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a runner tells the scheduler of its roles when it opens its allocation. */
class AllocationRolesTest {
    @TempDir
    Path dir;

    /**
     * The JDF of jdf-examples/framework-constraints.jdf: each role with its tags and constraints as written,
     * the role's component in the JDF beside it; a role with neither is sent too (its nodes carry
     * component=N, which a target may name).
     */
    @Test
    void theRunnerSendsItsRolesTagsAndConstraintsWhenItOpensItsAllocation() throws Exception {
        String text = "+( &(jobType = framework)(name = apart)(role = master)(count = 1)(executable = /bin/sleep)"
                + "(provisioning = ondemand)(constraints = \"anti-affinity role=orchestrator site\") )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep) )"
                + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(tags = hbase)"
                + "(constraints = \"cardinality 0..2 role=worker site\" \"affinity role=master network soft\") )";
        FakeScheduler scheduler = new FakeScheduler();
        FrameworkRunner runner = TestRunner.direct(new TestRunner.Clock(Instant.parse("2026-11-26T10:00:00Z")),
                TestRunner.jdf(text, Map.of("fs1", 8)), TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n"),
                scheduler, new InstanceSecrets("t0ken"));

        assertThat(runner.open(text, "http://127.0.0.1:1", id -> null)).isEqualTo(7);

        assertThat(scheduler.roles).containsExactly(
                new RolePlacement("master", 0, List.of(), List.of("anti-affinity role=orchestrator site")),
                new RolePlacement("orchestrator", 1, List.of(), List.of()),
                new RolePlacement("worker", 2, List.of("hbase"), List.of("cardinality 0..2 role=worker site",
                        "affinity role=master network soft")));
    }
}
