package koala.placement;

import koala.placement.PlacementReason.Kind;

import static koala.placement.Fixtures.EXAMPLE;
import static koala.placement.Fixtures.at;
import static koala.placement.Fixtures.because;
import static koala.placement.Fixtures.fixed;
import static koala.placement.Fixtures.flexible;
import static koala.placement.Fixtures.free;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.job;
import static koala.placement.Fixtures.notPlaced;
import static koala.placement.Fixtures.placed;
import static koala.placement.Fixtures.rigid;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Worked examples on fs0 16 nodes / 10 idle, fs1 8 / 8, fs2 8 / 3 unless a test says otherwise. */
class ClusterMinimizationTest {
    private final PlacementPolicy clusterMinimization = new ClusterMinimization();

    @Test
    void componentsStayOnTheSitesAlreadyUsedWhileTheyHaveRoom() {
        // 0 (4) -> fs0 (6 left); 1 (3) -> fs0 (used, 3 left); 2 (3) -> fs0 (used, 0 left): one site
        assertThat(clusterMinimization.place(rigid(4, 3, 3), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 4), at(1, "fs0", 3), at(2, "fs0", 3)));
        // Worst-Fit spreads the same job over two: 0 -> fs0 (6 left), 1 -> fs1 (8), 2 -> fs0 (6 > 5)
        assertThat(new WorstFit().place(rigid(4, 3, 3), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 4), at(1, "fs1", 3), at(2, "fs0", 3)));
    }

    @Test
    void whenNoUsedSiteHasRoomTheUnusedSiteWithTheMostIdleIsOpened() {
        // 1 (6) -> fs0 (4 left); 0 (4) -> fs0 (used, 0 left); 2 (2) -> fs1, the most idle unused
        assertThat(clusterMinimization.place(rigid(4, 6, 2), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 4), at(1, "fs0", 6), at(2, "fs1", 2)));
    }

    @Test
    void aFixedComponentsSiteCountsAsUsed() {
        // fixed 0 (3) on fs1 (5 left); 1 (4) joins it on fs1, where Worst-Fit would take fs0 (10)
        JobNeed job = job(fixed(0, 3, "fs1"), free(1, 4));
        assertThat(clusterMinimization.place(job, EXAMPLE)).isEqualTo(placed(at(0, "fs1", 3), at(1, "fs1", 4)));
        assertThat(new WorstFit().place(job, EXAMPLE)).isEqualTo(placed(at(0, "fs1", 3), at(1, "fs0", 4)));
    }

    @Test
    void amongUsedSitesTheOneWithTheMostLeftWins() {
        // fixed 0 (1) leaves fs1 7, fixed 1 (5) leaves fs0 5; 2 (3) -> fs1 (7 > 5)
        JobNeed job = job(fixed(0, 1, "fs1"), fixed(1, 5, "fs0"), free(2, 3));
        assertThat(clusterMinimization.place(job, EXAMPLE))
                .isEqualTo(placed(at(0, "fs1", 1), at(1, "fs0", 5), at(2, "fs1", 3)));
    }

    @Test
    void unusedSitesWithAsManyIdleAreOpenedByName() {
        GridView even = grid(site("fs2", 8, 8), site("fs1", 8, 8));
        assertThat(clusterMinimization.place(rigid(6, 6), even)).isEqualTo(placed(at(0, "fs1", 6), at(1, "fs2", 6)));
    }

    @Test
    void theGreedyMayUseMoreSitesThanNeeded() {
        // 0 (6) -> fs0 (4 left); 1 (5) -> fs1 (fs0 too small); 2 (5) -> fs2: three sites, where
        // 0 -> fs1 and 1 + 2 -> fs0 would use two. Documented in the class comment.
        GridView grid = grid(site("fs0", 16, 10), site("fs1", 8, 6), site("fs2", 8, 6));
        assertThat(clusterMinimization.place(rigid(6, 5, 5), grid))
                .isEqualTo(placed(at(0, "fs0", 6), at(1, "fs1", 5), at(2, "fs2", 5)));
    }

    @Test
    void theGreedyMayMissAPlacementThatExists() {
        // 0 (7) -> fs0 (3 left); 1 (6) -> fs1 (1 left); 2 (4) fits nowhere, although 0 -> fs1 and
        // 1 + 2 -> fs0 would fit. Documented in the class comment.
        GridView grid = grid(site("fs0", 16, 10), site("fs1", 8, 7), site("fs2", 8, 3));
        assertThat(clusterMinimization.place(rigid(7, 6, 4), grid)).isEqualTo(notPlaced(because(2,
                Kind.NOT_ENOUGH_IDLE, "component 2 needs 4 nodes on one cluster, most idle is 3 on fs0 once the job's other "
                        + "components are placed")));
    }

    @Test
    void flexibleJobIsPlacedWholeNotSplit() {
        assertThat(clusterMinimization.place(flexible(9), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 9)));
    }
}
