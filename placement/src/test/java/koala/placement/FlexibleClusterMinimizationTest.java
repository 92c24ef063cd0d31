package koala.placement;

import koala.placement.PlacementReason.Kind;

import static koala.placement.Fixtures.EXAMPLE;
import static koala.placement.Fixtures.at;
import static koala.placement.Fixtures.because;
import static koala.placement.Fixtures.fixed;
import static koala.placement.Fixtures.flexible;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.notPlaced;
import static koala.placement.Fixtures.placed;
import static koala.placement.Fixtures.rigid;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Worked examples on fs0 16 nodes / 10 idle, fs1 8 / 8, fs2 8 / 3 unless a test says otherwise. */
class FlexibleClusterMinimizationTest {
    private final PlacementPolicy flexibleCm = new FlexibleClusterMinimization();

    @Test
    void flexibleJobIsSplitOverTheEmptiestSitesFirst() {
        // 20 nodes: fs0 gives 10 (10 to go), fs1 8 (2 to go), fs2 2
        assertThat(flexibleCm.place(flexible(20), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 10), at(0, "fs1", 8), at(0, "fs2", 2)));
    }

    @Test
    void flexibleJobThatFitsOnOneSiteIsNotSplit() {
        assertThat(flexibleCm.place(flexible(9), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 9)));
        assertThat(flexibleCm.place(flexible(10), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 10)));
        // 11: fs0 10, then fs1 1
        assertThat(flexibleCm.place(flexible(11), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 10), at(0, "fs1", 1)));
    }

    @Test
    void sitesWithAsManyIdleAreTakenByName() {
        GridView even = grid(site("fs1", 8, 8), site("fs0", 8, 8));
        assertThat(flexibleCm.place(flexible(10), even)).isEqualTo(placed(at(0, "fs0", 8), at(0, "fs1", 2)));
    }

    @Test
    void sitesWithNothingIdleGetNothing() {
        GridView grid = grid(site("fs0", 16, 0), site("fs1", 8, 5), site("fs2", 8, 5));
        assertThat(flexibleCm.place(flexible(7), grid)).isEqualTo(placed(at(0, "fs1", 5), at(0, "fs2", 2)));
    }

    @Test
    void notEnoughIdleInTheWholeGridSaysWhereTheIdleNodesAre() {
        GridView grid = grid(site("fs0", 16, 12), site("fs1", 8, 6), site("fs2", 8, 4));
        assertThat(flexibleCm.place(flexible(30), grid))
                .isEqualTo(notPlaced(because(0, Kind.NOT_ENOUGH_IDLE, "needs 30 nodes, the grid has 22 idle (fs0 12, fs1 6, fs2 4)")));
    }

    @Test
    void theIdleListStopsAfterFiveSites() {
        GridView grid = grid(site("s1", 4, 1), site("s2", 4, 1), site("s3", 4, 1), site("s4", 4, 1),
                site("s5", 4, 1), site("s6", 4, 1), site("s7", 4, 1), site("s8", 4, 0));
        assertThat(flexibleCm.place(flexible(10), grid)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "needs 10 nodes, the grid has 7 idle (s1 1, s2 1, s3 1, s4 1, s5 1, and 2 more)")));
    }

    @Test
    void moreThanTheWholeGridHasCanNeverFit() {
        assertThat(flexibleCm.place(flexible(40), EXAMPLE))
                .isEqualTo(notPlaced(because(0, Kind.NEVER_FITS, "needs 40 nodes, more than the grid has (32 nodes on 3 clusters)")));
    }

    @Test
    void flexibleComponentFixedToASiteGoesThereWhole() {
        JobNeed pinned = new JobNeed("f", List.of(fixed(0, 6, "fs1")), true);
        assertThat(flexibleCm.place(pinned, EXAMPLE)).isEqualTo(placed(at(0, "fs1", 6)));
        JobNeed tooBig = new JobNeed("f", List.of(fixed(0, 6, "fs2")), true);
        assertThat(flexibleCm.place(tooBig, EXAMPLE))
                .isEqualTo(notPlaced(because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 6 nodes on fs2, which has 3 idle")));
    }

    @Test
    void jobThatIsNotFlexibleIsPlacedAsClusterMinimizationPlacesIt() {
        ClusterMinimization clusterMinimization = new ClusterMinimization();
        GridView grid = grid(site("fs0", 16, 10), site("fs1", 8, 6), site("fs2", 8, 6));
        for (JobNeed job : List.of(rigid(4, 3, 3), rigid(4, 6, 2), rigid(20), rigid(8, 8, 8))) {
            assertThat(flexibleCm.place(job, EXAMPLE)).isEqualTo(clusterMinimization.place(job, EXAMPLE));
        }
        assertThat(flexibleCm.place(rigid(6, 5, 5), grid))
                .isEqualTo(placed(at(0, "fs0", 6), at(1, "fs1", 5), at(2, "fs2", 5)));
    }
}
