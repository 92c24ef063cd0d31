package koala.placement;

import static koala.placement.Fixtures.fixed;
import static koala.placement.Fixtures.free;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An MPI job on a grid of two networks: fs0 (16 nodes) and fs1 (8) share the grid's network, fs2's
 * 8 nodes are on a private one of their own. Worst-Fit places each component.
 */
class OneNetworkTest {
    private static final Map<String, String> NETWORK = Map.of("fs0", "grid", "fs1", "grid", "fs2", "fs2");
    private static final OneNetwork MPI = new OneNetwork(new WorstFit(), NETWORK::get);

    /**
     * Idle: fs0 2, fs1 6, fs2 7. Worst-Fit alone puts the 4-node component on fs2 (7 idle) and the
     * 3-node one on fs1 (6): two networks. Held to one: the grid's network (8 idle) is tried first,
     * but after 4 on fs1 neither fs0 (2) nor fs1 (2) holds 3; fs2's network (7) takes both.
     */
    @Test
    void theComponentsStayOnTheFirstNetworkThatHoldsThemAll() {
        JobNeed job = new JobNeed("1", List.of(free(0, 4), free(1, 3)), false);
        GridView view = grid(site("fs0", 16, 2), site("fs1", 8, 6), site("fs2", 8, 7));

        assertThat(new WorstFit().place(job, view)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs2", 4), new Assignment(1, "fs1", 3))));
        assertThat(MPI.place(job, view)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs2", 4), new Assignment(1, "fs2", 3))));
    }

    /** Idle: fs0 10, fs1 8, fs2 8: the grid's network (18 idle) first; 12 + 6 spread over fs0 and fs1. */
    @Test
    void aJobLargerThanAnyClusterSpreadsOverTheClustersOfOneNetwork() {
        JobNeed job = new JobNeed("1", List.of(free(0, 10), free(1, 8)), false);

        assertThat(MPI.place(job, grid(site("fs0", 16, 10), site("fs1", 8, 8), site("fs2", 8, 8))))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 10), new Assignment(1, "fs1", 8))));
    }

    /** A component pinned to fs2 keeps the other on fs2's network, though fs0 has more idle nodes. */
    @Test
    void aPinnedComponentChoosesTheNetwork() {
        JobNeed job = new JobNeed("1", List.of(fixed(0, 2, "fs2"), free(1, 2)), false);

        assertThat(MPI.place(job, grid(site("fs0", 16, 16), site("fs1", 8, 8), site("fs2", 8, 4))))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs2", 2), new Assignment(1, "fs2", 2))));
    }

    @Test
    void componentsPinnedToSitesOnTwoNetworksNeverFit() {
        JobNeed job = new JobNeed("1", List.of(fixed(0, 2, "fs0"), fixed(1, 2, "fs2")), false);

        PlacementDecision d = MPI.place(job, grid(site("fs0", 16, 16), site("fs1", 8, 8), site("fs2", 8, 8)));

        assertThat(((PlacementDecision.NotPlaced) d).reasons()).containsExactly(PlacementReason.job(PlacementReason.Kind.NEVER_FITS,
                "its components are pinned to fs0, fs2, on different networks (grid, fs2): the nodes of one MPI "
                        + "world must reach each other"));
    }

    /** 6 + 6 nodes, idle fs0 4, fs1 4, fs2 5: no network has room now; it waits, saying why per network. */
    @Test
    void whenNoNetworkHasRoomTheReasonsNameEachNetwork() {
        JobNeed job = new JobNeed("1", List.of(free(0, 6), free(1, 6)), false);

        PlacementDecision d = MPI.place(job, grid(site("fs0", 16, 4), site("fs1", 8, 4), site("fs2", 8, 5)));

        List<PlacementReason> reasons = ((PlacementDecision.NotPlaced) d).reasons();
        assertThat(reasons.get(0)).isEqualTo(PlacementReason.job(PlacementReason.Kind.NOT_ENOUGH_IDLE, "the nodes of one MPI world "
                + "must reach each other, so its components stay on one network"));
        assertThat(reasons.subList(1, reasons.size())).extracting(PlacementReason::text).allSatisfy(t ->
                assertThat(t).matches("on network (grid \\(fs0, fs1\\)|fs2 \\(fs2\\)): .*"));
        assertThat(reasons).extracting(PlacementReason::text).anySatisfy(t -> assertThat(t).startsWith("on network grid"))
                .anySatisfy(t -> assertThat(t).startsWith("on network fs2"));
    }
}
