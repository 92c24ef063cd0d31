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
class WorstFitTest {
    private final PlacementPolicy worstFit = new WorstFit();

    @Test
    void eachComponentLargestFirstGoesToTheSiteWithTheMostIdleLeft() {
        // 1 (6) -> fs0 (10 idle; 4 left); 0 (4) -> fs1 (8; 4 left); 2 (2) -> fs0 (fs0 4 = fs1 4, fs0 by name)
        assertThat(worstFit.place(rigid(4, 6, 2), EXAMPLE))
                .isEqualTo(placed(at(0, "fs1", 4), at(1, "fs0", 6), at(2, "fs0", 2)));
    }

    @Test
    void equalComponentsGoInIndexOrder() {
        // 0 (5) first -> fs0 (10; 5 left); 1 (5) -> fs1 (8 > 5)
        assertThat(worstFit.place(rigid(5, 5), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 5), at(1, "fs1", 5)));
    }

    @Test
    void sitesWithAsManyIdleAreTakenByNameNotByTheirOrderInTheView() {
        GridView even = grid(site("fs1", 8, 8), site("fs0", 8, 8));
        assertThat(worstFit.place(rigid(2), even)).isEqualTo(placed(at(0, "fs0", 2)));
    }

    @Test
    void componentsMayShareASite() {
        GridView busy = grid(site("fs0", 16, 10), site("fs1", 8, 2));
        // 0 (3) -> fs0 (7 left); 1 (3) -> fs0 again (7 > 2)
        assertThat(worstFit.place(rigid(3, 3), busy)).isEqualTo(placed(at(0, "fs0", 3), at(1, "fs0", 3)));
    }

    @Test
    void semiFixedJobChoosesWithWhatTheFixedComponentLeft() {
        // fixed 0 (8) takes fs0 down to 2; alone, component 1 (4) would have gone to fs0, now fs1 (8)
        assertThat(worstFit.place(job(fixed(0, 8, "fs0"), free(1, 4)), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 8), at(1, "fs1", 4)));
        assertThat(worstFit.place(rigid(4), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 4)));
    }

    @Test
    void fixedJobGoesWhereItsComponentsSay() {
        assertThat(worstFit.place(job(fixed(0, 3, "fs2"), fixed(1, 8, "fs1")), EXAMPLE))
                .isEqualTo(placed(at(0, "fs2", 3), at(1, "fs1", 8)));
    }

    @Test
    void componentLargerThanTheMostIdleWaits() {
        assertThat(worstFit.place(rigid(12), EXAMPLE)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 12 nodes on one cluster, most idle is 10 on fs0")));
        GridView busy = grid(site("fs0", 16, 2), site("fs1", 8, 8));
        assertThat(worstFit.place(rigid(12), busy)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 12 nodes on one cluster, most idle is 8 on fs1")));
    }

    @Test
    void componentLargerThanAnySiteCanNeverFit() {
        assertThat(worstFit.place(rigid(20), EXAMPLE)).isEqualTo(notPlaced(because(0,
                Kind.NEVER_FITS, "component 0 needs 20 nodes on one cluster, more than any cluster has (largest: fs0 with 16)")));
    }

    @Test
    void componentThatFitsAloneButNotWithTheOthersSaysSo() {
        // 0 (8) -> fs0 (2 left); 1 (8) -> fs1 (0 left); 2 (8): most left is fs2 with 3. All or nothing.
        assertThat(worstFit.place(rigid(8, 8, 8), EXAMPLE)).isEqualTo(notPlaced(because(2,
                Kind.NOT_ENOUGH_IDLE, "component 2 needs 8 nodes on one cluster, most idle is 3 on fs2 once the job's other "
                        + "components are placed")));
    }

    @Test
    void flexibleJobIsPlacedWholeNotSplit() {
        assertThat(worstFit.place(flexible(9), EXAMPLE)).isEqualTo(placed(at(0, "fs0", 9)));
        assertThat(worstFit.place(flexible(12), EXAMPLE)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 12 nodes on one cluster, most idle is 10 on fs0")));
    }
}
