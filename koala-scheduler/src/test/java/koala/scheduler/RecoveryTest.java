package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.site.CellJob;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * A scheduler killed while it claims comes back on the same store: what it recorded before its
 * pilots' submits returned is matched with what the cell has, by the pilots' names.
 */
class RecoveryTest {
    private static CellJob pilot(String id, String name) {
        return new CellJob(id, name, "koala", "qw", 1, null, null, true);
    }

    /**
     * Job 1's two nodes were recorded on fs0 and their submits were on their way when the scheduler
     * died. The cell has the pilot of node 1.0.0 (SGE job 77), not that of 1.0.1; it also has a pilot
     * of this scheduler's for a node nobody recorded (99), and one of another scheduler's (98). The
     * new scheduler adopts 77, asks for 1.0.1's pilot again, and names 99 alone for killing.
     */
    @Test
    void aRestartAdoptsThePilotsItFindsByNameAndAsksAgainForTheRest() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.hold = true;
            long job = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            assertThat(grid.held).hasSize(2);
            assertThat(grid.store.nodes(job)).extracting(NodeClaim::pilot).containsExactly(null, null);

            String tag = grid.store.pilotTag();
            NodeClaim first = grid.store.nodes(job).get(0);
            grid.cellJobs.put("fs0", List.of(pilot("77", first.pilotName(tag)), pilot("99", "koala-" + tag + "-9-0-0-a1"),
                    pilot("98", "koala-" + (tag.startsWith("zz") ? "yy" : "zz") + tag.substring(2) + "-9-0-0-a1")));
            grid.held.clear(); // they die with the scheduler
            grid.hold = false;

            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            grid.recovery().adoptUnconfirmedPilots();

            assertThat(grid.store.nodes(job)).extracting(NodeClaim::id, NodeClaim::pilot)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("1.0.0", "77"),
                            org.assertj.core.groups.Tuple.tuple("1.0.1", "1"));
            assertThat(grid.submitted).as("asked again: the pilot the cell does not have").containsExactly("1.0.1");
            assertThat(grid.recovery().orphanPilots("fs0")).extracting(CellJob::id).containsExactly("99");
            assertThat(grid.scheduler.status(job).state()).isEqualTo("CLAIMING");
        }
    }
}
