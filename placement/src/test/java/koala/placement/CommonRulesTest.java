package koala.placement;

import koala.placement.PlacementReason.Kind;

import static koala.placement.Fixtures.EXAMPLE;
import static koala.placement.Fixtures.at;
import static koala.placement.Fixtures.because;
import static koala.placement.Fixtures.fixed;
import static koala.placement.Fixtures.free;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.job;
import static koala.placement.Fixtures.notPlaced;
import static koala.placement.Fixtures.placed;
import static koala.placement.Fixtures.rigid;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules every policy shares: fixed components, reasons, all or nothing. Each example runs
 * under all four policies and gives the same decision. Grid fs0 16 / 10 idle, fs1 8 / 8, fs2 8 / 3.
 */
class CommonRulesTest {

    static List<PlacementPolicy> policies() {
        return PlacementPolicies.names().stream().map(PlacementPolicies::byName).toList();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fixedComponentThatDoesNotFitStopsTheWholeJob(PlacementPolicy policy) {
        // component 0 alone would be placed; all or nothing: no partial placement
        assertThat(policy.place(job(free(0, 2), fixed(1, 6, "fs2")), EXAMPLE))
                .isEqualTo(notPlaced(because(1, Kind.NOT_ENOUGH_IDLE, "component 1 needs 6 nodes on fs2, which has 3 idle")));
        GridView bigFs1 = grid(site("fs0", 16, 10), site("fs1", 16, 8));
        assertThat(policy.place(job(free(0, 2), fixed(1, 12, "fs1")), bigFs1))
                .isEqualTo(notPlaced(because(1, Kind.NOT_ENOUGH_IDLE, "component 1 needs 12 nodes on fs1, which has 8 idle")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fixedComponentLargerThanItsSiteCanNeverFit(PlacementPolicy policy) {
        assertThat(policy.place(job(fixed(0, 12, "fs1")), EXAMPLE))
                .isEqualTo(notPlaced(because(0, Kind.NEVER_FITS, "component 0 needs 12 nodes on fs1, more than it has (8 nodes in all)")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fixedToAnUnknownSite(PlacementPolicy policy) {
        assertThat(policy.place(job(fixed(0, 2, "fs9")), EXAMPLE)).isEqualTo(notPlaced(because(0,
                Kind.UNKNOWN_SITE, "component 0 is fixed to fs9, which is not a cluster of this grid (clusters: fs0, fs1, fs2)")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fixedComponentsGoInIndexOrderAndSeeWhatTheEarlierOnesTook(PlacementPolicy policy) {
        assertThat(policy.place(job(fixed(0, 6, "fs0"), fixed(1, 4, "fs0")), EXAMPLE))
                .isEqualTo(placed(at(0, "fs0", 6), at(1, "fs0", 4)));
        assertThat(policy.place(job(fixed(0, 6, "fs0"), fixed(1, 6, "fs0")), EXAMPLE)).isEqualTo(notPlaced(
                because(1, Kind.NOT_ENOUGH_IDLE, "component 1 needs 6 nodes on fs0, which has 10 idle, 4 left after the job's other components")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void fixedComponentsAreServedBeforeLargerFreeOnes(PlacementPolicy policy) {
        // fixed 1 (5) takes fs0 first (5 left), although component 0 (9) is larger; 0 then fits nowhere
        assertThat(policy.place(job(free(0, 9), fixed(1, 5, "fs0")), EXAMPLE)).isEqualTo(notPlaced(because(0,
                Kind.NOT_ENOUGH_IDLE, "component 0 needs 9 nodes on one cluster, most idle is 8 on fs1 once the job's other "
                        + "components are placed")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void everyComponentThatCannotBePlacedHasItsReasonInComponentOrder(PlacementPolicy policy) {
        JobNeed job = job(fixed(0, 4, "fs2"), free(1, 20), fixed(2, 2, "fs9"), free(3, 1));
        assertThat(policy.place(job, EXAMPLE)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 4 nodes on fs2, which has 3 idle"),
                because(1, Kind.NEVER_FITS, "component 1 needs 20 nodes on one cluster, more than any cluster has "
                        + "(largest: fs0 with 16)"),
                because(2, Kind.UNKNOWN_SITE, "component 2 is fixed to fs9, which is not a cluster of this grid "
                        + "(clusters: fs0, fs1, fs2)")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void malformedJobsAreNotPlaced(PlacementPolicy policy) {
        assertThat(policy.place(job(), EXAMPLE)).isEqualTo(notPlaced(PlacementReason.job(Kind.NO_COMPONENTS, "the job has no components")));
        assertThat(policy.place(rigid(2, 0), EXAMPLE))
                .isEqualTo(notPlaced(because(1, Kind.BAD_SIZE, "component 1 asks for 0 nodes, it needs at least 1")));
        JobNeed twoPartFlexible = new JobNeed("f", List.of(free(0, 2), free(1, 2)), true);
        assertThat(policy.place(twoPartFlexible, EXAMPLE))
                .isEqualTo(notPlaced(PlacementReason.job(Kind.FLEXIBLE_SHAPE, "a flexible job has exactly one component, this one has 2")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void anEmptyGridHasNoRoom(PlacementPolicy policy) {
        assertThat(policy.place(rigid(4), grid()))
                .isEqualTo(notPlaced(because(0, Kind.NO_CLUSTERS, "component 0 needs 4 nodes, the grid has no clusters")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aNegativeIdleCountIsReadAsNone(PlacementPolicy policy) {
        GridView grid = grid(site("fs0", 16, -3), site("fs1", 8, 2));
        assertThat(policy.place(rigid(3), grid)).isEqualTo(notPlaced(
                because(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 3 nodes on one cluster, most idle is 2 on fs1")));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void theOrderOfTheSitesInTheViewDoesNotMatter(PlacementPolicy policy) {
        GridView reversed = grid(site("fs2", 8, 3), site("fs1", 8, 8), site("fs0", 16, 10));
        for (JobNeed job : List.of(rigid(4, 6, 2), rigid(5, 5), rigid(8, 8, 8), Fixtures.flexible(20))) {
            assertThat(policy.place(job, reversed)).isEqualTo(policy.place(job, EXAMPLE));
        }
    }

    @Test
    void aGridViewNamesEachSiteOnce() {
        assertThatThrownBy(() -> grid(site("fs0", 8, 8), site("fs0", 8, 8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("site fs0 appears twice in the grid view");
    }
}
