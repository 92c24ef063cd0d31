package koala.constraints;

import static koala.constraints.Fixtures.grid;
import static koala.constraints.Fixtures.masterApartFromOrchestrator;
import static koala.constraints.Fixtures.role;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.constraints.Constraint.Affinity;
import koala.constraints.Constraint.Cardinality;
import org.junit.jupiter.api.Test;

/** What a placement made without constraints costs ({@link Placer#violations}), and a whole state checked ({@link Audit}). */
class AuditTest {

    @Test
    void aPlacementMadeWithoutConstraintsIsCheckedAgainstThemAll() {
        // A's master on fs0-n0 with the hard anti-affinity in force; an orchestrator on fs0-n1 breaks it
        // (site fs0), on fs1-n0 breaks nothing.
        ClusterState state = grid(2, 2, "fs0", "fs1");
        state.constrain("A", List.of(masterApartFromOrchestrator("A", Group.SITE, true)));
        state.add(new Container("A-master", role("A", "master"), "fs0-n0"));
        List<Violation> v = Placer.violations(state, "A-orchestrator", role("A", "orchestrator"), "fs0-n1", List.of());
        assertThat(v).extracting(Violation::group).containsExactly("fs0");
        assertThat(v.get(0).constraint().hard()).isTrue();
        assertThat(Placer.violations(state, "A-orchestrator", role("A", "orchestrator"), "fs1-n0", List.of())).isEmpty();

        assertThat(Audit.check(state)).isEmpty();
        state.add(new Container("A-orchestrator", role("A", "orchestrator"), "fs0-n1"));
        assertThat(Audit.check(state)).extracting(Audit.Finding::group).containsExactly("fs0");
    }

    @Test
    void theAuditCountsEachBrokenGroupOnceAndForgivesLowerBoundsWithNoTargetLeft() {
        // 3 of A's workers on fs0-n0 with at most 2 per host: host fs0-n0 broken once (not once per worker).
        ClusterState state = grid(1, 4, "fs0", "fs1");
        state.constrain("A", List.of(new Cardinality(role("A", "worker"), role("A", "worker"), Group.HOST, 0, 2, true),
                new Affinity(role("A", "worker"), role("B", "master"), Group.SITE, false)));
        for (int i = 0; i < 3; i++) {
            state.add(new Container("A-worker" + i, role("A", "worker"), "fs0-n0"));
        }
        // B's master runs nowhere: the affinity is not counted as broken
        assertThat(Audit.check(state)).extracting(f -> f.constraint().kind())
                .containsExactly(Constraint.Kind.CARDINALITY);
        // B's master on fs1: now site fs0's workers are away from it, one more finding
        state.add(new Container("B-master", role("B", "master"), "fs1-n0"));
        assertThat(Audit.check(state)).hasSize(2);
        state.release("A");
        assertThat(Audit.check(state)).isEmpty();
    }
}
